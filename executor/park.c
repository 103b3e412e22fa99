// SPDX-License-Identifier: MIT
/*
 * Parked chunks and kernel contexts (park.h). A context is one block of
 * the kernel-visible heap (kview.h: exec_ctx_shape) made here; the running
 * one's parts are the pool's exec_ucall, kctx.c's kernel stack and wg.c's
 * local memory and fiber arena. Parking swaps all three with a slot's
 * spare, taking a chunk back swaps them again, so each module keeps
 * serving "the calling hart's" memory and never knows a chunk moved.
 */
#include "park.h"
#include "exec.h"
#include "kctx.h"
#include "wg.h"
#include <hal/atomic.h>
#include <hal/hart.h>
#include <hal/heap.h>
#include <hal/isolation.h>
#include <stdio.h>
#include <string.h>

exec_ctx_shape exec_ctx_shape_of;

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

static size_t up(size_t n, size_t a)
{
	return (n + a - 1) & ~(a - 1);
}

/* The blocks' layout, from the device's sizes (kview.h). */
static void shape_init(void)
{
	exec_ctx_shape *s = &exec_ctx_shape_of;
	size_t lm = exec_dev.local_mem_size, align = 4096, o;
	if (lm > align && !(lm & (lm - 1)))
		align = lm;
	o = EXEC_GUARD_BYTES;
	s->arena = o;
	o = up(o + exec_wg_arena_bytes(), 4096);
	s->ustack = o;
	o += EXEC_GUARD_BYTES + EXEC_USTACK_BYTES;
	/* The records before local memory: it fills the gap up to its
	 * alignment, if any. */
	s->ucall = o = up(o, 64);
	s->wg = o = up(o + sizeof(exec_ucall), 64);
	s->local = o = up(o + exec_wg_record_bytes(), align);
	s->size = up(o + lm, 4096);
	s->align = align;
}

/* A new context (zero, as the heap hands it out); false: no memory. */
static bool ctx_make(park_ctx *c)
{
	const exec_ctx_shape *s = &exec_ctx_shape_of;
	char *b = hal_heap_alloc(s->size, s->align);
	if (!b)
		return false;
	c->cur = (exec_park_cur){(exec_ucall *)(b + s->ucall), 0};
	c->ustack = b + s->ustack;
	c->wg = (exec_wg_ctx){.local_mem = b + s->local,
			      .fiber_arena = b + s->arena,
			      .wg = (struct exec_wg *)(b + s->wg)};
	return true;
}

exec_ucall *exec_park_init(unsigned harts, unsigned idx)
{
	if (idx == 0) {
		shape_init();
		park_harts =
			hal_heap_alloc_private(harts * sizeof(park_hart), 64);
		for (unsigned d = 0; d < EXEC_DOMAINS; d++)
			hal_store_relaxed(&exec_park_tags[d], 1u << 5 | d);
	}
	park_ctx c;
	if (!ctx_make(&c)) {
		fprintf(stderr,
			"hartpool: no kernel-visible memory for hart %u's "
			"context (%zu bytes)\n",
			idx, exec_ctx_shape_of.size);
		return NULL;
	}
	exec_kctx_stack_set(idx, c.ustack);
	exec_wg_set(idx, &c.wg);
	return c.cur.u;
}

/* The ranges of the calling hart's context kernels may use (the block
 * without its guards) become domain dom's alone (page tables). */
static void ctx_claim(const exec_park_cur *cur, unsigned dom)
{
	const exec_ctx_shape *s = &exec_ctx_shape_of;
	uintptr_t base = (uintptr_t)cur->u - s->ucall;
	uintptr_t stack = base + s->ustack + EXEC_GUARD_BYTES;
	hal_range r[2] = {{base + s->arena, s->ustack - s->arena},
			  {stack, base + s->size - stack}};
	(void)hal_isolation_claim(dom, r, 2);
}

void exec_park_own(exec_park_cur *cur, unsigned tag)
{
	if (cur->tag)
		exec_park_clear();
	if (!cur->tag || EXEC_TAG_DOMAIN(cur->tag) != EXEC_TAG_DOMAIN(tag))
		ctx_claim(cur, EXEC_TAG_DOMAIN(tag));
	cur->tag = tag;
}

void exec_park_clear(void)
{
	exec_kctx_stack_clear();
	exec_wg_clear();
	hal_user_ext_clear();
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

/* A spare is a whole context, made the first time the slot parks. */
static bool spare_ready(park_ctx *c)
{
	return c->cur.u || ctx_make(c);
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
	if (regs) {
		h->taken.pc = regs[0];
		memcpy(h->taken.x, regs + 1, sizeof(h->taken.x));
		hal_user_ext_save(&h->taken, status);
	} else {
		memset(&h->taken, 0, sizeof(h->taken));
	}
	h->taking = s;
	return true;
}

hal_user_regs *exec_park_taken(void)
{
	return &self()->taken;
}

void exec_park_put(void *inst, unsigned dom, size_t start, size_t end,
		   const exec_park_team *team, exec_park_cur *cur)
{
	park_hart *h = self();
	park_slot *s = h->taking;
	h->taking = NULL;
	s->p.regs = h->taken;
	s->p.dom = dom;
	s->p.start = start;
	s->p.end = end;
	s->p.team = team ? *team : (exec_park_team){0};
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
