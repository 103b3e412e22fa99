// SPDX-License-Identifier: MIT
/*
 * Sub-group functions without fibers (docs/design.md, decision 82).
 *
 * A sub-group is w consecutive local linear ids (w the launch's sub-group
 * size, the last of a group may be smaller), so the queries are arithmetic
 * on get_local_linear_id(), __hpcl_sgw_width() and __hpcl_sgw_items()
 * (kernels/opencl/sgw.c; the group's values, which the loops read once):
 *
 *   get_sub_group_local_id()  lid % w
 *   get_sub_group_id()        lid / w
 *   get_sub_group_size()      min(w, n - lid / w * w)
 *
 * A collective r = F(x) of a kernel that becomes a work-group function
 * becomes  put(lid, x); barrier(0); fold_once(wg); r = fold(lid, w, n)
 * (the fold once per group, wgregion.c; sgw.c says why
 * that is exact when the items run in linear order, as the work-group
 * function's loops run them). The barrier is a work-group barrier: where
 * a collective lies under a branch that differs between work-items
 * (legal for sub-group functions when it is the same within a sub-group),
 * wgfn.c puts the calls back (clc_sgw_undo) and K keeps fibers.
 */
#define _GNU_SOURCE
#include "wgsg.h"
#include <stdlib.h>
#include <string.h>

static LLVMValueRef call0(clc_ir *x, const char *name, LLVMTypeRef ret)
{
	return clc_call_named(x, name, ret, NULL, 0, NULL);
}

static LLVMValueRef lin_id(clc_ir *x)
{
	return call0(x, "_Z19get_local_linear_idv", x->sz);
}

/* ---- queries ---- */

static LLVMValueRef query(clc_ir *x, const char *cn)
{
	LLVMValueRef r;
	if (!strcmp(cn, "_Z22get_sub_group_local_idv")) {
		r = LLVMBuildURem(x->b, lin_id(x),
				  call0(x, "__hpcl_sgw_width", x->sz), "");
	} else if (!strcmp(cn, "_Z16get_sub_group_idv")) {
		r = LLVMBuildUDiv(x->b, lin_id(x),
				  call0(x, "__hpcl_sgw_width", x->sz), "");
	} else if (!strcmp(cn, "_Z18get_sub_group_sizev")) {
		LLVMValueRef w = call0(x, "__hpcl_sgw_width", x->sz);
		LLVMValueRef n = call0(x, "__hpcl_sgw_items", x->sz);
		LLVMValueRef first = LLVMBuildMul(
			x->b, LLVMBuildUDiv(x->b, lin_id(x), w, ""), w, "");
		LLVMValueRef left = LLVMBuildSub(x->b, n, first, "");
		r = LLVMBuildSelect(
			x->b, LLVMBuildICmp(x->b, LLVMIntULT, left, w, ""),
			left, w, "");
	} else {
		return NULL;
	}
	return x->xlen == 64 ? LLVMBuildTrunc(x->b, r, x->i32, "") : r;
}

void clc_sg_queries(clc_ir *x, clc_kernel *k)
{
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(k->fn); bb;
	     bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
			LLVMValueRef next = LLVMGetNextInstruction(i), fn, r;
			const char *cn;
			if (LLVMIsACallInst(i) &&
			    (cn = clc_callee_name(i, &fn))) {
				LLVMPositionBuilderBefore(x->b, i);
				if ((r = query(x, cn))) {
					LLVMReplaceAllUsesWith(i, r);
					LLVMInstructionEraseFromParent(i);
				}
			}
			i = next;
		}
}

/* ---- collectives ---- */

enum sg_kind { SG_FOLD, SG_LANE, SG_BOOL, SG_BARRIER };
/* Work-group collectives: the same folds over one "sub-group" of the
 * whole group (w = n), the broadcast's lane from its local ids. */
#define SG_WG 16

/* work_group_* of the same folds (kernels/opencl/wg.c's names). */
static int wg_collective(const char *cn, char *lib, size_t ln)
{
	static const char *const folds[] = {"_Z21work_group_reduce_",
					    "_Z29work_group_scan_inclusive_",
					    "_Z29work_group_scan_exclusive_"};
	static const char *const fold_lib[] = {"reduce", "inclusive",
					       "exclusive"};
	for (unsigned f = 0; f < 3; f++) {
		size_t l = strlen(folds[f]);
		if (strncmp(cn, folds[f], l) || strlen(cn) != l + 4 ||
		    !strchr("ijlmfd", cn[l + 3]))
			continue;
		const char *op = cn + l;
		if (strncmp(op, "add", 3) && strncmp(op, "min", 3) &&
		    strncmp(op, "max", 3))
			continue;
		snprintf(lib, ln, "__hpcl_sgw_%s_%.3s_%c", fold_lib[f], op,
			 cn[l + 3]);
		return SG_WG + SG_FOLD + 1;
	}
	static const char pre[] = "_Z20work_group_broadcast";
	size_t l = sizeof(pre) - 1, n = strlen(cn);
	if (!strncmp(cn, pre, l) && n >= l + 2 && n <= l + 4 &&
	    strchr("ijlmfd", cn[l])) {
		for (size_t q = l + 1; q < n; q++)
			if (cn[q] != 'm' && cn[q] != 'j')
				return 0;
		snprintf(lib, ln, "__hpcl_sgw_broadcast_%c", cn[l]);
		return SG_WG + SG_LANE + 1;
	}
	if (!strcmp(cn, "_Z14work_group_anyi") ||
	    !strcmp(cn, "_Z14work_group_alli")) {
		snprintf(lib, ln, "__hpcl_sgw_%s",
			 cn[16] == 'n' ? "any" : "all");
		return SG_WG + SG_BOOL + 1;
	}
	return 0;
}

/* What kernels/opencl/sgw.c has for mangled name @p cn: its function in
 * @p lib (empty for a barrier), or 0. */
static int collective(const char *cn, char *lib, size_t ln)
{
	static const char *const folds[] = {"_Z20sub_group_reduce_add",
					    "_Z20sub_group_reduce_min",
					    "_Z20sub_group_reduce_max",
					    "_Z28sub_group_scan_inclusive_add",
					    "_Z28sub_group_scan_inclusive_min",
					    "_Z28sub_group_scan_inclusive_max",
					    "_Z28sub_group_scan_exclusive_add",
					    "_Z28sub_group_scan_exclusive_min",
					    "_Z28sub_group_scan_exclusive_max"};
	static const char *const fold_lib[] = {
		"reduce_add",	 "reduce_min",	  "reduce_max",
		"inclusive_add", "inclusive_min", "inclusive_max",
		"exclusive_add", "exclusive_min", "exclusive_max"};
	for (unsigned f = 0; f < 9; f++) {
		size_t l = strlen(folds[f]);
		if (!strncmp(cn, folds[f], l) && strlen(cn) == l + 1 &&
		    strchr("ijlmfd", cn[l])) {
			snprintf(lib, ln, "__hpcl_sgw_%s_%c", fold_lib[f],
				 cn[l]);
			return SG_FOLD + 1;
		}
	}
	static const char *const lanes[] = {"_Z19sub_group_broadcast",
					    "_Z17sub_group_shuffle"};
	for (unsigned f = 0; f < 2; f++) {
		size_t l = strlen(lanes[f]);
		if (!strncmp(cn, lanes[f], l) && strlen(cn) == l + 2 &&
		    strchr("ijlmfd", cn[l]) && cn[l + 1] == 'j') {
			snprintf(lib, ln, "__hpcl_sgw_%s_%c",
				 f ? "shuffle" : "broadcast", cn[l]);
			return SG_LANE + 1;
		}
	}
	if (!strcmp(cn, "_Z13sub_group_anyi") ||
	    !strcmp(cn, "_Z13sub_group_alli")) {
		snprintf(lib, ln, "__hpcl_sgw_%s",
			 cn[15] == 'n' ? "any" : "all");
		return SG_BOOL + 1;
	}
	if (!strcmp(cn, "_Z17sub_group_barrierj") ||
	    !strcmp(cn, "_Z17sub_group_barrierj12memory_scope")) {
		lib[0] = 0;
		return SG_BARRIER + 1;
	}
	return wg_collective(cn, lib, ln);
}

static LLVMValueRef made(clc_sgw_site *s, LLVMValueRef v)
{
	if (LLVMIsAInstruction(v) && s->nmade < 24)
		s->made[s->nmade++] = v;
	return v;
}

/* The value's bits as i32 or i64 (put32 / put64). */
static LLVMValueRef bits(clc_ir *x, clc_sgw_site *s, LLVMValueRef v, bool *wide)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	LLVMTypeKind tk = LLVMGetTypeKind(t);
	*wide = tk == LLVMDoubleTypeKind ||
		(tk == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 64);
	if (tk == LLVMFloatTypeKind || tk == LLVMDoubleTypeKind)
		return made(s, LLVMBuildBitCast(x->b, v,
						*wide ? x->i64 : x->i32, ""));
	return v;
}

/* work_group_broadcast's lane: the linear id of its local ids. */
static LLVMValueRef wg_lane(clc_ir *x, clc_sgw_site *s, LLVMValueRef c)
{
	unsigned na = LLVMGetNumArgOperands(c);
	LLVMValueRef lin = LLVMGetOperand(c, na - 1);
	for (unsigned d = na - 1; d-- > 1;) {
		LLVMValueRef a = LLVMConstInt(x->i32, d - 1, 0);
		LLVMValueRef sz =
			made(s, clc_call_named(x, "_Z14get_local_sizej", x->sz,
					       &x->i32, 1, &a));
		lin = made(s, LLVMBuildAdd(
				      x->b, LLVMGetOperand(c, d),
				      made(s, LLVMBuildMul(x->b, lin, sz, "")),
				      ""));
	}
	/* a lane past 2^32 is past the group: the fold's check sees it */
	LLVMValueRef big =
		made(s, LLVMBuildICmp(x->b, LLVMIntUGT, lin,
				      LLVMConstInt(x->sz, 0xffffffffu, 0), ""));
	if (x->xlen == 64)
		lin = made(s, LLVMBuildTrunc(x->b, lin, x->i32, ""));
	return made(s, LLVMBuildSelect(x->b, big,
				       LLVMConstInt(x->i32, 0xffffffffu, 0),
				       lin, ""));
}

static bool lower_one(clc_ir *x, LLVMValueRef c, int kind, const char *lib,
		      clc_sgw_site *s)
{
	LLVMPositionBuilderBefore(x->b, c);
	memset(s, 0, sizeof(*s));
	s->call = c;
	s->wg = kind > SG_WG;
	kind -= s->wg ? SG_WG : 0;
	if (kind == SG_BOOL + 1 && LLVMTypeOf(c) != x->i32)
		return false; /* any/all return int */
	LLVMValueRef lid = made(s, lin_id(x)), bar_arg;
	if (kind == SG_BARRIER + 1) {
		bar_arg = LLVMGetOperand(c, 0);
	} else {
		LLVMValueRef v = LLVMGetOperand(c, 0);
		if (kind == SG_BOOL + 1)
			v = made(s,
				 LLVMBuildZExt(
					 x->b,
					 made(s, LLVMBuildICmp(
							 x->b, LLVMIntNE, v,
							 LLVMConstNull(
								 LLVMTypeOf(v)),
							 "")),
					 x->i32, ""));
		bool wide;
		LLVMValueRef b = bits(x, s, v, &wide);
		LLVMTypeRef pt[] = {x->sz, wide ? x->i64 : x->i32};
		LLVMValueRef av[] = {lid, b};
		made(s, clc_call_named(x,
				       wide ? "__hpcl_sgw_put64"
					    : "__hpcl_sgw_put32",
				       x->vd, pt, 2, av));
		bar_arg = LLVMConstInt(x->i32, 0, 0);
	}
	s->barrier = made(s, clc_call_named(x, "_Z7barrierj", x->vd, &x->i32, 1,
					    &bar_arg));
	if (kind == SG_BARRIER + 1)
		return true;
	/* the fold, once per group (right after the barrier: the region's
	 * start, which wgregion.c runs before its loop) */
	char once[80];
	snprintf(once, sizeof(once), "%s_once", lib);
	LLVMValueRef wg = LLVMConstInt(x->i32, s->wg, 0);
	made(s, clc_call_named(x, once, x->vd, &x->i32, 1, &wg));
	LLVMValueRef n = made(s, call0(x, "__hpcl_sgw_items", x->sz));
	LLVMValueRef w =
		s->wg ? n : made(s, call0(x, "__hpcl_sgw_width", x->sz));
	LLVMTypeRef rt = kind == SG_BOOL + 1 ? x->i32 : LLVMTypeOf(c);
	LLVMTypeRef pt[] = {x->sz, x->sz, x->sz, x->i32};
	LLVMValueRef av[] = {lid, w, n,
			     kind != SG_LANE + 1 ? NULL
			     : s->wg		 ? wg_lane(x, s, c)
						 : LLVMGetOperand(c, 1)};
	LLVMValueRef r =
		made(s, clc_call_named(x, lib, rt, pt,
				       kind == SG_LANE + 1 ? 4 : 3, av));
	s->result = r;
	LLVMReplaceAllUsesWith(c, r);
	return true;
}

void clc_sgw_lower(clc_ir *x, clc_kernel *k, clc_sgw *u)
{
	memset(u, 0, sizeof(*u));
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(k->fn); bb;
	     bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
			LLVMValueRef next = LLVMGetNextInstruction(i), fn;
			const char *cn;
			char lib[64];
			int kind;
			if (LLVMIsACallInst(i) &&
			    (cn = clc_callee_name(i, &fn)) &&
			    (kind = collective(cn, lib, sizeof(lib)))) {
				if (u->n == u->cap) {
					unsigned cap = u->cap ? 2 * u->cap : 8;
					clc_sgw_site *s =
						realloc(u->s, cap * sizeof(*s));
					if (!s)
						return; /* the rest stay */
					u->s = s;
					u->cap = cap;
				}
				clc_sgw_site *s = &u->s[u->n];
				if (lower_one(x, i, kind, lib, s)) {
					/* out, and using nothing of K's */
					LLVMInstructionRemoveFromParent(i);
					unsigned na = LLVMGetNumArgOperands(i);
					for (unsigned a = 0; a < na && a < 4;
					     a++) {
						s->ops[a] =
							LLVMGetOperand(i, a);
						LLVMSetOperand(
							i, a,
							LLVMGetPoison(LLVMTypeOf(
								s->ops[a])));
					}
					u->n++;
				} else {
					for (unsigned q = s->nmade; q-- > 0;)
						LLVMInstructionEraseFromParent(
							s->made[q]);
				}
			}
			i = next;
		}
}

void clc_sgw_undo(clc_sgw *u)
{
	LLVMBuilderRef b = NULL;
	for (unsigned i = 0; i < u->n; i++) {
		clc_sgw_site *s = &u->s[i];
		if (!b)
			b = LLVMCreateBuilderInContext(
				LLVMGetTypeContext(LLVMTypeOf(s->call)));
		LLVMPositionBuilderBefore(b, s->made[0]);
		LLVMInsertIntoBuilder(b, s->call);
		for (unsigned a = 0; a < 4; a++)
			if (s->ops[a])
				LLVMSetOperand(s->call, a, s->ops[a]);
		if (s->result)
			LLVMReplaceAllUsesWith(s->result, s->call);
		for (unsigned q = s->nmade; q-- > 0;)
			LLVMInstructionEraseFromParent(s->made[q]);
	}
	if (b)
		LLVMDisposeBuilder(b);
	free(u->s);
	memset(u, 0, sizeof(*u));
}

void clc_sgw_done(clc_sgw *u)
{
	for (unsigned i = 0; i < u->n; i++)
		LLVMDeleteInstruction(u->s[i].call);
	free(u->s);
	memset(u, 0, sizeof(*u));
}
