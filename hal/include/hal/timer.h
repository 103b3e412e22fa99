/* SPDX-License-Identifier: MIT */
/** @file The platform timer (RISC-V mtime) and timed sleeps. */
#ifndef HAL_TIMER_H
#define HAL_TIMER_H

#include <stdbool.h>
#include <stdint.h>

/** Set the tick rate (from the device tree) at boot. */
void hal_timer_init(uint64_t freq_hz);

/** Current time in ticks. */
uint64_t hal_timer_now(void);

/** Ticks per second. */
uint64_t hal_timer_freq(void);

/** Sleep (wfi, timer interrupt pending bit) until hal_timer_now() >= t. */
void hal_timer_sleep_until(uint64_t t);

/** Sleep for at least @p us microseconds. */
void hal_timer_sleep_us(uint64_t us);

/** No timer interrupt pending on the calling hart until it next sets one
 * (the comparator to "never"). Every hart calls it once at start: a
 * pending timer interrupt, even a disabled one, makes QEMU wake the hart's
 * thread on every interrupt-controller update of any hart. */
void hal_timer_disarm(void);

/**
 * Watchdog for the calling hart: until hal_watchdog_disarm(), the timer
 * interrupt traps once hal_timer_now() >= @p deadline, and with
 * @p preempt an IPI traps too (so another hart can stop the kernel code
 * running here). No other interrupt is enabled: without @p preempt IPIs
 * stay pending (for the next wait) instead of trapping. @p deadline 0: no
 * timer; with neither, every interrupt is masked in mie (for U-mode, where
 * an enabled one would trap). Host build: no-ops (no traps there).
 */
void hal_watchdog_arm(uint64_t deadline, bool preempt);
void hal_watchdog_disarm(void);
/** While armed (in a trap from the kernel, too): the timer interrupts at
 * @p t instead (UINT64_MAX: not at all). */
void hal_watchdog_rearm(uint64_t t);
/** Inside an armed section, around a wait: no traps, and an IPI or the
 * deadline ends wfi (the waiter checks the deadline itself). Resuming
 * enables the timer alone. */
void hal_watchdog_pause(void);
void hal_watchdog_resume(void);

static inline uint64_t hal_timer_ticks_to_us(uint64_t ticks)
{
	return ticks * 1000000u / hal_timer_freq();
}

#endif
