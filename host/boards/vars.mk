# Prints a board's variables, one "BOARD KEY VALUE" line each, read after
# board/<b>/board.mk and qemu/query.mk (its defaults):
#   make -s -f board/<b>/board.mk -f qemu/query.mk -f host/boards/vars.mk \
#        board-vars BOARD_NAME=<b>
# make reads board.mk itself, so its includes (board/sbi.mk, another
# board's board.mk) and += work. host/boards/objects.mk collects the lines
# of every board into build/host/boards.txt; gen-table.awk turns them into
# the C table. A variable added here needs its member in
# host/include/hartpool_boards.h (QEMU_X: qemu_x).

# M-mode unless the board says S (board/sbi.mk).
BOARD_PRIV ?= M
BOARD_IMAGE ?=

BOARD_VARS := BOARD_PRIV BOARD_ARCH BOARD_ABI BOARD_LIB_ARCH BOARD_XLEN \
              BOARD_MAX_HARTS BOARD_SUB_GROUP_SIZE BOARD_STACK_SIZE \
              BOARD_IMAGE \
              QEMU_SYSTEM QEMU_MACHINE QEMU_CPU QEMU_BIOS QEMU_LOAD QEMU_SMP \
              QEMU_MAX_HARTS QEMU_MAX_HARTS_WHY QEMU_UBOOT \
              QEMU_UBOOT_MAX_HARTS QEMU_EXIT QEMU_ACCEL QEMU_PATCHED \
              QEMU_DOORBELL QEMU_MEM QEMU_MEM_MIN QEMU_MEM_MAX

.PHONY: board-vars
board-vars:
	@$(foreach v,$(BOARD_VARS),printf '%s %s %s\n' '$(BOARD_NAME)' '$(v)' '$(strip $($(v)))';)
