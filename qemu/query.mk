# Prints a board's settings as shell assignments, read after board.mk:
#   make -s -f board/<b>/board.mk -f qemu/query.mk qemu-env    (qemu/hp-qemu)
#   make -s -f board/<b>/board.mk -f qemu/query.mk image-env   (scripts/image.sh)
# The defaults below are what a board.mk that leaves a variable out gets
# (docs/qemu.md, docs/images.md).

# How QEMU starts the firmware: the M-mode QEMU boards' way by default.
QEMU_BIOS ?= none
QEMU_LOAD ?= kernel
QEMU_SMP ?=
QEMU_MAX_HARTS ?= 512
QEMU_MAX_HARTS_WHY ?=
QEMU_UBOOT ?=
QEMU_UBOOT_MAX_HARTS ?= $(QEMU_MAX_HARTS)
QEMU_EXIT ?=
# 1: boot on the project's patched QEMU (qemu/build.sh) instead of Debian's.
QEMU_PATCHED ?=
# 1: the patched virt's doorbell on FIFOs beside --shm (qemu/hp-qemu).
QEMU_DOORBELL ?=
# auto | single | multi: how --accel auto decides for this board.
QEMU_ACCEL ?= auto
# What `make image` writes besides the ELF and hartpool.bin.
BOARD_IMAGE ?=

.PHONY: qemu-env image-env
qemu-env:
	@echo "QEMU_SYSTEM='$(QEMU_SYSTEM)' QEMU_MACHINE='$(QEMU_MACHINE)' QEMU_CPU='$(QEMU_CPU)' QEMU_MEM='$(QEMU_MEM)' QEMU_MEM_MIN='$(QEMU_MEM_MIN)' QEMU_MEM_MAX='$(QEMU_MEM_MAX)'"
	@echo "QEMU_BIOS='$(QEMU_BIOS)' QEMU_LOAD='$(QEMU_LOAD)' QEMU_SMP='$(QEMU_SMP)' QEMU_MAX_HARTS='$(QEMU_MAX_HARTS)' QEMU_MAX_HARTS_WHY='$(QEMU_MAX_HARTS_WHY)' QEMU_UBOOT='$(QEMU_UBOOT)' QEMU_UBOOT_MAX_HARTS='$(QEMU_UBOOT_MAX_HARTS)' QEMU_EXIT='$(QEMU_EXIT)' QEMU_ACCEL='$(QEMU_ACCEL)'"
	@echo "QEMU_PATCHED='$(QEMU_PATCHED)' QEMU_DOORBELL='$(QEMU_DOORBELL)'"
image-env:
	@echo "BOARD_IMAGE='$(BOARD_IMAGE)' BOARD_XLEN='$(BOARD_XLEN)' QEMU_UBOOT='$(QEMU_UBOOT)'"
