# Board: Banana Pi BPI-F3 / Milk-V Jupiter (SpacemiT K1, 8 X60 cores), firmware in S-mode under OpenSBI (board.h): the
# qemu-virt-sbi code linked for this board's DRAM. QEMU does not model the
# board: no QEMU_* settings, so tests/run.sh only builds it (firmware and
# `make image`). docs/boards/bpi-f3.md.
include board/sbi.mk
BOARD_MAX_HARTS   := 8
