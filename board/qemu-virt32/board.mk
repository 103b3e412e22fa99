# Board: QEMU virt, RV32 (no FPU). Read by the top-level Makefile and by qemu/hp-qemu.
BOARD_ARCH        := rv32imac_zicsr_zifencei
BOARD_ABI         := ilp32
# ISA string that selects the matching picolibc/libgcc multilib at link time.
BOARD_LIB_ARCH    := rv32imac
BOARD_XLEN        := 32
BOARD_MAX_HARTS   := 512
BOARD_STACK_SIZE  := 16384
# Sub-group size when a kernel requires none (the "lane count").
BOARD_SUB_GROUP_SIZE := 8
BOARD_HAL_SRCS    := hal/ipi_clint.c hal/timer_clint.c hal/console_ns16550.c \
                     hal/exit_sifive_test.c hal/sleep_wfi.c hal/plic.c
QEMU_SYSTEM       := qemu-system-riscv32
QEMU_MACHINE      := virt
QEMU_CPU          := rv32
# DRAM: the default and the range `--mem` accepts (hp-qemu, hartpool).
# At most 2G: DRAM starts at 0x80000000 and rv32 addresses 4 GiB.
QEMU_MEM          := 2G
QEMU_MEM_MIN      := 512M
QEMU_MEM_MAX      := 2G
# DRAM reads as zeros at boot: QEMU's RAM is a new (sparse) file.
BOARD_RAM_ZEROED  := 1
