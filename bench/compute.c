// SPDX-License-Identifier: MIT
/* Every hart runs WORK_ITERS iterations of arithmetic at once: the case
 * where one host thread per hart (multi-threaded TCG) can help, as long as
 * there are host cores for the harts (docs/qemu.md). */
#include "counters.h"
#include <boot/app.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hal/timer.h>

#define WORK_ITERS 50000000u

static volatile unsigned long sink[HAL_MAX_HARTS];

int app_main(void)
{
	boot_barrier_all();
	uint64_t t0 = hal_timer_now(), i0 = bench_instret();
	unsigned long x = hal_hart_idx() + 1;
	for (unsigned i = 0; i < WORK_ITERS; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink[hal_hart_idx()] = x;
	boot_barrier_all();
	if (hal_hart_idx() == 0)
		hal_printf("bench compute: harts=%u instret=%llu us=%llu\n",
			   hal_hart_num(),
			   (unsigned long long)(bench_instret() - i0),
			   (unsigned long long)hal_timer_ticks_to_us(
				   hal_timer_now() - t0));
	return 0;
}
