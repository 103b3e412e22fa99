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
 * Slots are reused only when no hart is looking at them: a hart takes a
 * ref on a slot before it reads the slot's counters and keeps it until it
 * has claimed (or found nothing), so it never claims from a newer
 * instance. Claimed groups keep the instance themselves: nobody frees a
 * slot before its `done` reaches the total, so a hart runs its chunk and
 * counts it done without a ref (a team's harts keep theirs: teammates
 * read the team's record after the leader may have taken the team out).
 * This file owns the slots' whole lifecycle: exec_pool_try_launch()
 * publishes one (under the command layer's lock), and the hart that
 * completes an instance (or takes its last team out) frees it, then
 * reports through exec_pool_events (pool.h).
 *
 * Liveness (docs/executor.md): a slot is usable when its `use` word is 0
 * (not active, no refs). Only two AMOs make it 0: the one that clears the
 * active bit of a slot nobody looks at, and the release of the last ref
 * of a freed slot. A launch that finds no usable slot sets `slot_wanted`,
 * fences and looks again; the hart whose AMO made a word 0 fences and, if
 * a slot is wanted, has the command layer look at its pending list again
 * (slot_usable). One of the two always sees the other, so no command
 * waits for a slot that is free.
 *
 * One file on purpose, teams, their gangs and time slices too (about 1,550
 * lines): the slot invariants (the use word, teams_left, the active mask,
 * the wanted flag) are argued across publish, claim, team entry, parking
 * and free, and a reader checks them in one place.
 *
 * Layering: the pool calls down into work-group execution (wg.h: the
 * exec_ucall a chunk runs) and kernel context (kctx.h: enter/run/leave,
 * fault records); it calls up only through exec_pool_events.
 *
 * Instances with team_size T > 1: harts form teams of T consecutive
 * indices; the team's rank-0 hart claims one group at a time and the team
 * runs it together (wg.c, team_barrier.c). The first member of a team to look
 * at a team instance decides, with one CAS, whether the team takes part (there
 * are groups left) or not; once a team is in, every member joins, oldest
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
#include "pool.h"
#include "kctx.h"
#include "park.h"
#include "team_barrier.h"
#include "trace.h"
#include "wg.h"
#include <hal/barrier.h>
#include <hal/heap.h>
#include <hal/ipi.h>
#include <hal/isolation.h>
#include <hal/jump.h>
#include <hal/sleep.h>
#include <hal/timer.h>
#include <hartpool/marker.h>
#include <string.h>

/* One team of an instance with team_size > 1. */
typedef struct exec_team {
	size_t group;	   /* the group the leader claimed */
	bool has_pending;  /* the leader's previous group is not counted */
	unsigned finished; /* instance exhausted for this team */
	unsigned decided;  /* TEAM_UNDECIDED, TEAM_IN or TEAM_OUT (CAS) */
	unsigned leaving;  /* members past the last join (the last: out) */
} exec_team;

/* The barriers of team j (harts first_worker + j*T ..) for the team size T
 * in use, shared by every instance of that size: teammates go through the
 * same instances in the same order (above), so one pair serves them all.
 * Made again for another size, which is only ever published when no team
 * instance is active (exec_pool_team_held). The HAL gives each barrier to
 * the board's barrier unit while it has free ones. */
typedef struct pool_team_bars {
	hal_barrier join; /* all T harts, between work-groups */
	hal_barrier wg;	  /* the work-group's barrier (team_barrier.c) */
	/* The gang (time slices, "teams as gangs" below): GANG_STOP while
	 * the team stops or is parked, above it how often the team went on
	 * after a stop (its generation). */
	unsigned gang;
} pool_team_bars;

/* What the pool reads of a launch: its own copy (the command may be
 * reused once complete, the kernel view is kernel-writable), and only
 * these words of it (copying the whole hp_launch was a tenth of a
 * dispatch). */
typedef struct pool_launch {
	size_t total_groups;
	size_t chunk;
	unsigned team_size;
	unsigned schedule;
} pool_launch;

/* A slot's `use` word: SLOT_ACTIVE while it holds an instance, plus
 * SLOT_REF per hart looking at it; 0 is free and unreferenced (usable).
 * One word, so taking or dropping a ref also says whether the slot is
 * active, and a launch reads "usable" in one load. */
#define SLOT_ACTIVE 1u
#define SLOT_REF 2u
enum { TEAM_UNDECIDED = 0, TEAM_IN = 1, TEAM_OUT = 2 };

typedef struct exec_instance {
	/* Hot counters first, each on its own cache line. */
	size_t next __attribute__((aligned(64)));  /* next group to claim */
	size_t done __attribute__((aligned(64)));  /* groups finished */
	unsigned use __attribute__((aligned(64))); /* SLOT_ACTIVE + refs */
	unsigned seq;  /* launch order (teams join the oldest first) */
	unsigned need; /* EXEC_CAP_* a hart must have to run it */
	exec_krec kr;  /* faults, time limit, kernel view (kctx.h) */
	exec_cmd *cmd;
	const hp_kernel *k;
	const pool_launch *l; /* = &launch */
	pool_launch launch;
	unsigned workers; /* harts (T = 1) or teams pulling groups; T = 1:
			   * only harts with `need` */
	hal_hartmask static_taken; /* static schedule: blocks claimed */
	unsigned teams_left; /* teams not yet out of it (skipped or done) */
	size_t teams_in;     /* teams that decided to take part */
	exec_team *teams;    /* dev.harts entries, used when team_size > 1 */
	uint32_t args_hi;    /* bytes of kv->argbuf the last launch wrote */
	unsigned kv_domain;  /* the domain the view was claimed for */
} exec_instance;

/* Per-hart pool state (firmware-private). */
typedef struct pool_hart {
	unsigned rotor; /* next instance slot to look at */
	exec_hart_stats stats;
	/* Time slices: when the running chunk has had its slice; after a
	 * preemption, the next look passes the preempted domain by. */
	uint64_t slice_end;
	unsigned avoid;
	bool avoid_on;
	bool preempted;	 /* exec_kernel_tick took the running chunk */
	unsigned parked; /* chunks parked on the hart (park.c) */
	/* In a team instance: its barriers, the instance, the team's local
	 * memory; where the member parks when it is preempted. */
	pool_team_bars *team;
	struct exec_instance *team_inst;
	void *team_lm;
	exec_park_team park_team;
	bool gang_asked;   /* this member stopped its team, not parked yet */
	unsigned gang_gen; /* ... in this generation */
	bool gang_parked;  /* a member of a parked team: no team instance */
	exec_park_cur cur; /* the running context's call record and tag */
	/* In exec_pool_idle's look for work, the hart is registered for
	 * wake-ups: a pass it owes the command layer waits until it is
	 * out of it (slot_usable). */
	bool idle_scan, pass_owed;
} pool_hart;

static exec_instance exec_slots[EXEC_MAX_INSTANCES];
static pool_hart *pool_harts;
static const exec_pool_events *pool_ev;
static hal_hartmask exec_idle;
static unsigned exec_stop;
static unsigned exec_seq;
/* Team instances holding a slot: most work has none, and then the pool
 * skips the team pass (two AMOs per active slot per visit). */
unsigned exec_team_active;
/* Slots that may be active (bit i: exec_slots[i]): a hint that spares the
 * scans a look at every slot; the slot's use word stays the authority.
 * Set before a slot is published, cleared before its active bit is (a
 * launch looks only outside the mask, so a slot is never usable unseen).
 */
static unsigned exec_active_mask;
/* Domains that may have work at once (exec_tenants_set), and whether
 * chunks get time slices now (two or more, a slice, isolation on). */
static unsigned exec_tenants, exec_slicing;
/* 1: a launch found no usable slot since a hart last took the flag
 * (slot_usable; liveness, above). */
static unsigned slot_wanted;
static pool_team_bars *pool_bars; /* dev.harts entries */
static unsigned pool_bars_size;	  /* their team size, 0: none yet */

static pool_hart *self(void)
{
	return &pool_harts[hal_hart_idx()];
}

/* A slot just became usable (its use word went to 0) and a command may
 * wait for one. The fence orders the caller's AMO on the word before its
 * read of the flag, as slot_find_wanted() orders its store of the flag
 * before its reads of the words: of a launch that finds nothing and a
 * hart that makes a slot usable, one sees the other. Whoever takes the
 * flag has the command layer look at its pending list again. Rare: a
 * faulted instance, a team instance, or a look that lost a race. */
static __attribute__((noinline)) void slot_usable(void)
{
	hal_fence();
	if (!hal_load_relaxed(&slot_wanted) || !hal_swap(&slot_wanted, 0u))
		return;
	pool_hart *h = self();
	/* Not from inside exec_pool_idle's look: the pass may sleep on the
	 * command lock, which takes the IPI the idle hart registered for,
	 * and the hart would then sleep on without it. */
	if (h->idle_scan)
		h->pass_owed = true;
	else
		pool_ev->slot_free();
}

/* Stop looking at a slot; the last look at a freed slot makes it usable. */
static inline void slot_unref(exec_instance *s)
{
	if (hal_fetch_add(&s->use, -SLOT_REF) == SLOT_REF)
		slot_usable();
}

/* The instance is over: the hint mask drops the slot, then its active bit
 * goes. True if that made it usable (nobody was looking); the caller then
 * owes the command layer a look at its pending list: slot_usable(), or the
 * `done` callback that follows. */
static bool slot_free(exec_instance *inst)
{
	hal_fetch_and(&exec_active_mask,
		      ~(1u << (unsigned)(inst - exec_slots)));
	return hal_fetch_and(&inst->use, ~SLOT_ACTIVE) == SLOT_ACTIVE;
}

static void own_on_program(unsigned dom);

/* The background step idle harts take (exec_idle_work_set). */
static bool (*idle_work)(void);

void exec_pool_init(unsigned harts, const exec_pool_events *ev)
{
	pool_ev = ev;
	/* None until the mailbox sets its own (after its heap is ready): a
	 * step left from an earlier run would clear a heap being made. */
	hal_store_relaxed(&idle_work, NULL);
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
	exec_kctx_on_program(own_on_program);
	exec_team_init(harts);
	pool_bars = hal_heap_alloc_private(harts * sizeof(pool_team_bars), 64);
	for (unsigned j = 0; j < harts; j++) {
		hal_barrier_init(&pool_bars[j].join, 0);
		hal_barrier_init(&pool_bars[j].wg, 0);
	}
	pool_bars_size = 0;
	for (unsigned i = 0; i < EXEC_MAX_INSTANCES; i++) {
		exec_instance *s = &exec_slots[i];
		s->teams =
			hal_heap_alloc_private(harts * sizeof(exec_team), 64);
		s->kr.kv = hal_heap_alloc(EXEC_KVIEW_BYTES, EXEC_KVIEW_BYTES);
		s->kv_domain = EXEC_DOMAINS; /* claimed by nobody yet */
	}
	for (unsigned i = 0; i < EXEC_MAX_INSTANCES; i++)
		hal_store_relaxed(&exec_slots[i].use, 0u);
	hal_store_relaxed(&exec_active_mask, 0u);
	hal_store_relaxed(&slot_wanted, 0u);
	hal_store_release(&exec_stop, 0u);
}

const exec_hart_stats *exec_stats(unsigned idx)
{
	return &pool_harts[idx].stats;
}

/* The team barriers for team size t (no team instance is active). */
static void team_bars_make(unsigned t)
{
	unsigned teams = (exec_dev.harts - exec_dev.first_worker) / t;
	for (unsigned j = 0; j < exec_dev.harts; j++) {
		hal_barrier_fini(&pool_bars[j].join);
		hal_barrier_fini(&pool_bars[j].wg);
	}
	for (unsigned j = 0; j < teams; j++) {
		hal_hartmask m = {{0}};
		for (unsigned r = 0; r < t; r++)
			hal_hartmask_set(&m, exec_dev.first_worker + j * t + r);
		hal_barrier_init_team(&pool_bars[j].join, &m);
		hal_barrier_init_team(&pool_bars[j].wg, &m);
		pool_bars[j].gang = 0; /* no team is parked */
	}
	pool_bars_size = t;
}

/* Does hart `idx` have the capabilities `need` (EXEC_CAP_*)? */
static inline bool capable(unsigned idx, unsigned need)
{
	return (exec_dev.caps[idx] & need) == need;
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
		unsigned long bits = hal_load_relaxed(&exec_idle.w[w]);
		while (bits && count) {
			unsigned b = (unsigned)hal_ctzl(bits);
			bits &= bits - 1;
			unsigned idx = w * HAL_HARTMASK_BITS + b;
			if (idx >= limit)
				return;
			if (idx < first || !capable(idx, need))
				continue;
			if (hal_hartmask_test_clear(&exec_idle, idx)) {
				EXEC_TRACE_INSTANT(HP_TRACE_WAKE, NULL, idx, 0,
						   0);
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
		if ((hal_load_acquire(&s->use) & SLOT_ACTIVE) &&
		    s->l->team_size > 1 && s->l->team_size != team_size)
			return true;
	}
	return false;
}

/* Workers that have the capabilities `need` (some harts lack them). */
static unsigned capable_workers(unsigned need)
{
	unsigned n = 0;
	for (unsigned i = exec_dev.first_worker; i < exec_dev.harts; i++)
		n += capable(i, need);
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
	if (t > 1) {
		for (unsigned i = 0; i < inst->workers; i++) {
			exec_team *tm = &inst->teams[i];
			tm->group = 0;
			tm->has_pending = false;
			tm->finished = 0;
			tm->decided = TEAM_UNDECIDED;
			tm->leaving = 0;
		}
		if (t != pool_bars_size)
			team_bars_make(t);
		hal_fetch_add(&exec_team_active, 1u);
	}
}

/* A usable slot (free, nobody looking at it), or NULL. Only slots outside
 * the active hint can be free (a slot leaves it before it is freed). */
static inline __attribute__((always_inline)) exec_instance *slot_find(void)
{
	unsigned maybe = ~hal_load_acquire(&exec_active_mask) &
			 ((1u << EXEC_MAX_INSTANCES) - 1);
	while (maybe) {
		exec_instance *s = &exec_slots[hal_ctzl(maybe)];
		maybe &= maybe - 1;
		if (hal_load_acquire(&s->use) == 0)
			return s;
	}
	return NULL;
}

/* No usable slot: say that one is wanted, then look again. A slot that
 * became usable before the fence is found now; the hart that makes one
 * usable after it finds the flag (slot_usable). Out of line: the pool is
 * full. */
static __attribute__((noinline)) exec_instance *slot_find_wanted(void)
{
	hal_store_relaxed(&slot_wanted, 1u);
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
			    c->kernel->uses_barriers, c->kernel->row_is_group};
	kv->fault = 0;
	kv->detail = NULL;
	kv->args = NULL;
	kv->pbuf = c->printf_buf;
	kv->psize = c->printf_buf ? c->printf_size - 16u : 0;
	inst->seq = ++exec_seq;
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
	hal_fetch_or(&exec_active_mask, 1u << (unsigned)(inst - exec_slots));
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
		if (hal_load_relaxed(&exec_idle.w[i])) {
			wake_idle(w->count, w->limit, w->need, i, words);
			return;
		}
}

/* A team is out of a team instance; the last one out frees the slot and
 * has the command layer look again (a team instance of another size may
 * wait for it: exec_pool_team_held). The caller looks at the slot (holds
 * a ref), so its slot_unref() is what makes the slot usable. */
static void team_out(exec_instance *inst)
{
	if (hal_fetch_add(&inst->teams_left, -1u) == 1) {
		hal_fetch_add(&exec_team_active, -1u);
		slot_free(inst);
		pool_ev->slot_free();
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
	for (unsigned r = 1; r < t; r++) {
		EXEC_TRACE_INSTANT(HP_TRACE_WAKE, NULL, me + r, 0, 0);
		hal_ipi_send(me + r); /* the leader has rank 0 */
	}
	return true;
}

/* The last group of a team instance, or of one that faulted, finished:
 * the command layer hears of it. A team instance's slot stays until every
 * team is out of it (team_out); a fault's text and place live in the
 * slot, so that slot goes after `done` has taken them, and then the pass
 * over the pending list is owed (slot_usable). Out of line: rare. */
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
				team_out(inst);
		}
	}
	int status = r->fault ? r->fault : EXEC_COMPLETE;
	const exec_fault_info *where = r->detail && r->detail == r->text
					       ? &r->info /* caught by a trap */
					       : NULL;
	pool_ev->done(inst->cmd, status, r->detail, where);
	if (!team && slot_free(inst))
		slot_usable();
}

/* Take every group not yet claimed (after a fault); returns how many (the
 * caller counts them done). */
static size_t cancel_rest(exec_instance *inst)
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
static void count_done(exec_instance *inst, size_t n)
{
	size_t total = inst->l->total_groups;
	if (hal_fetch_add(&inst->done, n) + n != total)
		return;
	if (inst->l->team_size > 1 || inst->kr.fault) {
		instance_done_rare(inst);
		return;
	}
	exec_cmd *c = inst->cmd;
	slot_free(inst);
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

/* A team member's part of group g; with @p r, the part it was parked in
 * goes on (its call record is the hart's again). */
static __attribute__((noinline)) void
guarded_team(exec_instance *inst, size_t g, unsigned rank, pool_team_bars *bars,
	     void *lm, const hal_user_regs *r)
{
	pool_hart *h = self();
	exec_ucall *u = h->cur.u;
	if (!r) {
		u = exec_wg_begin(u, inst->kr.kv, inst->k);
		u->start = g;
		u->rank = rank;
		u->team = inst->l->team_size;
		u->local_mem = lm;
	}
	exec_team_bind(&bars->wg);
	exec_kctx_slice(h->slice_end, false);
	hal_jmp_buf *at = exec_kctx_enter(&inst->kr, u);
	int v = hal_setjmp(at);
	if (v == 0) {
		if (r)
			exec_kctx_resume(at, r);
		else
			exec_kctx_run(at, exec_wg_main);
	} else if (v != HAL_USER_RETURNED && !h->preempted) {
		hal_barrier_leave(&bars->wg); /* faulted */
	}
	exec_kctx_leave(at);
	exec_team_bind(NULL);
}

/* Static schedule: this hart's block, once. */
static bool static_block(exec_instance *inst, size_t *start, size_t *end)
{
	unsigned me = hal_hart_idx(), r = me - exec_dev.first_worker;
	if (inst->need) /* rank among capable harts */
		for (unsigned i = exec_dev.first_worker; i < me; i++)
			r -= !capable(i, inst->need);
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
		if (inst->need && !capable(i, inst->need))
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
 * instance until count_done() counts them. */
/* Before kernel code of the owner `tag` runs on the hart: its context is
 * cleared if another domain or owner used it last (one that nobody used
 * holds the zeros it was made with). */
static __attribute__((noinline)) void own_new(pool_hart *h, unsigned tag)
{
	exec_park_own(&h->cur, tag);
}

static inline void own(pool_hart *h, unsigned tag)
{
	if (h->cur.tag != tag)
		own_new(h, tag);
}

/* Kernel context asks before it programs a hart's protection anew: the
 * only times a context can meet another owner (kctx.h), so a chunk pays
 * nothing for this when nothing changed. */
static void own_on_program(unsigned dom)
{
	own(self(), EXEC_PARK_TAG(dom));
}

/* A chunk that starts or goes on while more than one domain may have work
 * gets a time slice (exec_kernel_tick). */
static inline void slice_begin(pool_hart *h)
{
	if (!hal_load_relaxed(&exec_slicing))
		return;
	h->slice_end = hal_timer_now() + exec_dev.slice_ticks;
	exec_kctx_slice(h->slice_end, false);
}

/* A chunk left kernel code: preempted (parked on this hart, to go on
 * later), or over (counted done). */
static __attribute__((noinline)) void park(exec_instance *inst, pool_hart *h,
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
		park(inst, h, start, end, NULL);
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
				    : cancel_rest(inst);
	count_done(inst, end - start + cancelled);
}

/* Claim a chunk and run it; false if none was left. Called with a ref on
 * the slot, which goes right after the claim: the claimed groups keep the
 * instance until count_done() counts them (a parked chunk keeps it too). */
static inline __attribute__((always_inline)) bool run_chunk(exec_instance *inst,
							    pool_hart *h)
{
	size_t start, end;
	bool claimed = claim_chunk(inst, &start, &end);
	slot_unref(inst);
	if (!claimed)
		return false;
	void *lm = inst->k->local_mem_bytes ? exec_wg_local_mem(hal_hart_idx())
					    : NULL;
	/* Per-hart work for the benchmarks (one HINT instruction each; the
	 * instruction-count plugin records them). */
	HP_MARK_BEGIN(HP_MARK_REGION_WORK);
	if (!hal_load_relaxed(&inst->kr.fault)) {
		slice_begin(h);
		EXEC_TRACE_SPAN(HP_TRACE_CHUNK, inst->cmd, start, end - start,
				0,
				guarded_range(inst, start, end, lm, h->cur.u));
	}
	HP_MARK_END(HP_MARK_REGION_WORK);
	chunk_over(inst, h, start, end);
	return true;
}

static void run_parked_team(pool_hart *h, unsigned i);
static bool gang_ready(const exec_park *p, bool deciding);

/* Parked chunk i of this hart goes on where it was preempted. */
static void run_parked(pool_hart *h, unsigned i)
{
	const exec_park *p = exec_park_at(i);
	if (p->team.phase) {
		run_parked_team(h, i);
		return;
	}
	exec_instance *inst = p->inst;
	size_t start = p->start, end = p->end;
	const hal_user_regs *r = exec_park_get(i, &h->cur);
	if (!--h->parked)
		h->avoid_on = false; /* nothing preempted waits here */
	HP_MARK_BEGIN(HP_MARK_REGION_WORK);
	if (!hal_load_relaxed(&inst->kr.fault)) {
		slice_begin(h);
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
			if (!gang_ready(p, !avoiding || p->dom != h->avoid))
				continue;
			if (gang_ready(p, false)) {
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

/* ---- teams as gangs (docs/sessions.md "Time slices") ----
 *
 * A team's members stop and go on together. A member whose slice ended
 * while another domain waits for its hart asks the team to stop (a CAS
 * sets GANG_STOP in its `gang` word) and IPIs its teammates; each
 * member then parks where it is, with its context: in its kernel code (a
 * trap), in a team-barrier wait of its kernel (the ecall goes on later
 * with its ticket: HAL_SYS_TEAM_WAIT), or at the team's join between
 * groups (with its ticket). Arrivals stay in the barriers, so a parked
 * team takes no team instance until it goes on (gang_parked), only other
 * work. The member that asked decides when the team goes on, as a parked
 * chunk does (when its hart has nothing of another domain left, or at
 * that work's slice end): it clears the stop and bumps the generation in
 * one CAS, and IPIs the others; a member parked in an older generation
 * than the team's now goes on before anything else. Stop and generation
 * are one word, so an ask that comes late (the team went on meanwhile)
 * stops the new generation, whose asker it then is.
 * A member that cannot park (no free slot or no memory for a spare
 * context) goes on and waits at the next barrier until the team is back.
 */
enum { TEAM_JOIN1 = 1, TEAM_JOIN2, TEAM_GROUP };
enum { GANG_RUN, GANG_FOLLOW, GANG_ASK };
#define GANG_STOP 1u
#define GANG_GEN(w) ((w) >> 1)

static bool others_wait(unsigned dom, bool team);

/* The barriers and gang of hart @p me's team of size @p t. */
static pool_team_bars *team_bars(unsigned me, unsigned t)
{
	return &pool_bars[(me - exec_dev.first_worker) / t];
}

static void gang_ipi(unsigned me, unsigned t)
{
	unsigned first = me - (me - exec_dev.first_worker) % t;
	for (unsigned i = first; i < first + t; i++)
		if (i != me)
			hal_ipi_send(i);
}

/* Must this member park (its team stops: GANG_FOLLOW; its slice is over
 * and another domain waits for the hart: GANG_ASK)? The team's `go` in
 * *go. With @p rearm (in kernel code, its timer fired), a slice that is
 * over with nobody waiting is renewed (the timer reprogrammed). */
static int gang_look(pool_hart *h, unsigned *go, bool rearm)
{
	unsigned w = hal_load_acquire(&h->team->gang);
	*go = GANG_GEN(w);
	if (w & GANG_STOP)
		return GANG_FOLLOW;
	uint64_t now = hal_timer_now();
	if (now < h->slice_end)
		return GANG_RUN;
	bool slicing = hal_load_relaxed(&exec_slicing);
	if (slicing && others_wait(h->team_inst->kr.domain, true))
		return GANG_ASK;
	if (rearm) {
		h->slice_end = slicing ? now + exec_dev.slice_ticks : 0;
		exec_kctx_slice(h->slice_end, true);
	}
	return GANG_RUN;
}

/* The running kernel's slice starts again (the timer reprogrammed). */
static void slice_renew(pool_hart *h)
{
	h->slice_end = hal_timer_now() + exec_dev.slice_ticks;
	exec_kctx_slice(h->slice_end, true);
}

/* The member asks its team to stop (it parks too, and decides when the
 * team goes on; another that asked first decides instead): the generation
 * it parks in, in *go. */
static void gang_ask(pool_hart *h, unsigned *go)
{
	unsigned w = hal_load_acquire(&h->team->gang);
	while (!(w & GANG_STOP))
		if (hal_cas(&h->team->gang, &w, w | GANG_STOP)) {
			h->gang_asked = true;
			h->gang_gen = GANG_GEN(w);
			gang_ipi(hal_hart_idx(), h->team_inst->l->team_size);
			break;
		}
	*go = GANG_GEN(w);
}

/* The member parks (at the recovery point, or at the join) at @p phase
 * of its team, having read the team's @p go. */
static void gang_mark(pool_hart *h, unsigned phase, unsigned ticket,
		      unsigned go)
{
	h->park_team =
		(exec_park_team){phase, ticket, go, h->gang_asked, h->team_lm};
	h->gang_asked = false;
	h->preempted = true;
}

/* The team stopped in generation @p gen goes on (its decider). */
static void gang_go(pool_team_bars *bars, unsigned gen, unsigned me, unsigned t)
{
	unsigned w = gen << 1 | GANG_STOP;
	hal_cas(&bars->gang, &w, (gen + 1) << 1);
	gang_ipi(me, t);
}

/* A member in its kernel code (the trap from it, @p regs and @p status):
 * NULL to go on, or the recovery point when it parks. In a team-barrier
 * wait (@p in_wait) it goes on later in that wait: the ecall again, as
 * HAL_SYS_TEAM_WAIT for round @p ticket. */
static hal_jmp_buf *gang_park(pool_hart *h, const unsigned long *regs,
			      unsigned long status, bool in_wait,
			      unsigned ticket)
{
	unsigned go;
	int look = gang_look(h, &go, true);
	if (look == GANG_RUN)
		return NULL;
	if (!exec_park_take(regs, status)) {
		if (look == GANG_ASK) /* no room: another slice */
			slice_renew(h);
		return NULL;
	}
	if (in_wait) {
		hal_user_regs *r = exec_park_taken();
		r->x[HAL_UREG_A7 - 1] = HAL_SYS_TEAM_WAIT;
		r->x[HAL_UREG_A0 - 1] = ticket;
	}
	if (look == GANG_ASK)
		gang_ask(h, &go);
	gang_mark(h, TEAM_GROUP, 0, go);
	return exec_kctx_preempt();
}

/* A member's kernel trapped (its timer or an IPI). */
static hal_jmp_buf *gang_tick(const unsigned long *regs, unsigned long status)
{
	pool_hart *h = self();
	if (!h->team) {
		exec_kctx_slice(0, true);
		return NULL;
	}
	return gang_park(h, regs, status, false, 0);
}

hal_jmp_buf *exec_pool_team_wait(const unsigned long *regs,
				 unsigned long status, unsigned ticket)
{
	pool_hart *h = self();
	return h->team ? gang_park(h, regs, status, true, ticket) : NULL;
}

/* Wait for the round @p ticket of the team's join; false if the member
 * parked there instead (its team stops). */
static bool join_wait(pool_hart *h, pool_team_bars *bars, unsigned ticket,
		      unsigned phase)
{
	for (;;) {
		hal_sleep_prepare();
		if (hal_barrier_passed(&bars->join, ticket))
			break;
		unsigned w = hal_load_acquire(&bars->gang);
		if ((w & GANG_STOP) && exec_park_take(NULL, 0)) {
			hal_barrier_pause(&bars->join);
			gang_mark(h, phase, ticket, GANG_GEN(w));
			return false;
		}
		hal_barrier_sleep(&bars->join, ticket);
	}
	hal_barrier_depart(&bars->join);
	return true;
}

/* Take part in a team instance until it is exhausted for our team; with
 * @p from (its group @p g, its registers @p regs), a member of a parked
 * team goes on where it parked. The caller holds a ref on the slot. */
static void run_team(exec_instance *inst, unsigned me,
		     const exec_park_team *from, size_t g,
		     const hal_user_regs *regs)
{
	unsigned t = inst->l->team_size, w = me - exec_dev.first_worker;
	unsigned rank = w % t;
	exec_team *tm = &inst->teams[w / t];
	pool_team_bars *bars = team_bars(me, t);
	size_t total = inst->l->total_groups;
	bool barriers = inst->k->uses_barriers;
	pool_hart *h = self();
	unsigned phase = TEAM_JOIN1, ticket = 0;
	bool arrived = false;
	void *lm;
	if (from) {
		/* Its context is the one it parked with. */
		phase = from->phase;
		ticket = from->ticket;
		arrived = true;
		lm = from->local;
	} else {
		lm = inst->k->local_mem_bytes ? exec_wg_local_mem(me - rank)
					      : NULL;
		/* Before the first join: the leader's local memory is clear
		 * before any teammate's kernel code reads it. */
		own(h, EXEC_PARK_TAG(inst->kr.domain));
	}
	exec_kctx_team_local(rank ? lm : NULL);
	h->team = bars;
	h->team_inst = inst;
	h->team_lm = lm;
	slice_begin(h);
	for (;;) {
		if (phase == TEAM_JOIN1) {
			if (!arrived)
				ticket = hal_barrier_arrive(&bars->join);
			if (!join_wait(h, bars, ticket, TEAM_JOIN1))
				break;
			if (rank == 0) {
				/* Everybody finished the previous group. */
				if (tm->has_pending) {
					tm->has_pending = false;
					count_done(inst, 1);
				}
				g = hal_fetch_add(&inst->next, (size_t)1);
				tm->group = g;
				/* Every member left the last group's
				 * barrier. */
				if (barriers && g < total)
					hal_barrier_reset(&bars->wg);
				if (g >= total)
					hal_store_release(&tm->finished, 1u);
				else
					tm->has_pending = true;
				/* Between groups: the team's slice? */
				unsigned go;
				if (g < total &&
				    !hal_load_relaxed(&inst->kr.fault) &&
				    gang_look(h, &go, false) == GANG_ASK &&
				    exec_park_take(NULL, 0))
					gang_ask(h, &go);
			}
			phase = TEAM_JOIN2;
			arrived = false;
		}
		if (phase == TEAM_JOIN2) {
			if (!arrived)
				ticket = hal_barrier_arrive(&bars->join);
			if (!join_wait(h, bars, ticket, TEAM_JOIN2))
				break;
			g = tm->group;
			if (g >= total) {
				/* It asked, and the team ran out of groups
				 * before it parked: nobody stops. */
				if (h->gang_asked) {
					h->gang_asked = false;
					gang_go(bars, h->gang_gen, me, t);
				}
				/* The last member past the join takes the
				 * team out: the barriers may be made again for
				 * another team size once it is, and nobody may
				 * still be looking at them. */
				if (hal_fetch_add(&tm->leaving, 1u) + 1 == t)
					team_out(inst);
				break;
			}
			phase = TEAM_GROUP;
			arrived = false;
			regs = NULL;
		}
		if (!hal_load_relaxed(&inst->kr.fault)) {
			EXEC_TRACE_SPAN(
				HP_TRACE_CHUNK, inst->cmd, g, 1, rank + 1,
				guarded_team(inst, g, rank, bars, lm, regs));
		} else if (barriers) {
			/* Teammates that started the group before the fault
			 * must not wait for us at its barriers. */
			hal_barrier_leave(&bars->wg);
		}
		if (h->preempted)
			break;
		if (rank == 0 && hal_load_relaxed(&inst->kr.fault)) {
			size_t n = cancel_rest(inst);
			if (n)
				count_done(inst, n);
		}
		h->stats.groups++;
		phase = TEAM_JOIN1;
		arrived = false;
	}
	if (h->preempted) {
		park(inst, h, g, g + 1, &h->park_team);
		h->gang_parked = true;
	}
	exec_kctx_team_local(NULL);
	h->team = NULL;
	h->team_inst = NULL;
}

/* A parked member's chunk at slot i: may it go on now (its team went on
 * since it parked, or it decides and the hart has nothing else)? */
static bool gang_ready(const exec_park *p, bool deciding)
{
	const exec_instance *inst = p->inst;
	const pool_team_bars *bars =
		team_bars(hal_hart_idx(), inst->l->team_size);
	return GANG_GEN(hal_load_acquire(&bars->gang)) != p->team.go ||
	       (deciding && p->team.decides);
}

/* Parked member chunk i of this hart goes on with its team. */
static void run_parked_team(pool_hart *h, unsigned i)
{
	unsigned me = hal_hart_idx();
	const exec_park *p = exec_park_at(i);
	exec_instance *inst = p->inst;
	exec_park_team from = p->team;
	size_t g = p->start;
	pool_team_bars *bars = team_bars(me, inst->l->team_size);
	if (GANG_GEN(hal_load_acquire(&bars->gang)) == from.go)
		gang_go(bars, from.go, me, inst->l->team_size); /* now */
	const hal_user_regs *r = exec_park_get(i, &h->cur);
	if (!--h->parked)
		h->avoid_on = false;
	h->gang_parked = false;
	hal_fetch_add(&inst->use, SLOT_REF); /* the slot is active: the
					      * team is not out of it */
	run_team(inst, me, &from, g, r);
	slot_unref(inst);
}

/* Do harts [first, first + t) all have the capabilities `need`? */
static bool team_capable(unsigned need, unsigned first, unsigned t)
{
	for (unsigned i = first; i < first + t; i++)
		if (!capable(i, need))
			return false;
	return true;
}

/* Does `inst` have work for hart `me`? The caller looks at the slot (a
 * ref). */
static bool has_work(const exec_instance *inst, unsigned me)
{
	const pool_launch *l = inst->l;
	unsigned t = l->team_size;
	if (me < exec_dev.first_worker)
		return false; /* the dedicated driver */
	/* A hart without what the kernel needs (the FPU) never runs it; in a
	 * team instance, a team with such a hart stays out of it (count_done
	 * marks it out when the instance completes). */
	if (inst->need && !capable(me, inst->need))
		return false;
	if (t <= 1 && l->schedule == EXEC_SCHED_STATIC)
		return !(
			hal_load_relaxed(
				&inst->static_taken.w[me / HAL_HARTMASK_BITS]) &
			hal_hartmask_bit(me));
	if (t <= 1)
		return hal_load_relaxed(&inst->next) < l->total_groups;
	/* A member of a parked team stays out of team instances. */
	if (hal_load_relaxed(&pool_harts[me].gang_parked))
		return false;
	unsigned w = me - exec_dev.first_worker;
	if (w >= inst->workers * t)
		return false;
	if (inst->need &&
	    !team_capable(inst->need, exec_dev.first_worker + w / t * t, t))
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
static __attribute__((noinline)) bool team_scan(bool run)
{
	if (!hal_load_acquire(&exec_team_active))
		return false;
	unsigned me = hal_hart_idx();
	pool_hart *h = self();
	exec_instance *team_inst = NULL;

	unsigned mask = hal_load_acquire(&exec_active_mask);
	while (mask) {
		unsigned i = (unsigned)hal_ctzl(mask);
		mask &= mask - 1;
		exec_instance *s = &exec_slots[i];
		if ((hal_fetch_add(&s->use, SLOT_REF) & SLOT_ACTIVE) &&
		    s->l->team_size > 1 && has_work(s, me) &&
		    (!team_inst || s->seq < team_inst->seq)) {
			if (team_inst)
				slot_unref(team_inst);
			team_inst = s;
			continue;
		}
		slot_unref(s);
	}
	if (!team_inst)
		return false;
	/* Deciding "out" also counts as progress: the caller scans again. */
	if (run && team_enter(team_inst,
			      &team_inst->teams[(me - exec_dev.first_worker) /
						team_inst->l->team_size],
			      me)) {
		h->stats.instances++;
		run_team(team_inst, me, NULL, 0, NULL);
	}
	slot_unref(team_inst);
	return true;
}

/* One look for work; run one chunk (or one team instance, or a parked
 * chunk) if `run`. Team instances come first, oldest first (most launches
 * have none: then not even a call), then this hart's parked chunks, then
 * the slots from the rotor on; `avoiding`: none of domain h->avoid. */
static inline __attribute__((always_inline)) bool
scan_once(pool_hart *h, bool run, bool avoiding, bool parks)
{
	if (hal_load_acquire(&exec_team_active) && team_scan(run))
		return true;
	if (parks && h->parked && park_scan(h, run, avoiding))
		return true;
	unsigned me = hal_hart_idx();
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
		/* The ref's AMO also says whether the slot is active. */
		bool did = (hal_fetch_add(&s->use, SLOT_REF) & SLOT_ACTIVE) &&
			   s->l->team_size <= 1 &&
			   !(avoiding && s->kr.domain == h->avoid) &&
			   has_work(s, me);
		if (did && run)
			did = run_chunk(s, h); /* drops the ref */
		else
			slot_unref(s);
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
	pool_hart *h = self();
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
static bool others_wait(unsigned dom, bool team)
{
	for (unsigned i = 0; i < EXEC_PARK_MAX; i++) {
		const exec_park *p = exec_park_at(i);
		if (p->inst && p->dom != dom &&
		    (!p->team.phase || gang_ready(p, true)))
			return true;
	}
	unsigned me = hal_hart_idx();
	unsigned mask = hal_load_acquire(&exec_active_mask);
	while (mask) {
		unsigned i = (unsigned)hal_ctzl(mask);
		mask &= mask - 1;
		/* Without a ref (from a trap: the last unref of a freed
		 * slot would call up into the command layer): every field
		 * read is the slot's own memory, and a stale answer costs
		 * one slice. */
		const exec_instance *s = &exec_slots[i];
		if ((hal_load_relaxed(&s->use) & SLOT_ACTIVE) &&
		    s->kr.domain != dom && !(team && s->l->team_size > 1) &&
		    has_work(s, me))
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
		return gang_tick(regs, status);
	if (!r || !slice || hal_load_relaxed(&exec_tenants) < 2) {
		exec_kctx_slice(0, true); /* the deadline alone, if any */
		return NULL;
	}
	pool_hart *h = self();
	uint64_t now = hal_timer_now();
	/* Within its slice, or nobody else waits: look again a slice on. */
	if (now < h->slice_end || !others_wait(r->domain, false)) {
		if (now >= h->slice_end)
			h->slice_end = now + slice;
		exec_kctx_slice(h->slice_end, true);
		return NULL;
	}
	if (!exec_park_take(regs, status)) {
		/* No room to park (memory, or EXEC_PARK_MAX chunks parked
		 * here already): it runs on for another slice. */
		slice_renew(h);
		return NULL;
	}
	h->preempted = true; /* the recovery point's chunk_over parks it */
	return exec_kctx_preempt();
}

void exec_tenants_set(unsigned n)
{
	unsigned old = hal_swap(&exec_tenants, n);
	hal_store_relaxed(&exec_slicing,
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
		exec_instance *s = &exec_slots[i];
		/* A ref: the slot is not reused while we look (count_done
		 * may end the instance; the slot is usable after our
		 * slot_unref then). */
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
				n = cancel_rest(s);
			if (n)
				count_done(s, n);
		}
		slot_unref(s);
	}
	return found;
}

/* Sleep until there may be work, *word <= 0 (if given), shutdown, or the
 * timer reaches `deadline` (UINT64_MAX: no timer). */
void exec_pool_idle(hal_hartmask *waiters, const int *word, uint64_t deadline)
{
	unsigned me = hal_hart_idx();
	pool_hart *h = self();
	hal_sleep_prepare();
	hal_hartmask_set(&exec_idle, me);
	if (waiters)
		hal_hartmask_set(waiters, me);
	/* Between registering and sleeping nothing may wait on anything
	 * else (its sleep would take the IPI this one is registered for):
	 * a pass over the pending list owed from the look comes after. */
	h->idle_scan = true;
	bool work = pool_scan(false);
	h->idle_scan = false;
	if (!work && !h->pass_owed && !hal_load_acquire(&exec_stop) &&
	    !(word && hal_load_acquire(word) <= 0)) {
		h->stats.sleeps++;
		EXEC_TRACE_SPAN(HP_TRACE_SLEEP, NULL, 0, 1, 0,
				deadline == UINT64_MAX
					? hal_sleep()
					: hal_sleep_until(deadline));
	}
	hal_hartmask_test_clear(&exec_idle, me);
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
	hal_store_release(&idle_work, fn);
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
		if (hal_load_acquire(&exec_stop))
			return;
		/* Background work, one step, then kernel work first again. */
		bool (*fn)(void) = hal_load_acquire(&idle_work);
		if (fn && fn())
			continue;
		exec_pool_idle(NULL, NULL, UINT64_MAX);
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

void exec_pool_settle_teams(void)
{
	/* Teammates may wait for us at a team instance's last join; its slot
	 * stays taken until we come. */
	while (hal_load_acquire(&exec_team_active) && team_scan(true))
		continue;
}
