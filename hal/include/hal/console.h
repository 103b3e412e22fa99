/* SPDX-License-Identifier: MIT */
/**
 * @file Console. hal_printf() formats on the caller's stack and writes
 * whole lines under a lock, so lines of different harts never interleave.
 * Plain printf() from picolibc also works (stdout is the console) but is not
 * serialised between harts.
 */
#ifndef HAL_CONSOLE_H
#define HAL_CONSOLE_H

#include <hal/fdt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/** Use the UART the device tree names (before hal_console_init); false if
 * this build has no driver for it (the board's own, or in S-mode SBI's
 * console, stays). */
bool hal_console_configure(const fdt_uart *u);
/** Initialise the console device (boot hart; M-mode boards first thing,
 * S-mode boards once the device tree is read). */
void hal_console_init(void);
/** Write one byte (no locking). */
void hal_console_putc(char c);
/** Write @p len bytes without locking (used by fatal paths). */
void hal_console_write_raw(const char *s, size_t len);

/** Write a last message before the run ends (bounded wait for the lock). */
void hal_console_write_fatal(const char *s, size_t len);
/** Write @p len bytes under the console lock, between hal_printf lines (the
 * serial transport's reply frames). */
void hal_console_write_locked(const char *s, size_t len);

/** Does a byte written wait until the line takes it? true for a UART whose
 * transmitter holds bytes while the receiver is not ready (QEMU's 16550
 * keeps THRE clear while its socket is full); false for QEMU 7.2's SiFive
 * UART, which never reports its transmit FIFO full and drops what its
 * socket does not take. The serial agent holds its replies to the host's
 * receive window when it is false. */
bool hal_console_tx_waits(void);

/** The next received byte, or -1 if none is waiting (never waits). */
int hal_console_getc(void);
/** Let a received byte raise the UART's interrupt (hal/irq.h routes it). */
void hal_console_rx_irq_enable(void);

/** printf to the console, whole line(s) at once. Returns bytes written. */
int hal_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int hal_vprintf(const char *fmt, va_list ap);

/** Longest output of one hal_printf call; longer output is cut. */
#define HAL_PRINTF_MAX 256

#endif
