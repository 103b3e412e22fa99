# Board: QEMU microchip-icicle-kit (PolarFire SoC), M-mode, from the eNVM.
# Read by the top-level Makefile and by qemu/hp-qemu.
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
# Code and read-only data run from the 128 KiB eNVM: built for size.
BOARD_OPT         := -Os
# hal/reset_mhartid.S: the harts start at the eNVM's first byte with no
# hart id in a0 and no device tree.
BOARD_HAL_SRCS    := hal/reset_mhartid.S hal/ipi_clint.c hal/timer_clint.c \
                     hal/console_ns16550.c hal/exit_semihosting.c \
                     hal/sleep_wfi.c hal/plic.c
# How QEMU runs this board: `-bios IMAGE` (loaded into the eNVM at the
# reset vector; -kernel would need a device tree and HSS's handoff), always
# 5 harts (fewer in use with hartpool.harts=N), at least 1537M of RAM
# (QEMU refuses less), the run ends through semihosting.
QEMU_SYSTEM       := qemu-system-riscv64
QEMU_MACHINE      := microchip-icicle-kit
QEMU_CPU          := sifive-u54
QEMU_LOAD         := bios
QEMU_SMP          := 5
QEMU_MAX_HARTS    := 5
QEMU_MAX_HARTS_WHY := the PolarFire SoC has one E51 and four U54 harts
QEMU_EXIT         := semihosting
# DRAM: QEMU wants 1537M at least; the firmware uses the first GiB (at
# 0x80000000; the rest lies at 0x1000000000).
QEMU_MEM          := 1537M
QEMU_MEM_MIN      := 1537M
QEMU_MEM_MAX      := 1537M
