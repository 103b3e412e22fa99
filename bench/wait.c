// SPDX-License-Identifier: MIT
/*
 * Waiting while another hart works: hart 0 runs WORK_ITERS iterations of
 * arithmetic while every other hart waits for it. Built twice: with
 * BENCH_SPIN the waiters poll a flag (what hartpool does not do), without it
 * they sleep in the HAL barrier. The pair shows what waiting harts cost the
 * working one under each QEMU TCG mode (docs/qemu.md).
 */
#include "counters.h"
#include <boot/app.h>
#include <hal/atomic.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hal/timer.h>

#define WORK_ITERS 20000000u

static volatile unsigned long sink;
#ifdef BENCH_SPIN
#define WAIT_NAME "spin"
static unsigned done;
#else
#define WAIT_NAME "sleep"
#endif

int app_main(void)
{
	boot_barrier_all();
	uint64_t t0 = hal_timer_now(), i0 = bench_instret();
	if (hal_hart_idx() == 0) {
		unsigned long x = 1;
		for (unsigned i = 0; i < WORK_ITERS; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
		sink = x;
#ifdef BENCH_SPIN
		hal_store_release(&done, 1u);
#endif
	}
#ifdef BENCH_SPIN
	else {
		/* Deliberately a spin: the thing this benchmark measures. */
		while (!hal_load_acquire(&done))
			hal_cpu_relax();
	}
#endif
	boot_barrier_all();
	if (hal_hart_idx() == 0)
		hal_printf("bench wait: kind=" WAIT_NAME " harts=%u "
			   "instret=%llu us=%llu\n",
			   hal_hart_num(),
			   (unsigned long long)(bench_instret() - i0),
			   (unsigned long long)hal_timer_ticks_to_us(
				   hal_timer_now() - t0));
	return 0;
}
