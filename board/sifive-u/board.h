/* SPDX-License-Identifier: MIT */
/*
 * Board: QEMU `sifive_u` (SiFive HiFive Unleashed, FU540-C000), M-mode, 5
 * harts: hart 0 is the E51 monitor core (rv64imac: no FPU, no MMU), harts
 * 1-4 are U54 application cores (rv64gc). QEMU 7.2's addresses; the device
 * tree QEMU passes in a1 gives the harts, their ISAs, the timebase and
 * DRAM (board/sifive-u/README.md, docs/boards/sifive-u.md).
 */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME "sifive-u"

/* UART0 ("sifive,uart0", hal/console_sifive.c). Its input is the tile-link
 * clock, half the core clock: 500 MHz once the first-stage loader on the
 * real board has set the PLL to 1 GHz (QEMU ignores the divisor). */
#define BOARD_UART_BASE 0x10010000UL
#define BOARD_UART_CLOCK_HZ 500000000UL
#define BOARD_UART_BAUD 115200UL

/* CLINT (SiFive layout). */
#define BOARD_CLINT_BASE 0x02000000UL
#define BOARD_CLINT_MSIP_OFFSET 0x0000UL
#define BOARD_CLINT_MTIMECMP_OFFSET 0x4000UL
#define BOARD_CLINT_MTIME_OFFSET 0xbff8UL

/* The device tree gives 1 MHz (the RTC clock that drives mtime). */
#define BOARD_TIMEBASE_HZ_DEFAULT 1000000UL

/* PLIC: hart 0 (the E51) has an M-mode context only, context 0 (the U54s
 * have M and S: contexts 1-2, 3-4, ...). UART0 is source 4. */
#define BOARD_PLIC_BASE 0x0c000000UL
#define BOARD_PLIC_CONTEXT_HART0 0
#define BOARD_UART_IRQ 4

/* The hart table when there is no device tree (boot/boot.c): hart 0 the
 * E51 without FPU, harts 1-4 the U54s with F and D. QEMU always passes
 * one; this is the board's own description. */
#define BOARD_U54 (HAL_HART_FPU | HAL_HART_MMU | HAL_HART_S)
/* clang-format off */
#define BOARD_HARTS \
	{{0, 0}, {1, BOARD_U54}, {2, BOARD_U54}, {3, BOARD_U54}, {4, BOARD_U54}}
/* clang-format on */

/* DRAM at 0x80000000 (QEMU_MEM in board.mk, `hartpool --mem`; 8 GiB on the
 * board). The firmware owns its first 256 MiB (memory.ld); the mailbox
 * and the buffer heap lie above, up to the end of DRAM. */
#define BOARD_DRAM_BASE 0x80000000UL
#define BOARD_DRAM_SIZE_DEFAULT 0x80000000UL
#define BOARD_MBOX_BASE 0x90000000UL
#define BOARD_MBOX_SIZE 0x00800000UL
#define BOARD_BUF_BASE 0x90800000UL

#endif
