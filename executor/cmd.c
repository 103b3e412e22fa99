// SPDX-License-Identifier: MIT
/*
 * Commands, queues and events. Enqueue validates; a valid command waits in
 * the pending list until everything it depends on is complete (its wait
 * list, and its predecessor in an in-order queue), then its kernel instance
 * goes into the work-pool. A command whose dependency failed completes with
 * HP_ABORTED. The pending list and launches are serialised by one lock;
 * none of this is on the per-work-group path.
 */
#include "kctx.h"
#include "kview.h"
#include "pool.h"
#include <hal/ipi.h>
#include <hal/lock.h>
#include <hal/timer.h>
#include <string.h>

#define EXEC_CMD_MAGIC 0x68706364u /* "hpcd" */

static hal_lock cmd_lock = HAL_LOCK_INIT;
static exec_cmd *pending_head, *pending_tail;
/* Wake-ups owed for instances launched under the lock, done after it. */
static exec_wake launched[EXEC_MAX_INSTANCES];
static unsigned launched_num;

/* Launch c's instance from a pass over the pending list. A pass can launch
 * more instances than there are slots: one that completes meanwhile on
 * another hart frees its slot before that hart waits for the lock. Past
 * the table, the last entry wakes every idle hart (a superset of the
 * wake-ups owed; a hart without work goes back to sleep). */
static bool launch_pending(exec_cmd *c)
{
	if (launched_num < EXEC_MAX_INSTANCES) {
		if (!exec_pool_try_launch(c, &launched[launched_num]))
			return false;
		launched_num++;
		return true;
	}
	exec_wake w;
	if (!exec_pool_try_launch(c, &w))
		return false;
	launched[EXEC_MAX_INSTANCES - 1] =
		(exec_wake){exec_dev.harts, exec_dev.harts, 0};
	return true;
}

/* Harts sleeping in exec_wait(): every completion wakes them all (they
 * re-check their own command), so a completed command is never touched. */
static hal_hartmask exec_cmd_waiters;

int exec_status(const exec_cmd *c)
{
	return hal_load_acquire(&c->status);
}

/* Set the results of c and publish its status. */
static void finish(exec_cmd *c, int status, const char *detail)
{
	c->t_end = hal_timer_now();
	if (!c->t_start)
		c->t_start = c->t_end;
	if (!c->t_submit)
		c->t_submit = c->t_start;
	c->error_detail = detail;
	if (c->on_complete)
		c->on_complete(c, status);
	hal_store_release(&c->status, status);
	hal_ipi_send_mask_clear(&exec_cmd_waiters);
}

/* Finish c with `status`; the lock is held. Everything that refers to c
 * learns it first, because once the status is stored the caller may reuse
 * c. So a wait-list entry already seen complete names a command that may
 * be gone: c may be a new command in the same memory, and its status is
 * not that entry's. */
static void complete(exec_cmd *c, int status, const char *detail)
{
	for (exec_cmd *p = pending_head; p; p = p->next_pending) {
		for (unsigned i = 0; i < p->num_wait; i++)
			if (!(p->deps_done & (1u << i)) &&
			    p->wait_list[i] == c) {
				p->deps_done |= 1u << i;
				p->deps_failed |= status < 0;
			}
		if (p->prev_in_queue == c)
			p->prev_in_queue = NULL;
		if (p->fence == c)
			p->fence = NULL;
		if (p->barrier && c->counted && p->queue == c->queue &&
		    c->seq < p->seq)
			p->earlier--;
	}
	if (c->queue && c->queue->last == c)
		c->queue->last = NULL;
	if (c->queue && c->queue->fence == c)
		c->queue->fence = NULL;
	if (c->counted)
		c->queue->incomplete--;
	finish(c, status, detail);
}

/* 1: ready, 0: waiting, -1: a command in the wait list failed. The
 * in-order predecessor only orders: its failure is not inherited. Only
 * dependencies not yet seen complete are read (those are still alive). */
static int deps_state(exec_cmd *c)
{
	for (unsigned i = 0; i < c->num_wait; i++) {
		if (c->deps_done & (1u << i))
			continue;
		int st = hal_load_acquire(&c->wait_list[i]->status);
		if (st <= 0) {
			c->deps_done |= 1u << i;
			c->deps_failed |= st < 0;
		}
	}
	if (c->deps_failed)
		return -1;
	if (c->num_wait && c->deps_done != (1u << c->num_wait) - 1)
		return 0;
	if (c->fence) {
		if (hal_load_acquire(&c->fence->status) > 0)
			return 0;
		c->fence = NULL;
	}
	if (c->barrier && c->earlier)
		return 0;
	if (c->prev_in_queue) {
		if (hal_load_acquire(&c->prev_in_queue->status) > 0)
			return 0;
		c->prev_in_queue = NULL;
	}
	return 1;
}

/* Launch or fail every pending command that can go; the lock is held.
 * Passes come after every event that can let a command go (liveness,
 * docs/executor.md): a completion (its dependents), an enqueue, and the
 * pool's slot_free (a slot became usable while a launch wanted one, or a
 * team instance of another size left). Once the pool has no usable slot,
 * the rest of the pass does not look for one (a burst of hundreds of
 * commands from the mailbox would otherwise cost a slot scan per command
 * per pass): the failed launch asked the pool for a slot_free. */
static void process_pending(void)
{
	bool changed = true;
	while (changed) {
		changed = false;
		/* Team instances launch in order: once one waits for
		 * another team size to drain, later ones wait behind it. */
		bool slots_full = false, teams_held = false;
		exec_cmd *prev = NULL;
		for (exec_cmd *c = pending_head; c;) {
			exec_cmd *next = c->next_pending;
			int st = deps_state(c);
			bool gone = false, completed = false;
			if (st < 0) {
				complete(c, HP_ABORTED,
					 "a command it depends on failed");
				gone = completed = true;
			} else if (st > 0 && c->marker) {
				c->t_submit = hal_timer_now();
				complete(c, EXEC_COMPLETE, NULL);
				gone = completed = true;
			} else if (st > 0 && c->kernel) {
				if (!c->t_submit)
					c->t_submit = hal_timer_now();
				bool held = false;
				if (c->launch.total_groups &&
				    c->launch.team_size > 1) {
					teams_held =
						teams_held ||
						exec_pool_team_held(
							c->launch.team_size);
					held = teams_held;
				}
				if (c->launch.total_groups == 0) {
					complete(c, EXEC_COMPLETE, NULL);
					gone = completed = true;
				} else if (!slots_full && !held &&
					   launch_pending(c)) {
					c->t_start = hal_timer_now();
					hal_store_release(&c->status,
							  (int)EXEC_RUNNING);
					gone = true;
				} else {
					slots_full |= !held;
					if (hal_load_relaxed(&c->status) !=
					    EXEC_SUBMITTED)
						hal_store_release(
							&c->status,
							(int)EXEC_SUBMITTED);
				}
			}
			changed |= completed;
			if (gone) {
				if (prev)
					prev->next_pending = next;
				else
					pending_head = next;
				if (pending_tail == c)
					pending_tail = prev;
			} else {
				prev = c;
			}
			c = next;
		}
	}
}

static __attribute__((noinline)) void unlock_and_wake_all(void)
{
	exec_wake todo[EXEC_MAX_INSTANCES];
	unsigned n = launched_num;
	for (unsigned i = 0; i < n; i++)
		todo[i] = launched[i];
	launched_num = 0;
	hal_lock_release(&cmd_lock);
	for (unsigned i = 0; i < n; i++)
		exec_pool_wake(&todo[i]);
}

/* Release the lock, then wake harts for what was launched under it:
 * woken harts should find every new instance, not just the first. Most
 * calls launched one instance or none. */
static void unlock_and_wake(void)
{
	unsigned n = launched_num;
	if (n > 1) {
		unlock_and_wake_all();
		return;
	}
	exec_wake one = launched[0];
	launched_num = 0;
	hal_lock_release(&cmd_lock);
	if (n)
		exec_pool_wake(&one);
}

static int validate(exec_cmd *c, const char **detail)
{
	if (c->marker && c->kernel)
		return HP_INVALID_VALUE;
	int rc = c->marker ? 0
			   : exec_ndrange_setup(&exec_dev, c->kernel, &c->range,
						&c->launch, NULL, 0);
	if (rc)
		return rc;
	const hp_kernel *k = c->kernel;
	if (k && exec_dev.without_fpu &&
	    exec_kernel_supported(&exec_dev, k, c->launch.team_size, NULL, 0)) {
		*detail = "the kernel uses the FPU and no worker hart (or "
			  "team) in use has one";
		return HP_KERNEL_NOT_SUPPORTED;
	}
	if (k && k->args_size && (!c->args || c->args_size != k->args_size))
		return HP_INVALID_KERNEL_ARGS;
	/* Kernels get a copy (exec_kview). */
	if (c->args && c->args_size > EXEC_ARGS_MAX)
		return HP_INVALID_KERNEL_ARGS;
	if (c->num_wait > EXEC_MAX_WAIT || (c->num_wait && !c->wait_list))
		return HP_INVALID_EVENT_WAIT_LIST;
	for (unsigned i = 0; i < c->num_wait; i++)
		if (!c->wait_list[i] || c->wait_list[i] == c ||
		    c->wait_list[i]->magic != EXEC_CMD_MAGIC)
			return HP_INVALID_EVENT_WAIT_LIST;
	return 0;
}

static void cmd_reset(exec_queue *q, exec_cmd *c)
{
	c->t_queued = hal_timer_now();
	c->t_submit = c->t_start = c->t_end = 0;
	c->error_detail = NULL;
	/* Field by field: a memset call costs more than these stores. */
	c->fault_set = false;
	c->queue = q;
	c->prev_in_queue = NULL;
	c->fence = NULL;
	c->seq = 0;
	c->earlier = 0;
	c->counted = false;
	c->next_pending = NULL;
	c->deps_done = 0;
	c->deps_failed = false;
}

/* Append c to the pending list and see what can run; lock held. A
 * kernel command that waits for nothing, with nothing pending before it,
 * goes straight into the pool (the common case: one pass over a list of
 * one costs a third of a dispatch); deps_state() would find it ready. */
static void add_pending(exec_cmd *c)
{
	if (!pending_head && c->kernel && !c->num_wait && !c->fence &&
	    !c->prev_in_queue && !(c->barrier && c->earlier) &&
	    c->launch.total_groups && c->launch.team_size <= 1 &&
	    exec_pool_try_launch(c, &launched[launched_num])) {
		launched_num++;
		c->t_submit = c->t_start = hal_timer_now();
		hal_store_release(&c->status, (int)EXEC_RUNNING);
		return;
	}
	hal_store_release(&c->status, (int)EXEC_QUEUED);
	if (pending_tail)
		pending_tail->next_pending = c;
	else
		pending_head = c;
	pending_tail = c;
	process_pending();
}

void exec_user_event_init(exec_cmd *c)
{
	cmd_reset(NULL, c);
	c->kernel = NULL;
	c->marker = false;
	c->barrier = false;
	c->num_wait = 0;
	c->magic = EXEC_CMD_MAGIC;
	hal_store_release(&c->status, (int)EXEC_QUEUED);
}

void exec_user_event_set(exec_cmd *c, int status)
{
	hal_lock_acquire(&cmd_lock);
	complete(c, status, NULL);
	if (pending_head)
		process_pending();
	unlock_and_wake();
}

int exec_enqueue(exec_queue *q, exec_cmd *c)
{
	cmd_reset(q, c);
	const char *detail = NULL;
	int rc = validate(c, &detail);
	c->magic = EXEC_CMD_MAGIC; /* an event others may name, failed or not */
	if (rc) {
		/* Not enqueued (as in OpenCL): it orders nothing in q, and
		 * nothing can refer to it yet. */
		finish(c, rc, detail);
		return rc;
	}
	/* The status is published under the lock (add_pending): RUNNING at
	 * once, or QUEUED; nobody but the caller knows c before that. */
	hal_lock_acquire(&cmd_lock);
	if (q) {
		c->seq = ++q->seq;
		c->fence = q->fence;
		if (c->barrier) {
			c->earlier = q->incomplete;
			q->fence = c;
		}
		c->counted = true;
		q->incomplete++;
	}
	if (q && q->in_order) {
		c->prev_in_queue = q->last;
		q->last = c;
	}
	add_pending(c);
	unlock_and_wake();
	return 0;
}

bool exec_cancel(exec_cmd *c, int status, const char *detail)
{
	hal_lock_acquire(&cmd_lock);
	int st = hal_load_acquire(&c->status);
	if (st == EXEC_QUEUED || st == EXEC_SUBMITTED) {
		/* Waiting (in the pending list, or a user event): it ends
		 * here, and its dependents see a failure. */
		exec_cmd *prev = NULL;
		for (exec_cmd *p = pending_head; p;
		     prev = p, p = p->next_pending)
			if (p == c) {
				if (prev)
					prev->next_pending = c->next_pending;
				else
					pending_head = c->next_pending;
				if (pending_tail == c)
					pending_tail = prev;
				break;
			}
		complete(c, status, detail);
		if (pending_head)
			process_pending();
		unlock_and_wake();
		return true;
	}
	hal_lock_release(&cmd_lock);
	/* Running: its instance stops; it completes through the pool when
	 * the last hart has left its kernel code. (A command that completed
	 * meanwhile has no instance any more.) */
	return st == EXEC_RUNNING && exec_pool_cancel(c, status, detail);
}

/* ---- what the pool reports (exec_pool_events) ---- */

static void on_done(exec_cmd *c, int status, const char *detail,
		    const exec_fault_info *fault)
{
	hal_lock_acquire(&cmd_lock);
	if (fault) {
		c->fault = *fault;
		c->fault_set = true;
	}
	complete(c, status, detail);
	if (pending_head)
		process_pending();
	unlock_and_wake();
}

/* A slot became usable, or a team instance left: launch what can go. */
static void on_slot_free(void)
{
	hal_lock_acquire(&cmd_lock);
	process_pending();
	unlock_and_wake();
}

static const exec_pool_events pool_events = {on_done, on_slot_free};

void exec_init(unsigned harts)
{
	/* No waiter from an earlier start (host tests start several times:
	 * a stale bit would wake a hart that is gone). */
	memset(&exec_cmd_waiters, 0, sizeof(exec_cmd_waiters));
	exec_device_init(harts);
	exec_pool_init(harts, &pool_events);
}

bool exec_start(void (*barrier_all)(void), bool dedicated_driver)
{
	/* No timer interrupt pending while the hart idles: on QEMU a pending
	 * one (mtimecmp 0 from reset) gets the hart's thread woken on every
	 * PLIC update, i.e. every doorbell check of the dispatcher. */
	hal_timer_disarm();
	if (hal_hart_idx() == 0) {
		exec_init(hal_hart_num());
		exec_dev.first_worker = dedicated_driver && hal_hart_num() > 1;
	}
	barrier_all();
	if (hal_hart_idx() == 0)
		return true;
	exec_serve();
	return false;
}

int exec_wait(exec_cmd *c)
{
	for (;;) {
		int st = hal_load_acquire(&c->status);
		if (st <= 0) {
			/* Settle what the pool still needs this hart for
			 * before going back to other things. */
			exec_pool_settle();
			return st;
		}
		if (!exec_pool_work())
			exec_pool_idle(&exec_cmd_waiters, &c->status,
				       UINT64_MAX);
	}
}
