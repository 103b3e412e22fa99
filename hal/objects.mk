# Portable HAL code (also built for the host) plus the board's mechanism files.
hal-portable-srcs := hal/fdt.c hal/isa.c hal/bootargs.c hal/barrier.c \
                     hal/lock.c hal/ipi.c hal/wait.c hal/cause.c
# Memory protection for kernels in U-mode: the PMP in M-mode, page tables
# (and the SBI calls) in S-mode (board.mk BOARD_PRIV).
ifeq ($(BOARD_PRIV),S)
hal-priv-srcs := hal/sbi.c hal/mmu_sv39.c hal/user.c
else
hal-priv-srcs := hal/pmp.c hal/user.c
endif
hal-srcs := $(hal-portable-srcs) hal/hart.c hal/console.c hal/libc_picolibc.c \
            hal/string.c hal/timer.c hal/doorbell.c hal/host_bell.c \
            hal/heap.c hal/fiber.c hal/fiber_riscv.S hal/jump_riscv.S hal/user_riscv.S \
            $(hal-priv-srcs) $(BOARD_HAL_SRCS)
