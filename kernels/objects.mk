# The kernel library and its registry.
kernels-srcs := kernels/registry.c kernels/ids.c kernels/barrier_rotate.c \
                kernels/wg_count.c kernels/sg_ops.c kernels/mem.c \
                kernels/empty.c kernels/queue_diag.c kernels/hello.c \
                kernels/fpu_harts.c
# The kernel library (include/hartpool/kernels/lib.h, docs/kernels.md).
kernels-srcs += kernels/vec.c kernels/sgemm.c kernels/reduce.c \
                kernels/scan.c kernels/histogram.c kernels/transpose.c \
                kernels/conv2d.c kernels/bitonic.c kernels/mandelbrot.c
# Firmware only: kernels that fault on purpose (kernels/fault.c).
kernels-fw-srcs := kernels/fault.c
