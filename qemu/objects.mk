# The TCG plugin that counts instructions per hart (qemu/plugin/hpcount.c,
# docs/counting.md), and its Linux user-mode test program, a static riscv64
# binary that tests/count_check.sh runs under qemu-riscv64.
#
#   make plugin          build/host/hpcount.so and hpprof.so
#   make plugin-tests    build/host/riscv64-linux/count_user
USER_CC ?= riscv64-linux-gnu-gcc
PLUGIN := $(HOST_O)/hpcount.so
# Where a marker region's instructions go, per address (qemu/plugin/hpprof.c;
# qemu/plugin/hpprof-report folds them into functions).
PROFILER := $(HOST_O)/hpprof.so

.PHONY: plugin plugin-tests
plugin: $(PLUGIN) $(PROFILER)
plugin-tests: $(HOST_O)/riscv64-linux/count_user

$(PLUGIN) $(PROFILER): $(HOST_O)/%.so: qemu/plugin/%.c qemu/plugin/plugin_api.h
	@echo "  HOSTCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O2 -g -std=c11 $(WARN) -shared -fPIC -fvisibility=hidden -o $@ $(filter %.c,$^)

$(HOST_O)/riscv64-linux/count_user: tests/count_user.c include/hartpool/marker.h
	@echo "  USERCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(USER_CC) -static -O2 -g -std=gnu11 $(WARN) -pthread -Iinclude -o $@ $<

# The patched QEMU of board qemu-cluster (qemu/patches, qemu/build.sh,
# docs/qemu.md): built once per patch set and Debian QEMU version, cached
# outside the clone. A board whose board.mk says QEMU_PATCHED := 1 boots on
# it, so what boots such a board builds it first; other boards never do.
#
#   make qemu-cluster    build it (nothing to do when it is cached)
.PHONY: qemu-cluster
qemu-cluster:
	$(Q)qemu/build.sh

ifeq ($(QEMU_PATCHED),1)
run boot debug: qemu-cluster
endif

# `make test` boots every tested board (tests/run.sh, HP_TEST_BOARDS): the
# patched QEMU first when one of them needs it.
ifneq ($(filter test,$(MAKECMDGOALS)),)
hp-test-boards := $(or $(HP_TEST_BOARDS),$(filter-out template,$(patsubst board/%/board.mk,%,$(wildcard board/*/board.mk))))
ifneq ($(strip $(foreach b,$(hp-test-boards),$(shell grep -ls '^QEMU_PATCHED *:*= *1' board/$(b)/board.mk))),)
test: qemu-cluster
endif
endif
