/* SPDX-License-Identifier: MIT */
/*
 * Inside the work-pool: what its three files share (pool.c claims and runs
 * chunks, launch.c publishes instances into slots, team.c runs team
 * instances and stops and restarts their teams as gangs). Only those files
 * include this; everyone else sees pool.h.
 *
 * The slots' lifecycle, argued here because every one of the three files
 * takes part in it. Slots are reused only when no hart is looking at them:
 * a hart takes a ref on a slot before it reads the slot's counters and
 * keeps it until it has claimed (or found nothing), so it never claims
 * from a newer instance. Claimed groups keep the instance themselves:
 * nobody frees a slot before its `done` reaches the total, so a hart runs
 * its chunk and counts it done without a ref (a team's harts keep theirs:
 * teammates read the team's record after another may have taken the team
 * out). launch.c publishes a slot (under the command layer's lock); the
 * hart that completes an instance (pool.c), or takes its last team out
 * (team.c), frees it, then reports through exec_pool_events (pool.h).
 *
 * Liveness (docs/executor.md): a slot is usable when its `use` word is 0
 * (not active, no refs). Only two AMOs make it 0: the one that clears the
 * active bit of a slot nobody looks at, and the release of the last ref
 * of a freed slot. A launch that finds no usable slot sets
 * pool_slot_wanted, fences and looks again; the hart whose AMO made a word
 * 0 fences and, if a slot is wanted, has the command layer look at its
 * pending list again (pool_slot_usable). One of the two always sees the
 * other, so no command waits for a slot that is free.
 */
#ifndef EXECUTOR_POOL_INT_H
#define EXECUTOR_POOL_INT_H

#include "kctx.h"
#include "park.h"
#include "pool.h"
#include <hal/barrier.h>
#include <hal/timer.h>

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
 * same instances in the same order (team.c), so one pair serves them all.
 * Made again for another size, which is only ever published when no team
 * instance is active (exec_pool_team_held). The HAL gives each barrier to
 * the board's barrier unit while it has free ones. */
typedef struct pool_team_bars {
	hal_barrier join; /* all T harts, between work-groups */
	hal_barrier wg;	  /* the work-group's barrier (team_barrier.c) */
	/* The gang (time slices, team.c): GANG_STOP while
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
	 * out of it (pool_slot_usable). */
	bool idle_scan, pass_owed;
} pool_hart;

extern exec_instance pool_slots[EXEC_MAX_INSTANCES];
extern pool_hart *pool_harts; /* dev.harts entries */
extern const exec_pool_events *pool_ev;
/* Idle harts, registered for a wake-up (exec_pool_idle). */
extern hal_hartmask pool_idle_mask;
extern unsigned pool_stop; /* exec_shutdown */
/* Slots that may be active (bit i: pool_slots[i]): a hint that spares the
 * scans a look at every slot; the slot's use word stays the authority.
 * Set before a slot is published, cleared before its active bit is (a
 * launch looks only outside the mask, so a slot is never usable unseen).
 */
extern unsigned pool_active_mask;
/* Whether chunks get time slices now (two or more domains may have work,
 * a slice, isolation on: exec_tenants_set). */
extern unsigned pool_slicing;
/* 1: a launch found no usable slot since a hart last took the flag
 * (pool_slot_usable; liveness, above). */
extern unsigned pool_slot_wanted;
/* The background step idle harts take (exec_idle_work_set). */
extern bool (*pool_idle_work)(void);

/* pool.c */
void pool_slot_usable(void);
bool pool_slot_free(exec_instance *inst);
size_t pool_cancel_rest(exec_instance *inst);
void pool_count_done(exec_instance *inst, size_t n);
void pool_own_new(pool_hart *h, unsigned tag);
void pool_own_on_program(unsigned dom);
void pool_park(exec_instance *inst, pool_hart *h, size_t start, size_t end,
	       const exec_park_team *team);
bool pool_has_work(const exec_instance *inst, unsigned me);
bool pool_others_wait(unsigned dom, bool team);

/* team.c */
void pool_team_init(unsigned harts);
void pool_team_prepare(exec_instance *inst);
void pool_team_out(exec_instance *inst);
bool pool_team_has_work(const exec_instance *inst, unsigned me);
bool pool_team_scan(bool run);
bool pool_gang_ready(const exec_park *p, bool deciding);
void pool_run_parked_team(pool_hart *h, unsigned i);
hal_jmp_buf *pool_gang_tick(const unsigned long *regs, unsigned long status);

static inline pool_hart *pool_self(void)
{
	return &pool_harts[hal_hart_idx()];
}

/* Does hart `idx` have the capabilities `need` (EXEC_CAP_*)? */
static inline bool pool_capable(unsigned idx, unsigned need)
{
	return (exec_dev.caps[idx] & need) == need;
}

/* Stop looking at a slot; the last look at a freed slot makes it usable. */
static inline void pool_slot_unref(exec_instance *s)
{
	if (hal_fetch_add(&s->use, -SLOT_REF) == SLOT_REF)
		pool_slot_usable();
}

/* Before kernel code of the owner `tag` runs on the hart: its context is
 * cleared if another domain or owner used it last (pool_own_new). */
static inline void pool_own(pool_hart *h, unsigned tag)
{
	if (h->cur.tag != tag)
		pool_own_new(h, tag);
}

/* A chunk that starts or goes on while more than one domain may have work
 * gets a time slice (exec_kernel_tick). */
static inline void pool_slice_begin(pool_hart *h)
{
	if (!hal_load_relaxed(&pool_slicing))
		return;
	h->slice_end = hal_timer_now() + exec_dev.slice_ticks;
	exec_kctx_slice(h->slice_end, false);
}

/* The running kernel's slice starts again (the timer reprogrammed). */
static inline void pool_slice_renew(pool_hart *h)
{
	h->slice_end = hal_timer_now() + exec_dev.slice_ticks;
	exec_kctx_slice(h->slice_end, true);
}

#endif
