// SPDX-License-Identifier: MIT
/* Boot benchmark: every hart comes online, reports, and the run ends. Hart 0
 * prints the instructions retired since reset (all harts, under -icount)
 * and the firmware's own view of the boot time. */
#include "counters.h"
#include <boot/app.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hal/timer.h>

int app_main(void)
{
	boot_barrier_all();
	if (hal_hart_idx() == 0) {
		uint64_t us = hal_timer_ticks_to_us(hal_timer_now() -
						    boot_time_start);
		hal_printf("bench boot: harts=%u instret=%llu boot_us=%llu\n",
			   hal_hart_num(), (unsigned long long)bench_instret(),
			   (unsigned long long)us);
	}
	return 0;
}
