# Board: Kendryte K210, M-mode, 2 harts, 8 MiB SRAM and no DRAM (board.h).
# QEMU does not model it: no QEMU_* settings, so tests/run.sh only builds
# it (firmware and `make image`). docs/boards/k210.md.
BOARD_ARCH        := rv64imafdc_zicsr_zifencei
BOARD_ABI         := lp64d
BOARD_LIB_ARCH    := rv64imafdc
BOARD_XLEN        := 64
BOARD_MAX_HARTS   := 2
BOARD_STACK_SIZE  := 16384
BOARD_SUB_GROUP_SIZE := 8
# The boot ROM jumps to 0x80000000 with nothing in a0/a1: the reset stub
# takes the hart id from mhartid. No finisher: a run ends through
# semihosting's ebreak (parks the hart without a debugger).
BOARD_HAL_SRCS    := hal/reset_mhartid.S hal/ipi_clint.c hal/timer_clint.c \
                     hal/console_sifive.c hal/exit_semihosting.c \
                     hal/sleep_wfi.c hal/plic.c
