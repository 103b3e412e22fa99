// SPDX-License-Identifier: MIT
/*
 * The firmware's main program, for now the boot demo: every hart answers a
 * roll-call, then all harts share one parallel job (sum of squares, split
 * cyclically) whose result hart 0 checks against the closed form. The
 * kernel executor replaces this in later issues.
 */
#include <boot/app.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hal/timer.h>
#include <stdint.h>

#define DEMO_N 200000u

static uint64_t demo_partial[HAL_MAX_HARTS];

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num();

	hal_printf("hart %u (id %lu) online\n", me,
		   (unsigned long)hal_hart_id(me));
	boot_barrier_all();

	uint64_t t0 = hal_timer_now();
	uint64_t sum = 0;
	for (uint64_t i = me + 1; i <= DEMO_N; i += n)
		sum += i * i;
	demo_partial[me] = sum;
	boot_barrier_all();

	if (me != 0)
		return 0;
	uint64_t total = 0;
	for (unsigned i = 0; i < n; i++)
		total += demo_partial[i];
	uint64_t want = (uint64_t)DEMO_N * (DEMO_N + 1) * (2 * DEMO_N + 1) / 6;
	uint64_t us = hal_timer_ticks_to_us(hal_timer_now() - t0);
	hal_printf("roll-call: %u/%u harts\n", n, n);
	hal_printf("demo: sum of i*i for i = 1..%u on %u harts = %llu "
		   "(expected %llu) in %llu us: %s\n",
		   DEMO_N, n, (unsigned long long)total,
		   (unsigned long long)want, (unsigned long long)us,
		   total == want ? "OK" : "WRONG");
	return total == want ? 0 : 1;
}
