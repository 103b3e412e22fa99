// SPDX-License-Identifier: MIT
/*
 * A work-group function's code (wgregion.h): the entry, then per region a
 * loop nest over the group's work-items with the region's pieces cloned
 * as its body, the values kept across pieces in their slots, and the exit
 * the items agree on choosing the next region.
 */
#define _GNU_SOURCE
#include "wgregion.h"
#include "irmap.h"
#include "parloop.h"
#include "wg.h"
#include "wgcut.h"
#include "wgdiv.h"
#include "wglead.h"
#include <stdlib.h>
#include <string.h>

/* ---- building a region ---- */

/* A value's copy in this region's loop (a variable the optimizer keeps in
 * a register), for a uniform value and for a per-item one the region
 * sets: set from the slot where the item starts (a uniform value's slot
 * read once before the loop, so an item that changes it leaves the
 * others' start alone), written back where the item leaves (region_out).
 * A per-item value the region only reads is loaded where it is used. */
static LLVMValueRef region_copy(clc_wg *w, LLVMValueRef v, LLVMValueRef copy,
				bool uniform)
{
	clc_ir *x = w->x;
	for (unsigned q = 0; q < w->nuni; q++)
		if (w->used_uni[q] == v)
			return copy;
	if (w->nuni == 256) {
		w->exits_full = true; /* too many: the kernel keeps fibers */
		return NULL;
	}
	w->used_uni[w->nuni++] = v;
	LLVMBasicBlockRef at = LLVMGetInsertBlock(x->b);
	LLVMTypeRef t = LLVMTypeOf(v);
	LLVMValueRef s = clc_vmap_get(&w->slot, v), in;
	if (uniform) {
		LLVMPositionBuilderBefore(x->b, w->pre_br);
		in = LLVMBuildLoad2(x->b, t, s, "");
		LLVMPositionBuilderBefore(x->b, w->hx_br);
	} else {
		LLVMPositionBuilderBefore(x->b, w->hx_br);
		in = LLVMBuildLoad2(
			x->b, t,
			LLVMBuildGEP2(x->b, x->i8, w->sbase, &s, 1, ""), "");
		LLVMSetAlignment(in, LLVMABIAlignmentOfType(w->td, t));
	}
	LLVMBuildStore(x->b, in, copy);
	LLVMPositionBuilderAtEnd(x->b, at);
	return copy;
}

static void region_out(clc_wg *w)
{
	clc_ir *x = w->x;
	for (unsigned e = 0; e < w->nexit; e++) {
		LLVMPositionBuilderBefore(
			x->b, LLVMGetBasicBlockTerminator(w->exit_bbs[e]));
		for (unsigned q = 0; q < w->nuni; q++) {
			LLVMValueRef v = w->used_uni[q];
			LLVMValueRef u = clc_vmap_get(&w->uni, v);
			LLVMValueRef s = clc_vmap_get(&w->slot, v);
			LLVMValueRef c = LLVMBuildLoad2(
				x->b, LLVMTypeOf(v),
				u != v ? u : clc_vmap_get(&w->copy, v), "");
			if (u == v)
				s = LLVMBuildGEP2(x->b, x->i8, w->sbase, &s, 1,
						  "");
			LLVMSetAlignment(
				LLVMBuildStore(x->b, c, s),
				LLVMABIAlignmentOfType(w->td, LLVMTypeOf(v)));
		}
	}
}

static LLVMValueRef slot_ptr(clc_wg *w, LLVMValueRef v)
{
	clc_ir *x = w->x;
	LLVMValueRef u = clc_vmap_get(&w->uni, v);
	if (u != v && region_copy(w, v, u, true))
		return u;
	LLVMValueRef s = clc_vmap_get(&w->slot, v);
	if (!LLVMIsAConstantInt(s))
		return s;
	if (clc_vmap_get(&w->defs, v) != v) {
		LLVMValueRef c = clc_vmap_get(&w->copy, v);
		if (c == v) {
			LLVMBasicBlockRef at = LLVMGetInsertBlock(x->b);
			LLVMPositionBuilderBefore(x->b, w->entry_br);
			c = LLVMBuildAlloca(x->b, LLVMTypeOf(v), "");
			LLVMPositionBuilderAtEnd(x->b, at);
			clc_vmap_put(&w->copy, v, c);
		}
		if (region_copy(w, v, c, false))
			return c;
	}
	return LLVMBuildGEP2(x->b, x->i8, w->sbase, &s, 1, "");
}

static LLVMValueRef val(clc_wg *w, LLVMValueRef v);
static LLVMValueRef wi_val(clc_wg *w, LLVMValueRef call, LLVMValueRef fn,
			   enum wi kind);

/* @p v (clc_wg_remat) computed again where the builder is. */
static LLVMValueRef remat(clc_wg *w, LLVMValueRef v)
{
	LLVMValueRef fn;
	if (LLVMIsACallInst(v) && clc_callee_name(v, &fn))
		return wi_val(w, v, fn, clc_wi_kind(LLVMGetValueName(fn)));
	int n = LLVMGetNumOperands(v);
	LLVMValueRef ops[n > 0 ? n : 1];
	for (int o = 0; o < n; o++)
		ops[o] = val(w, LLVMGetOperand(v, (unsigned)o));
	LLVMValueRef c = LLVMInstructionClone(v);
	for (int o = 0; o < n; o++)
		LLVMSetOperand(c, (unsigned)o, ops[o]);
	LLVMInsertIntoBuilder(w->x->b, c);
	return c;
}

/* K's value @p v where the builder is, in piece w->cur. */
static LLVMValueRef val(clc_wg *w, LLVMValueRef v)
{
	if (LLVMIsAArgument(v))
		return clc_vmap_get(&w->params, v);
	if (!LLVMIsAInstruction(v))
		return v;
	LLVMValueRef off = clc_vmap_get(&w->pervar, v);
	if (off != v)
		return LLVMBuildGEP2(w->x->b, w->x->i8, w->sbase, &off, 1, "");
	LLVMValueRef c = clc_vmap_get(&w->rm, v);
	if (c != v && clc_piece_of(w, v) == w->cur)
		return c;
	if (clc_wg_remat(w, v))
		return remat(w, v);
	LLVMTypeRef t = LLVMTypeOf(v);
	LLVMValueRef l = LLVMBuildLoad2(w->x->b, t, slot_ptr(w, v), "");
	LLVMSetAlignment(l, LLVMABIAlignmentOfType(w->td, t));
	return l;
}

static void store_slot(clc_wg *w, LLVMValueRef v, LLVMValueRef c)
{
	LLVMValueRef st = LLVMBuildStore(w->x->b, c, slot_ptr(w, v));
	LLVMSetAlignment(st, LLVMABIAlignmentOfType(w->td, LLVMTypeOf(c)));
}

/* The library's work-item function @p name (size_t (uint) or (void)),
 * called once in entry. */
static LLVMValueRef pre_lib(clc_wg *w, const char *name, unsigned a, bool arg)
{
	clc_ir *x = w->x;
	LLVMTypeRef ft = LLVMFunctionType(x->sz, &x->i32, arg, 0);
	return clc_precall(x, &w->pre, clc_fn_get(x, name, ft), a, arg);
}

/* The local id in dimension @p d (a value). */
static LLVMValueRef lid_of(clc_wg *w, LLVMValueRef d)
{
	clc_ir *x = w->x;
	if (LLVMIsAConstantInt(d)) {
		unsigned long long c = LLVMConstIntGetZExtValue(d);
		return c == 0	? w->x_
		       : c == 1 ? w->y_
		       : c == 2 ? w->z_
				: LLVMConstInt(x->sz, 0, 0);
	}
	LLVMValueRef r = LLVMConstInt(x->sz, 0, 0);
	LLVMValueRef ids[] = {w->x_, w->y_, w->z_};
	for (unsigned q = 3; q-- > 0;) {
		LLVMValueRef e =
			LLVMBuildICmp(x->b, LLVMIntEQ, d,
				      LLVMConstInt(LLVMTypeOf(d), q, 0), "");
		r = LLVMBuildSelect(x->b, e, ids[q], r, "");
	}
	return r;
}

/* A work-item function's value for the item of the loop. */
static LLVMValueRef wi_val(clc_wg *w, LLVMValueRef call, LLVMValueRef fn,
			   enum wi kind)
{
	clc_ir *x = w->x;
	bool arg = LLVMGetNumArgOperands(call) != 0;
	LLVMValueRef d = arg ? val(w, LLVMGetOperand(call, 0)) : NULL;
	bool konst = !arg || LLVMIsAConstantInt(d);
	LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
	LLVMValueRef base = NULL;
	if (kind == WI_LOCAL_ID)
		return lid_of(w, d);
	if (kind == WI_LOCAL_LINEAR)
		return w->wi;
	if (kind == WI_GLOBAL_LINEAR) {
		LLVMValueRef gx = pre_lib(w, "_Z15get_global_sizej", 0, true);
		LLVMValueRef gy = pre_lib(w, "_Z15get_global_sizej", 1, true);
		LLVMValueRef r = LLVMBuildMul(x->b, w->z_, gy, "");
		r = LLVMBuildAdd(x->b, r, w->y_, "");
		r = LLVMBuildMul(x->b, r, gx, "");
		r = LLVMBuildAdd(x->b, r, w->x_, "");
		return LLVMBuildAdd(x->b, clc_precall(x, &w->pre, fn, 0, false),
				    r, "");
	}
	if (konst)
		base = clc_precall(
			x, &w->pre, fn,
			arg ? (unsigned)LLVMConstIntGetZExtValue(d) : 0, arg);
	else
		base = LLVMBuildCall2(x->b, ft, fn, &d, 1, "");
	if (kind == WI_UNIFORM)
		return base;
	return LLVMBuildAdd(x->b, base, lid_of(w, d), ""); /* WI_GLOBAL_ID */
}

static void exit_to(clc_wg *w, unsigned id)
{
	clc_ir *x = w->x;
	if (w->nexit < 256) {
		w->exit_ids[w->nexit] = LLVMConstInt(x->i32, id, 0);
		w->exit_bbs[w->nexit++] = LLVMGetInsertBlock(x->b);
	} else {
		w->exits_full = true;
	}
	LLVMBuildBr(x->b, w->latch);
}

static bool lifetime(LLVMValueRef i)
{
	LLVMValueRef fn;
	const char *n = LLVMIsACallInst(i) ? clc_callee_name(i, &fn) : NULL;
	return n && !strncmp(n, "llvm.lifetime.", 14);
}

/* Phis of the blocks @p t goes to get their values from this block:
 * every value read first, then every slot written (a phi may read
 * another's old value). */
static void phi_copies(clc_wg *w, LLVMValueRef t)
{
	enum { MAX = WG_EDGES_MAX * WG_EDGES_MAX }; /* cut() bounds both */
	LLVMBasicBlockRef from = LLVMGetInstructionParent(t);
	LLVMBasicBlockRef done[WG_EDGES_MAX];
	LLVMValueRef *phis = malloc(2 * MAX * sizeof(*phis)),
		     *vals = phis + MAX;
	unsigned nd = 0, n = 0, ns = LLVMGetNumSuccessors(t);
	if (!phis) {
		w->exits_full = true; /* no memory: the kernel keeps fibers */
		return;
	}
	for (unsigned s = 0; s < ns; s++) {
		LLVMBasicBlockRef to = LLVMGetSuccessor(t, s);
		bool seen = false;
		for (unsigned q = 0; q < nd; q++)
			seen |= done[q] == to;
		if (seen)
			continue;
		done[nd++] = to;
		for (LLVMValueRef p = LLVMGetFirstInstruction(to);
		     p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p)) {
			unsigned ni = LLVMCountIncoming(p);
			for (unsigned q = 0; q < ni; q++)
				if (LLVMGetIncomingBlock(p, q) == from) {
					phis[n] = p;
					vals[n++] = val(
						w, LLVMGetIncomingValue(p, q));
					break;
				}
		}
	}
	for (unsigned q = 0; q < n; q++)
		store_slot(w, phis[q], vals[q]);
	free(phis);
}

/* Instruction @p i of piece w->cur, cloned where the builder is; the
 * region's blocks of the pieces in @p blk. */
static void clone_one(clc_wg *w, LLVMValueRef i, LLVMBasicBlockRef *blk)
{
	clc_ir *x = w->x;
	LLVMValueRef fn, c;
	if (LLVMIsAPHINode(i)) {
		c = val(w, i); /* its slot */
	} else if ((i == w->pc[w->cur].last && w->pc[w->cur].barrier) ||
		   LLVMIsAReturnInst(i)) {
		/* an exit only some items may reach: the items' exits are
		 * compared (agree) */
		if (clc_wg_ctrl_divergent(w, LLVMGetInstructionParent(i)))
			w->diverges = true;
		exit_to(w,
			LLVMIsAReturnInst(i) ? EXIT_ID : w->pc[w->cur].region);
		return;
	} else if (LLVMIsAAllocaInst(i) || lifetime(i)) {
		return;
	} else if (clc_wg_once(i)) {
		/* a collective's fold, once per group: before the region's
		 * loop, where the region starts with it (wgsg.c puts it right
		 * after the collective's barrier); anywhere else the kernel
		 * keeps fibers */
		if (i != w->pc[w->cur].first || w->cur != w->start) {
			w->exits_full = true;
			return;
		}
		LLVMBasicBlockRef at = LLVMGetInsertBlock(x->b);
		LLVMPositionBuilderBefore(x->b, w->pre_br);
		c = LLVMInstructionClone(i);
		LLVMInsertIntoBuilder(x->b, c);
		LLVMPositionBuilderAtEnd(x->b, at);
		return;
	} else if (LLVMIsACallInst(i) && clc_callee_name(i, &fn) &&
		   clc_wi_kind(LLVMGetValueName(fn))) {
		c = wi_val(w, i, fn, clc_wi_kind(LLVMGetValueName(fn)));
	} else if (LLVMIsACallInst(i) && clc_callee_name(i, &fn) &&
		   clc_wi_async(LLVMGetValueName(fn))) {
		unsigned n = LLVMGetNumArgOperands(i);
		LLVMValueRef a[n + 2];
		for (unsigned o = 0; o < n; o++)
			a[o] = val(w, LLVMGetOperand(i, o));
		c = clc_wg_async(w, fn, a, n);
	} else {
		int n = LLVMGetNumOperands(i);
		LLVMValueRef ops[n > 0 ? n : 1];
		for (int o = 0; o < n; o++) {
			LLVMValueRef v = LLVMGetOperand(i, (unsigned)o);
			ops[o] =
				LLVMValueIsBasicBlock(v)
					? LLVMBasicBlockAsValue(
						  blk[clc_idx_of(&w->where, v) -
						      1])
					: val(w, v);
		}
		if (i == w->lead_br)
			ops[0] = w->lead_cond;
		if (LLVMIsATerminatorInst(i))
			phi_copies(w, i);
		c = LLVMInstructionClone(i);
		for (int o = 0; o < n; o++)
			LLVMSetOperand(c, (unsigned)o, ops[o]);
		LLVMInsertIntoBuilder(x->b, c);
		if (LLVMIsATerminatorInst(i))
			return;
	}
	clc_vmap_put(&w->rm, i, c);
	if (clc_vmap_get(&w->slot, i) != i && !LLVMIsAPHINode(i))
		store_slot(w, i, c);
}

static LLVMValueRef phi0(clc_ir *x, LLVMBasicBlockRef from)
{
	LLVMValueRef p = LLVMBuildPhi(x->b, x->sz, "");
	LLVMValueRef z = LLVMConstInt(x->sz, 0, 0);
	LLVMAddIncoming(p, &z, &from, 1);
	return p;
}

/* counter @p v + 1 below @p lim: back to @p head, else on to @p out. */
static void step(clc_ir *x, LLVMValueRef v, LLVMValueRef lim,
		 LLVMBasicBlockRef head, LLVMBasicBlockRef out)
{
	LLVMValueRef n = LLVMBuildAdd(x->b, v, LLVMConstInt(x->sz, 1, 0), "");
	LLVMBasicBlockRef at = LLVMGetInsertBlock(x->b);
	LLVMAddIncoming(v, &n, &at, 1);
	LLVMBuildCondBr(x->b, LLVMBuildICmp(x->b, LLVMIntULT, n, lim, ""), head,
			out);
}

/* The region's pieces (from its start, not past a barrier) in @p order;
 * their blocks in @p blk. */
static unsigned gather(clc_wg *w, unsigned start, unsigned *order,
		       LLVMBasicBlockRef *blk, LLVMBasicBlockRef before)
{
	unsigned n = 0, s[WG_EDGES_MAX];
	order[n++] = start;
	blk[start] = LLVMInsertBasicBlockInContext(w->x->c, before, "");
	for (unsigned q = 0; q < n; q++) {
		if (w->pc[order[q]].barrier)
			continue;
		unsigned ns = clc_succs(w, order[q], s, WG_EDGES_MAX);
		for (unsigned t = 0; t < ns; t++)
			if (!blk[s[t]]) {
				blk[s[t]] = LLVMInsertBasicBlockInContext(
					w->x->c, before, "");
				order[n++] = s[t];
			}
	}
	return n;
}

/* The shared values the region's pieces set: their own, and the phis of
 * the blocks their terminators go to. */
static void region_defs(clc_wg *w, const unsigned *order, unsigned n)
{
	LLVMValueRef one = (LLVMValueRef)(uintptr_t)1;
	clc_vmap_clear(&w->defs);
	for (unsigned q = 0; q < n; q++) {
		const clc_piece *p = &w->pc[order[q]];
		for (LLVMValueRef i = p->first;;
		     i = LLVMGetNextInstruction(i)) {
			if (clc_vmap_get(&w->slot, i) != i &&
			    !LLVMIsAPHINode(i))
				clc_vmap_put(&w->defs, i, one);
			if (i == p->last)
				break;
		}
		if (p->barrier)
			continue;
		for (unsigned s = 0; s < LLVMGetNumSuccessors(p->last); s++)
			for (LLVMValueRef ph = LLVMGetFirstInstruction(
				     LLVMGetSuccessor(p->last, s));
			     ph && LLVMIsAPHINode(ph);
			     ph = LLVMGetNextInstruction(ph))
				clc_vmap_put(&w->defs, ph, one);
	}
}

/* The exit ids, each once; the count. */
static unsigned distinct(clc_wg *w, unsigned *ids)
{
	unsigned n = 0;
	for (unsigned e = 0; e < w->nexit; e++) {
		unsigned id =
			(unsigned)LLVMConstIntGetZExtValue(w->exit_ids[e]);
		bool seen = false;
		for (unsigned q = 0; q < n; q++)
			seen |= ids[q] == id;
		if (!seen)
			ids[n++] = id;
	}
	return n;
}

static LLVMBasicBlockRef region_bb(clc_wg *w, unsigned id)
{
	return id == EXIT_ID ? w->exit : w->rg[id].pre;
}

/* After every item of the region: to the exit's region. */
static void dispatch(clc_wg *w)
{
	clc_ir *x = w->x;
	unsigned ids[256], n = distinct(w, ids);
	if (n == 0) {
		LLVMBuildUnreachable(x->b);
		return;
	}
	if (n == 1) {
		LLVMBuildBr(x->b, region_bb(w, ids[0]));
		return;
	}
	LLVMValueRef id = LLVMBuildLoad2(x->b, x->i32, w->rid, "");
	LLVMValueRef sw = LLVMBuildSwitch(x->b, id, w->exit, n);
	for (unsigned q = 0; q < n; q++)
		if (ids[q] != EXIT_ID)
			LLVMAddCase(sw, LLVMConstInt(x->i32, ids[q], 0),
				    region_bb(w, ids[q]));
}

/* Where the items leave: with more than one exit, each must take the
 * first item's. */
static void agree(clc_wg *w, LLVMBasicBlockRef next)
{
	clc_ir *x = w->x;
	unsigned ids[256];
	if (distinct(w, ids) < 2) {
		LLVMBuildBr(x->b, next);
		return;
	}
	LLVMValueRef id = LLVMBuildPhi(x->b, x->i32, "");
	LLVMAddIncoming(id, w->exit_ids, w->exit_bbs, w->nexit);
	if (!w->diverges) {
		/* every branch on uniform values: all items leave alike */
		LLVMBuildStore(x->b, id, w->rid);
		LLVMBuildBr(x->b, next);
		return;
	}
	LLVMValueRef first = LLVMBuildICmp(x->b, LLVMIntEQ, w->wi,
					   LLVMConstInt(x->sz, 0, 0), "");
	LLVMValueRef prev = LLVMBuildLoad2(x->b, x->i32, w->rid, "");
	LLVMValueRef ag = LLVMBuildSelect(x->b, first, id, prev, "");
	LLVMBuildStore(x->b, ag, w->rid);
	LLVMBuildCondBr(x->b, LLVMBuildICmp(x->b, LLVMIntNE, id, ag, ""),
			w->diverge, next);
}

/* The loop nest over the group's items: z, y, x (all items), or one loop
 * over the sub-groups' first items (@p sg: the sub-group size); the ids
 * and w->wi for the body, which starts in hx. */
static void items_loop(clc_wg *w, unsigned r, LLVMBasicBlockRef hz,
		       LLVMBasicBlockRef hy, LLVMBasicBlockRef hx,
		       LLVMValueRef sg)
{
	clc_ir *x = w->x;
	LLVMPositionBuilderAtEnd(x->b, w->rg[r].pre);
	w->pre_br = LLVMBuildBr(x->b, hz);
	LLVMPositionBuilderAtEnd(x->b, hz);
	if (sg) {
		LLVMBuildBr(x->b, hy);
		LLVMPositionBuilderAtEnd(x->b, hy);
		LLVMBuildBr(x->b, hx);
		LLVMPositionBuilderAtEnd(x->b, hx);
		w->wi = phi0(x, hy);
		LLVMValueRef row = LLVMBuildUDiv(x->b, w->wi, w->lsz[0], "");
		w->x_ = LLVMBuildURem(x->b, w->wi, w->lsz[0], "");
		w->y_ = LLVMBuildURem(x->b, row, w->lsz[1], "");
		w->z_ = LLVMBuildUDiv(x->b, row, w->lsz[1], "");
	} else {
		w->z_ = phi0(x, w->rg[r].pre);
		LLVMBuildBr(x->b, hy);
		LLVMPositionBuilderAtEnd(x->b, hy);
		w->y_ = phi0(x, hz);
		LLVMBuildBr(x->b, hx);
		LLVMPositionBuilderAtEnd(x->b, hx);
		w->x_ = phi0(x, hy);
		LLVMValueRef wi = LLVMBuildMul(x->b, w->z_, w->lsz[1], "");
		wi = LLVMBuildAdd(x->b, wi, w->y_, "");
		wi = LLVMBuildMul(x->b, wi, w->lsz[0], "");
		w->wi = LLVMBuildAdd(x->b, wi, w->x_, "");
	}
	LLVMValueRef off = LLVMBuildMul(x->b, w->wi,
					LLVMConstInt(x->sz, w->stride, 0), "");
	w->sbase = LLVMBuildGEP2(x->b, x->i8, w->scratch, &off, 1, "");
}

static bool build_region(clc_wg *w, unsigned r, unsigned *order,
			 LLVMBasicBlockRef *blk)
{
	clc_ir *x = w->x;
	LLVMValueRef f = w->f;
	LLVMBasicBlockRef hz = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef hy = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef hx = LLVMAppendBasicBlockInContext(x->c, f, "");
	w->latch = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef ix = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef ly = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef lz = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(x->c, f, "");
	memset(blk, 0, w->np * sizeof(*blk));
	unsigned n = gather(w, w->rg[r].start, order, blk, w->latch);
	/* with V only: scalar boards keep their loops (and counts) */
	LLVMValueRef sg = NULL;
	w->lead_br = NULL;
	if (x->vector && clc_wg_leaders_only(w, r, order, n))
		sg = clc_precall(
			x, &w->pre,
			clc_fn_get(x, "__hpcl_sgw_width",
				   LLVMFunctionType(x->sz, NULL, 0, 0)),
			0, false);
	w->leaders += sg != NULL;
	items_loop(w, r, hz, hy, hx, sg);
	region_defs(w, order, n);
	w->hx_br = LLVMBuildBr(x->b, blk[w->rg[r].start]);
	w->nexit = 0;
	w->exits_full = false;
	w->diverges = false;
	w->nuni = 0;
	w->start = w->rg[r].start;
	for (unsigned q = 0; q < n; q++) {
		w->cur = order[q];
		LLVMPositionBuilderAtEnd(x->b, blk[order[q]]);
		for (LLVMValueRef i = w->pc[w->cur].first;;
		     i = LLVMGetNextInstruction(i)) {
			clone_one(w, i, blk);
			if (i == w->pc[w->cur].last)
				break;
		}
	}
	region_out(w);
	LLVMPositionBuilderAtEnd(x->b, w->latch);
	agree(w, ix);
	LLVMPositionBuilderAtEnd(x->b, ix);
	if (sg) {
		LLVMValueRef all = LLVMBuildMul(
			x->b, LLVMBuildMul(x->b, w->lsz[0], w->lsz[1], ""),
			w->lsz[2], "");
		LLVMValueRef nx = LLVMBuildAdd(x->b, w->wi, sg, "");
		LLVMBasicBlockRef at = LLVMGetInsertBlock(x->b);
		LLVMAddIncoming(w->wi, &nx, &at, 1);
		LLVMBuildCondBr(x->b,
				LLVMBuildICmp(x->b, LLVMIntULT, nx, all, ""),
				hx, after);
		LLVMPositionBuilderAtEnd(x->b, ly);
		LLVMBuildUnreachable(x->b);
		LLVMPositionBuilderAtEnd(x->b, lz);
		LLVMBuildUnreachable(x->b);
	} else {
		step(x, w->x_, w->lsz[0], hx, ly);
		if (x->vector) /* the items of a row on lanes */
			clc_loop_parallel(x, hx, ix,
					  LLVMGetBasicBlockTerminator(ix),
					  true);
		LLVMPositionBuilderAtEnd(x->b, ly);
		step(x, w->y_, w->lsz[1], hy, lz);
		LLVMPositionBuilderAtEnd(x->b, lz);
		step(x, w->z_, w->lsz[2], hz, after);
	}
	LLVMPositionBuilderAtEnd(x->b, after);
	dispatch(w);
	return !w->exits_full;
}

/* entry: the context, the scratch, the group's sizes, the arguments;
 * exit and the divergence report. */
static void frame(clc_wg *w, LLVMValueRef desc, LLVMValueRef *ctx)
{
	clc_ir *x = w->x;
	LLVMValueRef f = w->f;
	LLVMPositionBuilderAtEnd(x->b,
				 LLVMAppendBasicBlockInContext(x->c, f, ""));
	*ctx = clc_row_enter(x, LLVMGetParam(f, 0), desc);
	w->scratch =
		clc_call_named(x, "__hpcl_wg_scratch", x->ptr, NULL, 0, NULL);
	for (unsigned d = 0; d < 3; d++) {
		LLVMValueRef a = LLVMConstInt(x->i32, d, 0);
		w->lsz[d] = clc_call_named(x, "__hpcl_wg_size", x->sz, &x->i32,
					   1, &a);
	}
	w->rid = LLVMBuildAlloca(x->b, x->i32, "");
	for (unsigned i = 0; i < w->k->meta.num_args; i++)
		clc_vmap_put(&w->params, LLVMGetParam(w->k->fn, i),
			     clc_arg_value(x, w->k, i, LLVMGetParam(f, 1)));
	for (unsigned r = 0; r < w->nr; r++)
		w->rg[r].pre = LLVMAppendBasicBlockInContext(x->c, f, "");
	w->entry_br = w->pre.at = LLVMBuildBr(x->b, w->rg[0].pre);
	w->exit = LLVMAppendBasicBlockInContext(x->c, f, "");
	w->diverge = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMPositionBuilderAtEnd(x->b, w->diverge);
	clc_call_named(x, "__hpcl_wg_diverged", x->vd, NULL, 0, NULL);
	LLVMBuildBr(x->b, w->exit);
	LLVMPositionBuilderAtEnd(x->b, w->exit);
	clc_row_leave(x, *ctx);
	LLVMBuildRetVoid(x->b);
}

bool clc_wg_emit(clc_wg *w, LLVMValueRef desc, size_t nvals)
{
	clc_ir *x = w->x;
	char name[HP_CL_NAME_MAX + 32];
	snprintf(name, sizeof(name), "hp_krow_%s", w->k->name);
	LLVMTypeRef pt[] = {x->ptr, x->ptr, x->sz};
	w->f = LLVMAddFunction(x->m, name, LLVMFunctionType(x->vd, pt, 3, 0));
	LLVMValueRef ctx;
	frame(w, desc, &ctx);
	clc_wg_slots(w);
	unsigned *order = malloc(w->np * sizeof(*order));
	LLVMBasicBlockRef *blk = malloc(w->np * sizeof(*blk));
	bool ok = order && blk;
	for (unsigned r = 0; ok && r < w->nr; r++) {
		clc_vmap_free(&w->rm);
		ok = clc_vmap_init(&w->rm, nvals);
		if (ok)
			ok = build_region(w, r, order, blk);
	}
	free(order);
	free(blk);
	return ok;
}
