/* SPDX-License-Identifier: MIT */
/*
 * What kernel code sees, and where it runs. Kernels run in U-mode (kctx.c,
 * docs/faults.md) together with the executor code that runs work-groups
 * (wg.c, subgroup.c, printf.c), and that code reaches only kernel-visible
 * memory: the records below, allocated from the kernel-visible heap. The
 * firmware never trusts what it reads back from them: only `fault` (a
 * checked error code) and `detail` (used only if it points into read-only
 * data).
 *
 * Data only: every module of the core may include this; it includes
 * nothing of the core but the public exec.h.
 */
#ifndef EXECUTOR_KVIEW_H
#define EXECUTOR_KVIEW_H

#include "exec.h"
#include <hartpool/mbox.h>

/* No-access guard below the kernel stack and below the fiber arena
 * (isolation; a power of two). A stack frame larger than the guard could
 * step over it, so firmware and kernel code is built with frames of at
 * most half of it (Makefile FRAME_MAX, -Wframe-larger-than). */
#define EXEC_GUARD_BYTES 4096
/* A hart's stack for kernels in U-mode. */
#define EXEC_USTACK_BYTES HP_KERNEL_STACK_BYTES
/* Largest argument block a launch may carry: the mailbox's. */
#define EXEC_ARGS_MAX HP_MBOX_ARGS_MAX

/* What kernel code needs of the kernel descriptor (the descriptor itself
 * may lie outside kernel-visible memory): three words, not the whole
 * descriptor, copied at each launch. */
typedef struct exec_kfns {
	hp_kernel_fn fn;
	hp_kernel_row_fn row;
	bool uses_barriers;
	bool row_is_group; /* hp_kernel.row_is_group */
	bool row_spans;	   /* hp_kernel.row_spans_groups */
} exec_kfns;

/* An instance as kernel code sees it: copies of the launch, of what it
 * needs of the kernel descriptor and of the arguments, made at launch (pool.c).
 */
typedef struct exec_kview {
	hp_launch launch;
	exec_kfns k;
	int fault;
	const char *detail;
	const void *args;	       /* = argbuf, or NULL */
	struct hp_printf_header *pbuf; /* hp_printf() output, or NULL */
	uint32_t psize;		       /* its record space */
	uint64_t argbuf[EXEC_ARGS_MAX / 8];
} exec_kview;

/* An instance's view takes a page of its own (the isolation gives it to
 * its domain's kernels alone). */
#define EXEC_KVIEW_BYTES 4096
_Static_assert(sizeof(exec_kview) <= EXEC_KVIEW_BYTES, "a view is a page");

/* One call into kernel code on one hart (one per hart, allocated by the
 * pool): what wg.c runs, and what it needs besides the kview. */
typedef struct exec_ucall {
	exec_kview *kv;
	size_t start, end;   /* groups [start, end); a team: start only */
	unsigned rank, team; /* team > 0: a team member's share; its
			      * barrier is firmware-private (team_barrier.h) */
	void *local_mem;
	struct exec_wg *wg;    /* barrier kernels: fiber bookkeeping */
	char *arena;	       /* ... and the work-items' stacks */
	size_t stack;	       /* bytes per work-item stack */
	bool user;	       /* in U-mode: waits and wakes are ecalls */
	const hp_group *group; /* the running group, for fault reports */
} exec_ucall;

/* A context (park.c): the memory one hart's kernel code runs with, one
 * block of the kernel-visible heap that no other hart's kernels reach
 * (the isolation, kctx.c). From its base, whole pages:
 *   guard | fiber arena | guard | kernel stack | exec_ucall |
 *   fiber bookkeeping (struct exec_wg) | local memory
 * The guard below the arena lies outside what the hart may touch; the one
 * below the kernel stack is a no-access page inside. Offsets fixed once
 * (exec_park_init); local memory is aligned to its size where that is a
 * power of two (a team's members reach their leader's with one PMP entry).
 */
typedef struct exec_ctx_shape {
	size_t arena;  /* the fiber arena (its guard is the page below) */
	size_t ustack; /* the kernel stack's guard; the stack follows */
	size_t ucall, wg, local;
	size_t size, align; /* the block: whole pages, and its alignment */
} exec_ctx_shape;
extern exec_ctx_shape exec_ctx_shape_of;

/* The block of the context whose kernel stack (with its guard) is at
 * @p ustack: [*lo, *hi) as the hart's kernels may use it. */
static inline void exec_ctx_bounds(const char *ustack, uintptr_t *lo,
				   uintptr_t *hi)
{
	uintptr_t base = (uintptr_t)ustack - exec_ctx_shape_of.ustack;
	*lo = base + exec_ctx_shape_of.arena;
	*hi = base + exec_ctx_shape_of.size;
}

#endif
