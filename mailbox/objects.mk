# The device side of the mailbox: the dispatcher (dispatch.c on top of
# queue, packets, complete, args, kobj and heap), the kernel-object loader,
# the kernel API table and the serial agent. Portable like the executor.
mailbox-srcs := mailbox/dispatch.c mailbox/queue.c mailbox/packets.c \
                mailbox/complete.c mailbox/args.c mailbox/kobj.c \
                mailbox/heap.c mailbox/heap_clear.c mailbox/session.c \
                mailbox/quota.c mailbox/loader.c mailbox/api.c \
                mailbox/serial_agent.c
mailbox-srcs += mailbox/trace_ctl.c
