// SPDX-License-Identifier: MIT
/*
 * What a region's loop treats apart (wglead.h): a collective's fold, once
 * per group; an async copy, each item's share; a region that starts with
 * `get_sub_group_local_id() == 0` and does nothing for the other items,
 * a loop over the first items alone (V boards).
 */
#define _GNU_SOURCE
#include "wglead.h"
#include "irmap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A sub-group or work-group collective's fold (wgsg.c), whose operand
 * is a constant. */
bool clc_wg_once(LLVMValueRef i)
{
	LLVMValueRef fn;
	const char *n = LLVMIsACallInst(i) ? clc_callee_name(i, &fn) : NULL;
	size_t len = n ? strlen(n) : 0;
	return len > 16 && !strncmp(n, "__hpcl_sgw_", 11) &&
	       !strcmp(n + len - 5, "_once");
}

LLVMValueRef clc_wg_async(clc_wg *w, LLVMValueRef fn, LLVMValueRef *a,
			  unsigned n)
{
	clc_ir *x = w->x;
	size_t len;
	const char *name = LLVMGetValueName2(fn, &len);
	size_t pre = clc_wi_async(name);
	bool wide = LLVMGetIntTypeWidth(x->sz) == 64;
	char *nn = NULL;
	if (asprintf(&nn, "_Z18__hpcl_async_items%.*s%s", (int)(len - pre),
		     name + pre, wide ? "mm" : "jj") < 0)
		return NULL;
	LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
	LLVMTypeRef ps[n + 2];
	LLVMGetParamTypes(ft, ps);
	ps[n] = ps[n + 1] = x->sz;
	LLVMValueRef items =
		LLVMBuildMul(x->b, LLVMBuildMul(x->b, w->lsz[0], w->lsz[1], ""),
			     w->lsz[2], "");
	a[n] = w->wi;
	a[n + 1] = items;
	LLVMTypeRef nt = LLVMFunctionType(LLVMGetReturnType(ft), ps, n + 2, 0);
	LLVMValueRef c =
		LLVMBuildCall2(x->b, nt, clc_fn_get(x, nn, nt), a, n + 2, "");
	free(nn);
	return c;
}

static bool call_named(LLVMValueRef v, const char *name)
{
	LLVMValueRef fn;
	const char *n = LLVMIsACallInst(v) ? clc_callee_name(v, &fn) : NULL;
	return n && !strcmp(n, name);
}

/* Whether @p c is get_sub_group_local_id() == 0 (wgsg.c's lid % w, maybe
 * truncated, against 0); *skip: the successor the other items take. */
static bool first_of_sub_group(LLVMValueRef br, unsigned *skip)
{
	if (!LLVMIsABranchInst(br) || !LLVMIsConditional(br))
		return false;
	LLVMValueRef c = LLVMGetCondition(br);
	if (!LLVMIsAICmpInst(c))
		return false;
	LLVMIntPredicate p = LLVMGetICmpPredicate(c);
	LLVMValueRef a = LLVMGetOperand(c, 0), z = LLVMGetOperand(c, 1);
	if ((p != LLVMIntEQ && p != LLVMIntNE) || !LLVMIsAConstantInt(z) ||
	    LLVMConstIntGetZExtValue(z) != 0)
		return false;
	if (LLVMIsATruncInst(a))
		a = LLVMGetOperand(a, 0);
	if (!LLVMIsAInstruction(a) || LLVMGetInstructionOpcode(a) != LLVMURem ||
	    !call_named(LLVMGetOperand(a, 0), "_Z19get_local_linear_idv") ||
	    !call_named(LLVMGetOperand(a, 1), "__hpcl_sgw_width"))
		return false;
	*skip = p == LLVMIntEQ ? 1 : 0;
	return true;
}

/* The region's exit id of piece @p q, or -1 if it has none. */
static long exit_of(clc_wg *w, unsigned q)
{
	if (w->pc[q].barrier)
		return w->pc[q].region;
	return LLVMIsAReturnInst(w->pc[q].last) ? (long)EXIT_ID : -1;
}

/* Whether region @p r (its pieces in @p order) does nothing for an item
 * that is not its sub-group's first: it starts with the test
 * `get_sub_group_local_id() == 0` (after nothing an item leaves behind),
 * the others go straight to an exit, and every exit goes to one place.
 * Then its loop runs the first items only (`if (get_sub_group_local_id()
 * == 0) atomic_add(sum, r)` after a sub-group reduce: a loop over every
 * item spent 5 instructions per item on the test). */
bool clc_wg_leaders_only(clc_wg *w, unsigned r, const unsigned *order,
			 unsigned n)
{
	const clc_piece *p = &w->pc[w->rg[r].start];
	unsigned skip;
	if (p->barrier || !first_of_sub_group(p->last, &skip))
		return false;
	for (LLVMValueRef i = p->first; i != p->last;
	     i = LLVMGetNextInstruction(i)) {
		LLVMValueRef fn, s = clc_vmap_get(&w->slot, i);
		const char *cn =
			LLVMIsACallInst(i) ? clc_callee_name(i, &fn) : NULL;
		if (LLVMIsAConstantInt(s) || LLVMIsAStoreInst(i) ||
		    LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) ||
		    LLVMIsAFenceInst(i) || LLVMIsAAllocaInst(i))
			return false; /* the item leaves something behind */
		if (LLVMIsACallInst(i) &&
		    !(cn && (clc_wi_kind(cn) || clc_wg_once(i) ||
			     (!strncmp(cn, "__hpcl_sgw_", 11) &&
			      strncmp(cn, "__hpcl_sgw_put", 14)))))
			return false;
	}
	LLVMBasicBlockRef sb = LLVMGetSuccessor(p->last, skip);
	LLVMValueRef s0 = LLVMGetFirstInstruction(sb);
	unsigned sp = clc_idx_of(&w->where, s0);
	if (!sp || LLVMIsAPHINode(s0) || exit_of(w, sp - 1) < 0 ||
	    w->pc[sp - 1].first != s0)
		return false; /* the others would do something first */
	long to = exit_of(w, sp - 1);
	for (unsigned q = 0; q < n; q++)
		if (exit_of(w, order[q]) >= 0 && exit_of(w, order[q]) != to)
			return false;
	/* the first items always pass the test */
	w->lead_br = p->last;
	w->lead_cond = LLVMConstInt(LLVMInt1TypeInContext(w->x->c), skip, 0);
	return true;
}
