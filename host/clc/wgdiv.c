// SPDX-License-Identifier: MIT
/*
 * Which of a kernel's values are the same for every work-item of a group
 * (uniform) and which may differ (divergent), for its work-group function
 * (wgdiv.h). Divergent: the work-item ids, loads, atomics, allocas, calls
 * other than the group's work-item functions and intrinsics, what is
 * computed from a divergent value, and every value of a block that runs
 * under a branch on a divergent value (from the branch to its nearest
 * post-dominating joins, where the phis are divergent too). Optimistic: all
 * uniform first, then marked until nothing changes.
 */
#define _GNU_SOURCE
#include "wgdiv.h"
#include "irmap.h"
#include "wg.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	LLVMBasicBlockRef *bb;
	unsigned n, words;
	uint64_t *pdom; /* n rows of `words`: post-dominators */
	bool *ctrl, *join, *done;
	clc_vmap num; /* block -> index + 1 */
} cfg;

static unsigned bnum(const cfg *g, LLVMBasicBlockRef b)
{
	return clc_idx_of(&g->num, LLVMBasicBlockAsValue(b)) - 1;
}

static bool cfg_init(cfg *g, LLVMValueRef f)
{
	g->n = LLVMCountBasicBlocks(f);
	g->words = (g->n + 63) / 64;
	g->bb = calloc(g->n, sizeof(*g->bb));
	g->pdom = calloc((size_t)g->n * g->words, sizeof(uint64_t));
	g->ctrl = calloc(g->n, sizeof(bool));
	g->join = calloc(g->n, sizeof(bool));
	g->done = calloc(g->n, sizeof(bool));
	if (!clc_vmap_init(&g->num, g->n) || !g->bb || !g->pdom || !g->ctrl ||
	    !g->join || !g->done)
		return false;
	unsigned i = 0;
	for (LLVMBasicBlockRef b = LLVMGetEntryBasicBlock(f); b;
	     b = LLVMGetNextBasicBlock(b), i++) {
		g->bb[i] = b;
		clc_vmap_put(&g->num, LLVMBasicBlockAsValue(b),
			     (LLVMValueRef)(uintptr_t)(i + 1));
	}
	return true;
}

static void cfg_free(cfg *g)
{
	clc_vmap_free(&g->num);
	free(g->bb);
	free(g->pdom);
	free(g->ctrl);
	free(g->join);
	free(g->done);
}

/* Post-dominators: a block's are itself and those all its successors
 * share (an exit block: itself), from all blocks down to a fixpoint. */
static void postdom(cfg *g)
{
	unsigned w = g->words;
	for (unsigned b = 0; b < g->n; b++) {
		uint64_t *r = g->pdom + (size_t)b * w;
		bool exit = !LLVMGetNumSuccessors(
			LLVMGetBasicBlockTerminator(g->bb[b]));
		memset(r, exit ? 0 : 0xff, w * sizeof(*r));
		r[b / 64] |= 1ull << (b % 64);
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned b = g->n; b-- > 0;) {
			LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
			unsigned ns = LLVMGetNumSuccessors(t);
			if (!ns)
				continue;
			uint64_t *r = g->pdom + (size_t)b * w;
			for (unsigned q = 0; q < w; q++) {
				uint64_t v = ~0ull;
				for (unsigned s = 0; s < ns; s++)
					v &= g->pdom[(size_t)bnum(
							     g,
							     LLVMGetSuccessor(
								     t, s)) *
							     w +
						     q];
				if (q == b / 64)
					v |= 1ull << (b % 64);
				if (v != r[q]) {
					r[q] = v;
					changed = true;
				}
			}
		}
	}
}

static bool pdoms(const cfg *g, unsigned b, unsigned x)
{
	return b != x &&
	       (g->pdom[(size_t)b * g->words + x / 64] >> (x % 64) & 1);
}

/* The blocks a divergent branch at block @p b controls: from its
 * successors up to its post-dominators, which are joins. */
static bool mark_ctrl(cfg *g, unsigned b)
{
	bool grew = false;
	unsigned *stack = malloc(g->n * sizeof(*stack)), top = 0;
	bool *seen = calloc(g->n, sizeof(bool));
	if (!stack || !seen) {
		free(stack);
		free(seen);
		return false;
	}
	LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
	for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++) {
		unsigned y = bnum(g, LLVMGetSuccessor(t, s));
		if (!seen[y]) {
			seen[y] = true;
			stack[top++] = y;
		}
	}
	while (top) {
		unsigned x = stack[--top];
		if (pdoms(g, b, x)) {
			grew |= !g->join[x];
			g->join[x] = true;
			continue;
		}
		grew |= !g->ctrl[x];
		g->ctrl[x] = true;
		LLVMValueRef xt = LLVMGetBasicBlockTerminator(g->bb[x]);
		for (unsigned s = 0; s < LLVMGetNumSuccessors(xt); s++) {
			unsigned y = bnum(g, LLVMGetSuccessor(xt, s));
			if (!seen[y]) {
				seen[y] = true;
				stack[top++] = y;
			}
		}
	}
	free(stack);
	free(seen);
	return grew;
}

bool clc_wg_divergent(const clc_wg *w, LLVMValueRef v)
{
	return LLVMIsAInstruction(v) && clc_vmap_get(&w->dv, v) != v;
}

bool clc_wg_ctrl_divergent(const clc_wg *w, LLVMBasicBlockRef b)
{
	LLVMValueRef v = LLVMBasicBlockAsValue(b);
	return clc_vmap_get(&w->dv, v) != v;
}

/* Whether instruction @p i of block @p b is divergent now. */
static bool div_of(const clc_wg *w, const cfg *g, unsigned b, LLVMValueRef i)
{
	if (g->ctrl[b] || LLVMIsALoadInst(i) || LLVMIsAAllocaInst(i) ||
	    LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
		return true;
	if (LLVMIsAPHINode(i)) {
		if (g->join[b])
			return true;
		for (unsigned q = 0; q < LLVMCountIncoming(i); q++)
			if (clc_wg_divergent(w, LLVMGetIncomingValue(i, q)))
				return true;
		return false;
	}
	unsigned n = (unsigned)LLVMGetNumOperands(i);
	if (LLVMIsACallInst(i)) {
		LLVMValueRef fn;
		const char *cn = clc_callee_name(i, &fn);
		if (!fn ||
		    (clc_wi_kind(cn) != WI_UNIFORM && !LLVMGetIntrinsicID(fn)))
			return true;
		n = LLVMGetNumArgOperands(i);
	}
	for (unsigned o = 0; o < n; o++)
		if (clc_wg_divergent(w, LLVMGetOperand(i, o)))
			return true;
	return false;
}

/* One pass over K; true if anything became divergent. */
static bool div_pass(clc_wg *w, cfg *g)
{
	bool grew = false;
	for (unsigned b = 0; b < g->n; b++) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(g->bb[b]); i;
		     i = LLVMGetNextInstruction(i))
			if (!clc_wg_divergent(w, i) && div_of(w, g, b, i)) {
				clc_vmap_put(&w->dv, i,
					     (LLVMValueRef)(uintptr_t)1);
				grew = true;
			}
		LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
		if (g->done[b] || LLVMGetNumSuccessors(t) < 2)
			continue;
		LLVMValueRef c = LLVMIsABranchInst(t) ? LLVMGetCondition(t)
						      : LLVMGetOperand(t, 0);
		if (clc_wg_divergent(w, c)) {
			g->done[b] = true;
			grew |= mark_ctrl(g, b);
		}
	}
	return grew;
}

bool clc_wg_divergence(clc_wg *w)
{
	cfg g = {0};
	bool ok = cfg_init(&g, w->k->fn);
	if (ok) {
		postdom(&g);
		while (div_pass(w, &g))
			;
		/* the blocks only some items may run, for clc_wg_ctrl_divergent
		 */
		for (unsigned b = 0; b < g.n; b++)
			if (g.ctrl[b])
				clc_vmap_put(&w->dv,
					     LLVMBasicBlockAsValue(g.bb[b]),
					     (LLVMValueRef)(uintptr_t)1);
	}
	cfg_free(&g);
	return ok;
}
