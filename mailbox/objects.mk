# The device side of the mailbox: the dispatcher, the kernel-object loader,
# the kernel API table and the serial agent. Portable like the executor.
mailbox-srcs := mailbox/dispatch.c mailbox/loader.c mailbox/api.c \
                mailbox/serial_agent.c
