// SPDX-License-Identifier: MIT
/*
 * Parked chunks and kernel contexts (park.h). A hart's context is its
 * exec_ucall here, its kernel stack in kctx.c and its local memory and
 * fiber arena in wg.c; parking swaps all three with a slot's spare, taking
 * a chunk back swaps them again, so each module keeps serving "the calling
 * hart's" memory and never knows a chunk moved.
 */
#include "park.h"
#include "exec.h"
#include "kctx.h"
#include "wg.h"
#include <hal/atomic.h>
#include <hal/hart.h>
#include <hal/heap.h>
#include <string.h>

/* One context: what a chunk of kernel code runs with. */
typedef struct park_ctx {
	exec_park_cur cur;
	char *ustack;
	exec_wg_ctx wg;
} park_ctx;

typedef struct park_slot {
	exec_park p;
	park_ctx ctx; /* parked: the chunk's; free: a spare (or parts) */
} park_slot;

/* The running context's call record and tag are the pool's, its stack
 * and memory kctx.c's and wg.c's. */
typedef struct park_hart {
	unsigned seq;
	park_slot *taking; /* the slot exec_park_take() filled */
	hal_user_regs taken;
	park_slot slot[EXEC_PARK_MAX];
} park_hart;

static park_hart *park_harts;

/* Each domain's owner: a session that opens in a domain renews it, so
 * its kernels never meet what the previous owner's left. */
_Static_assert(EXEC_DOMAINS <= 1u << 5, "domains fit a tag");
unsigned exec_park_tags[EXEC_DOMAINS];

static park_hart *self(void)
{
	return &park_harts[hal_hart_idx()];
}

void exec_domain_renew(unsigned dom)
{
	if (dom < EXEC_DOMAINS)
		hal_fetch_add(&exec_park_tags[dom], 1u << 5);
}

void exec_park_init(unsigned harts)
{
	park_harts = hal_heap_alloc_private(harts * sizeof(park_hart), 64);
	for (unsigned d = 0; d < EXEC_DOMAINS; d++)
		hal_store_relaxed(&exec_park_tags[d], 1u << 5 | d);
}

void exec_park_clear(void)
{
	exec_kctx_stack_clear();
	exec_wg_clear();
}

const exec_park *exec_park_at(unsigned i)
{
	return &self()->slot[i].p;
}

/* The hart's context and slot s's trade places. */
static void swap(park_slot *s, exec_park_cur *cur)
{
	exec_park_cur c = *cur;
	*cur = s->ctx.cur;
	s->ctx.cur = c;
	s->ctx.ustack = exec_kctx_swap_stack(s->ctx.ustack);
	exec_wg_swap(&s->ctx.wg);
}

/* A spare has what a chunk needs before it can start: its ucall, a
 * kernel stack (without one, enter would run the kernel outside U-mode)
 * and local memory (a team reads its leader's). The arena comes lazily. */
static bool spare_ready(park_ctx *c)
{
	if (!c->cur.u)
		c->cur.u = hal_heap_alloc(sizeof(exec_ucall), 64);
	if (!c->ustack)
		c->ustack = exec_kctx_stack_new();
	return c->cur.u && c->ustack && exec_wg_ctx_fill(&c->wg);
}

bool exec_park_take(const unsigned long *regs, unsigned long status)
{
	park_hart *h = self();
	park_slot *s = NULL;
	for (unsigned i = 0; i < EXEC_PARK_MAX && !s; i++)
		if (!h->slot[i].p.inst)
			s = &h->slot[i];
	if (!s || !spare_ready(&s->ctx))
		return false;
	h->taken.pc = regs[0];
	memcpy(h->taken.x, regs + 1, sizeof(h->taken.x));
	hal_user_fp_save(&h->taken, status);
	h->taking = s;
	return true;
}

void exec_park_put(void *inst, unsigned dom, size_t start, size_t end,
		   exec_park_cur *cur)
{
	park_hart *h = self();
	park_slot *s = h->taking;
	h->taking = NULL;
	s->p.regs = h->taken;
	s->p.dom = dom;
	s->p.start = start;
	s->p.end = end;
	s->p.seq = h->seq++;
	swap(s, cur);
	s->p.inst = inst;
}

const hal_user_regs *exec_park_get(unsigned i, exec_park_cur *cur)
{
	park_slot *s = &self()->slot[i];
	swap(s, cur);
	s->p.inst = NULL;
	return &s->p.regs;
}
