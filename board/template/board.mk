# Board template: copy to board/<name>/ and change every PORT value.
# PORT: ISA and ABI of the harts (keep _zicsr_zifencei for GCC 12).
BOARD_ARCH        := rv64imafdc_zicsr_zifencei
BOARD_ABI         := lp64d
# PORT: the same ISA without Z extensions: picks the picolibc/libgcc multilib.
BOARD_LIB_ARCH    := rv64imafdc
BOARD_XLEN        := 64
# PORT: the most harts the board can have (sizes stacks and tables).
BOARD_MAX_HARTS   := 512
BOARD_STACK_SIZE  := 16384
# Sub-group size when a kernel requires none (the "lane count").
BOARD_SUB_GROUP_SIZE := 8
# PORT: one HAL file per mechanism (see hal/ and docs/porting.md).
BOARD_HAL_SRCS    := hal/ipi_clint.c hal/timer_clint.c hal/console_ns16550.c \
                     hal/exit_sifive_test.c hal/sleep_wfi.c hal/plic.c
# PORT: how QEMU runs the board (leave as is for a board QEMU does not model).
QEMU_SYSTEM       := qemu-system-riscv64
QEMU_MACHINE      := virt
QEMU_CPU          := rv64
# PORT: DRAM size: the default, and the range `hp-qemu --mem` / `hartpool
# --mem` accept (bytes or K/M/G). The firmware finds the size in the device
# tree; the buffer heap runs to the end of DRAM.
QEMU_MEM          := 2G
QEMU_MEM_MIN      := 512M
QEMU_MEM_MAX      := 16G
