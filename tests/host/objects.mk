# Host unit tests: each is one program, built plain, with ASan+UBSan and
# with TSan (see HOST_VARIANTS in the Makefile).
host-common-srcs := hal/host/hal_host.c hal/host/context_host.c hal/host/fiber_host.c \
                    hal/host/context_x86_64.S $(hal-portable-srcs) \
                    $(executor-srcs) $(mailbox-srcs) $(common-srcs) $(kernels-srcs) \
                    $(test-common-srcs)
host-tests := test_fdt test_barrier test_lock test_ndref test_ndrange test_exec \
              test_frame test_dispatch test_loader test_serial
host-test-test_fdt-srcs := tests/host/test_fdt.c
host-test-test_barrier-srcs := tests/host/test_barrier.c
host-test-test_lock-srcs := tests/host/test_lock.c
host-test-test_ndref-srcs := tests/host/test_ndref.c
host-test-test_ndrange-srcs := tests/host/test_ndrange.c
host-test-test_exec-srcs := tests/host/test_exec.c
host-test-test_dispatch-srcs := tests/host/test_dispatch.c
# (common/frame.c and mailbox/serial_agent.c come with host-common-srcs)
# (and the host side of the link, host/lib/serial*.c)
host-test-test_frame-srcs := tests/host/test_frame.c host/lib/serial.c \
                             host/lib/serial_link.c host/lib/serial_line.c \
                             host/lib/serial_frame.c host/lib/serial_spec.c \
                             tests/common/serial_faults.c
# The serial link's connect string and pacing arithmetic.
host-test-test_serial-srcs := tests/host/test_serial.c host/lib/serial_spec.c
# (mailbox/loader.c and common/ come with host-common-srcs)
host-test-test_loader-srcs := tests/host/test_loader.c
# Timelines: the JSON writer and the device-side recorder.
host-tests += test_trace
host-test-test_trace-srcs := tests/host/test_trace.c host/lib/trace_json.c
# The build cache's SHA-256 (host/clc/sha256.c).
host-tests += test_sha256
host-test-test_sha256-srcs := tests/host/test_sha256.c host/clc/sha256.c
# The buffer heap's dirty map: new buffers read as zeros.
host-tests += test_heap
host-test-test_heap-srcs := tests/host/test_heap.c

# The per-session quota rule (mailbox/quota.c, docs/sessions.md).
host-tests += test_quota
host-test-test_quota-srcs := tests/host/test_quota.c
# No command left pending while harts idle (docs/executor.md, Liveness).
host-tests += test_liveness
host-test-test_liveness-srcs := tests/host/test_liveness.c

# libFuzzer targets (clang): tests/run.sh runs each for a bounded time,
# starting from the QEMU device trees.
fuzz-targets := fuzz_fdt fuzz_frame fuzz_dispatch fuzz_ndrange fuzz_loader \
                fuzz_clmeta fuzz_serial_frame fuzz_spirv
fuzz-fuzz_fdt-srcs := tests/fuzz/fuzz_fdt.c hal/fdt.c hal/isa.c hal/bootargs.c
fuzz-fuzz_frame-srcs := tests/fuzz/fuzz_frame.c common/frame.c \
                        mailbox/serial_agent.c
# The mailbox dispatcher with the whole portable executor, one hart.
fuzz-fuzz_dispatch-srcs := tests/fuzz/fuzz_dispatch.c hal/host/hal_host.c \
                           hal/host/context_host.c hal/host/fiber_host.c hal/host/context_x86_64.S \
                           $(hal-portable-srcs) $(executor-srcs) $(mailbox-srcs) \
                           $(common-srcs) $(kernels-srcs)
# NDRange validation alone.
fuzz-fuzz_ndrange-srcs := tests/fuzz/fuzz_ndrange.c executor/ndrange.c \
                        common/ndrange_check.c
# The kernel-object loader (seeds: valid objects test_loader writes).
fuzz-fuzz_loader-srcs := tests/fuzz/fuzz_loader.c mailbox/loader.c \
                         common/frame.c
# The OpenCL metadata parser of libhartpool (seeds: tests/fuzz/corpus/clmeta).
fuzz-fuzz_clmeta-srcs := tests/fuzz/fuzz_clmeta.c host/lib/clmeta.c \
                         common/error.c common/frame.c
fuzz-fuzz_clmeta-flags := -Ihost/include -Ihost/lib -DHP_ROOT='"."'
# What the serial link's frames hold and its connect string, on the host
# (host/lib/serial_frame.c, serial_spec.c: pure functions).
fuzz-fuzz_serial_frame-srcs := tests/fuzz/fuzz_serial_frame.c \
                               host/lib/serial_frame.c \
                               host/lib/serial_spec.c common/frame.c
fuzz-fuzz_serial_frame-flags := -Ihost/include -Ihost/lib
# SPIR-V modules as clCreateProgramWithIL takes them (host/clc/spirv.c,
# spirv_lower.c: pure functions; seeds: tests/fuzz/corpus/spirv).
fuzz-fuzz_spirv-srcs := tests/fuzz/fuzz_spirv.c host/clc/spirv.c \
                        host/clc/spirv_lower.c
fuzz-fuzz_spirv-flags := -Ihost/include -Ihost/lib
