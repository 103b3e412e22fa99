# hartpool: one non-recursive Makefile; each folder adds its sources through
# its objects.mk. Out-of-tree builds in build/<board>/.
#
#   make [BOARD=qemu-virt] [HARTS=8] [V=1] all | run | test | clean
#
# `make test` builds and runs every tier for every board (tests/run.sh).

BOARD ?= qemu-virt
HARTS ?= 8
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

O := build/$(BOARD)
HOST_O := build/host

CROSS ?= riscv64-unknown-elf-
CC := $(CROSS)gcc
OBJDUMP := $(CROSS)objdump

BOARD_DEFS := -DBOARD_MAX_HARTS=$(BOARD_MAX_HARTS) \
              -DBOARD_STACK_SIZE=$(BOARD_STACK_SIZE) \
              -DBOARD_SUB_GROUP_SIZE=$(BOARD_SUB_GROUP_SIZE)
INCLUDES := -Iinclude -Ihal/include -Iboot/include -Iboard/$(BOARD) -Iexecutor \
            -Ikernels -Itests/common
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CFLAGS := -march=$(BOARD_ARCH) -mabi=$(BOARD_ABI) -mcmodel=medany \
          --specs=picolibc.specs -O2 -g -std=gnu11 $(WARN) \
          -ffunction-sections -fdata-sections $(BOARD_DEFS) $(INCLUDES)
ASFLAGS := -march=$(BOARD_ARCH) -mabi=$(BOARD_ABI) -g $(BOARD_DEFS) $(INCLUDES)
LDFLAGS := -march=$(BOARD_LIB_ARCH) -mabi=$(BOARD_ABI) --specs=picolibc.specs \
           -nostartfiles -Tlinker/common.ld -Lboard/$(BOARD) \
           -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,--defsym,BOARD_MAX_HARTS=$(BOARD_MAX_HARTS) \
           -Wl,--defsym,BOARD_STACK_SIZE=$(BOARD_STACK_SIZE)

# Folder fragments: each sets <folder>-srcs (and tests their images).
include boot/objects.mk
include hal/objects.mk
include executor/objects.mk
include kernels/objects.mk
include tests/target/objects.mk
include tests/host/objects.mk
include bench/objects.mk

fw-objs := $(patsubst %,$(O)/%.o,$(boot-srcs) $(hal-srcs) $(executor-srcs) \
             $(kernels-srcs))
test-objs := $(patsubst %,$(O)/%.o,$(test-common-srcs))

FIRMWARE := $(O)/hartpool.elf

.PHONY: all run test clean deps deps-test format format-check \
        target-tests host-tests bench-images fuzz-targets-build
.DEFAULT_GOAL := all
.SECONDEXPANSION:

all: $(FIRMWARE)

$(FIRMWARE): $(fw-objs) $(patsubst %,$(O)/%.o,$(executor-main-srcs)) linker/common.ld board/$(BOARD)/memory.ld
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
HOST_CFLAGS := -O1 -g -std=gnu11 $(WARN) -pthread -Iinclude -Ihal/include \
               -Itests/host -Ihal/host -Iexecutor -Ikernels -Itests/common \
               -Iboard/qemu-virt -DBOARD_MAX_HARTS=512 -DBOARD_SUB_GROUP_SIZE=8
HOST_SAN_asan := -fsanitize=address,undefined -fno-omit-frame-pointer \
                 -fno-sanitize-recover=all
HOST_SAN_tsan := -fsanitize=thread
HOST_SAN_plain :=
HOST_VARIANTS := plain asan tsan

define host-test-rule
$(HOST_O)/$(2)/$(1): $$(host-test-$(1)-srcs) $$(host-common-srcs) $$(wildcard tests/host/*.h hal/include/hal/*.h)
	@echo "  HOSTCC  $$@"
	@mkdir -p $$(dir $$@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $$(HOST_SAN_$(2)) -o $$@ $$(host-test-$(1)-srcs) $$(host-common-srcs)
endef
$(foreach t,$(host-tests),$(foreach v,$(HOST_VARIANTS),$(eval $(call host-test-rule,$(t),$(v)))))

FUZZ_CC ?= clang
$(HOST_O)/fuzz/%: $$(fuzz-%-srcs) hal/include/hal/fdt.h
	@echo "  FUZZCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) -g -O1 -Ihal/include -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=all -o $@ $(fuzz-$*-srcs)

fuzz-targets-build: $(patsubst %,$(HOST_O)/fuzz/%,$(fuzz-targets))

host-tests: $(foreach t,$(host-tests),$(foreach v,$(HOST_VARIANTS),$(HOST_O)/$(v)/$(t)))

# ---- running ---------------------------------------------------------------
run: deps $(FIRMWARE)
	$(Q)qemu/hp-qemu --board $(BOARD) --harts $(HARTS) $(QEMU_ARGS) $(FIRMWARE)

test: deps-test
	$(Q)tests/run.sh

bench: deps
	$(Q)bench/run.sh

deps:
	$(Q)scripts/deps.sh firmware

deps-test:
	$(Q)scripts/deps.sh test

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
