# hartpool: one non-recursive Makefile; each folder adds its sources through
# its objects.mk. Out-of-tree builds in build/<board>/.
#
#   make [BOARD=qemu-virt] [HARTS=8] [V=1] all | run | test | bench | clean
#   make hartpool      the host CLI (build/host/hartpool) and the firmware
#   make install [PREFIX=/usr/local] [DESTDIR=]   and make uninstall
#
# `make test` builds and runs every tier for every board (tests/run.sh).

BOARD ?= qemu-virt
V ?= 0

ifeq ($(V),1)
Q :=
else
Q := @
endif

ifeq ($(wildcard board/$(BOARD)/board.mk),)
$(error unknown BOARD '$(BOARD)': see board/ for the boards there are)
endif
include board/$(BOARD)/board.mk
# Harts for run/debug/qemu: 8, or the machine's fixed count (QEMU_SMP:
# sifive-u and icicle-kit have 5).
HARTS ?= $(if $(QEMU_SMP),$(QEMU_SMP),8)

O := build/$(BOARD)
HOST_O := build/host

CROSS ?= riscv64-unknown-elf-
CC := $(CROSS)gcc
OBJDUMP := $(CROSS)objdump

# 1: the board's DRAM reads as zeros at boot (QEMU's boards); the heap then
# starts clean instead of being cleared by idle harts (mailbox/heap.h).
BOARD_RAM_ZEROED ?= 0
BOARD_DEFS := -DBOARD_MAX_HARTS=$(BOARD_MAX_HARTS) \
              -DBOARD_STACK_SIZE=$(BOARD_STACK_SIZE) \
              -DBOARD_SUB_GROUP_SIZE=$(BOARD_SUB_GROUP_SIZE) \
              -DBOARD_RAM_ZEROED=$(BOARD_RAM_ZEROED)
# BOARD_VLEN_MAX (bits): the board's harts may have the vector extension;
# a kernel context saves vector registers of up to that length.
ifneq ($(BOARD_VLEN_MAX),)
BOARD_DEFS += -DBOARD_VLEN_MAX=$(BOARD_VLEN_MAX)
endif
# BOARD_PRIV := S: the firmware runs in S-mode under SBI (hal/csr.h).
ifeq ($(BOARD_PRIV),S)
BOARD_DEFS += -DHAL_SMODE=1
endif
# Includes across folders name the folder (<executor/exec.h>,
# <mailbox/dispatch.h>): scripts/check-layers checks which way they go.
INCLUDES := -Iinclude -Ibuild/gen -Ihal/include -Iboot/include -Iboard/$(BOARD) -I.
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
# Kernel code runs on stacks with a no-access guard below (EXEC_GUARD_BYTES,
# 4 KiB, executor/kview.h): a frame larger than the guard could step
# over it and write whatever lies below, so firmware frames stay under half
# of it, and none has a variable size.
FRAME_MAX := 2048
# A board whose code lies in a small ROM (icicle-kit's 128 KiB eNVM) sets
# BOARD_OPT := -Os in its board.mk.
BOARD_OPT ?= -O2
CFLAGS := -march=$(BOARD_ARCH) -mabi=$(BOARD_ABI) -mcmodel=medany \
          --specs=picolibc.specs $(BOARD_OPT) -g -std=gnu11 $(WARN) \
          -Wframe-larger-than=$(FRAME_MAX) -Wvla -Walloca \
          -ffunction-sections -fdata-sections -fno-tree-loop-distribute-patterns \
          $(BOARD_DEFS) $(INCLUDES)
ASFLAGS := -march=$(BOARD_ARCH) -mabi=$(BOARD_ABI) -g $(BOARD_DEFS) $(INCLUDES)
LDFLAGS := -march=$(BOARD_LIB_ARCH) -mabi=$(BOARD_ABI) --specs=picolibc.specs \
           -nostartfiles -Tlinker/common.ld -Lboard/$(BOARD) \
           -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,--defsym,BOARD_MAX_HARTS=$(BOARD_MAX_HARTS) \
           -Wl,--defsym,BOARD_STACK_SIZE=$(BOARD_STACK_SIZE)

# Folder fragments: each sets <folder>-srcs (and tests their images).
include boot/objects.mk
include hal/objects.mk
include executor/objects.mk
include mailbox/objects.mk
include common/objects.mk
include ref/objects.mk
include firmware/objects.mk
include kernels/objects.mk
include tests/target/objects.mk
include tests/host/objects.mk
include bench/objects.mk
include host/objects.mk
include host/clc/objects.mk
include host/boards/objects.mk
include tests/e2e/objects.mk
# Benchmark tooling with its own rules: the TCG plugin that counts
# instructions per hart, and the OpenMP peer programs.
-include qemu/objects.mk
-include bench/omp/objects.mk
# OpenCL: the built-in library's bitcode (kernels/opencl) and the ICD vendor
# library libhartpool-icd.so (host/icd); docs/opencl.md.
include kernels/opencl/objects.mk
include host/icd/objects.mk
include tests/icd/objects.mk

fw-objs := $(patsubst %,$(O)/%.o,$(boot-srcs) $(hal-srcs) $(executor-srcs) \
             $(mailbox-srcs) $(common-srcs) $(firmware-srcs) $(kernels-srcs) \
             $(kernels-fw-srcs))
test-objs := $(patsubst %,$(O)/%.o,$(test-common-srcs))

FIRMWARE := $(O)/hartpool.elf

.PHONY: guest-tools bench-vector debug all run boot test stress stress-serial fuzz cts clean deps deps-test deps-bench format format-check hartpool e2e-tests \
        target-tests host-tests bench-images fuzz-targets-build
.DEFAULT_GOAL := all
.SECONDEXPANSION:

all: $(FIRMWARE)

$(FIRMWARE): $(fw-objs) $(patsubst %,$(O)/%.o,$(firmware-main-srcs)) linker/common.ld board/$(BOARD)/memory.ld
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^)

# Each on-target test image: boot + hal + its own source.
$(O)/tests/%.elf: $(fw-objs) $(test-objs) $(O)/tests/target/%.c.o linker/common.ld board/$(BOARD)/memory.ld
	@echo "  LD      $@"
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^)

# Each benchmark image: boot + hal + its own source.
$(O)/bench/%.elf: $(fw-objs) $(O)/bench/%.c.o linker/common.ld board/$(BOARD)/memory.ld
	@echo "  LD      $@"
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(filter %.o,$^)

target-tests: $(FIRMWARE) $(patsubst %,$(O)/tests/%.elf,$(target-tests))
bench-images: $(patsubst %,$(O)/bench/%.elf,$(bench-images))

$(O)/%.c.o: %.c
	@echo "  CC      $<"
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(O)/%.S.o: %.S
	@echo "  AS      $<"
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ASFLAGS) -MMD -MP -c -o $@ $<

-include $(shell find $(O) $(HOST_O) -name '*.d' 2>/dev/null)

# ---- host build of the portable code (threads as harts) -------------------
HOST_CC ?= gcc
HOST_CFLAGS := -O1 -g -std=gnu11 $(WARN) -pthread -Iinclude -Ibuild/gen -Ihal/include \
               -Itests/host -Ihal/host -I. -Ihost/lib \
               -DBOARD_MAX_HARTS=512 -DBOARD_SUB_GROUP_SIZE=8
HOST_SAN_asan := -fsanitize=address,undefined -fno-omit-frame-pointer \
                 -fno-sanitize-recover=all
HOST_SAN_tsan := -fsanitize=thread
HOST_SAN_plain :=
HOST_VARIANTS := plain asan tsan

# The portable code is compiled once per variant into an archive that every
# host test links whole (as if its sources were on the test's command line:
# kernels register themselves, so nothing may be left out).
define host-common-rule
$(HOST_O)/$(1)/obj/%.c.o: %.c
	@mkdir -p $$(dir $$@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $$(HOST_SAN_$(1)) -MMD -MP -c -o $$@ $$<
$(HOST_O)/$(1)/obj/%.S.o: %.S
	@mkdir -p $$(dir $$@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $$(HOST_SAN_$(1)) -MMD -MP -c -o $$@ $$<
$(HOST_O)/$(1)/libhostcommon.a: $$(patsubst %,$(HOST_O)/$(1)/obj/%.o,$$(host-common-srcs))
	@echo "  AR      $$@"
	$(Q)rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach v,$(HOST_VARIANTS),$(eval $(call host-common-rule,$(v))))

define host-test-rule
$(HOST_O)/$(2)/$(1): $$(host-test-$(1)-srcs) $(HOST_O)/$(2)/libhostcommon.a $$(wildcard tests/host/*.h hal/include/hal/*.h include/hartpool/*.h include/hartpool/kernels/*.h build/gen/*.h build/gen/hartpool/kernels/*.h executor/*.h mailbox/*.h host/lib/*.h)
	@echo "  HOSTCC  $$@"
	@mkdir -p $$(dir $$@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $$(HOST_SAN_$(2)) -o $$@ $$(host-test-$(1)-srcs) -Wl,--whole-archive $(HOST_O)/$(2)/libhostcommon.a -Wl,--no-whole-archive
endef
$(foreach t,$(host-tests),$(foreach v,$(HOST_VARIANTS),$(eval $(call host-test-rule,$(t),$(v)))))

FUZZ_CC ?= clang
$(HOST_O)/fuzz/%: $$(fuzz-%-srcs) $$(wildcard hal/include/hal/*.h include/hartpool/*.h executor/*.h mailbox/*.h)
	@echo "  FUZZCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) -g -O1 -pthread -Ihal/include -Iinclude -Ibuild/gen -I. \
		-Ihal/host -DBOARD_MAX_HARTS=512 \
		-DBOARD_SUB_GROUP_SIZE=8 \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(fuzz-$*-flags) -o $@ $(fuzz-$*-srcs)

fuzz-targets-build: $(patsubst %,$(HOST_O)/fuzz/%,$(fuzz-targets))

# ---- libhartpool and the hartpool CLI --------------------------------------
# -fPIC: libhartpool is also linked into libhartpool-icd.so.
HOSTTOOL_CFLAGS := -O2 -g -std=gnu11 $(WARN) -pthread -fPIC -Ihost/include -Ihost/lib \
                   -Ihost/clc -isystem $(LLVM_INCDIR) \
                   -Ihost/workloads -Iinclude -Ibuild/gen -I. \
                   -DHP_ROOT='"$(CURDIR)"'
host-lib-objs := $(patsubst %,$(HOST_O)/tool/%.o,$(host-lib-srcs))
host-clc-objs := $(patsubst %,$(HOST_O)/tool/%.o,$(host-clc-srcs))
host-cli-objs := $(patsubst %,$(HOST_O)/tool/%.o,$(host-cli-srcs))
host-workloads-objs := $(patsubst %,$(HOST_O)/tool/%.o,$(host-workloads-srcs))

$(HOST_O)/tool/%.c.o: %.c
	@echo "  HOSTCC  $<"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOSTTOOL_CFLAGS) -MMD -MP -c -o $@ $<

# One archive for programs of users: the library and the board table.
$(HOST_O)/libhartpool.a: $(host-lib-objs) $(host-boards-objs)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(HOST_O)/install/libhartpool.a: $(host-lib-objs) $(HOST_O)/tool/boards_table.c.o \
		$(HOST_O)/install/boards.c.o
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(HOST_O)/libhartpool-clc.a: $(host-clc-objs)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(HOST_O)/libhartpool-workloads.a: $(host-workloads-objs)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(HOST_O)/hartpool: $(host-cli-objs) $(HOST_O)/libhartpool-workloads.a \
		$(HOST_O)/libhartpool-clc.a $(HOST_O)/libhartpool.a
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) -pthread -o $@ $^ $(LLVM_LIBS) -lm

# `make guest-tools`: the CLI and libhartpool for a riscv64 Linux beside the
# firmware (board qemu-virt-amp's guest, docs/boards/qemu-virt-amp.md):
# static, without the kernel compiler (host/clc/nocompiler.c), the devmem
# transport among the others. build/guest/bin/hartpool.
GUEST_CC ?= riscv64-linux-gnu-gcc
guest-srcs := $(host-cli-srcs) $(host-lib-srcs) $(host-workloads-srcs) \
              $(host-boards-srcs) $(HOST_O)/boards_table.c \
              host/clc/tools.c host/clc/fail.c host/clc/prebuilt.c \
              host/clc/sha256.c host/clc/spirv.c host/clc/spirv_lower.c host/clc/nocompiler.c
# With them the ICD (build/guest/lib/libhartpool-icd.so, OpenCL C builds
# served from the prebuilt store: host/clc/prebuilt.h) and the example
# OpenCL program examples/opencl/saxpy.c as it is (build/guest/bin/saxpy),
# linked against Debian riscv64's OpenCL loader (qemu/linux/fetch.sh).
GUEST_CFLAGS = -O2 -std=gnu11 $(WARN) -pthread -Ihost/include -Ihost/lib \
               -Ihost/clc -Ihost/workloads -Ihost/boards -Iinclude -Ibuild/gen -I. \
               -DHP_ROOT='"/"'
guest-icd-srcs := $(icd-srcs) $(host-lib-srcs) $(host-boards-srcs) \
                  $(HOST_O)/boards_table.c host/clc/tools.c host/clc/fail.c \
                  host/clc/prebuilt.c host/clc/sha256.c host/clc/spirv.c host/clc/spirv_lower.c \
                  host/clc/nocompiler.c
guest-deps := $(wildcard host/*/*.h host/icd/core/*.h include/hartpool/*.h)
guest-tools: $(HOST_O)/hartpool build/guest/bin/hartpool \
             build/guest/lib/libhartpool-icd.so build/guest/bin/saxpy
build/guest/bin/hartpool: $(guest-srcs) $(guest-deps)
	@echo "  GUESTCC $@"
	@mkdir -p $(dir $@)
	$(Q)$(GUEST_CC) $(GUEST_CFLAGS) -static -o $@ $(guest-srcs) -lm
build/guest/lib/libhartpool-icd.so: $(guest-icd-srcs) $(guest-deps) host/icd/icd.map
	@echo "  GUESTCC $@"
	@mkdir -p $(dir $@)
	$(Q)$(GUEST_CC) $(GUEST_CFLAGS) -fPIC -fvisibility=hidden \
		$(filter -DCL_%,$(ICD_CFLAGS)) -shared -Wl,-Bsymbolic -Wl,--no-undefined \
		-Wl,--version-script=host/icd/icd.map -o $@ $(guest-icd-srcs) -lm
build/guest/bin/saxpy: examples/opencl/saxpy.c
	@echo "  GUESTCC $@"
	@mkdir -p $(dir $@)
	$(Q)lib=$$(qemu/linux/fetch.sh)/root/usr/lib/riscv64-linux-gnu && \
		$(GUEST_CC) -O2 -std=gnu11 $(WARN) -DCL_TARGET_OPENCL_VERSION=300 -o $@ $< \
		$$lib/libOpenCL.so.1 -Wl,-rpath-link,$$lib

# `make opencl`: the OpenCL built-in library (both ISAs) and the ICD.
.PHONY: opencl
opencl: opencl-lib icd icd-asan $(HOST_O)/hartpool

# `make hartpool`: the CLI and the firmware it boots.
hartpool: $(HOST_O)/hartpool $(HOST_O)/hartpool.pc $(FIRMWARE)

# `make install [PREFIX=/usr/local] [DESTDIR=...]`: the CLI, the host
# libraries and headers, the ICD and its vendor file, and the data the
# tools find through hp_data_dir (PREFIX/share/hartpool: the board table,
# the firmware of BOARD and of every other board built, the OpenCL
# built-in library, kernel headers); `make uninstall` removes exactly what
# install put there (scripts/install.sh, docs/install.md).
PREFIX ?= /usr/local
.PHONY: install uninstall
install: $(HOST_O)/hartpool $(HOST_O)/install/libhartpool.a \
		$(HOST_O)/libhartpool-icd.so $(HOST_O)/boards.txt opencl-lib $(FIRMWARE)
	$(Q)scripts/install.sh install "$(PREFIX)" "$(DESTDIR)"
uninstall:
	$(Q)scripts/install.sh uninstall "$(PREFIX)" "$(DESTDIR)"

# `make image`: the files a board boots from, next to its ELF: hartpool.bin,
# and for booti boards a uImage, boot.scr and sdcard.img (docs/images.md).
.PHONY: image
image: $(FIRMWARE)
	$(Q)CROSS=$(CROSS) scripts/image.sh --board $(BOARD) $(FIRMWARE)

# (each e2e program's link rule is in tests/e2e/objects.mk; the serial
# stress test also runs bench/serial_link)
e2e-tests: hartpool $(patsubst %,$(HOST_O)/e2e/%,$(e2e-tests)) $(HOST_O)/bench/serial_link

host-tests: $(foreach t,$(host-tests),$(foreach v,$(HOST_VARIANTS),$(HOST_O)/$(v)/$(t))) \
            icd-unit-tests

# ---- running ---------------------------------------------------------------
# The demo: boot the board in QEMU, run dependent kernels through the
# mailbox, check the results on the host, print timings, stop the device.
# (qemu-virt-amp: the demo from a Linux process beside the firmware)
run: deps hartpool $(if $(filter amp,$(QEMU_LOAD)),guest-tools)
	$(Q)$(if $(filter amp,$(QEMU_LOAD)),qemu/linux/amp-run.sh $(HARTS),$(HOST_O)/hartpool demo --board $(BOARD) --harts $(HARTS))

# A device for debugging: QEMU with its gdb stub on :1234 (HP_QEMU_GDB to
# change), left running; prints the connect string and the gdb-multiarch
# command line (docs/debugging.md). `hartpool down --connect ...` ends it.
debug: hartpool
	$(Q)scripts/deps.sh debug
	$(Q)$(HOST_O)/hartpool up --gdb --board $(BOARD) --harts $(HARTS)

# The firmware alone in the foreground (console on stdio); a host tool can
# connect to its serial socket or shared memory (qemu/hp-qemu --help).
boot: deps $(FIRMWARE)
	$(Q)qemu/hp-qemu --board $(BOARD) --harts $(HARTS) $(QEMU_ARGS) $(FIRMWARE)

test: deps-test
	$(Q)tests/run.sh

# The serial link's long stress run (tests/e2e/serial_stress.sh,
# docs/serial.md): STRESS_COUNT serial commands (default 300) on sifive-u
# and a third as many on qemu-virt, one device each, some host processes
# killed mid-command. `make test` runs a short one (e2e serial_stress).
STRESS_COUNT ?= 300
stress-serial: deps-test
	$(Q)$(MAKE) -s BOARD=sifive-u hartpool
	$(Q)$(MAKE) -s BOARD=qemu-virt e2e-tests
	$(Q)tests/e2e/serial_stress.sh --board sifive-u --count $(STRESS_COUNT)
	$(Q)tests/e2e/serial_stress.sh --board qemu-virt --count $$(($(STRESS_COUNT) / 3))

# Long-lived 64-hart devices under multi-threaded TCG, 300 `hartpool bench`
# runs each, failing on any stall (tests/stress/long_lived.sh; `make test`
# runs 30 per board), then four tenants sharing a device for 120 s per
# board (tests/stress/tenants.sh; `make test`: 6 s).
# STRESS_ARGS="--board qemu-virt-sbi --runs 50" narrows
# it.
STRESS_BOARDS := qemu-virt qemu-virt-sbi qemu-cluster
stress: deps-test qemu-cluster
	$(Q)for b in $(STRESS_BOARDS); do $(MAKE) -s --no-print-directory BOARD=$$b hartpool || exit 1; done
	$(Q)tests/stress/long_lived.sh $(STRESS_ARGS)
	$(Q)$(MAKE) -s --no-print-directory opencl-lib e2e-tests
	$(Q)tests/stress/tenants.sh

# The Khronos OpenCL CTS against the ICD on BOARD (docs/conformance.md):
# the full tier, each sub-test with a time limit, each suite's row into
# the board's table in docs/conformance.md and build/cts/cts-BOARD.md. CTS_DIR: the CTS
# build (no default); CTS_SUITES="api events" picks suites,
# CTS_TIER=fast the quick ones, CTS_SCALE=2 doubles every time limit.
CTS_TIER ?= full
CTS_SCALE ?= 1
cts: deps-test
	$(Q)$(MAKE) -s --no-print-directory BOARD=$(BOARD) hartpool
	$(Q)$(MAKE) -s --no-print-directory opencl-lib icd
	$(Q)tests/cts/run.sh --board $(BOARD) --tier $(CTS_TIER) --scale $(CTS_SCALE) \
		--suites "$(CTS_SUITES)" --out build/cts \
		--doc docs/conformance.md --results build/cts/cts-$(BOARD).md

bench: deps-bench
	$(Q)bench/run.sh

# The V boards' figures (docs/vector.md): scalar against VLEN 128, 256, 512.
bench-vector: deps-bench
	$(Q)bench/vector.sh

deps-bench:
	$(Q)scripts/deps.sh bench

# Longer fuzzing: every target for FUZZ_SECONDS (default 300) each.
FUZZ_SECONDS ?= 300
fuzz: deps-test
	$(Q)tests/fuzz/run.sh $(FUZZ_SECONDS)

deps:
	$(Q)scripts/deps.sh firmware

deps-test:
	$(Q)scripts/deps.sh test

# The kernel build pipeline (host/clc) needs LLVM's C API: llvm-19-dev.
.PHONY: deps-build
deps-build:
	$(Q)scripts/deps.sh build
$(host-clc-objs): | deps-build

C_SOURCES = $(shell git ls-files --cached --others --exclude-standard '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' -not -path './build/*')

format:
	$(Q)clang-format -i $(C_SOURCES)

format-check:
	$(Q)clang-format --dry-run --Werror $(C_SOURCES)

# `make -s print-VAR` prints a make variable (used by tests/run.sh).
print-%:
	@echo $($*)

clean:
	rm -rf build
