# What every S-mode board shares (included by their board.mk): the firmware
# runs in S-mode under SBI firmware (OpenSBI), RV64GC, and learns the board
# from its device tree; a board.mk adds its name, hart limit and QEMU
# settings, and its memory.ld the link address. docs/boards/qemu-virt-sbi.md.
BOARD_ARCH        := rv64imafdc_zicsr_zifencei
BOARD_ABI         := lp64d
BOARD_LIB_ARCH    := rv64imafdc
BOARD_XLEN        := 64
# S: started by SBI firmware in S-mode (hal/csr.h HAL_SMODE).
BOARD_PRIV        := S
BOARD_STACK_SIZE  := 16384
BOARD_SUB_GROUP_SIZE := 8
# The image has the RISC-V Image header: U-Boot's booti takes it.
BOARD_IMAGE       := booti
BOARD_HAL_SRCS    := hal/ipi_sbi.c hal/timer_sbi.c hal/console_ns16550.c \
                     hal/exit_sbi.c hal/sleep_wfi.c hal/plic.c
