/* SPDX-License-Identifier: MIT */
/* Executor internals shared by pool.c, wg.c, subgroup.c and cmd.c. */
#ifndef EXECUTOR_INTERNAL_H
#define EXECUTOR_INTERNAL_H

#include "exec.h"
#include <hal/barrier.h>
#include <hal/context.h>
#include <hal/jump.h>

#define EXEC_MAX_INSTANCES 16
/* No-access guard below stacks (isolation; a power of two). */
#define EXEC_GUARD_BYTES 256

/* Team barrier inside one work-group spread over T harts. A hart whose
 * work-items have all returned "leaves"; a barrier round completes when
 * every hart of the team has arrived or left. `word` packs arrivals (low
 * 16 bits) and departures (high 16 bits) so one AMO decides who completes
 * the round. */
typedef struct exec_team_wgb {
	unsigned word;
	unsigned gen;
	unsigned team;
	hal_hartmask sleepers;
} exec_team_wgb;

/* One team of an instance with team_size > 1. */
typedef struct exec_team {
	hal_barrier join;  /* all T harts, between work-groups */
	size_t group;	   /* the group the leader claimed */
	bool has_pending;  /* the leader's previous group is not counted */
	unsigned finished; /* instance exhausted for this team */
	unsigned decided;  /* TEAM_UNDECIDED, TEAM_IN or TEAM_OUT (CAS) */
	exec_team_wgb wgb;
} exec_team;

enum { INST_FREE = 0, INST_ACTIVE = 1 };
enum { TEAM_UNDECIDED = 0, TEAM_IN = 1, TEAM_OUT = 2 };

typedef struct exec_instance {
	/* Hot counters first, each on its own cache line. */
	size_t next __attribute__((aligned(64))); /* next group to claim */
	size_t done __attribute__((aligned(64))); /* groups finished */
	unsigned state __attribute__((aligned(64)));
	unsigned refs; /* harts looking at this slot */
	unsigned seq;  /* launch order (teams join the oldest first) */
	int fault;     /* first error of a work-group, 0 if none */
	const char *fault_detail;
	exec_fault_info finfo; /* a trapped fault: where */
	char fault_text[96];   /* fault_detail of a trapped fault */
	uint64_t deadline;     /* timer ticks; 0: no time limit */
	exec_cmd *cmd;
	const hp_kernel *k;
	const void *args;
	const hp_launch *l;	   /* = &launch */
	hp_launch launch;	   /* a copy: the command may go away first */
	unsigned workers;	   /* harts (T = 1) or teams pulling groups */
	hal_hartmask static_taken; /* static schedule: blocks claimed */
	unsigned teams_left; /* teams not yet out of it (skipped or done) */
	size_t teams_in;     /* teams that decided to take part */
	exec_team *teams;    /* dev.harts entries, used when team_size > 1 */
} exec_instance;

/* Per-hart executor state. */
typedef struct exec_hart {
	void *local_mem;    /* dev.local_mem_size bytes */
	void *fiber_arena;  /* dev.fiber_arena_size bytes, lazily */
	struct exec_wg *wg; /* fiber bookkeeping, lazily */
	unsigned rotor;	    /* next instance slot to look at */
	exec_hart_stats stats;
	/* Kernel context: while kinst is set the hart runs kernel code of
	 * that instance (group kgroup) and a trap resumes at kjmp. */
	exec_instance *kinst;
	exec_instance *kcur;	 /* kinst, but kept after a trap until leave */
	struct exec_team *kteam; /* team instances: the hart's team */
	const hp_group *kgroup;
	hal_jmp_buf kjmp;
	/* Isolation: the PMP matches exec_iso_gen when iso_gen does. */
	unsigned iso_gen;
	bool iso_ok, iso_on;
	uintptr_t arena_guard; /* no-access bytes below fiber_arena */
} exec_hart;

extern exec_instance exec_slots[EXEC_MAX_INSTANCES];
extern exec_hart *exec_harts;

/* Run the part of group `group` that hart `rank` of a team of `team` harts
 * owns (rank 0 of 1: all of it). local_mem: the group's local memory. */
void exec_wg_run(exec_instance *inst, size_t group, unsigned rank,
		 unsigned team, exec_team_wgb *wgb, void *local_mem);

/* Run groups [start, end) of a one-hart-per-group instance. */
void exec_wg_run_range(exec_instance *inst, size_t start, size_t end,
		       void *local_mem);

/* Record the first fault of an instance. */
void exec_fault(exec_instance *inst, int code, const char *detail);

/* Kernel context around running groups of `inst` (fault.c): enter sets up
 * the watchdog and isolation, leave undoes them. exec_kernel_cancel()
 * takes every group not yet claimed and returns how many (the caller
 * counts them done). */
void exec_kernel_enter(exec_hart *h, exec_instance *inst);
void exec_kernel_leave(exec_hart *h);
size_t exec_kernel_cancel(exec_instance *inst);
/* For waits inside kernel code (team barriers): true once the watchdog's
 * deadline of the running kernel has passed. */
bool exec_kernel_timed_out(void);
/* Let a teammate of a team instance go on without us (wg.c). */
void exec_team_leave(exec_team_wgb *b);
/* Leave the running kernel for its recovery point with HP_TIMEOUT. */
__attribute__((noreturn)) void exec_kernel_abort_timeout(void);

/* Called by the hart that finished the last group of an instance: the
 * command completes, and the slot is freed unless it is a team instance
 * (that one stays until every team is out of it, see pool.c). */
void exec_cmd_instance_done(exec_instance *inst);

/* Harts sleeping in exec_wait(): every completion wakes them all (they
 * re-check their own command), so a completed command is never touched. */
extern hal_hartmask exec_cmd_waiters;

/* The pool's bookkeeping after a slot's state became INST_FREE. */
void exec_pool_slot_freed(exec_instance *inst);

/* Free a slot whose command already completed; wakes pending commands. */
void exec_cmd_slot_free(exec_instance *inst);

/* Whom to wake for a launch: up to `count` idle harts below `limit`. Taken
 * under the command lock, used after it (the instance may be gone). */
typedef struct {
	size_t count;
	unsigned limit;
} exec_wake;

/* Publish an instance in a free slot (pool.c; cmd.c holds its lock) and
 * say whom to wake for it; exec_pool_wake() wakes them, after the lock. */
exec_instance *exec_pool_try_launch(exec_cmd *c, exec_wake *w);
void exec_pool_wake(const exec_wake *w);

/* Per-hart state of the calling hart; local memory of hart idx. */
exec_hart *exec_self(void);
void *exec_hart_local_mem(unsigned idx);

#endif
