# Board: QEMU virt with hartpool's cluster devices (barrier unit, doorbell),
# RV64: qemu-virt's board, plus the barrier unit's HAL file and the patched
# QEMU. Read by the top-level Makefile and by qemu/hp-qemu.
include board/qemu-virt/board.mk
BOARD_HAL_SRCS    += hal/barrier_unit.c
# How QEMU runs it: qemu-virt's qemu-system-riscv64 and settings, but
# built from Debian's source with qemu/patches (qemu/build.sh; `make
# qemu-cluster` builds it once), whose virt has the cluster devices
# (docs/barrier-unit.md): the barrier unit, and with --shm the doorbell on
# FIFOs PATH.doorbell.in/.out (qemu/hp-qemu).
QEMU_PATCHED      := 1
QEMU_MACHINE      := virt,hp-cluster=on
QEMU_DOORBELL     := 1
