# The kernel library and its registry.
kernels-srcs := kernels/registry.c kernels/ids.c kernels/barrier_rotate.c \
                kernels/wg_count.c kernels/sg_ops.c kernels/mem.c \
                kernels/empty.c kernels/queue_diag.c
