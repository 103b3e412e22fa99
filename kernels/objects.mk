# The firmware's kernels and their registry: the diagnostic kernels here,
# the kernel library one folder per line of kernels/kernels.mk.
kernels-srcs := kernels/registry.c kernels/ids.c kernels/barrier_rotate.c \
                kernels/wg_count.c kernels/sg_ops.c kernels/mem.c \
                kernels/empty.c kernels/queue_diag.c kernels/hello.c \
                kernels/fpu_harts.c kernels/vregs.c
# The kernel library (docs/kernels.md): kernels/<name>/kernel.c is device
# code, kernels/<name>/workload.c host code (host/objects.mk), args.h both.
include kernels/kernels.mk
kernels-srcs += $(patsubst %,kernels/%/kernel.c,$(kernels-y))
kernels-workload-srcs := $(patsubst %,kernels/%/workload.c,$(kernels-y))
# Firmware only: kernels that fault on purpose (kernels/fault.c).
kernels-fw-srcs := kernels/fault.c

# What the list generates (scripts/gen-kernels), written while make reads
# its makefiles, before anything is compiled: build/gen/kernels_list.h (the
# registry's and the workload table's library part) and
# build/gen/hartpool/kernels/lib.h. Every compiler that includes them has
# -I$(KERNELS_GEN).
KERNELS_GEN := build/gen
kernels-gen-err := $(shell scripts/gen-kernels $(KERNELS_GEN) $(kernels-y) 2>&1 || echo FAILED)
ifneq ($(kernels-gen-err),)
$(error $(kernels-gen-err))
endif
