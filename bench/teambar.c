// SPDX-License-Identifier: MIT
/*
 * Team barriers, software against the board's barrier unit
 * (bench/barrier.sh). On all harts in use, for team sizes T = 2, 4, 8, 16,
 * 64 (those <= the hart count): teams of T consecutive harts, all teams at
 * once (harts past the last whole team sit out), three kinds of barrier:
 *
 *   software  hal_barrier_init(&b, T): AMO counter, wfi, IPIs, always;
 *             hal_barrier_wait (a waiter polls HAL_WAIT_POLLS times,
 *             then sleeps)
 *   team      hal_barrier_init_team(&b, &mask): the unit where the board
 *             has one and a barrier is free (qemu-cluster; not with
 *             -append hartpool.barrier_unit=0), else software;
 *             hal_barrier_wait (what the pool's team joins use)
 *   team_sleep the same barrier, waited on with the arrive / passed /
 *             sleep / depart loop and no polls, as the executor waits at a
 *             work-group barrier spread over a team (executor/
 *             team_barrier.c, without its time limit)
 *
 * Each case runs a checked pass (every hart counts its arrival in its
 * team's word before the wait and, after it, checks that all T arrivals of
 * the round are there: nobody passed early; exactly one member per round
 * elected), which also warms the code up, then the timed pass: R rounds of
 * the wait alone, bracketed by the markers of region
 * 8 * kind + size index (the instruction-count plugin gives every hart's
 * instructions in it: qemu/hp-qemu --count) and by timer reads (device
 * ticks). Hart 0 prints one line per case:
 *
 *   bench teambar: team=T kind=K backend=B teams=N rounds=R region=G
 *                  early=E ticks_max=X ticks_mean=Y ns_per_barrier=Z
 *
 * backend: unit, software or mixed (some teams did not get a unit
 * barrier); ticks: per hart, timer ticks of the timed pass (max, mean
 * over the harts in teams); ns_per_barrier from ticks_max. Bootargs:
 * teambar.rounds=R (default 1000). Exit status 1 if a check failed.
 */
#include <boot/app.h>
#include <hal/atomic.h>
#include <hal/barrier.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hal/sleep.h>
#include <hal/timer.h>
#include <hartpool/marker.h>

enum { KIND_SOFTWARE, KIND_TEAM, KIND_TEAM_SLEEP, NKINDS };
static const char *const kind_name[] = {"software", "team", "team_sleep"};
static const unsigned sizes[] = {2, 4, 8, 16, 64};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* One barrier and one check word per team (a team's members share them;
 * teams do not). */
static struct {
	hal_barrier b;
	unsigned arrivals, elected;
} __attribute__((aligned(64))) team[HAL_MAX_HARTS];
static uint64_t ticks[HAL_MAX_HARTS];
static unsigned early[HAL_MAX_HARTS];
static unsigned rounds = 1000, in_unit, failed;

/* Hart 0, with nobody inside: a barrier per team of @p t. */
static void setup(unsigned kind, unsigned t, unsigned n)
{
	in_unit = 0;
	for (unsigned j = 0; j < n / t; j++) {
		hal_store_relaxed(&team[j].arrivals, 0u);
		hal_store_relaxed(&team[j].elected, 0u);
		if (kind == KIND_SOFTWARE) {
			hal_barrier_init(&team[j].b, t);
			continue;
		}
		hal_hartmask m = {{0}};
		for (unsigned r = 0; r < t; r++)
			hal_hartmask_set(&m, j * t + r);
		in_unit += hal_barrier_init_team(&team[j].b, &m);
	}
}

/* One wait of @p kind; true on the member hal_barrier_wait() elects (the
 * sleep loop elects the team's first member, as the unit does). */
static bool bar_wait(unsigned kind, hal_barrier *b)
{
	if (kind != KIND_TEAM_SLEEP)
		return hal_barrier_wait(b);
	bool elected = hal_hart_idx() == b->first;
	unsigned ticket = hal_barrier_arrive(b);
	for (;;) {
		hal_sleep_prepare();
		if (hal_barrier_passed(b, ticket))
			break;
		hal_barrier_sleep(b, ticket);
	}
	hal_barrier_depart(b);
	return elected;
}

/* Region markers need constant IDs: a switch over the 15 regions. */
#define MARK_CASE(g)                                                           \
	case g:                                                                \
		if (end)                                                       \
			HP_MARK_END(g);                                        \
		else                                                           \
			HP_MARK_BEGIN(g);                                      \
		break;
static void mark(unsigned region, bool end)
{
	switch (region) {
		MARK_CASE(0)
		MARK_CASE(1)
		MARK_CASE(2)
		MARK_CASE(3)
		MARK_CASE(4)
		MARK_CASE(8)
		MARK_CASE(9)
		MARK_CASE(10)
		MARK_CASE(11)
		MARK_CASE(12)
		MARK_CASE(16)
		MARK_CASE(17)
		MARK_CASE(18)
		MARK_CASE(19)
		MARK_CASE(20)
	default:
		break;
	}
}

/* One case on every hart. */
static void run_case(unsigned kind, unsigned si, unsigned me, unsigned n)
{
	unsigned t = sizes[si], j = me / t, region = 8 * kind + si;
	bool member = j < n / t;
	if (me == 0)
		setup(kind, t, n);
	boot_barrier_all();
	if (member) {
		hal_barrier *b = &team[j].b;
		unsigned e = 0;
		/* Checked pass (and warm-up). */
		for (unsigned r = 0; r < rounds; r++) {
			hal_fetch_add(&team[j].arrivals, 1u);
			if (bar_wait(kind, b))
				hal_fetch_add(&team[j].elected, 1u);
			e += hal_load_relaxed(&team[j].arrivals) < t * (r + 1);
		}
		early[me] = e;
		/* Timed pass: the waits alone. */
		uint64_t t0 = hal_timer_now();
		mark(region, false);
		if (kind == KIND_TEAM_SLEEP)
			for (unsigned r = 0; r < rounds; r++)
				bar_wait(KIND_TEAM_SLEEP, b);
		else
			for (unsigned r = 0; r < rounds; r++)
				hal_barrier_wait(b);
		mark(region, true);
		ticks[me] = hal_timer_now() - t0;
	}
	boot_barrier_all();
	if (me != 0)
		return;
	unsigned teams = n / t, e = 0, bad_elect = 0;
	uint64_t max = 0, sum = 0;
	for (unsigned h = 0; h < teams * t; h++) {
		e += early[h];
		sum += ticks[h];
		if (ticks[h] > max)
			max = ticks[h];
	}
	for (unsigned k = 0; k < teams; k++) {
		bad_elect += hal_load_relaxed(&team[k].elected) != rounds;
		hal_barrier_fini(&team[k].b);
	}
	const char *backend = in_unit == teams ? "unit"
			      : in_unit == 0   ? "software"
					       : "mixed";
	uint64_t hz = hal_timer_freq();
	hal_printf("bench teambar: team=%u kind=%s backend=%s teams=%u "
		   "rounds=%u region=%u early=%u elect_errors=%u "
		   "ticks_max=%llu ticks_mean=%llu ns_per_barrier=%llu\n",
		   t, kind_name[kind], backend, teams, rounds, region, e,
		   bad_elect, (unsigned long long)max,
		   (unsigned long long)(sum / (teams * t)),
		   (unsigned long long)(max * 1000000000ull / hz / rounds));
	if (e || bad_elect)
		failed = 1;
}

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num();
	if (me == 0) { /* the others read it after the first barrier */
		rounds = (unsigned)boot_bootarg("teambar.rounds", 1000);
		if (rounds == 0)
			rounds = 1;
		hal_printf("bench teambar: harts=%u timer_hz=%llu rounds=%u "
			   "unit=%s\n",
			   n, (unsigned long long)hal_timer_freq(), rounds,
			   hal_barrier_unit ? "yes" : "no");
	}
	for (unsigned si = 0; si < NSIZES && sizes[si] <= n; si++)
		for (unsigned kind = 0; kind < NKINDS; kind++)
			run_case(kind, si, me, n);
	boot_barrier_all();
	if (me == 0)
		hal_printf("bench teambar: %s\n", failed ? "FAIL" : "OK");
	return me == 0 && failed ? 1 : 0;
}
