/* SPDX-License-Identifier: MIT */
/*
 * Work-group execution (wg.c): what runs inside kernel context. The pool
 * prepares a hart's exec_ucall with exec_wg_begin(), fills in the groups,
 * and has kernel context run exec_wg_main() on it (in U-mode with
 * isolation). Also the team barrier of a work-group spread over T harts,
 * and the per-hart memory kernel code uses (local memory, fiber stacks).
 */
#ifndef EXECUTOR_WG_H
#define EXECUTOR_WG_H

#include "kview.h"

/* Per-hart state (each hart's memory: exec_wg_set). */
void exec_wg_init(unsigned harts);
/* Local memory of hart idx (a team uses its leader's). */
void *exec_wg_local_mem(unsigned idx);

/* What a hart's kernels run with besides its kernel stack (all in one
 * context, kview.h): local memory, and for barrier kernels and work-group
 * functions the fiber bookkeeping and arena, with how much of the arena
 * was handed out. A preempted chunk keeps its own (park.c swaps them). */
typedef struct exec_wg_ctx {
	void *local_mem;    /* dev.local_mem_size bytes */
	void *fiber_arena;  /* exec_wg_arena_bytes() */
	struct exec_wg *wg; /* fiber bookkeeping: exec_wg_record_bytes() */
	size_t arena_used;  /* bytes of the arena chunks may have used */
} exec_wg_ctx;
/* Hart @p idx's first context's (park.c, at init). */
void exec_wg_set(unsigned idx, const exec_wg_ctx *c);
/* The calling hart's become @p c's, and @p c gets the hart's. */
void exec_wg_swap(exec_wg_ctx *c);
/* Sizes of a context's arena and fiber bookkeeping. */
size_t exec_wg_arena_bytes(void);
size_t exec_wg_record_bytes(void);
/* Zero what the calling hart's kernels may have left in them (another
 * domain's kernels come next): local memory, the arena as far as it was
 * handed out, the fiber bookkeeping. */
void exec_wg_clear(void);

/* The calling hart's fibers for barrier kernels, when memory allows
 * (firmware side: kernel code cannot allocate); u->wg stays NULL if not. */
void exec_wg_fibers(exec_ucall *u, const hp_kernel *k);

/* Prepare the calling hart's exec_ucall `u` for a chunk of the instance
 * whose kernel is `k` (firmware-private; kernel code sees `kv`). The caller
 * sets the groups. */
static inline exec_ucall *exec_wg_begin(exec_ucall *u, exec_kview *kv,
					const hp_kernel *k)
{
	u->kv = kv;
	u->group = NULL;
	u->wg = NULL;
	if (k->uses_barriers)
		exec_wg_fibers(u, k);
	return u;
}

/* Kernel code's entry: with u->team == 0 run groups [u->start, u->end) of
 * a one-hart-per-group instance, else the part of group u->start that
 * hart u->rank of the team owns. */
void exec_wg_main(void *u);

#endif
