// SPDX-License-Identifier: MIT
/*
 * Lock contention: every hart takes a lock LOCK_ROUNDS times around a tiny
 * section. Built twice: with BENCH_SPIN a plain test-and-set spin lock (what
 * hartpool does not do), without it the HAL's sleeping lock. The pair shows
 * what spinning costs under each QEMU TCG mode (docs/qemu.md).
 */
#include "counters.h"
#include <boot/app.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hal/lock.h>
#include <hal/timer.h>

#define LOCK_ROUNDS 20u

static unsigned long counter;
#ifdef BENCH_SPIN
static unsigned spin;
#define LOCK_NAME "spin"
static void take(void)
{
	/* Deliberately a spin: the thing this benchmark measures. */
	while (hal_swap(&spin, 1u))
		hal_cpu_relax();
}
static void give(void)
{
	hal_store_release(&spin, 0u);
}
#else
static hal_lock lock = HAL_LOCK_INIT;
#define LOCK_NAME "sleep"
static void take(void)
{
	hal_lock_acquire(&lock);
}
static void give(void)
{
	hal_lock_release(&lock);
}
#endif

int app_main(void)
{
	boot_barrier_all();
	uint64_t t0 = hal_timer_now(), i0 = bench_instret();
	for (unsigned i = 0; i < LOCK_ROUNDS; i++) {
		take();
		counter++;
		give();
	}
	boot_barrier_all();
	if (hal_hart_idx() == 0) {
		unsigned long want =
			(unsigned long)hal_hart_num() * LOCK_ROUNDS;
		hal_printf("bench lock: kind=" LOCK_NAME " harts=%u "
			   "instret=%llu us=%llu counter=%lu%s\n",
			   hal_hart_num(),
			   (unsigned long long)(bench_instret() - i0),
			   (unsigned long long)hal_timer_ticks_to_us(
				   hal_timer_now() - t0),
			   counter, counter == want ? "" : " WRONG");
		return counter == want ? 0 : 1;
	}
	return 0;
}
