/* SPDX-License-Identifier: MIT */
/*
 * The work-pool (pool.c), as the command layer (cmd.c) sees it: launch a
 * command's kernel instance into a free slot, wake harts for it, and hear
 * back through the two callbacks given to exec_pool_init() when an
 * instance completed or a slot became free. The pool alone owns the
 * instance slots: it publishes them, and it frees them.
 */
#ifndef EXECUTOR_POOL_H
#define EXECUTOR_POOL_H

#include "exec.h"
#include <hal/atomic.h>
#include <hal/hartmask.h>

#define EXEC_MAX_INSTANCES 16

/* How the pool reports up (the only calls from the pool into the command
 * layer). Both run on the hart that made the change, outside any pool
 * lock. Each must look at the pending list (launch what can go): that is
 * how no command waits for a slot while one is free (docs/executor.md,
 * Liveness). */
typedef struct exec_pool_events {
	/* The last group of c's instance finished: `status` is
	 * EXEC_COMPLETE or the first fault, `detail` its text or NULL,
	 * `fault` where a trap hit (or NULL). Without a fault the slot is
	 * free already, so the pass over the pending list may launch into
	 * it; a faulted instance's slot holds `detail` and `fault`, and is
	 * freed only after `done` returns. */
	void (*done)(exec_cmd *c, int status, const char *detail,
		     const exec_fault_info *fault);
	/* A slot became usable while a launch wanted one, or a team
	 * instance's slot became free (a team instance of another size may
	 * wait for that): pending commands may launch now. */
	void (*slot_free)(void);
} exec_pool_events;

/* Allocate the pool and everything below it for `harts` harts. */
void exec_pool_init(unsigned harts, const exec_pool_events *ev);

/* Whom to wake for a launch: up to `count` idle harts below `limit` that
 * have the capabilities `need` (EXEC_CAP_*). Taken under the command lock,
 * used after it (the instance may be gone). */
typedef struct {
	size_t count;
	unsigned limit;
	unsigned need;
} exec_wake;

/* Publish c's instance in a free slot (false: none free) and say whom to
 * wake for it; exec_pool_wake() wakes them. The caller serialises launches
 * (cmd.c's lock) and wakes after releasing it. After a false, the pool
 * calls exec_pool_events.slot_free once a slot is usable. */
bool exec_pool_try_launch(exec_cmd *c, exec_wake *w);
void exec_pool_wake(const exec_wake *w);
/* A team instance of team_size must wait: one of another team size still
 * holds a slot (teams of different sizes overlap, pool.c). */
bool exec_pool_team_held(unsigned team_size);

/* Cancel c's instance if it is in the pool (exec_cancel): its fault is
 * `status` with `detail` (unless it has one), the groups nobody claimed
 * count as done, the harts in its kernel code are interrupted. False if c
 * has no instance in the pool. */
bool exec_pool_cancel(exec_cmd *c, int status, const char *detail);

/* Sleep until there may be work, shutdown, the timer reaches `deadline`
 * (UINT64_MAX: none), or, with `word` given, *word <= 0; the hart is in
 * `waiters` meanwhile (whoever changes *word wakes that mask). */
void exec_pool_idle(hal_hartmask *waiters, const int *word, uint64_t deadline);
/* Team instances in the pool (pool.c; read with acquire). */
extern unsigned exec_team_active;
void exec_pool_settle_teams(void);
/* Run what the pool still needs this hart for (a team instance's last
 * join) before it goes back to other things: nothing, and no call, when
 * no team instance is in the pool. */
static inline void exec_pool_settle(void)
{
	if (hal_load_acquire(&exec_team_active))
		exec_pool_settle_teams();
}

#endif
