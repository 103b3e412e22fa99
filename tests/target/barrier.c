// SPDX-License-Identifier: MIT
/*
 * 1,000 rounds of the hart barrier over all harts, checking after each that
 * every hart had arrived for that round (nobody passed early) and that one
 * hart per round was the last arriver; then 1,000 rounds on two barriers
 * over disjoint halves of the harts at once. Also a sleeping lock: a plain
 * counter updated under it comes out exact.
 */
#include "tt.h"
#include <boot/app.h>
#include <hal/barrier.h>
#include <hal/lock.h>

#define ROUNDS 1000u
#define LOCK_ITERS 200u

static hal_barrier all, half[2];
static unsigned ready, arrivals, lasts, half_arrivals[2];
static hal_lock lock = HAL_LOCK_INIT;
static unsigned long locked_counter;

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num(), h = me % 2;
	unsigned half_num = n / 2 + (h == 0 ? n % 2 : 0);

	if (me == 0) {
		hal_barrier_init(&all, n);
		hal_barrier_init(&half[0], n / 2 + n % 2);
		hal_barrier_init(&half[1], n / 2);
		hal_store_release(&ready, 1u);
	}
	boot_barrier_all();
	TT_CHECK(hal_load_acquire(&ready));

	unsigned early = 0;
	for (unsigned r = 0; r < ROUNDS; r++) {
		hal_fetch_add(&arrivals, 1u);
		if (hal_barrier_wait(&all))
			hal_fetch_add(&lasts, 1u);
		early += hal_load_relaxed(&arrivals) < n * (r + 1);
	}
	TT_CHECK(early == 0);
	for (unsigned r = 0; r < ROUNDS; r++) {
		hal_fetch_add(&half_arrivals[h], 1u);
		hal_barrier_wait(&half[h]);
		early += hal_load_relaxed(&half_arrivals[h]) <
			 half_num * (r + 1);
	}
	TT_CHECK(early == 0);

	for (unsigned i = 0; i < LOCK_ITERS; i++) {
		hal_lock_acquire(&lock);
		locked_counter++;
		hal_lock_release(&lock);
	}
	boot_barrier_all();
	if (me == 0) {
		TT_CHECK(lasts == ROUNDS);
		TT_CHECK(locked_counter == (unsigned long)n * LOCK_ITERS);
		hal_printf("barrier: %u rounds on %u harts, %u rounds on two "
			   "halves, none passed early; lock counter %lu\n",
			   ROUNDS, n, ROUNDS, locked_counter);
	}
	return tt_result();
}
