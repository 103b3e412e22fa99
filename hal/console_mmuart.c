// SPDX-License-Identifier: MIT
/* Console on a PolarFire SoC MMUART (MSS multi-mode UART): a 16550 register
 * set, 32-bit registers 4 bytes apart (board.h BOARD_UART_REG_SHIFT 2,
 * BOARD_UART_REG_IO_WIDTH 4), behind a clock gate and a reset in the MSS
 * system registers that must be opened before the UART answers (the Hart
 * Software Services does it on the kit; this firmware runs in its place).
 * The MMUART's own extras (fractional divisor, modes, timers) stay off. */
#include "mmio.h"
#include <board.h>
#include <hal/console.h>
#include <hal/fdt.h>
#include <stdbool.h>

/* 16550 registers (index, times 1 << BOARD_UART_REG_SHIFT). */
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

/* MSS system registers: the clock gate and the reset of MMUART0..4. */
#define SYSREG_BASE 0x20002000UL
#define SYSREG_SUBBLK_CLOCK_CR 0x84
#define SYSREG_SOFT_RESET_CR 0x88
#define MMUART_BIT(n) (1u << (5 + (n))) /* MMUART0 is bit 5 */

static uintptr_t reg(unsigned r)
{
	return BOARD_UART_BASE + ((uintptr_t)r << BOARD_UART_REG_SHIFT);
}

static void reg_write(unsigned r, uint8_t v)
{
	mmio_write32(reg(r), v);
}

static uint8_t reg_read(unsigned r)
{
	return (uint8_t)mmio_read32(reg(r));
}

bool hal_console_configure(const fdt_uart *u)
{
	(void)u; /* the board's UART only: no device tree on this board */
	return false;
}

void hal_console_init(void)
{
	/* Which MMUART: MMUART0 at 0x20000000, 1..4 from 0x20100000 on,
	 * 0x2000 apart. */
	unsigned n =
		BOARD_UART_BASE == 0x20000000UL
			? 0
			: (unsigned)((BOARD_UART_BASE - 0x20100000UL) / 0x2000 +
				     1);
	uintptr_t clk = SYSREG_BASE + SYSREG_SUBBLK_CLOCK_CR;
	uintptr_t rst = SYSREG_BASE + SYSREG_SOFT_RESET_CR;
	mmio_write32(clk, mmio_read32(clk) | MMUART_BIT(n));
	mmio_write32(rst, mmio_read32(rst) & ~MMUART_BIT(n));
	mmio_fence();

	unsigned div = BOARD_UART_CLOCK_HZ / (16 * BOARD_UART_BAUD);
	reg_write(UART_IER, 0);
	reg_write(UART_LCR, 0x80); /* DLAB */
	reg_write(UART_DLL, div & 0xff);
	reg_write(UART_DLM, (uint8_t)(div >> 8));
	reg_write(UART_LCR, 0x03); /* 8N1 */
	reg_write(UART_FCR, 0x07); /* FIFOs on, cleared */
}

void hal_console_putc(char c)
{
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

int hal_console_getc(void)
{
	if (!(reg_read(UART_LSR) & LSR_DR))
		return -1;
	return reg_read(UART_RBR);
}

void hal_console_rx_irq_enable(void)
{
	reg_write(UART_IER, reg_read(UART_IER) | IER_ERBFI);
}
