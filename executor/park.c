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
	exec_ucall *u;
	char *ustack;
	exec_wg_ctx wg;
	unsigned tag; /* whose kernels last used it (dom_tag), 0: nobody */
} park_ctx;

typedef struct park_slot {
	exec_park p;
	park_ctx ctx; /* parked: the chunk's; free: a spare (or parts) */
} park_slot;

typedef struct park_hart {
	park_ctx cur; /* but ustack and wg: kctx.c and wg.c hold those */
	unsigned count, seq;
	park_slot *taking; /* the slot exec_park_take() filled */
	hal_user_regs taken;
	park_slot slot[EXEC_PARK_MAX];
} park_hart;

static park_hart *park_harts;

/* Each domain's owner: a session that opens in a domain renews it, so
 * its kernels never meet what the previous owner's left. */
#define TAG_DOM_BITS 5
_Static_assert(EXEC_DOMAINS <= 1u << TAG_DOM_BITS, "domains fit a tag");
static unsigned dom_epoch[EXEC_DOMAINS];

static park_hart *self(void)
{
	return &park_harts[hal_hart_idx()];
}

static unsigned dom_tag(unsigned dom)
{
	/* never 0: the epoch starts at 1 */
	return hal_load_relaxed(&dom_epoch[dom]) << TAG_DOM_BITS | dom;
}

void exec_domain_renew(unsigned dom)
{
	if (dom < EXEC_DOMAINS)
		hal_fetch_add(&dom_epoch[dom], 1u);
}

void exec_park_init(unsigned harts)
{
	park_harts = hal_heap_alloc_private(harts * sizeof(park_hart), 64);
	for (unsigned i = 0; i < harts; i++)
		park_harts[i].cur.u = hal_heap_alloc(sizeof(exec_ucall), 64);
	for (unsigned d = 0; d < EXEC_DOMAINS; d++)
		hal_store_relaxed(&dom_epoch[d], 1u);
}

exec_ucall *exec_park_ucall(void)
{
	return self()->cur.u;
}

/* Out of line: a hart meets another domain's kernels now and then. */
static __attribute__((noinline)) void own_new(park_hart *h, unsigned tag)
{
	exec_kctx_stack_clear();
	exec_wg_clear();
	h->cur.tag = tag;
}

void exec_park_own(unsigned dom)
{
	park_hart *h = self();
	unsigned tag = dom_tag(dom < EXEC_DOMAINS ? dom : 0);
	if (h->cur.tag != tag)
		own_new(h, tag);
}

unsigned exec_park_count(void)
{
	return self()->count;
}

const exec_park *exec_park_at(unsigned i)
{
	return &self()->slot[i].p;
}

/* The hart's context and slot s's trade places. */
static void swap(park_hart *h, park_slot *s)
{
	exec_ucall *u = h->cur.u;
	h->cur.u = s->ctx.u;
	s->ctx.u = u;
	unsigned tag = h->cur.tag;
	h->cur.tag = s->ctx.tag;
	s->ctx.tag = tag;
	s->ctx.ustack = exec_kctx_swap_stack(s->ctx.ustack);
	exec_wg_swap(&s->ctx.wg);
}

/* A spare has what a chunk needs before it can start: its ucall, a
 * kernel stack (without one, enter would run the kernel outside U-mode)
 * and local memory (a team reads its leader's). The arena comes lazily. */
static bool spare_ready(park_ctx *c)
{
	if (!c->u)
		c->u = hal_heap_alloc(sizeof(exec_ucall), 64);
	if (!c->ustack)
		c->ustack = exec_kctx_stack_new();
	return c->u && c->ustack && exec_wg_ctx_fill(&c->wg);
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

void exec_park_put(void *inst, unsigned dom, size_t start, size_t end)
{
	park_hart *h = self();
	park_slot *s = h->taking;
	h->taking = NULL;
	s->p.regs = h->taken;
	s->p.dom = dom;
	s->p.start = start;
	s->p.end = end;
	s->p.seq = h->seq++;
	swap(h, s);
	s->p.inst = inst;
	h->count++;
}

const hal_user_regs *exec_park_get(unsigned i)
{
	park_hart *h = self();
	park_slot *s = &h->slot[i];
	swap(h, s);
	s->p.inst = NULL;
	h->count--;
	return &s->p.regs;
}
