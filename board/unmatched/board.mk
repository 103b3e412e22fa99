# Board: SiFive HiFive Unmatched (FU740: 4 U74 + 1 S7 monitor core), firmware in S-mode under OpenSBI (board.h): the
# qemu-virt-sbi code linked for this board's DRAM. QEMU does not model the
# board: no QEMU_* settings, so tests/run.sh only builds it (firmware and
# `make image`). docs/boards/unmatched.md.
include board/sbi.mk
BOARD_MAX_HARTS   := 8
