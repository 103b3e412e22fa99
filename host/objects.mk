# The host library (libhartpool) and the `hartpool` CLI. The library speaks
# the mailbox protocol over the shm and serial transports; the CLI adds the
# host references of the kernels (ref/) for `run --check`.
host-lib-srcs := host/lib/open.c host/lib/object.c host/lib/buffer.c \
                 host/lib/queue.c host/lib/device.c host/lib/qemu.c \
                 host/lib/shm.c host/lib/serial.c \
                 $(common-srcs)
host-cli-srcs := host/cli/hartpool.c host/cli/cli.c host/cli/info.c \
                 host/cli/run.c host/cli/bench.c host/cli/demo.c \
                 host/cli/build.c host/cli/workloads.c \
                 host/cli/diag_workloads.c host/cli/lib_workloads.c \
                 host/cli/karg.c \
                 $(ref-srcs)
