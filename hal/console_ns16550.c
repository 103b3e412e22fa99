// SPDX-License-Identifier: MIT
/* Console on a 16550-compatible UART: the board's (board.h BOARD_UART_*,
 * with BOARD_UART_REG_SHIFT / _REG_IO_WIDTH for 32-bit registers such as
 * PolarFire's MMUART), or
 * the one the device tree's stdout-path names (hal_console_configure: base,
 * reg-shift, reg-io-width 1 or 4; DesignWare 8250s, the K1's UART). With no
 * UART known (an S-mode board whose console is something else) the
 * console is SBI's legacy putchar/getchar. */
#include "mmio.h"
#include <board.h>
#include <hal/console.h>
#ifdef HAL_SMODE
#include <hal/sbi.h>
#endif

#define UART_RBR 0 /* receive buffer (DLAB=0) */
#define UART_THR 0 /* transmit holding (DLAB=0) */
#define UART_DLL 0 /* divisor low (DLAB=1) */
#define UART_IER 1
#define UART_DLM 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_LSR 5
#define LSR_DR 0x01 /* a received byte is waiting */
#define LSR_THRE 0x20
#define IER_ERBFI 0x01 /* interrupt while received data is available */
#define FCR_FIFO_ON 0x01
#define FCR_RX_TRIGGER_14 0xC0

#ifdef BOARD_UART_BASE
static uintptr_t uart_base = BOARD_UART_BASE;
static unsigned long uart_clock = BOARD_UART_CLOCK_HZ;
#else
static uintptr_t uart_base;
static unsigned long uart_clock;
#endif
#ifndef BOARD_UART_REG_SHIFT
#define BOARD_UART_REG_SHIFT 0
#endif
#ifndef BOARD_UART_REG_IO_WIDTH
#define BOARD_UART_REG_IO_WIDTH 1
#endif
static unsigned uart_shift = BOARD_UART_REG_SHIFT,
		uart_width = BOARD_UART_REG_IO_WIDTH;

static void reg_write(unsigned reg, uint8_t v)
{
	uintptr_t a = uart_base + ((uintptr_t)reg << uart_shift);
	if (uart_width == 4)
		mmio_write32(a, v);
	else
		mmio_write8(a, v);
}

static uint8_t reg_read(unsigned reg)
{
	uintptr_t a = uart_base + ((uintptr_t)reg << uart_shift);
	return uart_width == 4 ? (uint8_t)mmio_read32(a) : mmio_read8(a);
}

bool hal_console_configure(const fdt_uart *u)
{
	if (u->kind != FDT_UART_NS16550 || !u->base ||
	    (u->reg_io_width != 1 && u->reg_io_width != 4) || u->reg_shift > 4)
		return false;
	uart_base = (uintptr_t)u->base;
	uart_shift = u->reg_shift;
	uart_width = u->reg_io_width;
	uart_clock = u->clock_hz;
	return true;
}

void hal_console_init(void)
{
	if (!uart_base)
		return;
#ifdef BOARD_UART_GATE_CLOCK
	/* A UART behind a clock gate and a reset (board.h): open both. */
	mmio_write32(BOARD_UART_GATE_CLOCK,
		     mmio_read32(BOARD_UART_GATE_CLOCK) | BOARD_UART_GATE_BIT);
	mmio_write32(BOARD_UART_GATE_RESET,
		     mmio_read32(BOARD_UART_GATE_RESET) & ~BOARD_UART_GATE_BIT);
	mmio_fence();
#endif
	reg_write(UART_IER, 0);
	/* Without a known input clock, keep the rate whoever ran before us
	 * (OpenSBI, U-Boot) set. */
	if (uart_clock) {
		unsigned div = (unsigned)(uart_clock / (16 * BOARD_UART_BAUD));
		reg_write(UART_LCR, 0x80); /* DLAB */
		reg_write(UART_DLL, div & 0xff);
		reg_write(UART_DLM, (uint8_t)(div >> 8));
	}
	reg_write(UART_LCR, 0x03); /* 8N1 */
	reg_write(UART_FCR, 0x07); /* FIFOs on, cleared */
}

void hal_console_putc(char c)
{
#ifdef HAL_SMODE
	if (!uart_base) {
		sbi_console_putchar((unsigned char)c);
		return;
	}
#endif
	/* Bounded by the device: THRE comes back within one character time
	 * (immediately under QEMU). */
	while (!(reg_read(UART_LSR) & LSR_THRE))
		;
	reg_write(UART_THR, (uint8_t)c);
}

void hal_console_write_raw(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		hal_console_putc(s[i]);
}

bool hal_console_tx_waits(void)
{
	/* THRE stays clear until the byte is out: on a board at the line
	 * rate, under QEMU until its chardev took the byte (it waits for a
	 * full socket to drain). SBI's console waits the same way. */
	return true;
}

int hal_console_getc(void)
{
#ifdef HAL_SMODE
	if (!uart_base)
		return sbi_console_getchar();
#endif
	if (!(reg_read(UART_LSR) & LSR_DR))
		return -1;
	return reg_read(UART_RBR);
}

void hal_console_rx_irq_enable(void)
{
	if (!uart_base)
		return;
	/* Interrupt at 14 bytes in the receive FIFO (or when bytes have sat
	 * there for 4 character times), not at every byte: frames come in
	 * bursts, and each interrupt wakes the dispatcher. Under QEMU it also
	 * makes the UART take 14 bytes from its socket at a time, not 1. */
	reg_write(UART_FCR, FCR_FIFO_ON | FCR_RX_TRIGGER_14);
	reg_write(UART_IER, reg_read(UART_IER) | IER_ERBFI);
}
