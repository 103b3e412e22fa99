# Board: any OpenSBI board, RV64, firmware in S-mode (board.h); QEMU virt
# under OpenSBI 1.1 for the tests. Read by the top-level Makefile and by
# qemu/hp-qemu.
include board/sbi.mk
BOARD_MAX_HARTS   := 512
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
QEMU_UBOOT        := /usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin
QEMU_MEM          := 2G
QEMU_MEM_MIN      := 512M
QEMU_MEM_MAX      := 16G
# DRAM reads as zeros at boot: QEMU's RAM is a new (sparse) file.
BOARD_RAM_ZEROED  := 1
