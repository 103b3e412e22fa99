# The host library (libhartpool) and the `hartpool` CLI. The library speaks
# the mailbox protocol over the shm and serial transports; the CLI adds the
# host references of the kernels (ref/) for `run --check`.
host-lib-srcs := host/lib/open.c host/lib/object.c host/lib/buffer.c \
                 host/lib/queue.c host/lib/device.c host/lib/qemu.c \
                 host/lib/shm.c host/lib/serial.c \
                 $(common-srcs)
host-cli-srcs := host/cli/hartpool.c host/cli/drivers.c host/cli/lib_drivers.c \
                 host/cli/build.c host/cli/generic.c \
                 $(ref-srcs)
