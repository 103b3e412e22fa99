# The kernel library: one line per kernel, a folder kernels/<name>/ each
# (docs/kernels.md). This list is the only one: make generates from it the
# library's part of the firmware's kernel registry (kernels/registry.c), of
# the host's workload table (host/workloads/table.c) and
# <hartpool/kernels/lib.h> (scripts/gen-kernels, into build/gen/). Its order
# is the registry's and `hartpool run --list`'s.
kernels-y += vadd
kernels-y += saxpy
kernels-y += sgemm
kernels-y += reduce_wg
kernels-y += reduce_sg
kernels-y += scan
kernels-y += histogram
kernels-y += transpose
kernels-y += conv2d
kernels-y += bitonic
kernels-y += mandelbrot
