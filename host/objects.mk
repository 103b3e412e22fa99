# The host library (libhartpool), the kernels' workloads and the `hartpool`
# CLI (the kernel build pipeline: host/clc/objects.mk). The library boots devices in QEMU (qemu.c) or connects to running
# ones and speaks the mailbox protocol over the shm and serial transports;
# the workloads (libhartpool-workloads.a) are the kernels' test data and
# host references (with ref/) for `run --check`, the demo and the tests;
# the CLI is its commands. The lists go from the top (what a program or the
# user calls) down to what everything uses (host/lib/internal.h).
host-lib-srcs := host/lib/open.c host/lib/clmeta.c host/lib/clglobals.c \
                 host/lib/trace.c host/lib/trace_json.c \
                 host/lib/object.c host/lib/buffer.c \
                 host/lib/queue.c host/lib/session.c host/lib/device.c \
                 host/lib/qemu.c \
                 host/lib/shm.c host/lib/host_bell.c host/lib/serial.c \
                 host/lib/serial_link.c \
                 host/lib/serial_line.c host/lib/serial_frame.c \
                 host/lib/serial_spec.c \
                 $(common-srcs)
host-workloads-srcs := host/workloads/table.c host/workloads/diag.c \
                       host/workloads/queue_diag.c \
                       $(kernels-workload-srcs) \
                       host/workloads/lib_common.c host/workloads/common.c \
                       $(ref-srcs)
host-cli-srcs := host/cli/hartpool.c host/cli/demo.c host/cli/run.c host/cli/split.c \
                 host/cli/info.c host/cli/bench.c host/cli/build.c \
                 host/cli/karg.c host/cli/keeper.c host/cli/cli.c
