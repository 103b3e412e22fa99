# libhartpool-icd.so: the OpenCL ICD vendor library over libhartpool
# (docs/icd.md), its .icd file and the OpenCL host test programs.
#
#   make icd      build/host/libhartpool-icd.so, build/host/hartpool.icd,
#                 build/host/opencl/* (tests/opencl/programs/*.c)
#
# libhartpool.a and the kernel build pipeline libhartpool-clc.a (the OpenCL
# C compiler, host/clc) go in whole: the ICD calls every part of them;
# the pipeline brings libLLVM-19. -Bsymbolic and the version
# script: the library's cl* calls its own functions, not the loader's.
.PHONY: icd

ICD_CFLAGS = $(HOSTTOOL_CFLAGS) -DCL_TARGET_OPENCL_VERSION=300 \
              -DCL_USE_DEPRECATED_OPENCL_1_0_APIS \
              -DCL_USE_DEPRECATED_OPENCL_1_1_APIS \
              -DCL_USE_DEPRECATED_OPENCL_1_2_APIS \
              -DCL_USE_DEPRECATED_OPENCL_2_0_APIS \
              -DCL_USE_DEPRECATED_OPENCL_2_1_APIS \
              -DCL_USE_DEPRECATED_OPENCL_2_2_APIS \
              -fvisibility=hidden
icd-srcs := $(wildcard host/icd/*.c host/icd/core/*.c)
icd-objs := $(patsubst %,$(HOST_O)/icd/%.o,$(icd-srcs))
icd-progs := $(patsubst tests/opencl/programs/%.c,$(HOST_O)/opencl/%,\
               $(wildcard tests/opencl/programs/*.c))

$(HOST_O)/icd/%.c.o: %.c
	@echo "  HOSTCC  $<"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(ICD_CFLAGS) -MMD -MP -c -o $@ $<

$(HOST_O)/libhartpool-icd.so: $(icd-objs) $(HOST_O)/libhartpool-clc.a \
		$(HOST_O)/libhartpool.a host/icd/icd.map
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) -shared -fPIC -pthread -Wl,-Bsymbolic -Wl,--no-undefined \
		-Wl,--version-script=host/icd/icd.map -o $@ $(icd-objs) \
		-Wl,--whole-archive $(HOST_O)/libhartpool-clc.a \
		$(HOST_O)/libhartpool.a \
		-Wl,--no-whole-archive $(LLVM_LIBS) -lm

$(HOST_O)/hartpool.icd: $(HOST_O)/libhartpool-icd.so
	@echo "  GEN     $@"
	$(Q)echo "$(abspath $(HOST_O)/libhartpool-icd.so)" > $@

$(HOST_O)/opencl/%: tests/opencl/programs/%.c $(wildcard tests/opencl/programs/*.h)
	@echo "  HOSTCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O1 -g -std=gnu11 $(WARN) -DCL_TARGET_OPENCL_VERSION=300 \
		-o $@ $< -lOpenCL

icd: $(HOST_O)/libhartpool-icd.so $(HOST_O)/hartpool.icd $(icd-progs) hartpool opencl-lib

# `make icd-asan`: the same ICD (libhartpool inside it) and test programs
# built with ASan+UBSan in build/host/asan-icd/, its own .icd file; the
# programs carry the sanitizer runtime the loader's dlopen then finds
# (tests/opencl/icd.part.sh: t_icd_asan).
.PHONY: icd-asan
ICD_ASAN := $(HOST_O)/asan-icd
icd-asan-objs := $(patsubst %,$(ICD_ASAN)/%.o,$(icd-srcs) $(host-clc-srcs) \
                   $(host-lib-srcs) $(host-boards-srcs)) \
                 $(ICD_ASAN)/boards_table.c.o

$(ICD_ASAN)/%.c.o: %.c
	@echo "  ASANCC  $<"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(ICD_CFLAGS) $(HOST_SAN_asan) -MMD -MP -c -o $@ $<

$(ICD_ASAN)/boards_table.c.o: $(HOST_O)/boards_table.c host/boards/table.h \
		host/include/hartpool_boards.h
	@echo "  ASANCC  $<"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(ICD_CFLAGS) $(HOST_SAN_asan) -Ihost/boards -c -o $@ $<

$(ICD_ASAN)/libhartpool-icd.so: $(icd-asan-objs) host/icd/icd.map
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) -shared -fPIC -pthread $(HOST_SAN_asan) -Wl,-Bsymbolic \
		-Wl,--version-script=host/icd/icd.map -o $@ $(icd-asan-objs) \
		$(LLVM_LIBS) -lm

$(ICD_ASAN)/hartpool.icd: $(ICD_ASAN)/libhartpool-icd.so
	@echo "  GEN     $@"
	$(Q)echo "$(abspath $<)" > $@

$(ICD_ASAN)/opencl/%: tests/opencl/programs/%.c $(wildcard tests/opencl/programs/*.h)
	@echo "  ASANCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O1 -g -std=gnu11 $(WARN) $(HOST_SAN_asan) \
		-DCL_TARGET_OPENCL_VERSION=300 -o $@ $< -lOpenCL

icd-asan: $(ICD_ASAN)/hartpool.icd \
          $(patsubst $(HOST_O)/opencl/%,$(ICD_ASAN)/opencl/%,$(icd-progs)) \
          hartpool opencl-lib
