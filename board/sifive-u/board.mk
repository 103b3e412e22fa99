# Board: QEMU sifive_u (HiFive Unleashed, FU540), M-mode. Read by the
# top-level Makefile and by qemu/hp-qemu.
# The firmware runs on every hart, the E51 without FPU too: it is built for
# the U54s (rv64gc, lp64d) and keeps floating point out of every path the
# E51 takes; kernels that use the FPU never run there (docs/design.md, 34).
BOARD_ARCH        := rv64imafdc_zicsr_zifencei
BOARD_ABI         := lp64d
BOARD_LIB_ARCH    := rv64imafdc
BOARD_XLEN        := 64
# One E51 and four U54s.
BOARD_MAX_HARTS   := 5
BOARD_STACK_SIZE  := 16384
BOARD_SUB_GROUP_SIZE := 8
BOARD_HAL_SRCS    := hal/ipi_clint.c hal/timer_clint.c hal/console_sifive.c \
                     hal/exit_semihosting.c hal/sleep_wfi.c hal/plic.c
# How QEMU runs this board: `-bios none -kernel IMAGE` (the reset ROM passes
# a0 = hart id, a1 = device tree), always 5 harts (the machine's E51 + 4
# U54; fewer in use with hartpool.harts=N), the run ends through
# semihosting (no finisher device).
QEMU_SYSTEM       := qemu-system-riscv64
QEMU_MACHINE      := sifive_u
QEMU_CPU          := sifive-u54
QEMU_BIOS         := none
QEMU_LOAD         := kernel
QEMU_SMP          := 5
QEMU_MAX_HARTS    := 5
QEMU_MAX_HARTS_WHY := the FU540 has one E51 and four U54 harts
QEMU_EXIT         := semihosting
# DRAM: the default and the range `--mem` accepts (hp-qemu, hartpool).
QEMU_MEM          := 2G
QEMU_MEM_MIN      := 512M
QEMU_MEM_MAX      := 8G
# DRAM reads as zeros at boot: QEMU's RAM is a new (sparse) file.
BOARD_RAM_ZEROED  := 1
