# Board: QEMU virt split by OpenSBI 1.1 domains: Linux (Debian 13's riscv64
# kernel and a busybox initramfs, qemu/linux/fetch.sh) on the first harts
# and the top gigabyte of DRAM, qemu-virt-sbi's firmware on the others and
# the first gigabyte (docs/boards/qemu-virt-amp.md). --harts counts the
# firmware's harts; HP_QEMU_AMP_LINUX_HARTS (default 2) Linux's. Read by
# the top-level Makefile and by qemu/hp-qemu.
include board/qemu-virt-sbi/board.mk
# qemu/hp-qemu: the two domains' device trees (qemu/linux/amp-dt.py) and
# images, OpenSBI's with -dtb
QEMU_LOAD         := amp
# The ACLINT: its SSWI is the doorbell Linux rings (a firmware hart's
# S-mode software interrupt, which SBI IPIs cannot carry across domains)
QEMU_MACHINE      := virt,aclint=on
# OpenSBI 1.1's 128 harts, those of Linux among them
QEMU_MAX_HARTS    := 127
QEMU_MAX_HARTS_WHY := OpenSBI 1.1 handles at most 128 harts, those of Linux among them
QEMU_UBOOT        :=
# The split is by gigabytes: 2 GiB, the first the firmware's
QEMU_MEM          := 2G
QEMU_MEM_MIN      := 2G
QEMU_MEM_MAX      := 2G
