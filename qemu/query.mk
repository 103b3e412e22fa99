# Prints a board's QEMU settings as shell assignments for qemu/hp-qemu:
#   make -s -f board/<b>/board.mk -f qemu/query.mk
.PHONY: qemu-env
qemu-env:
	@echo "QEMU_SYSTEM='$(QEMU_SYSTEM)' QEMU_MACHINE='$(QEMU_MACHINE)' QEMU_CPU='$(QEMU_CPU)' QEMU_MEM='$(QEMU_MEM)' QEMU_MEM_MIN='$(QEMU_MEM_MIN)' QEMU_MEM_MAX='$(QEMU_MEM_MAX)'"
