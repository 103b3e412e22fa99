# Board: Milk-V Pioneer (Sophgo SG2042, 64 T-Head C920 cores), firmware in S-mode under OpenSBI (board.h): the
# qemu-virt-sbi code linked for this board's DRAM. QEMU does not model the
# board: no QEMU_* settings, so tests/run.sh only builds it (firmware and
# `make image`). docs/boards/milkv-pioneer.md.
include board/sbi.mk
BOARD_MAX_HARTS   := 64
