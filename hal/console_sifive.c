// SPDX-License-Identifier: MIT
/* Console on a SiFive UART ("sifive,uart0": FU540, FU740, FE310): 32-bit
 * registers, a transmit FIFO with a full bit, a receive FIFO read one word
 * at a time (bit 31: it was empty), and one interrupt line whose receive
 * watermark (ip.rxwm: more bytes waiting than rxctrl.rxcnt) wakes the
 * dispatcher hart. The board's UART (board.h BOARD_UART_*), or the one the
 * device tree's stdout-path names (hal_console_configure). */
#include "mmio.h"
#include <board.h>
#include <hal/console.h>
#include <hal/fdt.h>
#include <stdbool.h>

#define UART_TXDATA 0x00 /* write: a byte; read: bit 31 = FIFO full */
#define UART_RXDATA 0x04 /* read: bit 31 = FIFO was empty, else the byte */
#define UART_TXCTRL 0x08 /* bit 0 txen, bit 1 two stop bits, 18:16 txcnt */
#define UART_RXCTRL 0x0c /* bit 0 rxen, 18:16 rxcnt */
#define UART_IE 0x10	 /* bit 0 txwm, bit 1 rxwm */
#define UART_IP 0x14
#define UART_DIV 0x18 /* baud = input clock / (div + 1) */
#define TXDATA_FULL 0x80000000u
#define RXDATA_EMPTY 0x80000000u
#define CTRL_EN 1u
#define IE_RXWM 2u

static uintptr_t uart_base = BOARD_UART_BASE;
static unsigned long uart_clock = BOARD_UART_CLOCK_HZ;

bool hal_console_configure(const fdt_uart *u)
{
	if (u->kind != FDT_UART_SIFIVE || !u->base)
		return false;
	uart_base = (uintptr_t)u->base;
	if (u->clock_hz)
		uart_clock = u->clock_hz;
	return true;
}

void hal_console_init(void)
{
	uintptr_t u = uart_base;
	mmio_write32(u + UART_IE, 0);
	if (uart_clock >= BOARD_UART_BAUD)
		mmio_write32(u + UART_DIV,
			     (uint32_t)(uart_clock / BOARD_UART_BAUD - 1));
	/* Transmit on, one stop bit; receive on, watermark 0: an interrupt
	 * (once enabled) while one byte or more waits. */
	mmio_write32(u + UART_TXCTRL, CTRL_EN);
	mmio_write32(u + UART_RXCTRL, CTRL_EN);
}

void hal_console_putc(char c)
{
	/* Bounded by the device: the FIFO drains at the line rate (QEMU 7.2
	 * never reports it full: hal_console_tx_waits()). */
	while (mmio_read32(uart_base + UART_TXDATA) & TXDATA_FULL)
		;
	mmio_write32(uart_base + UART_TXDATA, (uint8_t)c);
}

void hal_console_write_raw(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		hal_console_putc(s[i]);
}

bool hal_console_tx_waits(void)
{
	/* A real FU540's UART reports a full FIFO and drains it at the line
	 * rate, but QEMU 7.2's model writes each byte to its chardev at once,
	 * ignores a socket that cannot take it, and always reads txdata.full
	 * as 0: the byte is lost. The firmware cannot tell them apart; the
	 * host asks for a window only where it matters (a socket). */
	return false;
}

int hal_console_getc(void)
{
	uint32_t v = mmio_read32(uart_base + UART_RXDATA);
	return v & RXDATA_EMPTY ? -1 : (int)(v & 0xff);
}

void hal_console_rx_irq_enable(void)
{
	/* Only the receive watermark: the transmit one would interrupt for
	 * as long as the FIFO is below its mark (QEMU: always). */
	mmio_write32(uart_base + UART_IE, IE_RXWM);
}
