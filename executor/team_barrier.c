// SPDX-License-Identifier: MIT
/*
 * The team barrier of one work-group spread over T harts (team_barrier.h).
 * The pool owns the barrier (a HAL team barrier: the board's unit or
 * software) and binds it to each member before calling kernel code. Kernel
 * code in U-mode cannot touch it, sleep or wake anyone, so it asks with an
 * ecall and the firmware waits on its behalf; in M-mode (isolation off) it
 * waits directly. Either way a wait past the kernel's time limit leaves
 * the barrier (the team goes on without us) and abandons the kernel.
 */
#include "team_barrier.h"
#include "kctx.h"
#include "trace.h"
#include <hal/heap.h>
#include <hal/isolation.h>
#include <hal/sleep.h>
#include <hal/timer.h>

static hal_barrier **team_bound; /* per hart (firmware-private) */

void exec_team_init(unsigned harts)
{
	team_bound = hal_heap_alloc_private(harts * sizeof(*team_bound), 64);
}

void exec_team_bind(hal_barrier *b)
{
	team_bound[hal_hart_idx()] = b;
}

enum { WAIT_PASSED, WAIT_STOPPED, WAIT_PARKED };

/* Wait for the release of our round: WAIT_STOPPED if the kernel must stop
 * first (its time limit passed, or its command was cancelled: the
 * canceller's IPI ends the sleep), and we have left the barrier;
 * WAIT_PARKED (in U-mode kernel code, @p regs given) if the pool stops the
 * team for its time slice (*park: where to go), and our arrival stays. */
static int team_wait(hal_barrier *b, unsigned ticket, const unsigned long *regs,
		     unsigned long status, hal_jmp_buf **park)
{
	for (;;) {
		hal_sleep_prepare();
		if (hal_barrier_passed(b, ticket))
			break;
		if (exec_kctx_should_stop()) {
			hal_barrier_leave(b);
			return WAIT_STOPPED;
		}
		if (regs &&
		    (*park = exec_pool_team_wait(regs, status, ticket))) {
			hal_barrier_pause(b);
			return WAIT_PARKED;
		}
		hal_barrier_sleep(b, ticket);
	}
	hal_barrier_depart(b);
	return WAIT_PASSED;
}

void exec_team_arrive(bool user)
{
	if (user) {
		hal_user_team_arrive(); /* exec_team_ecall() */
		return;
	}
	/* M-mode kernel code: the watchdog's timer would trap; paused, it
	 * only ends wfi, and the wait checks the deadline itself. */
	hal_barrier *b = team_bound[hal_hart_idx()];
	bool limited = exec_kctx_deadline() != 0;
	if (limited)
		hal_watchdog_pause();
	bool ok;
	EXEC_TRACE_SPAN(HP_TRACE_BARRIER, NULL, 0, 0, 0,
			ok = team_wait(b, hal_barrier_arrive(b), NULL, 0,
				       NULL) == WAIT_PASSED);
	if (limited)
		hal_watchdog_resume();
	if (!ok)
		exec_kctx_abort(); /* leave() disarms */
}

void exec_team_leave(bool user)
{
	if (user)
		hal_user_team_leave();
	else
		hal_barrier_leave(team_bound[hal_hart_idx()]);
}

hal_jmp_buf *exec_team_ecall(unsigned op, const unsigned long *regs,
			     unsigned long status)
{
	hal_barrier *b = team_bound[hal_hart_idx()];
	if (!b)
		return NULL; /* not in a team: nothing to wait for */
	if (op == HAL_SYS_TEAM_LEAVE) {
		hal_barrier_leave(b);
		return NULL;
	}
	hal_jmp_buf *jb = exec_kernel_timeout_check(regs[0]);
	if (jb)
		return jb;
	/* In the trap handler interrupts are off: the IPI of a software
	 * release must still end wfi (the unit enables its own line). A
	 * member that parked in this wait goes on with its ticket (a0). */
	unsigned long saved = hal_user_wait_begin();
	unsigned ticket = op == HAL_SYS_TEAM_WAIT ? (unsigned)regs[HAL_UREG_A0]
						  : hal_barrier_arrive(b);
	int how;
	EXEC_TRACE_SPAN(HP_TRACE_BARRIER, NULL, 0, 0, 0,
			how = team_wait(b, ticket, regs, status, &jb));
	if (how == WAIT_STOPPED)
		jb = exec_kernel_timeout_check(regs[0]);
	hal_user_wait_end(saved);
	return jb;
}
