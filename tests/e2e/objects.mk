# End-to-end tests: host programs linked with libhartpool, run by
# tests/e2e/e2e.sh against firmware in QEMU.
e2e-tests := test_mbox test_stress test_objects test_edges test_trace \
             test_sessions test_slices test_quota

# Each program: tests/e2e/<name>.c, the files listed in e2e-<name>-srcs,
# the shared harness (e2e_check.c) and libhartpool, linked last.
e2e-test_stress-srcs := $(addprefix tests/e2e/stress/,buffers.c good.c \
                          packets.c exact.c noop.c random.c records.c check.c)
e2e-harness-objs := $(HOST_O)/tool/tests/e2e/e2e_check.c.o

$(foreach t,$(e2e-tests),$(eval $(HOST_O)/e2e/$(t): \
	$(patsubst %,$(HOST_O)/tool/%.o,$(e2e-$(t)-srcs))))

$(patsubst %,$(HOST_O)/e2e/%,$(e2e-tests)): $(HOST_O)/e2e/%: \
		$(HOST_O)/tool/tests/e2e/%.c.o $(e2e-harness-objs) $(HOST_O)/libhartpool.a
	@echo "  HOSTLD  $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -pthread -o $@ $(filter %.o,$^) $(filter %.a,$^)

# The faulty line of the serial link's e2e tests (line noise, corrupted
# frames): a relay between a host and QEMU's UART socket, on its own.
$(HOST_O)/e2e/serial_relay: tests/e2e/serial_relay.c \
		tests/common/serial_faults.c tests/common/serial_faults.h \
		include/hartpool/frame.h
	@echo "  HOSTCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -O2 -g -std=gnu11 $(WARN) -Iinclude -o $@ \
		$(filter %.c,$^)
e2e-tests: $(HOST_O)/e2e/serial_relay
