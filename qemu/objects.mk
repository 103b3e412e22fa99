# The TCG plugin that counts instructions per hart (qemu/plugin/hpcount.c,
# docs/counting.md), and its Linux user-mode test program, a static riscv64
# binary that tests/count_check.sh runs under qemu-riscv64.
#
#   make plugin          build/host/hpcount.so
#   make plugin-tests    build/host/riscv64-linux/count_user
USER_CC ?= riscv64-linux-gnu-gcc
PLUGIN := $(HOST_O)/hpcount.so

.PHONY: plugin plugin-tests
plugin: $(PLUGIN)
plugin-tests: $(HOST_O)/riscv64-linux/count_user

$(PLUGIN): qemu/plugin/hpcount.c
	@echo "  HOSTCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O2 -g -std=c11 $(WARN) -shared -fPIC -fvisibility=hidden -o $@ $<

$(HOST_O)/riscv64-linux/count_user: tests/count_user.c include/hartpool/marker.h
	@echo "  USERCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(USER_CC) -static -O2 -g -std=gnu11 $(WARN) -pthread -Iinclude -o $@ $<
