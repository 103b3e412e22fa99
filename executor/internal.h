/* SPDX-License-Identifier: MIT */
/* Executor internals shared by pool.c, wg.c, subgroup.c and cmd.c. */
#ifndef EXECUTOR_INTERNAL_H
#define EXECUTOR_INTERNAL_H

#include "exec.h"
#include <hal/barrier.h>
#include <hal/context.h>
#include <hal/jump.h>

#define EXEC_MAX_INSTANCES 16
/* No-access guard below the kernel stack and below the fiber arena
 * (isolation; a power of two). A stack frame larger than the guard could
 * step over it, so firmware and kernel code is built with frames of at
 * most half of it (Makefile FRAME_MAX, -Wframe-larger-than). */
#define EXEC_GUARD_BYTES 4096
/* A hart's stack for kernels in U-mode (kernel-visible heap). */
#define EXEC_USTACK_BYTES 16384
/* Largest argument block a launch may carry (= the mailbox's). */
#define EXEC_ARGS_MAX 384

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
	hal_barrier join;   /* all T harts, between work-groups */
	size_t group;	    /* the group the leader claimed */
	bool has_pending;   /* the leader's previous group is not counted */
	unsigned finished;  /* instance exhausted for this team */
	unsigned decided;   /* TEAM_UNDECIDED, TEAM_IN or TEAM_OUT (CAS) */
	exec_team_wgb *wgb; /* kernel-visible heap: kernel code waits there */
} exec_team;

/*
 * What kernel code sees of an instance. Kernels run in U-mode (fault.c,
 * docs/faults.md) together with the executor code that runs work-groups
 * (wg.c, subgroup.c), and that code reaches only kernel-visible memory:
 * copies of the launch, the kernel descriptor and the arguments, made at
 * launch. The firmware never trusts what it reads back from here: only
 * `fault` (a checked error code) and `detail` (used only if it points into
 * read-only data).
 */
typedef struct exec_kview {
	hp_launch launch;
	hp_kernel k;
	int fault;
	const char *detail;
	const void *args;	       /* = argbuf, or NULL */
	struct hp_printf_header *pbuf; /* hp_printf() output, or NULL */
	uint32_t psize;		       /* its record space */
	uint64_t argbuf[EXEC_ARGS_MAX / 8];
} exec_kview;

/* One call into kernel code on one hart (kernel-visible heap, one per
 * hart): what wg.c runs, and what it needs besides the kview. */
typedef struct exec_ucall {
	exec_kview *kv;
	size_t start, end;   /* groups [start, end); a team: start only */
	unsigned rank, team; /* team > 0: a team member's share */
	exec_team_wgb *wgb;  /* team barrier (NULL without a team) */
	void *local_mem;
	struct exec_wg *wg;    /* barrier kernels: fiber bookkeeping */
	char *arena;	       /* ... and the work-items' stacks */
	size_t stack;	       /* bytes per work-item stack */
	bool user;	       /* in U-mode: waits and wakes are ecalls */
	const hp_group *group; /* the running group, for fault reports */
} exec_ucall;

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
	exec_kview *kv;		   /* kernel-visible copies */
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
	exec_ucall *u;		 /* kernel-visible */
	hal_jmp_buf kjmp;
	/* Isolation: the PMP matches exec_iso_gen when iso_gen does. */
	unsigned iso_gen;
	unsigned code_seen; /* exec_code_gen when it last ran fence.i */
	bool iso_ok, iso_on, armed;
	uintptr_t arena_guard; /* no-access bytes below fiber_arena */
	char *ustack;	       /* EXEC_GUARD_BYTES guard + EXEC_USTACK_BYTES */
} exec_hart;

extern exec_instance exec_slots[EXEC_MAX_INSTANCES];
extern exec_hart *exec_harts;

/* Kernel code's entry (in U-mode with isolation): with u->team == 0 run
 * groups [u->start, u->end) of a one-hart-per-group instance, else the
 * part of group u->start that hart u->rank of the team owns. */
void exec_ucall_main(void *u);

/* Prepare h->wg and h->fiber_arena for barrier kernels (firmware side,
 * before kernel code runs: it cannot allocate); false if out of memory. */
bool exec_fibers_prepare(exec_hart *h);

/* Record the first fault of an instance (firmware side) or of its kview
 * (kernel side; the firmware picks it up when the hart leaves kernel
 * code). */
void exec_fault(exec_instance *inst, int code, const char *detail);
void exec_kv_fault(exec_kview *kv, int code, const char *detail);

/* Kernel context around running groups of `inst` (fault.c): enter sets up
 * the watchdog and isolation, leave undoes them. exec_kernel_cancel()
 * takes every group not yet claimed and returns how many (the caller
 * counts them done). */
exec_ucall *exec_kernel_enter(exec_hart *h, exec_instance *inst);
/* Run h->u's kernel code: in U-mode on the hart's kernel stack, or here. */
void exec_kernel_run(exec_hart *h);
void exec_kernel_leave(exec_hart *h);
size_t exec_kernel_cancel(exec_instance *inst);
/* For waits inside kernel code (team barriers): true once the watchdog's
 * deadline of the running kernel has passed. */
bool exec_kernel_timed_out(void);
/* Let a teammate of a team instance go on without us (wg.c); `user`: the
 * caller runs in U-mode. */
void exec_team_leave(exec_team_wgb *b, bool user);
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
/* A team instance of team_size must wait: one of another team size still
 * holds a slot (pool.c: teams of different sizes overlap). Lock held. */
bool exec_pool_team_held(unsigned team_size);
void exec_pool_wake(const exec_wake *w);

/* Per-hart state of the calling hart; local memory of hart idx. */
exec_hart *exec_self(void);
void *exec_hart_local_mem(unsigned idx);

#endif
