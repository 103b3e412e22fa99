# Board: any OpenSBI board, RV64, firmware in S-mode (board.h); QEMU virt
# under OpenSBI 1.1 for the tests. Read by the top-level Makefile and by
# qemu/hp-qemu.
BOARD_ARCH        := rv64imafdc_zicsr_zifencei
BOARD_ABI         := lp64d
BOARD_LIB_ARCH    := rv64imafdc
BOARD_XLEN        := 64
# S: started by SBI firmware in S-mode (hal/csr.h HAL_SMODE).
BOARD_PRIV        := S
BOARD_MAX_HARTS   := 512
BOARD_STACK_SIZE  := 16384
BOARD_SUB_GROUP_SIZE := 8
# The image has the RISC-V Image header: U-Boot's booti takes it.
BOARD_IMAGE       := booti
BOARD_HAL_SRCS    := hal/ipi_sbi.c hal/timer_sbi.c hal/console_ns16550.c \
                     hal/exit_sbi.c hal/sleep_wfi.c hal/plic.c
QEMU_SYSTEM       := qemu-system-riscv64
QEMU_MACHINE      := virt
QEMU_CPU          := rv64
# OpenSBI 1.1 from Debian's opensbi package (fw_dynamic: QEMU tells it
# where the image is). OpenSBI 1.1 handles at most 128 harts.
QEMU_BIOS         := /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
QEMU_MAX_HARTS    := 128
QEMU_MAX_HARTS_WHY := OpenSBI 1.1 handles at most 128 harts
# Debian's U-Boot 2023.01 prints nothing at all with 82 harts or more.
QEMU_UBOOT_MAX_HARTS := 81
# Single-threaded TCG: under multi-threaded TCG every SBI call and IPI
# round trip through M-mode costs host-thread hand-overs (64 harts boot in
# 3.3 s instead of 0.44 s), and a rare timer wake-up was lost there
# (docs/boards/qemu-virt-sbi.md).
QEMU_ACCEL        := single
QEMU_UBOOT        := /usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin
QEMU_MEM          := 2G
QEMU_MEM_MIN      := 512M
QEMU_MEM_MAX      := 16G
