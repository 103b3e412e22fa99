// SPDX-License-Identifier: MIT
/* The portable hart barrier with threads as harts: nobody leaves a round
 * before everybody arrived, exactly one "last arriver" per round, and two
 * barriers over disjoint sets of harts do not disturb each other. */
#include "check.h"
#include <hal/barrier.h>
#include <hal_host.h>

#define ROUNDS 2000

static hal_barrier all, half[2];
static unsigned arrivals, half_arrivals[2], lasts;
static unsigned harts;

static void body(void *arg)
{
	(void)arg;
	unsigned me = hal_hart_idx(), h = me % 2;
	unsigned half_num = harts / 2 + (h == 0 ? harts % 2 : 0);
	for (unsigned r = 0; r < ROUNDS; r++) {
		hal_fetch_add(&arrivals, 1u);
		if (hal_barrier_wait(&all))
			hal_fetch_add(&lasts, 1u);
		/* All harts arrived for round r before anyone left it. */
		CHECK(hal_load_relaxed(&arrivals) >= harts * (r + 1));

		hal_fetch_add(&half_arrivals[h], 1u);
		hal_barrier_wait(&half[h]);
		CHECK(hal_load_relaxed(&half_arrivals[h]) >=
		      half_num * (r + 1));
	}
}

int main(void)
{
	unsigned counts[] = {1, 2, 3, 8, 16};
	for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		harts = counts[c];
		arrivals = lasts = half_arrivals[0] = half_arrivals[1] = 0;
		hal_barrier_init(&all, harts);
		hal_barrier_init(&half[0], harts / 2 + harts % 2);
		hal_barrier_init(&half[1], harts / 2);
		hal_host_run(harts, body, NULL);
		CHECK_EQ(arrivals, harts * ROUNDS);
		CHECK_EQ(lasts, ROUNDS);
	}
	/* With 16 threads on a small host some waits must have slept: the
	 * barrier is not a pure spin. */
	CHECK(hal_host_sleeps() > 0);
	return check_report("test_barrier");
}
