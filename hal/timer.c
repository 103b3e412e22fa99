// SPDX-License-Identifier: MIT
/* Timer policy on top of the board's comparator (hal/timer_clint.c: the
 * CLINT's mtimecmp in M-mode; hal/timer_sbi.c: SBI TIME in S-mode): sleeps,
 * and the watchdog that stops a kernel at its deadline. See hal/timer.h. */
#include "timer_cmp.h"
#include <board.h>
#include <hal/csr.h>
#include <hal/sleep.h>
#include <hal/timer.h>

static uint64_t timer_freq = BOARD_TIMEBASE_HZ_DEFAULT;

void hal_timer_init(uint64_t freq_hz)
{
	if (freq_hz)
		timer_freq = freq_hz;
}

uint64_t hal_timer_freq(void)
{
	return timer_freq;
}

void hal_timer_sleep_until(uint64_t t)
{
	/* Only the timer may end this wfi: an IPI that arrives meanwhile stays
	 * pending for the next IPI wait instead of turning this into a spin. */
	unsigned long saved = csr_read(CSR_IE);
	hal_timer_cmp_set(t);
	csr_write(CSR_IE, IE_TIMER);
	while (hal_timer_now() < t)
		__asm__ volatile("wfi" ::: "memory");
	hal_timer_cmp_set(UINT64_MAX);
	csr_write(CSR_IE, saved);
}

void hal_sleep_until(uint64_t t)
{
	/* The timer joins whatever else may end this wfi (IPI, device). */
	hal_timer_cmp_set(t);
	csr_set(CSR_IE, IE_TIMER);
	if (hal_timer_now() < t)
		__asm__ volatile("wfi" ::: "memory");
	csr_clear(CSR_IE, IE_TIMER);
	hal_timer_cmp_set(UINT64_MAX);
}

void hal_timer_disarm(void)
{
	hal_timer_cmp_set(UINT64_MAX);
}

void hal_timer_sleep_us(uint64_t us)
{
	hal_timer_sleep_until(hal_timer_now() + us * timer_freq / 1000000u + 1);
}

/* The interrupt enables outside the armed section (IPIs, the PLIC on hart
 * index 0). */
static __thread unsigned long watchdog_saved_ie;

void hal_watchdog_arm(uint64_t deadline, bool preempt)
{
	/* (preempt is for U-mode, where an enabled interrupt traps whatever
	 * SR_IE says) */
	watchdog_saved_ie = csr_swap(CSR_IE, preempt ? IE_SOFT : 0);
	if (!deadline)
		return;
	hal_timer_cmp_set(deadline);
	csr_set(CSR_IE, IE_TIMER);
	/* A kernel in the firmware's mode needs SR_IE; one in U-mode does
	 * not, and the firmware's own code up to the xRET must not trap. */
	if (!preempt)
		csr_set(CSR_STATUS, SR_IE);
}

void hal_watchdog_rearm(uint64_t t)
{
	if (t == UINT64_MAX) {
		csr_clear(CSR_IE, IE_TIMER);
		hal_timer_cmp_set(UINT64_MAX);
		return;
	}
	hal_timer_cmp_set(t);
	csr_set(CSR_IE, IE_TIMER);
}

void hal_watchdog_disarm(void)
{
	csr_clear(CSR_STATUS, SR_IE);
	if (csr_read(CSR_IE) & IE_TIMER)
		hal_timer_cmp_set(UINT64_MAX);
	csr_write(CSR_IE, watchdog_saved_ie);
}

void hal_watchdog_pause(void)
{
	csr_clear(CSR_STATUS, SR_IE);
	csr_write(CSR_IE, IE_TIMER | IE_SOFT);
}

void hal_watchdog_resume(void)
{
	csr_write(CSR_IE, IE_TIMER);
	csr_set(CSR_STATUS, SR_IE);
}
