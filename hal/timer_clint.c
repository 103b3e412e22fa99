// SPDX-License-Identifier: MIT
/* Timer through the CLINT / ACLINT MTIMER: mtime and one mtimecmp per hart. */
#include "mmio.h"
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

uint64_t hal_timer_now(void)
{
	uintptr_t a = BOARD_CLINT_BASE + BOARD_CLINT_MTIME_OFFSET;
#if __riscv_xlen == 64
	return *(volatile uint64_t *)a;
#else
	uint32_t hi, lo;
	do {
		hi = mmio_read32(a + 4);
		lo = mmio_read32(a);
	} while (mmio_read32(a + 4) != hi);
	return (uint64_t)hi << 32 | lo;
#endif
}

static void set_mtimecmp(uint64_t t)
{
	uintptr_t a = BOARD_CLINT_BASE + BOARD_CLINT_MTIMECMP_OFFSET +
		      8u * csr_read(mhartid);
#if __riscv_xlen == 64
	*(volatile uint64_t *)a = t;
#else
	/* Never let the comparator pass through a value below t. */
	mmio_write32(a + 4, 0xffffffffu);
	mmio_write32(a, (uint32_t)t);
	mmio_write32(a + 4, (uint32_t)(t >> 32));
#endif
}

void hal_timer_sleep_until(uint64_t t)
{
	/* Only the timer may end this wfi: an IPI that arrives meanwhile stays
	 * pending for the next IPI wait instead of turning this into a spin. */
	unsigned long saved = csr_read(mie);
	set_mtimecmp(t);
	csr_write(mie, MIP_MTIP);
	while (hal_timer_now() < t)
		__asm__ volatile("wfi" ::: "memory");
	set_mtimecmp(UINT64_MAX);
	csr_write(mie, saved);
}

void hal_sleep_until(uint64_t t)
{
	/* The timer joins whatever else may end this wfi (IPI, device). */
	set_mtimecmp(t);
	csr_set(mie, MIP_MTIP);
	if (hal_timer_now() < t)
		__asm__ volatile("wfi" ::: "memory");
	csr_clear(mie, MIP_MTIP);
	set_mtimecmp(UINT64_MAX);
}

void hal_timer_sleep_us(uint64_t us)
{
	hal_timer_sleep_until(hal_timer_now() + us * timer_freq / 1000000u + 1);
}

/* mie outside the armed section (IPIs, the PLIC on hart 0). */
static __thread unsigned long watchdog_saved_mie;

void hal_watchdog_arm(uint64_t deadline)
{
	watchdog_saved_mie = csr_read(mie);
	if (!deadline) {
		csr_write(mie, 0);
		return;
	}
	set_mtimecmp(deadline);
	csr_write(mie, MIP_MTIP);
	csr_set(mstatus, MSTATUS_MIE);
}

void hal_watchdog_disarm(void)
{
	csr_clear(mstatus, MSTATUS_MIE);
	if (csr_read(mie) & MIP_MTIP)
		set_mtimecmp(UINT64_MAX);
	csr_write(mie, watchdog_saved_mie);
}

void hal_watchdog_pause(void)
{
	csr_clear(mstatus, MSTATUS_MIE);
	csr_write(mie, MIP_MTIP | MIP_MSIP);
}

void hal_watchdog_resume(void)
{
	csr_write(mie, MIP_MTIP);
	csr_set(mstatus, MSTATUS_MIE);
}
