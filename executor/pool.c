// SPDX-License-Identifier: MIT
/*
 * The work-pool (DESIGN §1, OpenCL 3.0 3.2.2): up to EXEC_MAX_INSTANCES
 * kernel instances are active at once; every hart pulls work-groups from
 * them with one amoadd per chunk. Chunks are guided: remaining / (2 *
 * workers), at least 1, so they shrink as the instance drains. A hart visits
 * the instances round-robin, one chunk per visit, so work-groups of
 * different commands interleave. The hart whose chunk makes `done` reach the
 * total completes the command.
 *
 * Slots are reused only when no hart is looking at them (`refs`), so a
 * hart that read a slot's counters never claims from a newer instance.
 *
 * Instances with team_size T > 1: harts form teams of T consecutive
 * indices; the team's rank-0 hart claims one group at a time and the team
 * runs it together (wg.c). The first member of a team to look at a team
 * instance decides, with one CAS, whether the team takes part (there are
 * groups left) or not; once a team is in, every member joins, oldest
 * instance first, so teammates never wait for each other in different
 * instances. The hart that completes the command marks every undecided
 * team out. The slot stays active until every team is out (skipped or
 * done), so no hart waits at a join its teammate can no longer find, and
 * no slot waits for teams that never took part.
 *
 * That argument needs the same teams in every team instance: team
 * instances active at once all have one team size (exec_pool_team_held).
 * With two sizes the teams overlap, and a hart could join a newer
 * instance's team while an older one's overlapping team was still
 * undecided; that team's leader then decided "in" and waited for the hart,
 * which waited at the newer instance's join for the leader: both forever.
 */
#include "internal.h"
#include <hal/heap.h>
#include <hal/ipi.h>
#include <hal/jump.h>
#include <hal/sleep.h>
#include <hal/timer.h>
#include <hartpool/marker.h>
#include <string.h>

#ifndef BOARD_SUB_GROUP_SIZE
#define BOARD_SUB_GROUP_SIZE 8
#endif

exec_device exec_dev;
exec_instance exec_slots[EXEC_MAX_INSTANCES];
exec_hart *exec_harts;
static hal_hartmask exec_idle;
static unsigned exec_stop;
static unsigned exec_seq;
/* Team instances holding a slot: most work has none, and then the pool
 * skips the team pass (two AMOs per active slot per visit). */
static unsigned exec_team_active;
/* Slots that may be active (bit i: exec_slots[i]): a hint that spares the
 * scans a look at every slot; the slot's state stays the authority. Set
 * before a slot is published, cleared after it is freed. */
static unsigned exec_active_mask;

void exec_pool_slot_freed(exec_instance *inst)
{
	hal_fetch_and(&exec_active_mask,
		      ~(1u << (unsigned)(inst - exec_slots)));
}

void exec_init(unsigned harts)
{
	exec_dev = (exec_device){
		.harts = harts,
		.address_bits = 8 * sizeof(size_t),
		.max_work_group_size = 256,
		.max_work_item_sizes = {256, 256, 64},
		.local_mem_size = 32 * 1024,
		.default_sub_group_size = BOARD_SUB_GROUP_SIZE,
		.sub_group_sizes = 0x7f, /* 1, 2, 4, ..., 64 */
		.fiber_stack_default = 1024,
		.fiber_arena_size = 256 * 1024,
		.fiber_stack_scale = 1,
		.isolation = true,
	};
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	exec_dev.fiber_stack_scale = 16; /* redzones and shadow frames */
#endif
	/* Firmware-private: recovery points, isolation state. What kernel
	 * code reaches is in the kernel-visible heap (internal.h). */
	exec_harts = hal_heap_alloc_private(harts * sizeof(exec_hart), 64);
	/* Local memory now, not lazily: a team uses its leader's, and two
	 * harts must never race to create it. */
	for (unsigned i = 0; i < harts; i++) {
		exec_harts[i].local_mem =
			hal_heap_alloc(exec_dev.local_mem_size, 64);
		/* Harts start their round-robin at different slots, so
		 * concurrent instances get harts (and AMO traffic) at once. */
		exec_harts[i].rotor = i % EXEC_MAX_INSTANCES;
		exec_harts[i].u = hal_heap_alloc(sizeof(exec_ucall), 64);
	}
	for (unsigned i = 0; i < EXEC_MAX_INSTANCES; i++) {
		exec_instance *s = &exec_slots[i];
		s->teams =
			hal_heap_alloc_private(harts * sizeof(exec_team), 64);
		exec_team_wgb *wgbs =
			hal_heap_alloc(harts * sizeof(exec_team_wgb), 64);
		for (unsigned t = 0; t < harts; t++)
			s->teams[t].wgb = &wgbs[t];
		s->kv = hal_heap_alloc(sizeof(exec_kview), 64);
	}
	hal_store_relaxed(&exec_active_mask, 0u);
	hal_store_release(&exec_stop, 0u);
}

bool exec_start(void (*barrier_all)(void), bool dedicated_driver)
{
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

exec_hart *exec_self(void)
{
	return &exec_harts[hal_hart_idx()];
}

void *exec_hart_local_mem(unsigned idx)
{
	return exec_harts[idx].local_mem;
}

const exec_hart_stats *exec_stats(unsigned idx)
{
	return &exec_harts[idx].stats;
}

/* Wake up to `count` idle workers with index < `limit`. The full fence
 * orders the instance's publication before reading the idle mask (idle
 * harts set their bit with an AMO, then look for work). */
static void wake_idle(size_t count, unsigned limit)
{
	unsigned first = exec_dev.first_worker;
	unsigned words = hal_hartmask_used_words();
	hal_fence();
	for (unsigned w = 0; w < words && count; w++) {
		unsigned long bits = hal_load_relaxed(&exec_idle.w[w]);
		while (bits && count) {
			unsigned b = (unsigned)hal_ctzl(bits);
			bits &= bits - 1;
			unsigned idx = w * HAL_HARTMASK_BITS + b;
			if (idx >= limit)
				return;
			if (idx < first)
				continue;
			if (hal_hartmask_test_clear(&exec_idle, idx)) {
				hal_ipi_send(idx);
				count--;
			}
		}
	}
}

bool exec_pool_team_held(unsigned team_size)
{
	if (team_size <= 1 || !hal_load_acquire(&exec_team_active))
		return false;
	for (unsigned i = 0; i < EXEC_MAX_INSTANCES; i++) {
		const exec_instance *s = &exec_slots[i];
		if (hal_load_acquire(&s->state) != INST_FREE &&
		    s->l->team_size > 1 && s->l->team_size != team_size)
			return true;
	}
	return false;
}

exec_instance *exec_pool_try_launch(exec_cmd *c, exec_wake *w)
{
	exec_instance *inst = NULL;
	for (unsigned i = 0; i < EXEC_MAX_INSTANCES; i++) {
		exec_instance *s = &exec_slots[i];
		if (hal_load_acquire(&s->state) == INST_FREE &&
		    hal_load_acquire(&s->refs) == 0) {
			inst = s;
			break;
		}
	}
	if (!inst)
		return NULL;
	inst->launch = c->launch;
	const hp_launch *l = &inst->launch;
	unsigned t = l->team_size;
	inst->next = 0;
	inst->done = 0;
	if (l->schedule == EXEC_SCHED_STATIC)
		memset(&inst->static_taken, 0, sizeof(inst->static_taken));
	inst->fault = 0;
	inst->fault_detail = NULL;
	memset(&inst->finfo, 0, sizeof(inst->finfo));
	inst->deadline = c->timeout_us
				 ? hal_timer_now() + c->timeout_us *
							     hal_timer_freq() /
							     1000000u
				 : 0;
	inst->cmd = c;
	inst->k = c->kernel;
	inst->args = c->args;
	inst->l = l;
	/* What kernel code reads (validate() bounded args_size). */
	exec_kview *kv = inst->kv;
	kv->launch = *l;
	kv->k = *c->kernel;
	kv->fault = 0;
	kv->detail = NULL;
	kv->args = NULL;
	kv->pbuf = c->printf_buf;
	kv->psize = c->printf_buf ? c->printf_size - 16u : 0;
	if (c->args && c->args_size) {
		memcpy(kv->argbuf, c->args, c->args_size);
		kv->args = kv->argbuf;
	}
	inst->seq = ++exec_seq;
	inst->workers = (exec_dev.harts - exec_dev.first_worker) / t;
	inst->teams_left = inst->workers;
	inst->teams_in = 0;
	if (t > 1)
		for (unsigned i = 0; i < inst->workers; i++) {
			exec_team *tm = &inst->teams[i];
			hal_barrier_init(&tm->join, t);
			tm->group = 0;
			tm->has_pending = false;
			tm->finished = 0;
			tm->decided = TEAM_UNDECIDED;
			memset(tm->wgb, 0, sizeof(*tm->wgb));
			tm->wgb->team = t;
		}
	if (t > 1)
		hal_fetch_add(&exec_team_active, 1u);
	if (t > 1)
		*w = (exec_wake){exec_dev.harts,
				 exec_dev.first_worker + inst->workers * t};
	else if (l->schedule == EXEC_SCHED_STATIC)
		*w = (exec_wake){exec_dev.harts,
				 exec_dev.harts}; /* all blocks */
	else
		*w = (exec_wake){l->total_groups, exec_dev.harts};
	hal_fetch_or(&exec_active_mask, 1u << (unsigned)(inst - exec_slots));
	hal_store_release(&inst->state, (unsigned)INST_ACTIVE);
	return inst;
}

void exec_pool_wake(const exec_wake *w)
{
	wake_idle(w->count, w->limit);
}

/* A team is out of a team instance; the last one out frees the slot. */
static void team_out(exec_instance *inst)
{
	if (hal_fetch_add(&inst->teams_left, -1u) == 1) {
		hal_fetch_add(&exec_team_active, -1u);
		exec_cmd_slot_free(inst);
	}
}

/* The team's leader decides once whether the team takes part: in while
 * groups are left, and never more teams than groups (every team that comes
 * in must later be waited for). Teammates follow only an "in", and the
 * leader wakes them for it. The hart completing the command may decide
 * "out" for teams that never looked. True if the team is in. */
static bool team_enter(exec_instance *inst, exec_team *tm, unsigned me)
{
	unsigned t = inst->l->team_size;
	unsigned d = hal_load_acquire(&tm->decided);
	if (d != TEAM_UNDECIDED || (me - exec_dev.first_worker) % t != 0)
		return d == TEAM_IN;
	size_t total = inst->l->total_groups;
	unsigned want = TEAM_OUT;
	if (hal_load_relaxed(&inst->next) < total &&
	    hal_fetch_add(&inst->teams_in, (size_t)1) < total)
		want = TEAM_IN;
	if (!hal_cas(&tm->decided, &d, want))
		return d == TEAM_IN;
	if (want == TEAM_OUT) {
		team_out(inst);
		return false;
	}
	for (unsigned r = 1; r < t; r++)
		hal_ipi_send(me + r); /* the leader has rank 0 */
	return true;
}

static void count_done(exec_instance *inst, size_t n)
{
	if (hal_fetch_add(&inst->done, n) + n != inst->l->total_groups)
		return;
	if (inst->l->team_size > 1) {
		/* Teams that never looked need not come any more. */
		for (unsigned k = 0; k < inst->workers; k++) {
			unsigned d = TEAM_UNDECIDED;
			if (hal_cas(&inst->teams[k].decided, &d,
				    (unsigned)TEAM_OUT))
				team_out(inst);
		}
	}
	exec_cmd_instance_done(inst);
}

/* Kernel code runs in kernel context (fault.c): a trap in it comes back
 * here, at the second return of hal_setjmp, and the hart goes on. Nothing
 * here is live across that return but what exec_self() holds. */
static __attribute__((noinline)) void
guarded_range(exec_instance *inst, size_t start, size_t end, void *lm)
{
	exec_ucall *u = exec_kernel_enter(exec_self(), inst);
	u->start = start;
	u->end = end;
	u->team = 0;
	u->wgb = NULL;
	u->local_mem = lm;
	if (hal_setjmp(&exec_self()->kjmp) == 0)
		exec_kernel_run(exec_self());
	exec_kernel_leave(exec_self());
}

static __attribute__((noinline)) void guarded_team(exec_instance *inst,
						   size_t g, unsigned rank,
						   exec_team *tm, void *lm)
{
	exec_self()->kteam = tm;
	exec_ucall *u = exec_kernel_enter(exec_self(), inst);
	u->start = g;
	u->rank = rank;
	u->team = inst->l->team_size;
	u->wgb = tm->wgb;
	u->local_mem = lm;
	if (hal_setjmp(&exec_self()->kjmp) == 0)
		exec_kernel_run(exec_self());
	else
		exec_team_leave(exec_self()->kteam->wgb, false); /* faulted */
	exec_kernel_leave(exec_self());
}

/* One chunk of a one-hart-per-group instance; false if none was left. */
/* Static schedule: this hart's block, once. */
static bool static_block(exec_instance *inst, size_t *start, size_t *end)
{
	unsigned me = hal_hart_idx(), r = me - exec_dev.first_worker;
	unsigned long bit = hal_hartmask_bit(me);
	if (hal_fetch_or(&inst->static_taken.w[me / HAL_HARTMASK_BITS], bit) &
	    bit)
		return false;
	size_t total = inst->l->total_groups, w = inst->workers;
	*start = total * r / w;
	*end = total * (r + 1) / w;
	return *start < *end;
}

static bool run_chunk(exec_instance *inst)
{
	const hp_launch *l = inst->l;
	size_t total = l->total_groups, start, end;
	if (l->schedule == EXEC_SCHED_STATIC) {
		if (!static_block(inst, &start, &end))
			return false;
	} else {
		size_t next = hal_load_relaxed(&inst->next);
		if (next >= total)
			return false;
		size_t chunk = l->chunk;
		if (l->schedule == EXEC_SCHED_GUIDED) {
			chunk = (total - next) / (2 * (size_t)inst->workers);
			if (chunk < 1)
				chunk = 1;
		}
		start = hal_fetch_add(&inst->next, chunk);
		if (start >= total)
			return false;
		end = total - start < chunk ? total : start + chunk;
	}
	void *lm = inst->k->local_mem_bytes
			   ? exec_hart_local_mem(hal_hart_idx())
			   : NULL;
	exec_hart *h = exec_self();
	/* Per-hart work for the benchmarks (one HINT instruction each; the
	 * instruction-count plugin records them). */
	HP_MARK_BEGIN(HP_MARK_REGION_WORK);
	if (!hal_load_relaxed(&inst->fault))
		guarded_range(inst, start, end, lm);
	HP_MARK_END(HP_MARK_REGION_WORK);
	h->stats.claims++;
	h->stats.groups += end - start;
	/* After a fault the groups nobody claimed yet are cancelled: they
	 * count as done without running. */
	size_t cancelled =
		hal_load_relaxed(&inst->fault) ? exec_kernel_cancel(inst) : 0;
	count_done(inst, end - start + cancelled);
	return true;
}

/* Take part in a team instance until it is exhausted for our team. */
static void run_team(exec_instance *inst, unsigned me)
{
	unsigned t = inst->l->team_size, w = me - exec_dev.first_worker;
	unsigned rank = w % t;
	exec_team *tm = &inst->teams[w / t];
	size_t total = inst->l->total_groups;
	void *lm = inst->k->local_mem_bytes ? exec_hart_local_mem(me - rank)
					    : NULL;
	exec_hart *h = exec_self();
	for (;;) {
		hal_barrier_wait(&tm->join);
		if (rank == 0) {
			/* Everybody finished the previous group. */
			if (tm->has_pending) {
				tm->has_pending = false;
				count_done(inst, 1);
			}
			size_t g = hal_fetch_add(&inst->next, (size_t)1);
			tm->group = g;
			tm->wgb->word = 0;
			if (g >= total)
				hal_store_release(&tm->finished, 1u);
			else
				tm->has_pending = true;
		}
		hal_barrier_wait(&tm->join);
		size_t g = tm->group;
		if (g >= total) {
			if (rank == 0)
				team_out(inst);
			return;
		}
		if (!hal_load_relaxed(&inst->fault)) {
			guarded_team(inst, g, rank, tm, lm);
		} else if (inst->k->uses_barriers) {
			/* Teammates that started the group before the fault
			 * must not wait for us at its barriers. */
			exec_team_leave(tm->wgb, false);
		}
		if (rank == 0 && hal_load_relaxed(&inst->fault)) {
			size_t n = exec_kernel_cancel(inst);
			if (n)
				count_done(inst, n);
		}
		h->stats.groups++;
	}
}

/* Does `inst` have work for hart `me`? The caller holds a ref. */
static bool has_work(const exec_instance *inst, unsigned me)
{
	const hp_launch *l = inst->l;
	unsigned t = l->team_size;
	if (me < exec_dev.first_worker)
		return false; /* the dedicated driver */
	if (t <= 1 && l->schedule == EXEC_SCHED_STATIC)
		return !(
			hal_load_relaxed(
				&inst->static_taken.w[me / HAL_HARTMASK_BITS]) &
			hal_hartmask_bit(me));
	if (t <= 1)
		return hal_load_relaxed(&inst->next) < l->total_groups;
	unsigned w = me - exec_dev.first_worker;
	if (w >= inst->workers * t)
		return false;
	const exec_team *tm = &inst->teams[w / t];
	unsigned d = hal_load_acquire(&tm->decided);
	if (d == TEAM_OUT || hal_load_acquire(&tm->finished))
		return false;
	if (d == TEAM_IN)
		return true;
	/* Undecided: only the leader comes to decide (it wakes the rest). */
	return w % t == 0 && hal_load_relaxed(&inst->next) < l->total_groups;
}

/* The oldest team instance that still needs this hart; run it if `run`. */
static bool team_scan(bool run)
{
	if (!hal_load_acquire(&exec_team_active))
		return false;
	unsigned me = hal_hart_idx();
	exec_hart *h = exec_self();
	exec_instance *team_inst = NULL;

	unsigned mask = hal_load_acquire(&exec_active_mask);
	while (mask) {
		unsigned i = (unsigned)hal_ctzl(mask);
		mask &= mask - 1;
		exec_instance *s = &exec_slots[i];
		hal_fetch_add(&s->refs, 1u);
		if (hal_load_acquire(&s->state) == INST_ACTIVE &&
		    s->l->team_size > 1 && has_work(s, me) &&
		    (!team_inst || s->seq < team_inst->seq)) {
			if (team_inst)
				hal_fetch_add(&team_inst->refs, -1u);
			team_inst = s;
			continue;
		}
		hal_fetch_add(&s->refs, -1u);
	}
	if (!team_inst)
		return false;
	/* Deciding "out" also counts as progress: the caller scans again. */
	if (run && team_enter(team_inst,
			      &team_inst->teams[(me - exec_dev.first_worker) /
						team_inst->l->team_size],
			      me)) {
		h->stats.instances++;
		run_team(team_inst, me);
	}
	hal_fetch_add(&team_inst->refs, -1u);
	return true;
}

/* Look for work; run one chunk (or one team instance) if `run`. Team
 * instances come first, oldest first. */
static bool pool_scan(bool run)
{
	if (team_scan(run))
		return true;
	unsigned me = hal_hart_idx();
	exec_hart *h = exec_self();
	/* Only the active slots, from the rotor on. */
	unsigned mask = hal_load_acquire(&exec_active_mask);
	unsigned r = h->rotor % EXEC_MAX_INSTANCES;
	mask = (mask >> r | mask << (EXEC_MAX_INSTANCES - r)) &
	       ((1u << EXEC_MAX_INSTANCES) - 1);
	while (mask) {
		unsigned k = (unsigned)hal_ctzl(mask);
		mask &= mask - 1;
		unsigned i = (r + k) % EXEC_MAX_INSTANCES;
		exec_instance *s = &exec_slots[i];
		hal_fetch_add(&s->refs, 1u);
		bool did = false;
		if (hal_load_acquire(&s->state) == INST_ACTIVE &&
		    s->l->team_size <= 1 && has_work(s, me))
			did = !run || run_chunk(s);
		hal_fetch_add(&s->refs, -1u);
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

bool exec_pool_work(void)
{
	return pool_scan(true);
}

/* Sleep until there may be work, `c` completes (if given), shutdown, or
 * the timer reaches `deadline` (UINT64_MAX: no timer). */
static void idle_sleep(exec_cmd *c, uint64_t deadline)
{
	unsigned me = hal_hart_idx();
	hal_sleep_prepare();
	hal_hartmask_set(&exec_idle, me);
	if (c)
		hal_hartmask_set(&exec_cmd_waiters, me);
	if (!pool_scan(false) && !hal_load_acquire(&exec_stop) &&
	    !(c && hal_load_acquire(&c->status) <= 0)) {
		exec_self()->stats.sleeps++;
		if (deadline == UINT64_MAX)
			hal_sleep();
		else
			hal_sleep_until(deadline);
	}
	hal_hartmask_test_clear(&exec_idle, me);
}

void exec_idle_until(uint64_t deadline)
{
	idle_sleep(NULL, deadline);
}

void exec_serve(void)
{
	/* Stop only when nothing is left for this hart: a teammate may still
	 * wait for it at a team instance's last join. */
	for (;;) {
		if (exec_pool_work())
			continue;
		if (hal_load_acquire(&exec_stop))
			return;
		idle_sleep(NULL, UINT64_MAX);
	}
}

void exec_shutdown(void)
{
	hal_store_release(&exec_stop, 1u);
	for (unsigned i = 0; i < exec_dev.harts; i++)
		if (i != hal_hart_idx())
			hal_ipi_send(i);
	/* The caller may still owe its team the last join of a team
	 * instance; like a serving hart, it leaves only when nothing is left
	 * for it. */
	while (exec_pool_work())
		continue;
}

int exec_wait(exec_cmd *c)
{
	for (;;) {
		int st = hal_load_acquire(&c->status);
		if (st <= 0) {
			/* Teammates may wait for us at a team instance's last
			 * join; its slot stays taken until we come. Settle that
			 * before going back to other things. */
			while (team_scan(true))
				continue;
			return st;
		}
		if (!exec_pool_work())
			idle_sleep(c, UINT64_MAX);
	}
}
