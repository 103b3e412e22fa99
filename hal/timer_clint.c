// SPDX-License-Identifier: MIT
/* Time and the timer comparator through the CLINT / ACLINT MTIMER (M-mode):
 * mtime and one mtimecmp per hart. The policy is hal/timer.c's. */
#include "mmio.h"
#include "timer_cmp.h"
#include <board.h>
#include <hal/csr.h>
#include <hal/timer.h>

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

void hal_timer_cmp_set(uint64_t t)
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
