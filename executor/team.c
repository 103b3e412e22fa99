// SPDX-License-Identifier: MIT
/*
 * Team instances of the work-pool (pool_int.h has the slot lifecycle):
 * instances with team_size T > 1. Harts form teams of T consecutive
 * indices; the team's rank-0 hart claims one group at a time and the team
 * runs it together (wg.c, team_barrier.c). The first member of a team to
 * look at a team instance decides, with one CAS, whether the team takes
 * part (there are groups left) or not; once a team is in, every member
 * joins, oldest instance first, so teammates never wait for each other in
 * different instances. The hart that completes the command marks every
 * undecided team out. The slot stays active until every team is out
 * (skipped or done), so no hart waits at a join its teammate can no longer
 * find, and no slot waits for teams that never took part.
 *
 * That argument needs the same teams in every team instance: team
 * instances active at once all have one team size (exec_pool_team_held).
 * With two sizes the teams overlap, and a hart could join a newer
 * instance's team while an older one's overlapping team was still
 * undecided; that team's leader then decided "in" and waited for the hart,
 * which waited at the newer instance's join for the leader: both forever.
 *
 * Under time slices a team stops and goes on as a gang ("teams as gangs"
 * below).
 */
#include "pool_int.h"
#include "team_barrier.h"
#include "trace.h"
#include "wg.h"
#include <hal/heap.h>
#include <hal/ipi.h>
#include <hal/sleep.h>

/* Team instances holding a slot: most work has none, and then the pool
 * skips the team pass (two AMOs per active slot per visit). */
unsigned exec_team_active;
static pool_team_bars *pool_bars; /* dev.harts entries */
static unsigned pool_bars_size;	  /* their team size, 0: none yet */

void pool_team_init(unsigned harts)
{
	exec_team_init(harts);
	pool_bars = hal_heap_alloc_private(harts * sizeof(pool_team_bars), 64);
	for (unsigned j = 0; j < harts; j++) {
		hal_barrier_init(&pool_bars[j].join, 0);
		hal_barrier_init(&pool_bars[j].wg, 0);
	}
	pool_bars_size = 0;
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

/* A team instance is launched: its teams are undecided, the barriers are
 * those of its team size. */
void pool_team_prepare(exec_instance *inst)
{
	unsigned t = inst->l->team_size;
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

bool exec_pool_team_held(unsigned team_size)
{
	if (team_size <= 1 || !hal_load_acquire(&exec_team_active))
		return false;
	for (unsigned i = 0; i < EXEC_MAX_INSTANCES; i++) {
		const exec_instance *s = &pool_slots[i];
		if ((hal_load_acquire(&s->use) & SLOT_ACTIVE) &&
		    s->l->team_size > 1 && s->l->team_size != team_size)
			return true;
	}
	return false;
}

/* A team is out of a team instance; the last one out frees the slot and
 * has the command layer look again (a team instance of another size may
 * wait for it: exec_pool_team_held). The caller looks at the slot (holds
 * a ref), so its pool_slot_unref() is what makes the slot usable. */
void pool_team_out(exec_instance *inst)
{
	if (hal_fetch_add(&inst->teams_left, -1u) == 1) {
		hal_fetch_add(&exec_team_active, -1u);
		pool_slot_free(inst);
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
		pool_team_out(inst);
		return false;
	}
	for (unsigned r = 1; r < t; r++) {
		EXEC_TRACE_INSTANT(HP_TRACE_WAKE, NULL, me + r, 0, 0);
		hal_ipi_send(me + r); /* the leader has rank 0 */
	}
	return true;
}

/* A team member's part of group g; with @p r, the part it was parked in
 * goes on (its call record is the hart's again). */
static __attribute__((noinline)) void
guarded_team(exec_instance *inst, size_t g, unsigned rank, pool_team_bars *bars,
	     void *lm, const hal_user_regs *r)
{
	pool_hart *h = pool_self();
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
	bool slicing = hal_load_relaxed(&pool_slicing);
	if (slicing && pool_others_wait(h->team_inst->kr.domain, true))
		return GANG_ASK;
	if (rearm) {
		h->slice_end = slicing ? now + exec_dev.slice_ticks : 0;
		exec_kctx_slice(h->slice_end, true);
	}
	return GANG_RUN;
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
			pool_slice_renew(h);
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
hal_jmp_buf *pool_gang_tick(const unsigned long *regs, unsigned long status)
{
	pool_hart *h = pool_self();
	if (!h->team) {
		exec_kctx_slice(0, true);
		return NULL;
	}
	return gang_park(h, regs, status, false, 0);
}

hal_jmp_buf *exec_pool_team_wait(const unsigned long *regs,
				 unsigned long status, unsigned ticket)
{
	pool_hart *h = pool_self();
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

/* Between the joins, the leader claims the team's next group (everybody
 * finished the previous one, which it now counts) and, between groups,
 * asks for the team's stop if its slice is over. */
static void leader_claim(pool_hart *h, exec_instance *inst, exec_team *tm,
			 pool_team_bars *bars)
{
	size_t total = inst->l->total_groups;
	if (tm->has_pending) {
		tm->has_pending = false;
		pool_count_done(inst, 1);
	}
	size_t g = hal_fetch_add(&inst->next, (size_t)1);
	tm->group = g;
	/* Every member left the last group's barrier. */
	if (inst->k->uses_barriers && g < total)
		hal_barrier_reset(&bars->wg);
	if (g >= total)
		hal_store_release(&tm->finished, 1u);
	else
		tm->has_pending = true;
	unsigned go;
	if (g < total && !hal_load_relaxed(&inst->kr.fault) &&
	    gang_look(h, &go, false) == GANG_ASK && exec_park_take(NULL, 0))
		gang_ask(h, &go);
}

/* The team ran out of groups: a member leaves the instance. */
static void member_leave(pool_hart *h, exec_instance *inst, exec_team *tm,
			 unsigned me)
{
	unsigned t = inst->l->team_size;
	/* It asked, and the team ran out of groups before it parked: nobody
	 * stops. */
	if (h->gang_asked) {
		h->gang_asked = false;
		gang_go(h->team, h->gang_gen, me, t);
	}
	/* The last member past the join takes the team out: the barriers may
	 * be made again for another team size once it is, and nobody may
	 * still be looking at them. */
	if (hal_fetch_add(&tm->leaving, 1u) + 1 == t)
		pool_team_out(inst);
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
	pool_hart *h = pool_self();
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
		pool_own(h, EXEC_PARK_TAG(inst->kr.domain));
	}
	exec_kctx_team_local(rank ? lm : NULL);
	h->team = bars;
	h->team_inst = inst;
	h->team_lm = lm;
	pool_slice_begin(h);
	for (;;) {
		if (phase == TEAM_JOIN1) {
			if (!arrived)
				ticket = hal_barrier_arrive(&bars->join);
			if (!join_wait(h, bars, ticket, TEAM_JOIN1))
				break;
			if (rank == 0)
				leader_claim(h, inst, tm, bars);
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
				member_leave(h, inst, tm, me);
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
			size_t n = pool_cancel_rest(inst);
			if (n)
				pool_count_done(inst, n);
		}
		h->stats.groups++;
		phase = TEAM_JOIN1;
		arrived = false;
	}
	if (h->preempted) {
		pool_park(inst, h, g, g + 1, &h->park_team);
		h->gang_parked = true;
	}
	exec_kctx_team_local(NULL);
	h->team = NULL;
	h->team_inst = NULL;
}

/* A parked member's chunk at slot i: may it go on now (its team went on
 * since it parked, or it decides and the hart has nothing else)? */
bool pool_gang_ready(const exec_park *p, bool deciding)
{
	const exec_instance *inst = p->inst;
	const pool_team_bars *bars =
		team_bars(hal_hart_idx(), inst->l->team_size);
	return GANG_GEN(hal_load_acquire(&bars->gang)) != p->team.go ||
	       (deciding && p->team.decides);
}

/* Parked member chunk i of this hart goes on with its team. */
void pool_run_parked_team(pool_hart *h, unsigned i)
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
	pool_slot_unref(inst);
}

/* Do harts [first, first + t) all have the capabilities `need`? */
static bool team_capable(unsigned need, unsigned first, unsigned t)
{
	for (unsigned i = first; i < first + t; i++)
		if (!pool_capable(i, need))
			return false;
	return true;
}

/* Does team instance @p inst have work for hart @p me (pool_has_work has
 * seen to the driver and the hart's own capabilities)? */
bool pool_team_has_work(const exec_instance *inst, unsigned me)
{
	const pool_launch *l = inst->l;
	unsigned t = l->team_size;
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
__attribute__((noinline)) bool pool_team_scan(bool run)
{
	if (!hal_load_acquire(&exec_team_active))
		return false;
	unsigned me = hal_hart_idx();
	pool_hart *h = pool_self();
	exec_instance *team_inst = NULL;

	unsigned mask = hal_load_acquire(&pool_active_mask);
	while (mask) {
		unsigned i = (unsigned)hal_ctzl(mask);
		mask &= mask - 1;
		exec_instance *s = &pool_slots[i];
		if ((hal_fetch_add(&s->use, SLOT_REF) & SLOT_ACTIVE) &&
		    s->l->team_size > 1 && pool_has_work(s, me) &&
		    (!team_inst || s->seq < team_inst->seq)) {
			if (team_inst)
				pool_slot_unref(team_inst);
			team_inst = s;
			continue;
		}
		pool_slot_unref(s);
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
	pool_slot_unref(team_inst);
	return true;
}

void exec_pool_settle_teams(void)
{
	/* Teammates may wait for us at a team instance's last join; its slot
	 * stays taken until we come. */
	while (hal_load_acquire(&exec_team_active) && pool_team_scan(true))
		continue;
}
