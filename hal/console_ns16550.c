// SPDX-License-Identifier: MIT
/* Console on a 16550-compatible UART (8-bit registers, stride 1). */
#include "mmio.h"
#include <board.h>
#include <hal/console.h>

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

void hal_console_init(void)
{
	uintptr_t u = BOARD_UART_BASE;
	unsigned div = BOARD_UART_CLOCK_HZ / (16 * BOARD_UART_BAUD);
	mmio_write8(u + UART_IER, 0);
	mmio_write8(u + UART_LCR, 0x80); /* DLAB */
	mmio_write8(u + UART_DLL, div & 0xff);
	mmio_write8(u + UART_DLM, div >> 8);
	mmio_write8(u + UART_LCR, 0x03); /* 8N1 */
	mmio_write8(u + UART_FCR, 0x07); /* FIFOs on, cleared */
}

void hal_console_putc(char c)
{
	/* Bounded by the device: THRE comes back within one character time
	 * (immediately under QEMU). */
	while (!(mmio_read8(BOARD_UART_BASE + UART_LSR) & LSR_THRE))
		;
	mmio_write8(BOARD_UART_BASE + UART_THR, (uint8_t)c);
}

void hal_console_write_raw(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		hal_console_putc(s[i]);
}

int hal_console_getc(void)
{
	if (!(mmio_read8(BOARD_UART_BASE + UART_LSR) & LSR_DR))
		return -1;
	return mmio_read8(BOARD_UART_BASE + UART_RBR);
}

void hal_console_rx_irq_enable(void)
{
	uintptr_t ier = BOARD_UART_BASE + UART_IER;
	mmio_write8(ier, mmio_read8(ier) | IER_ERBFI);
}
