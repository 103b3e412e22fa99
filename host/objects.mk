# The host library (libhartpool) and the `hartpool` CLI. The library boots
# devices in QEMU (qemu.c) or connects to running ones and speaks the
# mailbox protocol over the shm and serial transports; the CLI adds the
# kernels' workloads (test data, and host references with ref/ for
# `run --check`). Both lists go from the top (what a program or the user
# calls) down to what everything uses (host/lib/internal.h).
host-lib-srcs := host/lib/open.c host/lib/clc.c host/lib/objbuild.c \
                 host/lib/trace.c host/lib/trace_json.c \
                 host/lib/object.c host/lib/buffer.c \
                 host/lib/queue.c host/lib/session.c host/lib/device.c \
                 host/lib/qemu.c \
                 host/lib/shm.c host/lib/serial.c \
                 $(common-srcs)
host-cli-srcs := host/cli/hartpool.c host/cli/demo.c host/cli/run.c \
                 host/cli/info.c host/cli/bench.c host/cli/build.c \
                 host/cli/karg.c host/cli/diag_workloads.c \
                 host/cli/lib_workloads.c host/cli/workloads.c \
                 host/cli/keeper.c host/cli/cli.c \
                 $(ref-srcs)
