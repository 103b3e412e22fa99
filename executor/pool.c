// SPDX-License-Identifier: MIT
/*
 * The work-pool (docs/executor.md, OpenCL 3.0 3.2.2): up to EXEC_MAX_INSTANCES
 * kernel instances are active at once; every hart pulls work-groups from
 * them with one amoadd per chunk. Chunks are guided: remaining / (2 *
 * workers), at least 1, so they shrink as the instance drains. A hart visits
 * the instances round-robin, one chunk per visit, so work-groups of
 * different commands interleave. The hart whose chunk makes `done` reach the
 * total completes the command.
 *
 * Three files: this one claims and runs chunks, parks and resumes them at
 * time slices, and idles; launch.c publishes instances; team.c runs team
 * instances. pool_int.h holds what they share and the argument (slot
 * lifecycle, liveness) they keep together.
 *
 * Layering: the pool calls down into work-group execution (wg.h: the
 * exec_ucall a chunk runs) and kernel context (kctx.h: enter/run/leave,
 * fault records); it calls up only through exec_pool_events.
 */
#include "pool_int.h"
#include "trace.h"
#include "wg.h"
#include <hal/ipi.h>
#include <hal/jump.h>
#include <hal/sleep.h>
#include <hartpool/marker.h>

exec_instance pool_slots[EXEC_MAX_INSTANCES];
pool_hart *pool_harts;
const exec_pool_events *pool_ev;
hal_hartmask pool_idle_mask;
unsigned pool_stop;
unsigned pool_active_mask;
unsigned pool_slicing;
unsigned pool_slot_wanted;
bool (*pool_idle_work)(void);
/* Domains that may have work at once (exec_tenants_set). */
static unsigned pool_tenants;

/* A slot just became usable (its use word went to 0) and a command may
 * wait for one. The fence orders the caller's AMO on the word before its
 * read of the flag, as slot_find_wanted() orders its store of the flag
 * before its reads of the words: of a launch that finds nothing and a
 * hart that makes a slot usable, one sees the other. Whoever takes the
 * flag has the command layer look at its pending list again. Rare: a
 * faulted instance, a team instance, or a look that lost a race. */
__attribute__((noinline)) void pool_slot_usable(void)
{
	hal_fence();
	if (!hal_load_relaxed(&pool_slot_wanted) ||
	    !hal_swap(&pool_slot_wanted, 0u))
		return;
	pool_hart *h = pool_self();
	/* Not from inside exec_pool_idle's look: the pass may sleep on the
	 * command lock, which takes the IPI the idle hart registered for,
	 * and the hart would then sleep on without it. */
	if (h->idle_scan)
		h->pass_owed = true;
	else
		pool_ev->slot_free();
}

/* The instance is over: the hint mask drops the slot, then its active bit
 * goes. True if that made it usable (nobody was looking); the caller then
 * owes the command layer a look at its pending list: pool_slot_usable(), or the
 * `done` callback that follows. */
bool pool_slot_free(exec_instance *inst)
{
	hal_fetch_and(&pool_active_mask,
		      ~(1u << (unsigned)(inst - pool_slots)));
	return hal_fetch_and(&inst->use, ~SLOT_ACTIVE) == SLOT_ACTIVE;
}

/* The last group of a team instance, or of one that faulted, finished:
 * the command layer hears of it. A team instance's slot stays until every
 * team is out of it (pool_team_out); a fault's text and place live in the
 * slot, so that slot goes after `done` has taken them, and then the pass
 * over the pending list is owed (pool_slot_usable). Out of line: rare. */
static __attribute__((noinline)) void instance_done_rare(exec_instance *inst)
{
	const exec_krec *r = &inst->kr;
	bool team = inst->l->team_size > 1;
	if (team) {
		/* Teams that never looked need not come any more. */
		for (unsigned k = 0; k < inst->workers; k++) {
			unsigned d = TEAM_UNDECIDED;
			if (hal_cas(&inst->teams[k].decided, &d,
				    (unsigned)TEAM_OUT))
				pool_team_out(inst);
		}
	}
	int status = r->fault ? r->fault : EXEC_COMPLETE;
	const exec_fault_info *where = r->detail && r->detail == r->text
					       ? &r->info /* caught by a trap */
					       : NULL;
	pool_ev->done(inst->cmd, status, r->detail, where);
	if (!team && pool_slot_free(inst))
		pool_slot_usable();
}

/* Take every group not yet claimed (after a fault); returns how many (the
 * caller counts them done). */
size_t pool_cancel_rest(exec_instance *inst)
{
	size_t total = inst->l->total_groups;
	size_t next = hal_load_relaxed(&inst->next);
	while (next < total)
		if (hal_cas(&inst->next, &next, total))
			return total - next;
	return 0;
}

/* Count n groups done; the hart whose count reaches the total completes
 * the instance. Unless it does, the slot is not the caller's to read after
 * the count (the claimed groups were all that kept it: it may be free and
 * launched again), so the total is read first. Without a fault, a
 * one-hart-per-group instance's slot is freed before `done`, so the pass
 * over the pending list that `done` makes can launch into it at once. */
void pool_count_done(exec_instance *inst, size_t n)
{
	size_t total = inst->l->total_groups;
	if (hal_fetch_add(&inst->done, n) + n != total)
		return;
	if (inst->l->team_size > 1 || inst->kr.fault) {
		instance_done_rare(inst);
		return;
	}
	exec_cmd *c = inst->cmd;
	pool_slot_free(inst);
	pool_ev->done(c, EXEC_COMPLETE, NULL, NULL);
}

/* Kernel code runs in kernel context (kctx.c): a trap in it comes back
 * here, at the second return of hal_setjmp, and the hart goes on. Nothing
 * here is live across that return but what the per-hart records hold and
 * locals that are not written after hal_setjmp (returns_twice: they keep
 * their values), such as `at` and `tm`. */
static __attribute__((noinline)) void guarded_range(exec_instance *inst,
						    size_t start, size_t end,
						    void *lm, exec_ucall *u)
{
	exec_wg_begin(u, inst->kr.kv, inst->k);
	u->start = start;
	u->end = end;
	u->team = 0;
	u->local_mem = lm;
	hal_jmp_buf *at = exec_kctx_enter(&inst->kr, u);
	if (hal_setjmp(at) == 0)
		exec_kctx_run(at, exec_wg_main);
	exec_kctx_leave(at);
}

/* A parked chunk goes on (its context is the hart's again). */
static __attribute__((noinline)) void
guarded_resume(exec_instance *inst, const hal_user_regs *r, exec_ucall *u)
{
	hal_jmp_buf *at = exec_kctx_enter(&inst->kr, u);
	if (hal_setjmp(at) == 0)
		exec_kctx_resume(at, r);
	exec_kctx_leave(at);
}

/* Static schedule: this hart's block, once. */
static bool static_block(exec_instance *inst, size_t *start, size_t *end)
{
	unsigned me = hal_hart_idx(), r = me - exec_dev.first_worker;
	if (inst->need) /* rank among capable harts */
		for (unsigned i = exec_dev.first_worker; i < me; i++)
			r -= !pool_capable(i, inst->need);
	unsigned long bit = hal_hartmask_bit(me);
	if (hal_fetch_or(&inst->static_taken.w[me / HAL_HARTMASK_BITS], bit) &
	    bit)
		return false;
	size_t total = inst->l->total_groups, w = inst->workers;
	*start = total * r / w;
	*end = total * (r + 1) / w;
	return *start < *end;
}

/* Static schedule, cancelled: every block nobody took yet is taken now;
 * returns how many groups they hold (the caller counts them done). */
static size_t static_cancel(exec_instance *inst)
{
	size_t total = inst->l->total_groups, w = inst->workers, n = 0;
	unsigned r = 0;
	for (unsigned i = exec_dev.first_worker; i < exec_dev.harts; i++) {
		if (inst->need && !pool_capable(i, inst->need))
			continue;
		unsigned long bit = hal_hartmask_bit(i);
		if (!(hal_fetch_or(&inst->static_taken.w[i / HAL_HARTMASK_BITS],
				   bit) &
		      bit))
			n += total * (r + 1) / w - total * r / w;
		r++;
	}
	return n;
}

/* Claim a chunk of a one-hart-per-group instance; false if none was left.
 * The caller looks at the slot (holds a ref). */
static inline __attribute__((always_inline)) bool
claim_chunk(exec_instance *inst, size_t *start, size_t *end)
{
	const pool_launch *l = inst->l;
	size_t total = l->total_groups;
	if (l->schedule == EXEC_SCHED_STATIC)
		return static_block(inst, start, end);
	size_t next = hal_load_relaxed(&inst->next);
	if (next >= total)
		return false;
	size_t chunk = l->chunk;
	if (l->schedule == EXEC_SCHED_GUIDED) {
		chunk = (total - next) / (2 * (size_t)inst->workers);
		if (chunk < 1)
			chunk = 1;
	}
	*start = hal_fetch_add(&inst->next, chunk);
	if (*start >= total)
		return false;
	*end = total - *start < chunk ? total : *start + chunk;
	return true;
}

/* Claim a chunk and run it; false if none was left. Called with a ref on
 * the slot, which goes right after the claim: the claimed groups keep the
 * instance until pool_count_done() counts them. */
/* Before kernel code of the owner `tag` runs on the hart: its context is
 * cleared if another domain or owner used it last (one that nobody used
 * holds the zeros it was made with). */
__attribute__((noinline)) void pool_own_new(pool_hart *h, unsigned tag)
{
	exec_park_own(&h->cur, tag);
}

/* Kernel context asks before it programs a hart's protection anew: the
 * only times a context can meet another owner (kctx.h), so a chunk pays
 * nothing for this when nothing changed. */
void pool_own_on_program(unsigned dom)
{
	pool_own(pool_self(), EXEC_PARK_TAG(dom));
}

/* A chunk left kernel code: preempted (parked on this hart, to go on
 * later), or over (counted done). */
__attribute__((noinline)) void pool_park(exec_instance *inst, pool_hart *h,
					 size_t start, size_t end,
					 const exec_park_team *team)
{
	h->preempted = false;
	exec_park_put(inst, inst->kr.domain, start, end, team, &h->cur);
	h->parked++;
	h->avoid = inst->kr.domain;
	h->avoid_on = true;
	h->stats.preempted++;
}

static inline __attribute__((always_inline)) void
chunk_over(exec_instance *inst, pool_hart *h, size_t start, size_t end)
{
	if (h->preempted) {
		pool_park(inst, h, start, end, NULL);
		return;
	}
	h->stats.claims++;
	h->stats.groups += end - start;
	/* After a fault the groups nobody claimed yet are cancelled: they
	 * count as done without running. */
	size_t cancelled = 0;
	if (hal_load_relaxed(&inst->kr.fault))
		cancelled = inst->l->schedule == EXEC_SCHED_STATIC
				    ? static_cancel(inst)
				    : pool_cancel_rest(inst);
	pool_count_done(inst, end - start + cancelled);
}

/* Claim a chunk and run it; false if none was left. Called with a ref on
 * the slot, which goes right after the claim: the claimed groups keep the
 * instance until pool_count_done() counts them (a parked chunk keeps it too).
 */
static inline __attribute__((always_inline)) bool run_chunk(exec_instance *inst,
							    pool_hart *h)
{
	size_t start, end;
	bool claimed = claim_chunk(inst, &start, &end);
	pool_slot_unref(inst);
	if (!claimed)
		return false;
	void *lm = inst->k->local_mem_bytes ? exec_wg_local_mem(hal_hart_idx())
					    : NULL;
	/* Per-hart work for the benchmarks (one HINT instruction each; the
	 * instruction-count plugin records them). */
	HP_MARK_BEGIN(HP_MARK_REGION_WORK);
	if (!hal_load_relaxed(&inst->kr.fault)) {
		pool_slice_begin(h);
		EXEC_TRACE_SPAN(HP_TRACE_CHUNK, inst->cmd, start, end - start,
				0,
				guarded_range(inst, start, end, lm, h->cur.u));
	}
	HP_MARK_END(HP_MARK_REGION_WORK);
	chunk_over(inst, h, start, end);
	return true;
}

/* Parked chunk i of this hart goes on where it was preempted. */
static void run_parked(pool_hart *h, unsigned i)
{
	const exec_park *p = exec_park_at(i);
	if (p->team.phase) {
		pool_run_parked_team(h, i);
		return;
	}
	exec_instance *inst = p->inst;
	size_t start = p->start, end = p->end;
	const hal_user_regs *r = exec_park_get(i, &h->cur);
	if (!--h->parked)
		h->avoid_on = false; /* nothing preempted waits here */
	HP_MARK_BEGIN(HP_MARK_REGION_WORK);
	if (!hal_load_relaxed(&inst->kr.fault)) {
		pool_slice_begin(h);
		EXEC_TRACE_SPAN(HP_TRACE_CHUNK, inst->cmd, start, end - start,
				0, guarded_resume(inst, r, h->cur.u));
	}
	HP_MARK_END(HP_MARK_REGION_WORK);
	chunk_over(inst, h, start, end);
}

/* The oldest chunk parked on this hart (not of domain h->avoid if
 * `avoiding`); run it if `run`. */
static __attribute__((noinline)) bool park_scan(pool_hart *h, bool run,
						bool avoiding)
{
	unsigned best = EXEC_PARK_MAX, seq = 0;
	for (unsigned i = 0; i < EXEC_PARK_MAX; i++) {
		const exec_park *p = exec_park_at(i);
		if (!p->inst)
			continue;
		if (p->team.phase) {
			/* A parked team's member: first of all once its team
			 * went on; its decider when nothing else is left. */
			if (!pool_gang_ready(p,
					     !avoiding || p->dom != h->avoid))
				continue;
			if (pool_gang_ready(p, false)) {
				best = i;
				break;
			}
		} else if (avoiding && p->dom == h->avoid) {
			continue;
		}
		if (best == EXEC_PARK_MAX || (int)(p->seq - seq) < 0) {
			best = i;
			seq = p->seq;
		}
	}
	if (best == EXEC_PARK_MAX)
		return false;
	if (run)
		run_parked(h, best);
	return true;
}

/* Does `inst` have work for hart `me`? The caller looks at the slot (a
 * ref). */
bool pool_has_work(const exec_instance *inst, unsigned me)
{
	const pool_launch *l = inst->l;
	unsigned t = l->team_size;
	if (me < exec_dev.first_worker)
		return false; /* the dedicated driver */
	/* A hart without what the kernel needs (the FPU) never runs it; in a
	 * team instance, a team with such a hart stays out of it
	 * (pool_count_done marks it out when the instance completes). */
	if (inst->need && !pool_capable(me, inst->need))
		return false;
	if (t <= 1 && l->schedule == EXEC_SCHED_STATIC)
		return !(
			hal_load_relaxed(
				&inst->static_taken.w[me / HAL_HARTMASK_BITS]) &
			hal_hartmask_bit(me));
	if (t <= 1)
		return hal_load_relaxed(&inst->next) < l->total_groups;
	return pool_team_has_work(inst, me);
}

/* One look for work; run one chunk (or one team instance, or a parked
 * chunk) if `run`. Team instances come first, oldest first (most launches
 * have none: then not even a call), then this hart's parked chunks, then
 * the slots from the rotor on; `avoiding`: none of domain h->avoid. */
static inline __attribute__((always_inline)) bool
scan_once(pool_hart *h, bool run, bool avoiding, bool parks)
{
	if (hal_load_acquire(&exec_team_active) && pool_team_scan(run))
		return true;
	if (parks && h->parked && park_scan(h, run, avoiding))
		return true;
	unsigned me = hal_hart_idx();
	/* Only the active slots, from the rotor on. */
	unsigned mask = hal_load_acquire(&pool_active_mask);
	unsigned r = h->rotor % EXEC_MAX_INSTANCES;
	mask = (mask >> r | mask << (EXEC_MAX_INSTANCES - r)) &
	       ((1u << EXEC_MAX_INSTANCES) - 1);
	while (mask) {
		unsigned k = (unsigned)hal_ctzl(mask);
		mask &= mask - 1;
		unsigned i = (r + k) % EXEC_MAX_INSTANCES;
		exec_instance *s = &pool_slots[i];
		/* The ref's AMO also says whether the slot is active. */
		bool did = (hal_fetch_add(&s->use, SLOT_REF) & SLOT_ACTIVE) &&
			   s->l->team_size <= 1 &&
			   !(avoiding && s->kr.domain == h->avoid) &&
			   pool_has_work(s, me);
		if (did && run)
			did = run_chunk(s, h); /* drops the ref */
		else
			pool_slot_unref(s);
		if (did) {
			if (run && h->rotor != i + 1) {
				h->rotor = i + 1;
				h->stats.instances++;
			}
			return true;
		}
	}
	return false;
}

/* Look for work (run it if `run`): after a preemption, work of other
 * domains only, as long as there is any, so the preempted domain gets the
 * hart back once the others are served (or at their own slice's end). */
/* A hart with chunks parked, or just preempted: the looks above with
 * its parked chunks. */
static __attribute__((noinline)) bool scan_parks(pool_hart *h, bool run)
{
	if (h->avoid_on) {
		if (scan_once(h, run, true, true))
			return true;
		if (run)
			h->avoid_on = false;
	}
	return scan_once(h, run, false, true);
}

static bool pool_scan(bool run)
{
	pool_hart *h = pool_self();
	/* one test for both: avoid_on is set only with a chunk parked */
	if (h->parked)
		return scan_parks(h, run);
	return scan_once(h, run, false, false);
}

bool exec_pool_work(void)
{
	return pool_scan(true);
}

/* ---- time slices (docs/executor.md) ---- */

/* Is there work for this hart of another domain than `dom`: a chunk
 * parked here (a parked team's member: once it may go on), or an instance
 * with groups (or a team) for it? For a member of a team (@p team), not
 * team instances: a parked team takes none. */
bool pool_others_wait(unsigned dom, bool team)
{
	for (unsigned i = 0; i < EXEC_PARK_MAX; i++) {
		const exec_park *p = exec_park_at(i);
		if (p->inst && p->dom != dom &&
		    (!p->team.phase || pool_gang_ready(p, true)))
			return true;
	}
	unsigned me = hal_hart_idx();
	unsigned mask = hal_load_acquire(&pool_active_mask);
	while (mask) {
		unsigned i = (unsigned)hal_ctzl(mask);
		mask &= mask - 1;
		/* Without a ref (from a trap: the last unref of a freed
		 * slot would call up into the command layer): every field
		 * read is the slot's own memory, and a stale answer costs
		 * one slice. */
		const exec_instance *s = &pool_slots[i];
		if ((hal_load_relaxed(&s->use) & SLOT_ACTIVE) &&
		    s->kr.domain != dom && !(team && s->l->team_size > 1) &&
		    pool_has_work(s, me))
			return true;
	}
	return false;
}

hal_jmp_buf *exec_kernel_tick(const unsigned long *regs, unsigned long status)
{
	bool team = false;
	exec_krec *r = regs ? exec_kctx_running(&team) : NULL;
	uint64_t slice = exec_dev.slice_ticks;
	if (r && team)
		return pool_gang_tick(regs, status);
	if (!r || !slice || hal_load_relaxed(&pool_tenants) < 2) {
		exec_kctx_slice(0, true); /* the deadline alone, if any */
		return NULL;
	}
	pool_hart *h = pool_self();
	uint64_t now = hal_timer_now();
	/* Within its slice, or nobody else waits: look again a slice on. */
	if (now < h->slice_end || !pool_others_wait(r->domain, false)) {
		if (now >= h->slice_end)
			h->slice_end = now + slice;
		exec_kctx_slice(h->slice_end, true);
		return NULL;
	}
	if (!exec_park_take(regs, status)) {
		/* No room to park (memory, or EXEC_PARK_MAX chunks parked
		 * here already): it runs on for another slice. */
		pool_slice_renew(h);
		return NULL;
	}
	h->preempted = true; /* the recovery point's chunk_over parks it */
	return exec_kctx_preempt();
}

void exec_tenants_set(unsigned n)
{
	unsigned old = hal_swap(&pool_tenants, n);
	hal_store_relaxed(&pool_slicing,
			  (unsigned)(n >= 2 && exec_dev.slice_ticks &&
				     exec_dev.isolation));
	if (old >= 2 || n < 2 || !exec_dev.slice_ticks)
		return;
	/* Chunks that began alone get their slices now: an IPI makes each
	 * running kernel look (exec_kernel_tick); idle harts sleep again. */
	for (unsigned i = 0; i < exec_dev.harts; i++)
		if (i != hal_hart_idx())
			hal_ipi_send(i);
}

bool exec_pool_cancel(exec_cmd *c, int status, const char *detail)
{
	bool found = false;
	for (unsigned i = 0; i < EXEC_MAX_INSTANCES && !found; i++) {
		exec_instance *s = &pool_slots[i];
		/* A ref: the slot is not reused while we look (pool_count_done
		 * may end the instance; the slot is usable after our
		 * pool_slot_unref then). */
		if ((hal_fetch_add(&s->use, SLOT_REF) & SLOT_ACTIVE) &&
		    s->cmd == c) {
			found = true;
			exec_kctx_cancel(&s->kr, status, detail);
			/* Static blocks are claimed by bits, not `next`: the
			 * blocks of harts that never came are done too. */
			size_t n = 0;
			if (s->l->schedule == EXEC_SCHED_STATIC &&
			    s->l->team_size <= 1)
				n = static_cancel(s);
			else
				n = pool_cancel_rest(s);
			if (n)
				pool_count_done(s, n);
		}
		pool_slot_unref(s);
	}
	return found;
}

/* Sleep until there may be work, *word <= 0 (if given), shutdown, or the
 * timer reaches `deadline` (UINT64_MAX: no timer). */
void exec_pool_idle(hal_hartmask *waiters, const int *word, uint64_t deadline)
{
	unsigned me = hal_hart_idx();
	pool_hart *h = pool_self();
	hal_sleep_prepare();
	hal_hartmask_set(&pool_idle_mask, me);
	if (waiters)
		hal_hartmask_set(waiters, me);
	/* Between registering and sleeping nothing may wait on anything
	 * else (its sleep would take the IPI this one is registered for):
	 * a pass over the pending list owed from the look comes after. */
	h->idle_scan = true;
	bool work = pool_scan(false);
	h->idle_scan = false;
	if (!work && !h->pass_owed && !hal_load_acquire(&pool_stop) &&
	    !(word && hal_load_acquire(word) <= 0)) {
		h->stats.sleeps++;
		EXEC_TRACE_SPAN(HP_TRACE_SLEEP, NULL, 0, 1, 0,
				deadline == UINT64_MAX
					? hal_sleep()
					: hal_sleep_until(deadline));
	}
	hal_hartmask_test_clear(&pool_idle_mask, me);
	if (h->pass_owed) {
		h->pass_owed = false;
		pool_ev->slot_free();
	}
}

void exec_idle_until(uint64_t deadline)
{
	exec_pool_idle(NULL, NULL, deadline);
}

void exec_idle_work_set(bool (*fn)(void))
{
	hal_store_release(&pool_idle_work, fn);
}

void exec_idle_work_wake(void)
{
	exec_pool_wake(&(exec_wake){1, exec_dev.harts, 0});
}

void exec_serve(void)
{
	/* Stop only when nothing is left for this hart: a teammate may still
	 * wait for it at a team instance's last join. */
	for (;;) {
		if (exec_pool_work())
			continue;
		if (hal_load_acquire(&pool_stop))
			return;
		/* Background work, one step, then kernel work first again. */
		bool (*fn)(void) = hal_load_acquire(&pool_idle_work);
		if (fn && fn())
			continue;
		exec_pool_idle(NULL, NULL, UINT64_MAX);
	}
}

void exec_shutdown(void)
{
	hal_store_release(&pool_stop, 1u);
	for (unsigned i = 0; i < exec_dev.harts; i++)
		if (i != hal_hart_idx())
			hal_ipi_send(i);
	/* The caller may still owe its team the last join of a team
	 * instance; like a serving hart, it leaves only when nothing is left
	 * for it. */
	while (exec_pool_work())
		continue;
}
