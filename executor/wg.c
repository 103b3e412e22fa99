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
#include "wg.h"
#include "kctx.h"
#include "team_barrier.h"
#include <hal/context.h>
#include <hal/heap.h>
#include <hal/ipi.h>
#include <hal/isolation.h>
#include <hal/sleep.h>
#include <hal/timer.h>
#include <string.h>

#define STACK_CANARY 0x5a17c0de5a17c0deULL
#define STACK_GUARD_WORDS 8 /* canary words at the bottom of each stack */
#define MAX_ITEMS 256	    /* dev.max_work_group_size */

enum { F_RUN, F_WAIT_WG, F_WAIT_SG, F_DONE };

struct exec_fiber {
	hal_context ctx;
	hp_item item;
	unsigned state;
};

struct exec_wg {
	hp_group *g;
	exec_kview *kv;
	bool user; /* in U-mode (exec_ucall.user) */
	const void *args;
	hp_kernel_fn fn;
	size_t first;	/* local linear id of fiber 0 */
	unsigned count; /* fibers on this hart */
	unsigned live;	/* fibers not done */
	unsigned cur;	/* running fiber */
	unsigned wg_arrived;
	unsigned sg_first; /* sub-group of fiber 0 */
	bool aborted;
	bool team; /* a share of a group spread over a team */
	hal_context main;
	unsigned short sg_arrived[MAX_ITEMS];
	uint64_t slots[MAX_ITEMS]; /* sub-group collectives' scratch */
	struct exec_fiber fibers[MAX_ITEMS];
};

/* Per-hart state: local memory (kernel-visible) and, for barrier
 * kernels, the fiber bookkeeping and the stacks. */
typedef struct wg_hart {
	void *local_mem;    /* dev.local_mem_size bytes */
	void *fiber_arena;  /* dev.fiber_arena_size bytes, lazily */
	struct exec_wg *wg; /* fiber bookkeeping, lazily */
} wg_hart;

static wg_hart *wg_harts;

void exec_wg_init(unsigned harts)
{
	wg_harts = hal_heap_alloc_private(harts * sizeof(wg_hart), 64);
	/* Local memory now, not lazily: a team uses its leader's, and two
	 * harts must never race to create it. */
	for (unsigned i = 0; i < harts; i++) {
		wg_harts[i].local_mem =
			hal_heap_alloc(exec_dev.local_mem_size, 64);
	}
}

void *exec_wg_local_mem(unsigned idx)
{
	return wg_harts[idx].local_mem;
}

/* A fault kernel-side code records in the kview (first one wins). */
static void exec_kv_fault(exec_kview *kv, int code, const char *detail)
{
	int zero = 0;
	if (hal_cas(&kv->fault, &zero, code))
		hal_store_release(&kv->detail, detail);
}

/* ---- fibers ---- */

/* Every switch checks the guard word an overflow reaches first (the
 * highest); a work-item's end checks them all. */
static void fiber_check_stack(struct exec_wg *wg, struct exec_fiber *f,
			      bool all)
{
	const uint64_t *guard = f->ctx.stack_lo;
	bool ok = guard[STACK_GUARD_WORDS - 1] == STACK_CANARY;
	for (unsigned i = 0; all && i < STACK_GUARD_WORDS - 1; i++)
		ok = ok && guard[i] == STACK_CANARY;
	if (!ok) {
		exec_kv_fault(wg->kv, HP_KERNEL_FAULT,
			      "a work-item overflowed its stack (raise the "
			      "kernel's stack_bytes)");
		wg->aborted = true;
	}
}

static void divergence(struct exec_wg *wg)
{
	exec_kv_fault(
		wg->kv, HP_KERNEL_FAULT,
		"not every work-item of a group reached the same barriers "
		"(one returned while others wait)");
	wg->aborted = true;
}

/* Leave the running fiber (already marked blocked or done) for the next
 * runnable one, or for the hart's own context when none is left. */
static void switch_away(struct exec_wg *wg)
{
	struct exec_fiber *f = &wg->fibers[wg->cur];
	fiber_check_stack(wg, f, f->state == F_DONE);
	if (!wg->aborted) {
		unsigned j = wg->cur;
		for (unsigned k = 0; k < wg->count; k++) {
			if (++j == wg->count)
				j = 0;
			if (wg->fibers[j].state == F_RUN) {
				wg->cur = j;
				hal_context_switch(&f->ctx, &wg->fibers[j].ctx);
				return;
			}
		}
		if (wg->live)
			divergence(wg);
	}
	hal_context_switch(&f->ctx, &wg->main);
}

/* All live fibers of this hart are at the work-group barrier. */
static void wg_release(struct exec_wg *wg)
{
	if (wg->team)
		exec_team_arrive(wg->user);
	for (unsigned i = 0; i < wg->count; i++)
		if (wg->fibers[i].state == F_WAIT_WG)
			wg->fibers[i].state = F_RUN;
	wg->wg_arrived = 0;
}

static void fiber_main(void *p)
{
	struct exec_fiber *f = p;
	struct exec_wg *wg = f->item.g->wg;
	wg->fn(&f->item, wg->args);
	f->state = F_DONE;
	wg->live--;
	/* OpenCL: every work-item executes the same barriers. */
	if (wg->wg_arrived)
		divergence(wg);
	switch_away(wg);
}

void hp_barrier(const hp_item *it)
{
	struct exec_wg *wg = it->g->wg;
	if (!wg) {
		if (it->g->linear_size > 1 || it->g->l->team_size > 1)
			exec_kv_fault(it->g->kv, HP_KERNEL_FAULT,
				      "hp_barrier() in a kernel registered "
				      "without .uses_barriers");
		return;
	}
	if (wg->live != wg->count) {
		divergence(wg);
		switch_away(wg);
		return;
	}
	wg->fibers[wg->cur].state = F_WAIT_WG;
	if (++wg->wg_arrived == wg->live) {
		wg_release(wg);
		return;
	}
	switch_away(wg);
}

void hp_sub_group_barrier(const hp_item *it)
{
	struct exec_wg *wg = it->g->wg;
	unsigned s = it->g->l->sub_group_size;
	if (!wg) {
		if (s > 1 && it->g->linear_size > 1)
			exec_kv_fault(it->g->kv, HP_KERNEL_FAULT,
				      "a sub-group function in a kernel "
				      "registered without .uses_barriers");
		return;
	}
	unsigned sg = (unsigned)(it->local_linear_id / s);
	unsigned local = sg - wg->sg_first;
	wg->fibers[wg->cur].state = F_WAIT_SG;
	if (++wg->sg_arrived[local] == hp_sub_group_size(it)) {
		size_t lo = (size_t)sg * s - wg->first;
		unsigned n = hp_sub_group_size(it);
		for (unsigned i = 0; i < n; i++)
			if (wg->fibers[lo + i].state == F_WAIT_SG)
				wg->fibers[lo + i].state = F_RUN;
		wg->sg_arrived[local] = 0;
		return;
	}
	switch_away(wg);
}

/* Scratch slot of a work-item for sub-group collectives (subgroup.c). */
uint64_t *exec_sg_slots(const hp_item *it, unsigned *first_lane_index)
{
	struct exec_wg *wg = it->g->wg;
	unsigned s = it->g->l->sub_group_size;
	*first_lane_index = (unsigned)(it->local_linear_id / s * s - wg->first);
	return wg->slots;
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
	it->local_linear_id = lin;
	it->local_id[0] = lin % g->local_size[0];
	it->local_id[1] = lin / g->local_size[0] % g->local_size[1];
	it->local_id[2] = lin / (g->local_size[0] * g->local_size[1]);
	for (unsigned d = 0; d < 3; d++)
		it->global_id[d] = base[d] + it->local_id[d];
}

static void run_loop(const hp_group *g, hp_kernel_fn fn, const void *args,
		     const size_t base[3], size_t first, size_t end)
{
	hp_item it;
	set_ids(&it, g, base, first);
	for (size_t lin = first; lin < end; lin++) {
		fn(&it, args);
		it.local_linear_id++;
		it.global_id[0]++;
		if (++it.local_id[0] == g->local_size[0]) {
			it.local_id[0] = 0;
			it.global_id[0] = base[0];
			it.global_id[1]++;
			if (++it.local_id[1] == g->local_size[1]) {
				it.local_id[1] = 0;
				it.global_id[1] = base[1];
				it.local_id[2]++;
				it.global_id[2]++;
			}
		}
	}
}

/* A barrier-free group through the kernel's row loop: one call per row
 * (local_size[0] items) instead of one per work-item. */
static void run_rows(const hp_group *g, hp_kernel_row_fn row, const void *args,
		     const size_t base[3])
{
	hp_item it;
	it.g = g;
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

/* The calling hart's fiber bookkeeping and arena (firmware side, before
 * kernel code runs: it cannot allocate); false if out of memory. */
static bool fibers_prepare(wg_hart *h)
{
	if (!h->wg) {
		h->wg = hal_heap_alloc(sizeof(struct exec_wg), 64);
		/* With a guard below it: a work-item that overflows the
		 * lowest stack faults there (isolation, kctx.c). */
		char *a = hal_heap_alloc(
			(size_t)exec_dev.fiber_arena_size *
					exec_dev.fiber_stack_scale +
				EXEC_GUARD_BYTES,
			EXEC_GUARD_BYTES);
		if (a) {
			exec_kctx_arena_guard((uintptr_t)a);
			h->fiber_arena = a + EXEC_GUARD_BYTES;
		}
	}
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
	}
}

/* hal_context.user of this call's fibers: U-mode, and a hart without an
 * FPU (whose contexts never touch FP registers). */
static unsigned long ctx_flags(const exec_ucall *u)
{
	return (u->user ? 1ul : 0ul) | (u->nofpu ? HAL_CONTEXT_NO_FPU : 0ul);
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
	wg->g = g;
	wg->kv = kv;
	wg->user = u->user;
	wg->args = kv->args;
	wg->fn = kv->k.fn;
	wg->first = first;
	wg->count = (unsigned)(end - first);
	wg->live = wg->count;
	wg->cur = 0;
	wg->wg_arrived = 0;
	wg->sg_first = (unsigned)(first / s);
	wg->aborted = false;
	wg->team = team;
	memset(wg->sg_arrived, 0,
	       sizeof(wg->sg_arrived[0]) * (wg->count / s + 2));

	char *arena = u->arena;
	for (unsigned i = 0; i < wg->count; i++) {
		struct exec_fiber *f = &wg->fibers[i];
		char *lo = arena + (size_t)i * stack;
		for (unsigned w = 0; w < STACK_GUARD_WORDS; w++)
			((uint64_t *)lo)[w] = STACK_CANARY;
		f->state = F_RUN;
		set_ids(&f->item, g, base, first + i);
		hal_context_init(&f->ctx, lo, stack, fiber_main, f);
		f->ctx.user = ctx_flags(u);
	}
	if (wg->count) {
		hal_context_self(&wg->main);
		wg->main.user = ctx_flags(u);
		hal_context_switch(&wg->main, &wg->fibers[0].ctx);
	}
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

/* Barrier-free groups of one row (local sizes 1 in dimensions 1 and 2):
 * the kernel's row loop per group, the ids carried in registers from group
 * to group (no division per group), sizes recomputed only next to a
 * remainder group. */
static void run_range_rows1(hp_group *g, hp_kernel_row_fn row, const void *args,
			    size_t count)
{
	const hp_launch *l = g->l;
	size_t n0 = l->num_groups[0], L0 = l->local_size[0];
	size_t rem0 = l->global_size[0] % L0 ? n0 - 1 : SIZE_MAX;
	size_t rem1 = l->global_size[1] % l->local_size[1]
			      ? l->num_groups[1] - 1
			      : SIZE_MAX;
	size_t rem2 = l->global_size[2] % l->local_size[2]
			      ? l->num_groups[2] - 1
			      : SIZE_MAX;
	size_t g0 = g->group_id[0];
	hp_item it;
	memset(&it, 0, sizeof(it));
	it.g = g;
	for (unsigned d = 0; d < 3; d++)
		it.global_id[d] =
			l->global_offset[d] + g->group_id[d] * l->local_size[d];
	bool edge = g->linear_size != l->enqueued_linear;
	for (;;) {
		row(&it, args, g->local_size[0]);
		if (--count == 0)
			return;
		if (++g0 < n0) {
			it.global_id[0] += L0;
		} else {
			/* Next row of groups: the rare path. */
			g0 = 0;
			it.global_id[0] = l->global_offset[0];
			if (++g->group_id[1] < l->num_groups[1]) {
				it.global_id[1] += l->local_size[1];
			} else {
				g->group_id[1] = 0;
				it.global_id[1] = l->global_offset[1];
				g->group_id[2]++;
				it.global_id[2] += l->local_size[2];
			}
		}
		g->group_id[0] = g0;
		bool e = g0 == rem0 || g->group_id[1] == rem1 ||
			 g->group_id[2] == rem2;
		if (e || edge)
			group_sizes(g, l);
		edge = e;
	}
}

static void wg_run_range(exec_ucall *u)
{
	exec_kview *kv = u->kv;
	const hp_launch *l = &kv->launch;
	const hp_kernel *k = &kv->k;
	const void *args = kv->args;
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
	if (!k->uses_barriers && k->row && l->local_size[1] == 1 &&
	    l->local_size[2] == 1) {
		run_range_rows1(&g, k->row, args, end - start);
		return;
	}
	/* Everything else: one group at a time, ids from the group's
	 * linear index. */
	for (size_t grp = start; grp < end; grp++) {
		g.group_id[0] = grp % n0;
		g.group_id[1] = grp / n0 % n1;
		g.group_id[2] = grp / (n0 * n1);
		group_sizes(&g, l);
		size_t base[3];
		for (unsigned d = 0; d < 3; d++)
			base[d] = l->global_offset[d] +
				  g.group_id[d] * l->local_size[d];
		if (k->uses_barriers)
			run_fibers(u, &g, base, 0, g.linear_size, false);
		else if (k->row)
			run_rows(&g, k->row, args, base);
		else
			run_loop(&g, k->fn, args, base, 0, g.linear_size);
	}
	u->group = NULL;
}

static void wg_run_team(exec_ucall *u)
{
	exec_kview *kv = u->kv;
	const hp_launch *l = &kv->launch;
	const hp_kernel *k = &kv->k;
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

	if (k->uses_barriers)
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
