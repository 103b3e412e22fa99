# Board: SiFive HiFive Premier P550 (ESWIN EIC7700X, 4 P550 cores), firmware in S-mode under OpenSBI (board.h): the
# qemu-virt-sbi code linked for this board's DRAM. QEMU does not model the
# board: no QEMU_* settings, so tests/run.sh only builds it (firmware and
# `make image`). docs/boards/p550.md.
include board/sbi.mk
BOARD_MAX_HARTS   := 8
