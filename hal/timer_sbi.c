// SPDX-License-Identifier: MIT
/* Time and the timer comparator in S-mode: the time CSR (rdtime; OpenSBI
 * emulates it where the hart lacks it) and SBI TIME, which raises the
 * supervisor timer interrupt and clears a pending one when re-armed. The
 * policy is hal/timer.c's. Sstc (stimecmp, no ecall) would need OpenSBI
 * >= 1.2 to enable it: not used. */
#include "timer_cmp.h"
#include <hal/csr.h>
#include <hal/sbi.h>
#include <hal/timer.h>

uint64_t hal_timer_now(void)
{
#if __riscv_xlen == 64
	return csr_read(time);
#else
	uint32_t hi, lo;
	do {
		hi = (uint32_t)csr_read(timeh);
		lo = (uint32_t)csr_read(time);
	} while ((uint32_t)csr_read(timeh) != hi);
	return (uint64_t)hi << 32 | lo;
#endif
}

void hal_timer_cmp_set(uint64_t t)
{
	sbi_set_timer(t);
}
