# Board: QEMU virt with hartpool's cluster devices (barrier unit, doorbell), RV64. Read by the top-level Makefile and by qemu/hp-qemu.
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
                     hal/exit_sifive_test.c hal/sleep_wfi.c hal/plic.c \
                     hal/barrier_unit.c
# How QEMU runs this board.
QEMU_SYSTEM       := qemu-system-riscv64
# ... built from Debian's source with qemu/patches (qemu/build.sh; `make
# qemu-cluster` builds it once), whose virt has the cluster devices
# (docs/barrier-unit.md): the barrier unit, and with --shm the doorbell on
# FIFOs PATH.doorbell.in/.out (qemu/hp-qemu).
QEMU_PATCHED      := 1
QEMU_MACHINE      := virt,hp-cluster=on
QEMU_DOORBELL     := 1
QEMU_CPU          := rv64
# DRAM: the default and the range `--mem` accepts (hp-qemu, hartpool).
QEMU_MEM          := 2G
QEMU_MEM_MIN      := 512M
QEMU_MEM_MAX      := 16G
