// SPDX-License-Identifier: MIT
/*
 * Barriers, each round checked for an early pass (a hart past the barrier
 * before every member had arrived for that round):
 *   1. 1,000 rounds of the count barrier over all harts (exactly one hart
 *      per round elected), then 1,000 on two at once over the halves;
 *   2. team barriers (hal_barrier_init_team: the board's barrier unit where
 *      it has one): 1,000 rounds over all harts, then 1,000 on teams of 4
 *      (2 below 8 harts) all at once, where the last member of each team
 *      leaves after 500 rounds and the rest go on without it;
 *   3. a sleeping lock: a plain counter updated under it comes out exact.
 * The last line says how many team barriers the unit took.
 */
#include "tt.h"
#include <boot/app.h>
#include <hal/barrier.h>
#include <hal/lock.h>

#define ROUNDS 1000u
#define LEAVE_AT 500u
#define LOCK_ITERS 200u

static hal_barrier all, half[2];
static hal_barrier team_all, teams[HAL_MAX_HARTS];
static unsigned ready, arrivals, lasts, half_arrivals[2];
static unsigned all_arrivals, team_arrivals[HAL_MAX_HARTS], team_lasts;
static unsigned in_unit;
static hal_lock lock = HAL_LOCK_INIT;
static unsigned long locked_counter;

static unsigned team_size(unsigned n)
{
	return n >= 8 ? 4 : n >= 2 ? 2 : 1;
}

/* Hart 0, before anyone uses them. */
static void setup(unsigned n)
{
	hal_barrier_init(&all, n);
	hal_barrier_init(&half[0], n / 2 + n % 2);
	hal_barrier_init(&half[1], n / 2);
	hal_hartmask m = {{0}};
	for (unsigned i = 0; i < n; i++)
		hal_hartmask_set(&m, i);
	in_unit += hal_barrier_init_team(&team_all, &m);
	unsigned t = team_size(n);
	for (unsigned j = 0; j < n / t; j++) {
		hal_hartmask tm = {{0}};
		for (unsigned r = 0; r < t; r++)
			hal_hartmask_set(&tm, j * t + r);
		in_unit += hal_barrier_init_team(&teams[j], &tm);
	}
	hal_store_release(&ready, 1u);
}

/* Rounds on this hart's team (harts past the last whole team sit out);
 * the team's last member leaves after LEAVE_AT rounds. */
static unsigned team_rounds(unsigned me, unsigned n)
{
	unsigned t = team_size(n), j = me / t, early = 0;
	if (j >= n / t)
		return 0;
	bool leaver = t > 1 && me % t == t - 1;
	for (unsigned r = 0; r < ROUNDS; r++) {
		/* Arrivals before round r: t per round up to LEAVE_AT, then
		 * t - 1 per round. */
		unsigned want =
			r < LEAVE_AT
				? t * (r + 1)
				: t * LEAVE_AT + (t - 1) * (r + 1 - LEAVE_AT);
		if (leaver && r == LEAVE_AT) {
			hal_barrier_leave(&teams[j]);
			break;
		}
		hal_fetch_add(&team_arrivals[j], 1u);
		hal_barrier_wait(&teams[j]);
		early += hal_load_relaxed(&team_arrivals[j]) < want;
	}
	return early;
}

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num(), h = me % 2;
	unsigned half_num = n / 2 + (h == 0 ? n % 2 : 0);

	if (me == 0)
		setup(n);
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

	for (unsigned r = 0; r < ROUNDS; r++) {
		hal_fetch_add(&all_arrivals, 1u);
		if (hal_barrier_wait(&team_all))
			hal_fetch_add(&team_lasts, 1u);
		early += hal_load_relaxed(&all_arrivals) < n * (r + 1);
	}
	TT_CHECK(early == 0);
	early += team_rounds(me, n);
	TT_CHECK(early == 0);

	for (unsigned i = 0; i < LOCK_ITERS; i++) {
		hal_lock_acquire(&lock);
		locked_counter++;
		hal_lock_release(&lock);
	}
	boot_barrier_all();
	if (me == 0) {
		unsigned t = team_size(n);
		TT_CHECK(lasts == ROUNDS);
		TT_CHECK(team_lasts == ROUNDS);
		TT_CHECK(locked_counter == (unsigned long)n * LOCK_ITERS);
		hal_barrier_fini(&team_all);
		for (unsigned j = 0; j < n / t; j++)
			hal_barrier_fini(&teams[j]);
		hal_printf("barrier: %u rounds on %u harts, %u rounds on two "
			   "halves, none passed early; lock counter %lu\n",
			   ROUNDS, n, ROUNDS, locked_counter);
		hal_printf("barrier: team barriers: %u rounds on %u harts, %u "
			   "rounds on %u teams of %u (one member leaving "
			   "after %u), none passed early; %u of %u in the "
			   "barrier unit\n",
			   ROUNDS, n, ROUNDS, n / t, t, LEAVE_AT,
			   (unsigned)in_unit, 1 + n / t);
	}
	return tt_result();
}
