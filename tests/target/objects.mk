# On-target test images (one .c each); tests/target/tests.list says how
# each one is run and what it must print.
target-tests := rollcall amo_counter barrier lock ipi_wake timer_wake illegal exec string fpu
# count reads the CLINT directly and counts instructions with the TCG
# plugin: M-mode boards only (under SBI, ecalls would count OpenSBI's too).
ifneq ($(BOARD_PRIV),S)
target-tests += count
endif

# Code shared by tests on the host and on the target.
test-common-srcs := $(ref-srcs) tests/common/exec_suite.c
