// SPDX-License-Identifier: MIT
/*
 * The work-pool's publishing side (pool_int.h has the slot lifecycle):
 * exec_pool_try_launch() puts a command's instance into a usable slot,
 * under the command layer's lock, and exec_pool_wake() wakes idle harts
 * for it after that lock. The common launch calls nothing: what few
 * commands have (a time limit, arguments, harts without an FPU, teams, the
 * static schedule) is out of line.
 */
#include "pool_int.h"
#include "trace.h"
#include "wg.h"
#include <hal/heap.h>
#include <hal/ipi.h>
#include <hal/isolation.h>
#include <string.h>

/* Launch order (teams join the oldest instance first). */
static unsigned pool_seq;

void exec_pool_init(unsigned harts, const exec_pool_events *ev)
{
	pool_ev = ev;
	/* None until the mailbox sets its own (after its heap is ready): a
	 * step left from an earlier run would clear a heap being made. */
	hal_store_relaxed(&pool_idle_work, NULL);
	/* Firmware-private state first; what kernel code reaches comes from
	 * the kernel-visible heap (kview.h). */
	exec_kctx_init(harts);
	pool_harts = hal_heap_alloc_private(harts * sizeof(pool_hart), 64);
	/* Harts start their round-robin at different slots, so concurrent
	 * instances get harts (and AMO traffic) at once. */
	for (unsigned i = 0; i < harts; i++)
		pool_harts[i].rotor = i % EXEC_MAX_INSTANCES;
	exec_wg_init(harts);
	for (unsigned i = 0; i < harts; i++)
		pool_harts[i].cur.u = exec_park_init(harts, i);
	exec_kctx_on_program(pool_own_on_program);
	pool_team_init(harts);
	for (unsigned i = 0; i < EXEC_MAX_INSTANCES; i++) {
		exec_instance *s = &pool_slots[i];
		s->teams =
			hal_heap_alloc_private(harts * sizeof(exec_team), 64);
		s->kr.kv = hal_heap_alloc(EXEC_KVIEW_BYTES, EXEC_KVIEW_BYTES);
		s->kv_domain = EXEC_DOMAINS; /* claimed by nobody yet */
	}
	for (unsigned i = 0; i < EXEC_MAX_INSTANCES; i++)
		hal_store_relaxed(&pool_slots[i].use, 0u);
	hal_store_relaxed(&pool_active_mask, 0u);
	hal_store_relaxed(&pool_slot_wanted, 0u);
	hal_store_release(&pool_stop, 0u);
}

const exec_hart_stats *exec_stats(unsigned idx)
{
	return &pool_harts[idx].stats;
}

/* Wake up to `count` idle workers with index < `limit` that have the
 * capabilities `need`. The full fence orders the instance's publication
 * before reading the idle mask (idle harts set their bit with an AMO, then
 * look for work). */
static __attribute__((noinline)) void wake_idle(size_t count, unsigned limit,
						unsigned need, unsigned w0,
						unsigned words)
{
	unsigned first = exec_dev.first_worker;
	for (unsigned w = w0; w < words && count; w++) {
		unsigned long bits = hal_load_relaxed(&pool_idle_mask.w[w]);
		while (bits && count) {
			unsigned b = (unsigned)hal_ctzl(bits);
			bits &= bits - 1;
			unsigned idx = w * HAL_HARTMASK_BITS + b;
			if (idx >= limit)
				return;
			if (idx < first || !pool_capable(idx, need))
				continue;
			if (hal_hartmask_test_clear(&pool_idle_mask, idx)) {
				EXEC_TRACE_INSTANT(HP_TRACE_WAKE, NULL, idx, 0,
						   0);
				hal_ipi_send(idx);
				count--;
			}
		}
	}
}

/* Workers that have the capabilities `need` (some harts lack them). */
static unsigned capable_workers(unsigned need)
{
	unsigned n = 0;
	for (unsigned i = exec_dev.first_worker; i < exec_dev.harts; i++)
		n += pool_capable(i, need);
	return n;
}

/* The slot's view goes to another domain's kernels (page tables: out of
 * the last one's reach, hal/isolation.h). */
static __attribute__((noinline)) void view_claim(exec_instance *inst)
{
	hal_range r = {(uintptr_t)inst->kr.kv, EXEC_KVIEW_BYTES};
	(void)hal_isolation_claim(inst->kr.domain, &r, 1);
	inst->kv_domain = inst->kr.domain;
}

/* The parts of a launch most commands do not have (a time limit,
 * arguments, harts without an FPU, teams, the static schedule): out of
 * line, so the common launch calls nothing and saves few registers. */
static __attribute__((noinline)) void launch_extra(exec_instance *inst,
						   const exec_cmd *c)
{
	const pool_launch *l = &inst->launch;
	unsigned t = l->team_size;
	if (l->schedule == EXEC_SCHED_STATIC)
		memset(&inst->static_taken, 0, sizeof(inst->static_taken));
	if (c->timeout_us)
		inst->kr.deadline = hal_timer_now() +
				    c->timeout_us * hal_timer_freq() / 1000000u;
	/* What kernel code reads (validate() bounded args_size). */
	exec_kview *kv = inst->kr.kv;
	if (c->args && c->args_size) {
		memcpy(kv->argbuf, c->args, c->args_size);
		kv->args = kv->argbuf;
	}
	/* Kernel code reads the whole block: no earlier launch's arguments
	 * (another session's) beyond this one's. */
	uint32_t awrite = c->args ? c->args_size : 0;
	if (inst->args_hi > awrite)
		memset((char *)kv->argbuf + awrite, 0, inst->args_hi - awrite);
	inst->args_hi = awrite;
	/* Where every hart has an FPU nothing needs checking: need stays 0,
	 * and every test of it below is one branch. */
	if (exec_dev.without_fpu) {
		inst->need = exec_kernel_needs(c->kernel);
		if (t <= 1 && inst->need)
			inst->workers = capable_workers(inst->need);
	}
	inst->teams_left = inst->workers;
	if (t > 1)
		pool_team_prepare(inst);
}

/* A usable slot (free, nobody looking at it), or NULL. Only slots outside
 * the active hint can be free (a slot leaves it before it is freed). */
static inline __attribute__((always_inline)) exec_instance *slot_find(void)
{
	unsigned maybe = ~hal_load_acquire(&pool_active_mask) &
			 ((1u << EXEC_MAX_INSTANCES) - 1);
	while (maybe) {
		exec_instance *s = &pool_slots[hal_ctzl(maybe)];
		maybe &= maybe - 1;
		if (hal_load_acquire(&s->use) == 0)
			return s;
	}
	return NULL;
}

/* No usable slot: say that one is wanted, then look again. A slot that
 * became usable before the fence is found now; the hart that makes one
 * usable after it finds the flag (pool_slot_usable). Out of line: the pool is
 * full. */
static __attribute__((noinline)) exec_instance *slot_find_wanted(void)
{
	hal_store_relaxed(&pool_slot_wanted, 1u);
	hal_fence();
	return slot_find();
}

bool exec_pool_try_launch(exec_cmd *c, exec_wake *w)
{
	exec_instance *inst = slot_find();
	if (!inst && !(inst = slot_find_wanted()))
		return false;
	inst->launch = (pool_launch){c->launch.total_groups, c->launch.chunk,
				     c->launch.team_size, c->launch.schedule};
	const pool_launch *l = &inst->launch;
	unsigned t = l->team_size;
	inst->next = 0;
	inst->done = 0;
	/* kr.info is written whole when a trap records a fault, and read
	 * only then (instance_done_rare). */
	inst->kr.fault = 0;
	inst->kr.detail = NULL;
	inst->kr.deadline = 0;
	inst->kr.domain = c->domain < EXEC_DOMAINS ? c->domain : 0;
	if (inst->kv_domain != inst->kr.domain)
		view_claim(inst);
	inst->cmd = c;
	inst->k = c->kernel;
	inst->l = l;
	/* What kernel code reads. */
	exec_kview *kv = inst->kr.kv;
	kv->launch = c->launch;
	kv->k = (exec_kfns){c->kernel->fn, c->kernel->row,
			    c->kernel->uses_barriers, c->kernel->row_is_group,
			    c->kernel->row_spans_groups};
	kv->fault = 0;
	kv->detail = NULL;
	kv->args = NULL;
	kv->pbuf = c->printf_buf;
	kv->psize = c->printf_buf ? c->printf_size - 16u : 0;
	inst->seq = ++pool_seq;
	inst->need = 0;
	inst->workers = (exec_dev.harts - exec_dev.first_worker) / t;
	inst->teams_left = inst->workers;
	inst->teams_in = 0;
	/* (and when the last launch left arguments in the block) */
	if (c->timeout_us | c->args_size | inst->args_hi |
	    exec_dev.without_fpu | (t > 1) | (l->schedule == EXEC_SCHED_STATIC))
		launch_extra(inst, c);
	if (t > 1)
		*w = (exec_wake){exec_dev.harts,
				 exec_dev.first_worker + inst->workers * t,
				 inst->need};
	else if (l->schedule == EXEC_SCHED_STATIC)
		*w = (exec_wake){exec_dev.harts, exec_dev.harts,
				 inst->need}; /* all blocks */
	else
		*w = (exec_wake){l->total_groups, exec_dev.harts, inst->need};
	hal_fetch_or(&pool_active_mask, 1u << (unsigned)(inst - pool_slots));
	/* An AMO, not a store: a stale look may hold a ref meanwhile. */
	hal_fetch_or(&inst->use, SLOT_ACTIVE);
	return true;
}

void exec_pool_wake(const exec_wake *w)
{
	unsigned words =
		(exec_dev.harts + HAL_HARTMASK_BITS - 1) / HAL_HARTMASK_BITS;
	hal_fence();
	/* Most launches find nobody idle (busy harts find the instance
	 * themselves): only then the full walk. */
	for (unsigned i = 0; i < words; i++)
		if (hal_load_relaxed(&pool_idle_mask.w[i])) {
			wake_idle(w->count, w->limit, w->need, i, words);
			return;
		}
}
