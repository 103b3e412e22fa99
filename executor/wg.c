// SPDX-License-Identifier: MIT
/*
 * Running a work-group (or a team member's share of one).
 *
 * Barrier-free kernels: one loop over the work-items with incrementally
 * updated ids. Kernels with barriers: every work-item is a fiber with its
 * own small stack; hp_barrier() and the sub-group barrier switch to the next
 * runnable fiber, and the last arriver releases the others. With a team
 * (T harts per group) each hart runs whole sub-groups of the group and the
 * harts meet at a team barrier when all their local fibers have arrived.
 */
/* Firmware code: nothing in FP registers across a yield (api.h). */
#define HP_YIELD_INT_ONLY 1
#include "wg.h"
#include "fiber.h"
#include "kctx.h"
#include "team_barrier.h"
#include <hal/heap.h>
#include <hal/ipi.h>
#include <hal/isolation.h>
#include <hal/sleep.h>
#include <hal/timer.h>
#include <string.h>

#define STACK_CANARY 0x5a17c0de5a17c0deULL
/* Guard words at the bottom of each stack: the highest is the fiber's guard
 * (hal/fiber.h: checked at every switch), the ones below it canaries
 * checked when the work-item ends. */
#define STACK_GUARD_WORDS 8

/* Per-hart state: local memory (kernel-visible) and, for barrier
 * kernels, the fiber bookkeeping and the stacks. */
typedef exec_wg_ctx wg_hart;

static wg_hart *wg_harts;

void exec_wg_init(unsigned harts)
{
	/* Each hart's first context comes from park.c (exec_wg_set). */
	wg_harts = hal_heap_alloc_private(harts * sizeof(wg_hart), 64);
}

void exec_wg_set(unsigned idx, const exec_wg_ctx *c)
{
	wg_harts[idx] = *c;
}

void *exec_wg_local_mem(unsigned idx)
{
	return wg_harts[idx].local_mem;
}

static size_t arena_bytes(void)
{
	return (size_t)exec_dev.fiber_arena_size * exec_dev.fiber_stack_scale;
}

size_t exec_wg_arena_bytes(void)
{
	return arena_bytes();
}

size_t exec_wg_record_bytes(void)
{
	return sizeof(struct exec_wg);
}

void exec_wg_swap(exec_wg_ctx *c)
{
	wg_hart *h = &wg_harts[hal_hart_idx()];
	exec_wg_ctx t = *h;
	*h = *c;
	*c = t;
}

void exec_wg_clear(void)
{
	wg_hart *h = &wg_harts[hal_hart_idx()];
	if (h->local_mem)
		memset(h->local_mem, 0, exec_dev.local_mem_size);
	/* arena_used stays: the chunk about to run may have set it already
	 * (the pool clears from kernel context's entry) */
	if (h->fiber_arena && h->arena_used)
		memset(h->fiber_arena, 0, h->arena_used);
	/* The bookkeeping only where fibers ran (they set arena_used). */
	if (h->wg && h->arena_used)
		memset(h->wg, 0, sizeof(*h->wg));
}

/* A fault kernel-side code records in the kview (first one wins). */
static void exec_kv_fault(exec_kview *kv, int code, const char *detail)
{
	int zero = 0;
	if (hal_cas(&kv->fault, &zero, code))
		hal_store_release(&kv->detail, detail);
}

/* ---- fibers (fiber.h) ---- */

static struct exec_fiber *fiber_of(hal_fiber *hf)
{
	return (struct exec_fiber *)hf; /* hf is the first member */
}

static bool canaries_ok(const struct exec_fiber *f)
{
	const uint64_t *lo =
		(const uint64_t *)f->hf.guard - (STACK_GUARD_WORDS - 1);
	for (unsigned i = 0; i < STACK_GUARD_WORDS - 1; i++)
		if (lo[i] != STACK_CANARY)
			return false;
	return hal_fiber_guard_ok(&f->hf);
}

static void overflow(struct exec_wg *wg)
{
	exec_kv_fault(wg->kv, HP_KERNEL_FAULT,
		      "a work-item overflowed its stack (raise the kernel's "
		      "stack_bytes)");
	wg->aborted = true;
}

static void divergence(struct exec_wg *wg)
{
	exec_kv_fault(
		wg->kv, HP_KERNEL_FAULT,
		"not every work-item of a group reached the same barriers "
		"(one returned while others wait)");
	wg->aborted = true;
}

/* Where a ring ends, the stack guard broke, or a finished work-item was
 * continued: which fiber runs next (hal/fiber.h). Runs on the stack of the
 * fiber that switches. */
static hal_fiber *fiber_slow(hal_fiber *hf, unsigned why)
{
	struct exec_fiber *f = fiber_of(hf);
	struct exec_wg *wg = f->wg;
	/* Every switch checked the guard word an overflow reaches first;
	 * a frame can step over it (an array), so where a ring ends the
	 * running work-item's canaries are checked too. */
	if (why == HAL_FIBER_GUARD || !canaries_ok(f))
		overflow(wg);
	else if (why == HAL_FIBER_DEAD || wg->live != wg->count)
		divergence(wg);
	if (wg->aborted)
		return &wg->main;
	if (why == 1) /* the sub-group ring always wraps; not reached */
		return &wg->fibers[f - wg->fibers - f->item.sg_lane].hf;
	/* The last work-item of this hart reached the barrier: with a team,
	 * meet the other harts' work-items first. */
	if (wg->team)
		exec_team_arrive(wg->user);
	return &wg->fibers[0].hf;
}

/* A work-item's fiber: the kernel, then the next work-item (or the hart's
 * own context after the last). */
static hal_fiber *fiber_entry(hal_fiber *hf)
{
	struct exec_fiber *f = fiber_of(hf);
	struct exec_wg *wg = f->wg;
	wg->fn(&f->item, wg->args);
	wg->live--;
	hal_fiber_finish(hf);
	if (!canaries_ok(f))
		overflow(wg);
	if (wg->aborted)
		return &wg->main;
	unsigned i = (unsigned)(f - wg->fibers);
	if (i + 1 < wg->count)
		return &wg->fibers[i + 1].hf;
	/* OpenCL: every work-item executes the same barriers. */
	if (wg->live)
		divergence(wg);
	return &wg->main;
}

/* Without a fiber (a kernel registered without .uses_barriers) a barrier is
 * a no-op for a group of one item on one hart, else a fault. */
void hp_barrier_call(const hp_item *it)
{
	struct exec_fiber *f = it->fiber;
	if (!f) {
		if (it->g->linear_size > 1 || it->g->l->team_size > 1)
			exec_kv_fault(it->g->kv, HP_KERNEL_FAULT,
				      "hp_barrier() in a kernel registered "
				      "without .uses_barriers");
		return;
	}
	hal_fiber_yield(&f->hf, 0);
}

void hp_wg_diverged(const hp_item *it)
{
	exec_kv_fault(it->g->kv, HP_KERNEL_FAULT,
		      "not every work-item of a group reached the same "
		      "barriers (one returned while others wait, or they "
		      "took different ones)");
}

void hp_sub_group_barrier_call(const hp_item *it)
{
	struct exec_fiber *f = it->fiber;
	if (!f) {
		if (it->g->l->sub_group_size > 1 && it->g->linear_size > 1)
			exec_kv_fault(it->g->kv, HP_KERNEL_FAULT,
				      "a sub-group function in a kernel "
				      "registered without .uses_barriers");
		return;
	}
	hal_fiber_yield(&f->hf, 1);
}

unsigned hp_hart(void)
{
	return hal_hart_idx();
}

/* ---- running a group ---- */

static void set_ids(hp_item *it, const hp_group *g, const size_t base[3],
		    size_t lin)
{
	it->g = g;
	it->fiber = NULL;
	it->local_linear_id = lin;
	it->local_id[0] = lin % g->local_size[0];
	it->local_id[1] = lin / g->local_size[0] % g->local_size[1];
	it->local_id[2] = lin / (g->local_size[0] * g->local_size[1]);
	for (unsigned d = 0; d < 3; d++)
		it->global_id[d] = base[d] + it->local_id[d];
}

/* The work-item after @p it in local linear order (no division). */
static inline void next_item(hp_item *it, const hp_group *g,
			     const size_t base[3])
{
	it->local_linear_id++;
	it->global_id[0]++;
	if (++it->local_id[0] == g->local_size[0]) {
		it->local_id[0] = 0;
		it->global_id[0] = base[0];
		it->global_id[1]++;
		if (++it->local_id[1] == g->local_size[1]) {
			it->local_id[1] = 0;
			it->global_id[1] = base[1];
			it->local_id[2]++;
			it->global_id[2]++;
		}
	}
}

static void run_loop(const hp_group *g, hp_kernel_fn fn, const void *args,
		     const size_t base[3], size_t first, size_t end)
{
	hp_item it;
	set_ids(&it, g, base, first);
	for (size_t lin = first; lin < end; lin++) {
		fn(&it, args);
		next_item(&it, g, base);
	}
}

/* A barrier-free group through the kernel's row loop: one call per row
 * (local_size[0] items) instead of one per work-item. */
static void run_rows(const hp_group *g, hp_kernel_row_fn row, const void *args,
		     const size_t base[3])
{
	hp_item it;
	it.g = g;
	it.fiber = NULL;
	it.local_id[0] = 0;
	it.global_id[0] = base[0];
	size_t lx = g->local_size[0], lin = 0;
	for (size_t z = 0; z < g->local_size[2]; z++)
		for (size_t y = 0; y < g->local_size[1]; y++, lin += lx) {
			it.local_id[1] = y;
			it.local_id[2] = z;
			it.global_id[1] = base[1] + y;
			it.global_id[2] = base[2] + z;
			it.local_linear_id = lin;
			row(&it, args, lx);
		}
}

/* The calling hart's fiber bookkeeping and arena, in its context (a
 * guard page below the arena: a work-item that overflows the lowest stack
 * faults there); false without them (a context that could not be made). */
static bool fibers_prepare(const wg_hart *h)
{
	return h->wg && h->fiber_arena;
}

void exec_wg_fibers(exec_ucall *u, const hp_kernel *k)
{
	wg_hart *h = &wg_harts[hal_hart_idx()];
	if (fibers_prepare(h)) {
		u->wg = h->wg;
		u->arena = h->fiber_arena;
		u->stack = (size_t)exec_fiber_stack_bytes(&exec_dev, k) *
			   exec_dev.fiber_stack_scale;
		/* What a group of the launch may use of it (cleared when
		 * another domain's kernels come, exec_wg_clear). */
		const size_t *ls = u->kv->launch.local_size;
		size_t items = ls[0] * ls[1] * ls[2], all = arena_bytes();
		size_t used = items && u->stack <= all / items
				      ? items * u->stack
				      : all;
		if (used > h->arena_used)
			h->arena_used = used;
	}
}

static void run_fibers(const exec_ucall *u, hp_group *g, const size_t base[3],
		       size_t first, size_t end, bool team)
{
	struct exec_wg *wg = u->wg;
	exec_kview *kv = u->kv;
	if (!wg) {
		exec_kv_fault(kv, HP_OUT_OF_RESOURCES,
			      "no memory left for work-item stacks");
		if (team)
			exec_team_leave(u->user);
		return;
	}
	size_t stack = u->stack;
	unsigned s = g->l->sub_group_size;

	g->wg = wg;
	wg->kv = kv;
	wg->user = u->user;
	wg->args = kv->args;
	wg->fn = kv->k.fn;
	wg->count = (unsigned)(end - first);
	wg->live = wg->count;
	wg->aborted = false;
	wg->team = team;

	/* The work-items' ids step through the group (no division per
	 * item); `first` is a whole number of sub-groups. */
	char *arena = u->arena;
	hp_item it;
	set_ids(&it, g, base, first);
	it.fiber = NULL;
	unsigned lane = 0, sg_first = 0;
	unsigned sg_size = g->linear_size - first < s
				   ? (unsigned)(g->linear_size - first)
				   : s;
	for (unsigned i = 0; i < wg->count; i++) {
		struct exec_fiber *f = &wg->fibers[i];
		uint64_t *lo = (uint64_t *)(arena + (size_t)i * stack);
		for (unsigned w = 0; w < STACK_GUARD_WORDS - 1; w++)
			lo[w] = STACK_CANARY;
		hal_fiber_init(&f->hf, lo + STACK_GUARD_WORDS - 1,
			       stack - (STACK_GUARD_WORDS - 1) * sizeof(*lo),
			       fiber_entry);
		f->hf.slow = fiber_slow;
		f->hf.next[0] =
			i + 1 < wg->count ? &wg->fibers[i + 1].hf : NULL;
		f->hf.next[1] = lane + 1 < sg_size ? &wg->fibers[i + 1].hf
						   : &wg->fibers[sg_first].hf;
		f->wg = wg;
		f->item = it;
		f->item.fiber = f;
		f->item.sg_acc = wg->acc[sg_first / s];
		f->item.sg_slots = &wg->slots[0][sg_first];
		f->item.sg_lane = lane;
		f->item.sg_size = sg_size;
		f->item.sg_count = 0;
		if (++lane == sg_size) {
			lane = 0;
			sg_first = i + 1;
			size_t left = end - (first + sg_first);
			sg_size = left < s ? (unsigned)left : s;
		}
		next_item(&it, g, base);
	}
	if (wg->count)
		hal_fiber_run(&wg->main, &wg->fibers[0].hf);
	if (team)
		exec_team_leave(u->user);
}

/* Sizes of group g->group_id (remainder groups are smaller). */
static void group_sizes(hp_group *g, const hp_launch *l)
{
	for (unsigned d = 0; d < 3; d++) {
		size_t left =
			l->global_size[d] - g->group_id[d] * l->local_size[d];
		g->local_size[d] =
			left < l->local_size[d] ? left : l->local_size[d];
	}
	g->linear_size = g->local_size[0] * g->local_size[1] * g->local_size[2];
	unsigned s = l->sub_group_size;
	g->num_sub_groups = (unsigned)((g->linear_size + s - 1) / s);
}

/* The rows of a group whose base ids are in @p it (local ids 0): one call
 * of the kernel's row loop per row; @p it is as it was after. */
static inline __attribute__((always_inline)) void
group_rows(hp_item *it, const hp_group *g, hp_kernel_row_fn row,
	   const void *args)
{
	size_t lx = g->local_size[0], b1 = it->global_id[1],
	       b2 = it->global_id[2];
	for (size_t z = 0; z < g->local_size[2]; z++)
		for (size_t y = 0; y < g->local_size[1]; y++) {
			it->local_id[1] = y;
			it->local_id[2] = z;
			it->global_id[1] = b1 + y;
			it->global_id[2] = b2 + z;
			row(it, args, lx);
			it->local_linear_id += lx;
		}
	it->local_id[1] = it->local_id[2] = 0;
	it->local_linear_id = 0;
	it->global_id[1] = b1;
	it->global_id[2] = b2;
}

/* The groups of a chunk after its first (range_rows): the ids carried in
 * @p it from group to group (no division per group), sizes recomputed only
 * next to a remainder group. Out of line, so that a chunk of one group
 * (every small launch) does not save the registers this loop needs. */
static inline __attribute__((always_inline)) void
rows_rest(hp_group *g, hp_item *it, hp_kernel_row_fn row, const void *args,
	  size_t left, bool one_row)
{
	const hp_launch *l = g->l;
	size_t n0 = l->num_groups[0], L0 = l->local_size[0];
	/* The last group of each dimension when it is a remainder. */
	size_t rem0 = l->global_size[0] % L0 ? n0 - 1 : SIZE_MAX;
	size_t rem1 = l->global_size[1] % l->local_size[1]
			      ? l->num_groups[1] - 1
			      : SIZE_MAX;
	size_t rem2 = l->global_size[2] % l->local_size[2]
			      ? l->num_groups[2] - 1
			      : SIZE_MAX;
	size_t g0 = g->group_id[0];
	/* Uniform launches (no remainder group) never recompute sizes. */
	bool uniform = (rem0 & rem1 & rem2) == SIZE_MAX;
	bool edge = g->linear_size != l->enqueued_linear;
	for (;;) {
		if (++g0 < n0) {
			it->global_id[0] += L0;
		} else {
			/* Next row of groups: the rare path. */
			g0 = 0;
			it->global_id[0] = l->global_offset[0];
			if (++g->group_id[1] < l->num_groups[1]) {
				it->global_id[1] += l->local_size[1];
			} else {
				g->group_id[1] = 0;
				it->global_id[1] = l->global_offset[1];
				g->group_id[2]++;
				it->global_id[2] += l->local_size[2];
			}
		}
		g->group_id[0] = g0;
		if (!uniform) {
			bool e = g0 == rem0 || g->group_id[1] == rem1 ||
				 g->group_id[2] == rem2;
			if (e || edge)
				group_sizes(g, l);
			edge = e;
		}
		if (one_row)
			row(it, args, g->local_size[0]);
		else
			group_rows(it, g, row, args);
		if (--left == 0)
			return;
	}
}

static __attribute__((noinline)) void rows_rest1(hp_group *g, hp_item *it,
						 hp_kernel_row_fn row,
						 const void *args, size_t left)
{
	rows_rest(g, it, row, args, left, true);
}

static __attribute__((noinline)) void rows_rest_n(hp_group *g, hp_item *it,
						  hp_kernel_row_fn row,
						  const void *args, size_t left)
{
	rows_rest(g, it, row, args, left, false);
}

/* Barrier-free groups through the kernel's row loop. @p one_row: local
 * sizes 1 in dimensions 1 and 2 (the common 1-D launch: one call per
 * group); else every row of every group (group_rows). */
static inline __attribute__((always_inline)) void
range_rows(hp_group *g, hp_kernel_row_fn row, const void *args, size_t count,
	   bool one_row)
{
	const hp_launch *l = g->l;
	hp_item it;
	memset(&it, 0, sizeof(it));
	it.g = g;
	for (unsigned d = 0; d < 3; d++)
		it.global_id[d] =
			l->global_offset[d] + g->group_id[d] * l->local_size[d];
	if (one_row)
		row(&it, args, g->local_size[0]);
	else
		group_rows(&it, g, row, args);
	if (count > 1) {
		if (one_row)
			rows_rest1(g, &it, row, args, count - 1);
		else
			rows_rest_n(g, &it, row, args, count - 1);
	}
}

/* Barrier-free groups of a kernel whose row may run past a group's end
 * (hp_kernel.row_spans_groups; local sizes 1 in dimensions 1 and 2): the
 * chunk's consecutive full groups of one row of groups in one call, a
 * remainder group in a call of its own. @p g is the chunk's first group
 * and ends as its last (a fault names the first group of its call). */
static __attribute__((noinline)) void
range_span(hp_group *g, hp_kernel_row_fn row, const void *args, size_t count)
{
	const hp_launch *l = g->l;
	size_t n0 = l->num_groups[0], L0 = l->local_size[0];
	size_t full0 = l->global_size[0] / L0; /* full groups in a row */
	hp_item it;
	memset(&it, 0, sizeof(it));
	it.g = g;
	for (;;) {
		size_t g0 = g->group_id[0];
		size_t m = g0 < full0 ? full0 - g0 : 1;
		if (m > count)
			m = count;
		for (unsigned d = 0; d < 3; d++)
			it.global_id[d] = l->global_offset[d] +
					  g->group_id[d] * l->local_size[d];
		row(&it, args, g0 < full0 ? m * L0 : g->local_size[0]);
		count -= m;
		if (!count)
			return;
		g0 += m;
		if (g0 == n0) {
			g0 = 0;
			if (++g->group_id[1] == l->num_groups[1]) {
				g->group_id[1] = 0;
				g->group_id[2]++;
			}
		}
		g->group_id[0] = g0;
		group_sizes(g, l);
	}
}

/* A work-group function (hp_kernel.row_is_group): the whole group in one
 * call, from its first item, the fiber arena as its per-item scratch
 * (u->stack bytes per item: the descriptor's stack_bytes or more). */
static void run_group_fn(const exec_ucall *u, hp_group *g, const size_t base[3])
{
	if (!u->wg) {
		exec_kv_fault(u->kv, HP_OUT_OF_RESOURCES,
			      "no memory left for work-item scratch");
		return;
	}
	hp_item it;
	set_ids(&it, g, base, 0);
	it.fiber = u->arena;
	it.sg_acc = it.sg_slots = NULL;
	it.sg_lane = it.sg_size = it.sg_count = 0;
	u->kv->k.row(&it, u->kv->args, g->linear_size);
}

/* Groups [start, end) one at a time, ids from each group's linear index:
 * barrier kernels (fibers) and kernels without a row loop. */
static __attribute__((noinline)) void run_groups(exec_ucall *u, hp_group *g,
						 size_t start, size_t end)
{
	exec_kview *kv = u->kv;
	const hp_launch *l = &kv->launch;
	const exec_kfns *k = &kv->k;
	size_t n0 = l->num_groups[0], n1 = l->num_groups[1];
	for (size_t grp = start; grp < end; grp++) {
		g->group_id[0] = grp % n0;
		g->group_id[1] = grp / n0 % n1;
		g->group_id[2] = grp / (n0 * n1);
		group_sizes(g, l);
		size_t base[3];
		for (unsigned d = 0; d < 3; d++)
			base[d] = l->global_offset[d] +
				  g->group_id[d] * l->local_size[d];
		if (k->row_is_group)
			run_group_fn(u, g, base);
		else if (k->uses_barriers)
			run_fibers(u, g, base, 0, g->linear_size, false);
		else
			run_loop(g, k->fn, kv->args, base, 0, g->linear_size);
	}
}

static void wg_run_range(exec_ucall *u)
{
	exec_kview *kv = u->kv;
	const hp_launch *l = &kv->launch;
	const exec_kfns *k = &kv->k;
	size_t start = u->start, end = u->end;
	size_t n0 = l->num_groups[0], n1 = l->num_groups[1];
	hp_group g;
	g.l = l;
	g.local_mem = u->local_mem;
	g.wg = NULL;
	g.kv = kv;
	g.group_id[0] = start % n0;
	g.group_id[1] = start / n0 % n1;
	g.group_id[2] = start / (n0 * n1);
	group_sizes(&g, l);
	u->group = &g; /* for a fault report */
	if (!k->uses_barriers && k->row) {
		bool one_row = l->local_size[1] == 1 && l->local_size[2] == 1;
		if (k->row_spans && one_row)
			range_span(&g, k->row, kv->args, end - start);
		else
			range_rows(&g, k->row, kv->args, end - start, one_row);
		return;
	}
	run_groups(u, &g, start, end);
	u->group = NULL;
}

static __attribute__((noinline)) void wg_run_team(exec_ucall *u)
{
	exec_kview *kv = u->kv;
	const hp_launch *l = &kv->launch;
	const exec_kfns *k = &kv->k;
	size_t group = u->start;
	unsigned rank = u->rank, team = u->team;
	hp_group g;
	size_t n0 = l->num_groups[0], n1 = l->num_groups[1];
	g.l = l;
	g.group_id[0] = group % n0;
	g.group_id[1] = group / n0 % n1;
	g.group_id[2] = group / (n0 * n1);
	size_t base[3];
	for (unsigned d = 0; d < 3; d++) {
		size_t start = g.group_id[d] * l->local_size[d];
		size_t left = l->global_size[d] - start;
		base[d] = l->global_offset[d] + start;
		g.local_size[d] =
			left < l->local_size[d] ? left : l->local_size[d];
	}
	g.linear_size = g.local_size[0] * g.local_size[1] * g.local_size[2];
	unsigned s = l->sub_group_size;
	g.num_sub_groups = (unsigned)((g.linear_size + s - 1) / s);
	g.local_mem = u->local_mem;
	g.wg = NULL;
	g.kv = kv;
	u->group = &g; /* for a fault report */

	/* This hart's share: whole sub-groups [lo, hi). */
	size_t lo = (size_t)rank * g.num_sub_groups / team * s;
	size_t hi = (size_t)(rank + 1) * g.num_sub_groups / team * s;
	if (lo > g.linear_size)
		lo = g.linear_size;
	if (hi > g.linear_size)
		hi = g.linear_size;

	if (k->row_is_group) {
		/* one call runs the group: the team's first hart makes it */
		if (rank == 0)
			run_group_fn(u, &g, base);
	} else if (k->uses_barriers)
		run_fibers(u, &g, base, lo, hi, true);
	else if (k->row && lo == 0 && hi == g.linear_size)
		run_rows(&g, k->row, kv->args, base);
	else
		run_loop(&g, k->fn, kv->args, base, lo, hi);
	u->group = NULL;
}

void exec_wg_main(void *p)
{
	exec_ucall *u = p;
	if (u->team)
		wg_run_team(u);
	else
		wg_run_range(u);
}
