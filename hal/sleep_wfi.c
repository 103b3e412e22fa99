// SPDX-License-Identifier: MIT
/* Sleep with wfi. mstatus.MIE stays 0, so a pending interrupt that is
 * enabled in mie ends wfi without trapping; see hal/sleep.h. */
#include <hal/ipi.h>
#include <hal/sleep.h>

void hal_sleep_prepare(void)
{
	hal_ipi_clear_self();
}

void hal_sleep(void)
{
	__asm__ volatile("wfi" ::: "memory");
}
