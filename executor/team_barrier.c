// SPDX-License-Identifier: MIT
/*
 * The team barrier of one work-group spread over T harts (team_barrier.h):
 * an AMO word counts arrivals and departures, the hart that completes a
 * round bumps the generation and wakes the sleepers. Waits sleep (wfi) and
 * are woken by IPI: in U-mode both are ecalls (hal_user_sleep/wake), in
 * M-mode under a time limit the wait watches the deadline itself.
 */
#include "team_barrier.h"
#include "kctx.h"
#include <hal/atomic.h>
#include <hal/ipi.h>
#include <hal/isolation.h>
#include <hal/sleep.h>
#include <hal/timer.h>

static void team_release(exec_team_wgb *b, unsigned w, bool user)
{
	hal_store_relaxed(&b->word, w & 0xffff0000u);
	hal_store_release(&b->gen, hal_load_relaxed(&b->gen) + 1);
	if (user)
		hal_user_wake(&b->sleepers); /* ecall */
	else
		hal_ipi_send_mask_clear(&b->sleepers);
}

/* The wait of a team barrier. In U-mode the sleep is an ecall that also
 * ends the kernel once past its time limit (trap_fw.c). In M-mode under
 * the watchdog (kernel context with a time limit) interrupts are paused,
 * so the release IPI ends wfi, and a wait past the deadline abandons the
 * kernel. */
static void team_wait(exec_team_wgb *b, unsigned gen, bool user)
{
	if (user) {
		unsigned me = hal_hart_idx();
		while (hal_load_acquire(&b->gen) == gen) {
			hal_hartmask_set(&b->sleepers, me);
			if (hal_load_acquire(&b->gen) != gen)
				break;
			hal_user_sleep(); /* clears the IPI it wakes on */
		}
		return;
	}
	if (!exec_kctx_deadline()) {
		hal_wait_while_eq(&b->gen, gen, &b->sleepers);
		return;
	}
	unsigned me = hal_hart_idx();
	hal_watchdog_pause();
	while (hal_load_acquire(&b->gen) == gen) {
		if (exec_kctx_timed_out())
			exec_kctx_abort_timeout(); /* leave() disarms */
		hal_sleep_prepare();
		hal_hartmask_set(&b->sleepers, me);
		if (hal_load_acquire(&b->gen) != gen)
			break;
		hal_sleep();
	}
	hal_watchdog_resume();
}

void exec_team_arrive(exec_team_wgb *b, bool user)
{
	unsigned gen = hal_load_acquire(&b->gen);
	unsigned w = hal_fetch_add(&b->word, 1u) + 1u;
	if ((w & 0xffff) + (w >> 16) == b->team) {
		team_release(b, w, user);
		return;
	}
	team_wait(b, gen, user);
}

void exec_team_leave(exec_team_wgb *b, bool user)
{
	unsigned w = hal_fetch_add(&b->word, 1u << 16) + (1u << 16);
	/* Our leaving may complete a round the others are waiting in. */
	if ((w & 0xffff) && (w & 0xffff) + (w >> 16) == b->team)
		team_release(b, w, user);
}
