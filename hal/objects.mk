# Portable HAL code (also built for the host) plus the board's mechanism files.
hal-portable-srcs := hal/fdt.c hal/barrier.c hal/lock.c hal/ipi.c hal/wait.c \
                     hal/cause.c
hal-srcs := $(hal-portable-srcs) hal/hart.c hal/console.c hal/libc_picolibc.c \
            hal/string.c \
            hal/heap.c hal/context.c hal/context_riscv.S hal/jump_riscv.S hal/pmp.c hal/user_riscv.S \
            $(BOARD_HAL_SRCS)
