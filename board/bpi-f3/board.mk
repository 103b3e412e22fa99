# Board: Banana Pi BPI-F3 / Milk-V Jupiter (SpacemiT K1, 8 X60 cores), firmware in S-mode under OpenSBI (board.h): the
# qemu-virt-sbi code linked for this board's DRAM. QEMU does not model the
# board: no QEMU_* settings, so tests/run.sh only builds it (firmware and
# `make image`). docs/boards/bpi-f3.md.
include board/sbi.mk
BOARD_MAX_HARTS   := 8
# The K1's X60 cores implement RVV 1.0 at VLEN 256 (docs/boards/bpi-f3.md,
# docs/vector.md): the firmware saves vector registers of that length; the
# trap area grows by 32 * 32 bytes and the stack keeps its 14 KiB.
BOARD_ARCH        := rv64imafdcv_zicsr_zifencei
BOARD_VLEN_MAX    := 256
BOARD_STACK_SIZE  := 17408
