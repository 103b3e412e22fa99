/* SPDX-License-Identifier: MIT */
/*
 * Board: Kendryte K210 (Sipeed Maix boards and others), M-mode, 2 harts
 * (RV64GC cores of privilege spec 1.9.1), 8 MiB of on-chip SRAM at
 * 0x80000000 and no DRAM. The boot ROM copies the image from SPI flash to
 * 0x80000000 and starts it there without a device tree: the harts come
 * from BOARD_HARTS (hal/reset_mhartid.S passes no tree). Kernels run
 * without isolation: priv 1.9.1 has no PMP (docs/boards/k210.md). Not run
 * on hardware.
 */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME "k210"

/* UARTHS ("sifive,uart0"-compatible, hal/console_sifive.c), the console
 * the boot ROM and kflash use. Its input is the CPU clock: 390 MHz as the
 * boot ROM leaves it (assumed, docs/boards/k210.md). */
#define BOARD_UART_BASE 0x38000000UL
#define BOARD_UART_CLOCK_HZ 390000000UL
#define BOARD_UART_BAUD 115200UL

/* CLINT (SiFive layout). mtime runs at the CPU clock / 50. */
#define BOARD_CLINT_BASE 0x02000000UL
#define BOARD_CLINT_MSIP_OFFSET 0x0000UL
#define BOARD_CLINT_MTIMECMP_OFFSET 0x4000UL
#define BOARD_CLINT_MTIME_OFFSET 0xbff8UL
#define BOARD_TIMEBASE_HZ_DEFAULT 7800000UL

/* PLIC: hart 0's M-mode context is context 0. UARTHS is source 33. */
#define BOARD_PLIC_BASE 0x0c000000UL
#define BOARD_PLIC_CONTEXT_HART0 0
#define BOARD_UART_IRQ 33

/* No device tree: the hart table (boot/boot.c). Both harts have F and D;
 * neither has page tables or a PMP the firmware can use (priv 1.9.1). */
/* clang-format off */
#define BOARD_HARTS {{0, HAL_HART_FPU}, {1, HAL_HART_FPU}}
/* clang-format on */

/* "DRAM" is the 6 MiB of general SRAM (0x80000000-0x805fffff; the 2 MiB
 * of AI SRAM above it need the KPU's clock and are not used). The
 * firmware owns the first 3 MiB (memory.ld), then the mailbox (1 MiB) and
 * the buffer heap (2 MiB) to the end. */
#define BOARD_DRAM_BASE 0x80000000UL
#define BOARD_DRAM_SIZE_DEFAULT 0x00600000UL
#define BOARD_MBOX_BASE 0x80300000UL
#define BOARD_MBOX_SIZE 0x00100000UL
#define BOARD_BUF_BASE 0x80400000UL

/* Privilege spec 1.9.1: no PMP of the 1.10 kind, so kernels cannot be
 * isolated in U-mode: they run in M-mode (firmware/main.c). */
#define BOARD_ISOLATION_DEFAULT 0

#endif
