# On-target test images (one .c each); tests/target/tests.list says how
# each one is run and what it must print.
target-tests := rollcall amo_counter barrier lock ipi_wake illegal exec string count fpu

# Code shared by tests on the host and on the target.
test-common-srcs := $(ref-srcs) tests/common/exec_suite.c
