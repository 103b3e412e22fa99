# Board: QEMU virt, RV64. Read by the top-level Makefile and by qemu/hp-qemu.
BOARD_ARCH        := rv64imafdc_zicsr_zifencei
BOARD_ABI         := lp64d
# ISA string that selects the matching picolibc/libgcc multilib at link time.
BOARD_LIB_ARCH    := rv64imafdc
BOARD_XLEN        := 64
# Largest hart count the firmware serves (QEMU virt takes at most 512).
BOARD_MAX_HARTS   := 512
# Per-hart stack in bytes.
BOARD_STACK_SIZE  := 16384
# Sub-group size when a kernel requires none (the "lane count").
BOARD_SUB_GROUP_SIZE := 8
# HAL implementation files for this board (one per mechanism).
BOARD_HAL_SRCS    := hal/ipi_clint.c hal/timer_clint.c hal/console_ns16550.c \
                     hal/exit_sifive_test.c hal/sleep_wfi.c hal/plic.c
# How QEMU runs this board.
QEMU_SYSTEM       := qemu-system-riscv64
QEMU_MACHINE      := virt
QEMU_CPU          := rv64
# DRAM: the default and the range `--mem` accepts (hp-qemu, hartpool).
QEMU_MEM          := 2G
QEMU_MEM_MIN      := 512M
QEMU_MEM_MAX      := 16G
# DRAM reads as zeros at boot: QEMU's RAM is a new (sparse) file.
BOARD_RAM_ZEROED  := 1
