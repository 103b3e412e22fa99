/* SPDX-License-Identifier: MIT */
/*
 * Parked chunks and the memory kernels run with (park.c, docs/executor.md
 * "Time slices"). Every hart runs kernel code with one context: its
 * exec_ucall, kernel stack, local memory and fiber arena. When the pool
 * preempts a chunk (its time slice ended while another domain waits), the
 * chunk's registers and its whole context are parked on the hart, and the
 * hart goes on with a spare context; the chunk later continues on the same
 * hart (its registers name the hart's TLS) by taking its context back.
 *
 * A context remembers whose kernels last used it (a domain and that
 * domain's owner, exec_domain_renew()), and is cleared before another's
 * run on it: nothing a session's kernel leaves on a stack, in local memory
 * or in the arena is seen by another session's.
 *
 * Callers: the pool only. park.c calls kernel context (kctx.h) and
 * work-group execution (wg.h) to swap and clear their per-hart memory.
 */
#ifndef EXECUTOR_PARK_H
#define EXECUTOR_PARK_H

#include "kview.h"
#include <hal/atomic.h>
#include <hal/isolation.h>
#include <stdbool.h>
#include <stddef.h>

/* Chunks one hart may hold parked (and spare contexts it may have). */
#define EXEC_PARK_MAX 3

/* Where a member of a team parked (the pool's record: a team is parked
 * as a gang, every member where it was). */
typedef struct exec_park_team {
	unsigned phase;	 /* the pool's step of the team; 0: a chunk's */
	unsigned ticket; /* of the barrier round it had arrived at */
	unsigned go;	 /* its team's resumes when it parked */
	bool decides;	 /* it stopped the team: it says when to go on */
	void *local;	 /* the team's local memory (its leader's) */
} exec_park_team;

typedef struct exec_park {
	void *inst;	   /* the pool's instance; NULL: a free slot */
	unsigned dom;	   /* its domain */
	unsigned seq;	   /* parking order on the hart */
	size_t start, end; /* the chunk's groups */
	exec_park_team team;
	hal_user_regs regs;
} exec_park;

/* Hart @p idx's first context (idx 0 first: it makes the tables for
 * @p harts harts), its stack and memory given to kctx.c and wg.c; returns
 * its call record (NULL: no memory, said on the console). */
exec_ucall *exec_park_init(unsigned harts, unsigned idx);

/* The part of the running context the pool keeps itself (it reads both
 * on every chunk): the call record, and whose kernels used the context
 * last (EXEC_PARK_TAG; 0: nobody, its memory is as made, zero). */
typedef struct exec_park_cur {
	exec_ucall *u;
	unsigned tag;
} exec_park_cur;
/* Each domain's owner as a tag: the domain in the low 5 bits, above them
 * a count renewed when a session opens in it (from 1, so no tag is 0). */
extern unsigned exec_park_tags[];
#define EXEC_PARK_TAG(dom) hal_load_relaxed(&exec_park_tags[dom])
#define EXEC_TAG_DOMAIN(tag) ((tag)&31u)
/* The calling hart's context @p cur is for kernels of owner @p tag from
 * now on: zeroed if another owner's used it, and given to the owner's
 * domain alone (hal_isolation_claim) if another domain had it. */
void exec_park_own(exec_park_cur *cur, unsigned tag);
/* Zero the calling hart's context (another domain's or owner's kernels
 * come next): kernel stack, local memory, the arena as far as used, and
 * the FP and vector registers. */
void exec_park_clear(void);

/* The calling hart's parked chunk at @p i (< EXEC_PARK_MAX; inst NULL:
 * none there). */
const exec_park *exec_park_at(unsigned i);

/* In a trap from kernel code: take its registers (pc, x1-x31 and the
 * FP state) for the next exec_park_put(); false, taking nothing, if the
 * hart has no free slot with a whole spare context (memory). @p regs
 * NULL: none (a team member parked between its kernel's calls). */
bool exec_park_take(const unsigned long *regs, unsigned long status);
/* The registers exec_park_take() took, to change before they are put. */
hal_user_regs *exec_park_taken(void);
/* After the trap's recovery point: park what exec_park_take() took with
 * the hart's context (@p cur and the memory), as chunk [start, end) of
 * @p inst in domain @p dom (a team member's place in @p team, NULL: a
 * chunk's); the hart continues with the slot's spare context (in
 * @p cur). */
void exec_park_put(void *inst, unsigned dom, size_t start, size_t end,
		   const exec_park_team *team, exec_park_cur *cur);
/* Take parked chunk @p i back: the hart runs with its context from now
 * on (@p cur), and the slot becomes free. Returns its registers (valid
 * until the hart parks again). */
const hal_user_regs *exec_park_get(unsigned i, exec_park_cur *cur);

#endif
