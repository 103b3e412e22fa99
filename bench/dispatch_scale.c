// SPDX-License-Identifier: MIT
/*
 * What an empty dispatch costs the whole device, at any hart count
 * (bench/dispatch_scale.sh runs it at 8, 64 and 512 harts). Under
 * qemu -icount, minstret is one count over all harts, so the difference
 * around exec_enqueue() + exec_wait() on hart 0 is every instruction any
 * hart ran for the launch: the driver, the harts it woke, and any hart it
 * touched. Hart 0 only drives (dedicated, as the firmware's dispatcher);
 * the other harts sleep in the pool until woken.
 *
 *   groups=1      one work-group of one item (the empty dispatch)
 *   groups=8      eight groups: eight harts' worth of work, the same at
 *                 every hart count (the wake-ups follow the work)
 *
 * Each case: REPS launches, each after a pause that lets every hart go
 * back to sleep; the median is printed as
 *   bench dispatch_scale: harts=N groups=G instructions=X (min A max B)
 */
#include "counters.h"
#include <boot/app.h>
#include <executor/exec.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hal/timer.h>

#define REPS 9

HP_KERNEL(ds_empty, const hp_item *it, const void *args)
{
	(void)it;
	(void)args;
}
HP_REGISTER(ds_empty);

static void sort(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

static int run(uint64_t groups)
{
	extern const hp_kernel hp_kernel_ds_empty;
	uint64_t v[REPS];
	for (unsigned r = 0; r < REPS; r++) {
		static exec_cmd c;
		c = (exec_cmd){.kernel = &hp_kernel_ds_empty,
			       .range = {.work_dim = 1,
					 .global = {groups},
					 .local = {1},
					 .local_given = true}};
		/* Every woken hart back asleep: nothing of the previous
		 * launch is counted in this one. */
		hal_timer_sleep_us(500);
		uint64_t i0 = bench_instret();
		exec_enqueue(NULL, &c);
		exec_wait(&c);
		v[r] = bench_instret() - i0;
		if (c.status) {
			hal_printf("bench dispatch_scale: failed: %s\n",
				   hp_error_name(c.status));
			return 1;
		}
	}
	sort(v, REPS);
	hal_printf("bench dispatch_scale: harts=%u groups=%llu "
		   "instructions=%llu (min %llu max %llu)\n",
		   hal_hart_num(), (unsigned long long)groups,
		   (unsigned long long)v[REPS / 2], (unsigned long long)v[0],
		   (unsigned long long)v[REPS - 1]);
	return 0;
}

int app_main(void)
{
	if (!exec_start(boot_barrier_all, true))
		return 0;
	exec_dev.isolation = boot_bootarg("hartpool.isolation", 1) != 0;
	/* Let every other hart reach its idle sleep first: single-threaded
	 * TCG would otherwise keep hart 0 running past the point where the
	 * others register as idle. */
	hal_timer_sleep_us(2000);
	int rc = run(1);
	if (!rc && hal_hart_num() > 8)
		rc = run(8);
	exec_shutdown();
	return rc;
}
