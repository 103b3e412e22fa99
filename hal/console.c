// SPDX-License-Identifier: MIT
/* Line-at-a-time console output shared by all harts; the device is in
 * console_<device>.c. */
#include <hal/console.h>
#include <hal/lock.h>
#include <hal/timer.h>
#include <stdio.h>

static hal_lock console_lock = HAL_LOCK_INIT;

int hal_vprintf(const char *fmt, va_list ap)
{
	char buf[HAL_PRINTF_MAX];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	hal_lock_acquire(&console_lock);
	hal_console_write_raw(buf, (size_t)n);
	hal_lock_release(&console_lock);
	return n;
}

int hal_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = hal_vprintf(fmt, ap);
	va_end(ap);
	return n;
}

void hal_console_write_locked(const char *s, size_t len)
{
	hal_lock_acquire(&console_lock);
	hal_console_write_raw(s, len);
	hal_lock_release(&console_lock);
}

void hal_console_write_fatal(const char *s, size_t len)
{
	/* The holder finishes its line within microseconds; wait at most
	 * ~10 ms for it, then write anyway. The lock is not released: the
	 * caller is about to end the run. */
	for (unsigned i = 0; i < 1000 && !hal_lock_try(&console_lock); i++)
		hal_timer_sleep_us(10);
	hal_console_write_raw(s, len);
}
