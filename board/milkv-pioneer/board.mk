# Board: Milk-V Pioneer (Sophgo SG2042, 64 T-Head C920 cores), firmware in S-mode under OpenSBI (board.h): the
# qemu-virt-sbi code linked for this board's DRAM. QEMU does not model the
# board: no QEMU_* settings, so tests/run.sh only builds it (firmware and
# `make image`). docs/boards/milkv-pioneer.md.
BOARD_ARCH        := rv64imafdc_zicsr_zifencei
BOARD_ABI         := lp64d
BOARD_LIB_ARCH    := rv64imafdc
BOARD_XLEN        := 64
# S: started by SBI firmware in S-mode (hal/csr.h HAL_SMODE).
BOARD_PRIV        := S
BOARD_MAX_HARTS   := 64
BOARD_STACK_SIZE  := 16384
BOARD_SUB_GROUP_SIZE := 8
# The image has the RISC-V Image header: U-Boot's booti takes it.
BOARD_IMAGE       := booti
BOARD_HAL_SRCS    := hal/ipi_sbi.c hal/timer_sbi.c hal/console_ns16550.c \
                     hal/exit_sbi.c hal/sleep_wfi.c hal/plic.c
