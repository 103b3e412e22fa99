/* SPDX-License-Identifier: MIT */
/*
 * Board: QEMU `microchip-icicle-kit` (Microchip PolarFire SoC MPFS250T),
 * M-mode, 5 harts: hart 0 is the E51 monitor core (rv64imac: no FPU, no
 * MMU), harts 1-4 are U54 application cores (rv64gc). QEMU 7.2's
 * addresses. The image runs from the eNVM at the reset vector (read-only;
 * data in DRAM), and QEMU passes no device tree: the harts, their
 * capabilities, the timebase and DRAM come from here
 * (board/icicle-kit/README.md, docs/boards/icicle-kit.md).
 */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME "icicle-kit"

/* MMUART0: a 16550 with 32-bit registers 4 bytes apart (the "serial" part
 * of QEMU's mchp.pfsoc.mmuart). QEMU times the line by the divisor against
 * its model's own clock, 16 x 399193 Hz: with the kit's 150 MHz MSS APB
 * clock the divisor (81) would make it a 4.9 kbaud line and every serial
 * request and doorbell some 30 times slower. So this is QEMU's clock
 * (divisor 3: 133 kbaud); on the kit itself it is 150000000. */
#define BOARD_UART_BASE 0x20000000UL
#define BOARD_UART_REG_SHIFT 2
#define BOARD_UART_REG_IO_WIDTH 4
#define BOARD_UART_CLOCK_HZ 6387088UL
#define BOARD_UART_BAUD 115200UL
/* MMUART0 sits behind a clock gate and a reset in the MSS system registers
 * (SUBBLK_CLOCK_CR, SOFT_RESET_CR; bit 5 is MMUART0) that the Hart Software
 * Services open on the kit; this firmware runs in their place, so
 * hal/console_ns16550.c opens them before it touches the UART. */
#define BOARD_UART_GATE_CLOCK 0x20002084UL
#define BOARD_UART_GATE_RESET 0x20002088UL
#define BOARD_UART_GATE_BIT (1u << 5)

/* CLINT (SiFive layout: QEMU's ACLINT SWI at +0, MTIMER at +0x4000). */
#define BOARD_CLINT_BASE 0x02000000UL
#define BOARD_CLINT_MSIP_OFFSET 0x0000UL
#define BOARD_CLINT_MTIMECMP_OFFSET 0x4000UL
#define BOARD_CLINT_MTIME_OFFSET 0xbff8UL

/* mtime runs at 1 MHz (QEMU's CLINT_TIMEBASE_FREQ; the kit's RTC
 * reference). No device tree, so this is the rate. */
#define BOARD_TIMEBASE_HZ_DEFAULT 1000000UL

/* PLIC: hart 0 (the E51) has an M-mode context only, context 0 (the U54s
 * have M and S: contexts 1-2, 3-4, ...). MMUART0 is source 90. */
#define BOARD_PLIC_BASE 0x0c000000UL
#define BOARD_PLIC_CONTEXT_HART0 0
#define BOARD_UART_IRQ 90

/* The hart table (no device tree): hart 0 the E51 without FPU, harts 1-4
 * the U54s with F, D, S-mode and an MMU. */
#define BOARD_U54 (HAL_HART_FPU | HAL_HART_MMU | HAL_HART_S)
/* clang-format off */
#define BOARD_HARTS \
	{{0, 0}, {1, BOARD_U54}, {2, BOARD_U54}, {3, BOARD_U54}, {4, BOARD_U54}}
/* clang-format on */

/* DRAM: QEMU maps the first GiB of its RAM at 0x80000000 (again at
 * 0xc0000000, an alias of the same memory) and the rest at
 * 0x1000000000; -m must be at least 1537M. The firmware uses the first
 * GiB only: its first 256 MiB for itself (memory.ld), then the mailbox
 * and the buffer heap. */
#define BOARD_DRAM_BASE 0x80000000UL
#define BOARD_DRAM_SIZE_DEFAULT 0x40000000UL
#define BOARD_MBOX_BASE 0x90000000UL
#define BOARD_MBOX_SIZE 0x00800000UL
#define BOARD_BUF_BASE 0x90800000UL

#endif
