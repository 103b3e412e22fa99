// SPDX-License-Identifier: MIT
/*
 * The row entry of a barrier-free OpenCL kernel as one loop
 * (docs/design.md, decision 68): hp_krow_K(it, args, n) runs the n
 * work-items of a row along dimension 0 with K's body cloned into the
 * loop, so the compiler sees one function:
 *
 *   entry:  the run-time context (__hpcl_row_enter), the arguments
 *           loaded once, every work-item function with a constant
 *           dimension called once (they read the row's first item)
 *   header: k from 0 while k < n
 *   body:   K's blocks; get_global_id(0), get_local_id(0) and the
 *           linear ids are the first item's plus k, the other
 *           dimensions and the group's values as they were read in
 *           entry; K's `ret` goes to the latch
 *
 * The per-item call (the entry before this one) kept the ids right by
 * calling K once per item: OpenCL declares the work-item functions
 * `const`, so inside one function the compiler computes get_global_id
 * once. Here the ids are loop values and nothing needs hiding.
 *
 * Taken: kernels whose calls are to the library's declarations (not to
 * functions of the program clang left out of line), that do not print
 * (printf names the item) or call work-group or sub-group functions,
 * whose allocas are static, built without -g (the clone would carry
 * K's debug locations into another function). Others keep the per-item
 * call; the build log says which and why.
 */
#define _GNU_SOURCE
#include "rowloop.h"
#include "irmap.h"
#include "job.h"
#include "kernels.h"
#include "parloop.h"
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

/* ---- building ---- */

typedef struct {
	clc_ir *x;
	const clc_kernel *k;
	clc_vmap m;
	LLVMValueRef k_idx;		/* the item's index in the row */
	LLVMBasicBlockRef entry, latch; /* of the row function */
	LLVMValueRef entry_br;		/* entry's branch, where allocas go */
	clc_precache pre;		/* the group's values, read in entry */
	LLVMValueRef *made;		/* instructions whose operands map */
	size_t nmade, capmade;
} rl;

static void made_add(rl *r, LLVMValueRef i)
{
	if (r->nmade < r->capmade)
		r->made[r->nmade++] = i;
}

/* A work-item function's value in the loop (the builder in the body). */
static LLVMValueRef wi_value(rl *r, LLVMValueRef call, LLVMValueRef fn,
			     enum wi kind)
{
	clc_ir *x = r->x;
	bool konst = !LLVMGetNumArgOperands(call) ||
		     LLVMIsAConstantInt(LLVMGetOperand(call, 0));
	LLVMValueRef base;
	if (konst) {
		bool arg = LLVMGetNumArgOperands(call) != 0;
		base = clc_precall(x, &r->pre, fn,
				   arg ? (unsigned)LLVMConstIntGetZExtValue(
						 LLVMGetOperand(call, 0))
				       : 0,
				   arg);
	} else {
		base = LLVMInstructionClone(call);
		LLVMInsertIntoBuilder(x->b, base);
		made_add(r, base);
	}
	if (kind == WI_UNIFORM)
		return base;
	LLVMTypeRef t = LLVMTypeOf(call);
	LLVMValueRef step = r->k_idx;
	if (kind == WI_GLOBAL_ID || kind == WI_LOCAL_ID) {
		LLVMValueRef d = LLVMGetOperand(call, 0);
		if (konst) {
			if (LLVMConstIntGetZExtValue(d) != 0)
				return base;
		} else {
			LLVMValueRef z = LLVMBuildICmp(
				x->b, LLVMIntEQ, d,
				LLVMConstInt(LLVMTypeOf(d), 0, 0), "");
			step = LLVMBuildSelect(x->b, z, r->k_idx,
					       LLVMConstInt(t, 0, 0), "");
			made_add(r, z);
		}
	}
	return LLVMBuildAdd(x->b, base, step, "");
}

/* Pass 1: K's blocks into the loop, instructions cloned (operands still
 * K's), phis made empty, rets to the latch, allocas to entry. */
static void clone_blocks(rl *r)
{
	clc_ir *x = r->x;
	LLVMValueRef f = r->k->fn;
	for (LLVMBasicBlockRef bb = LLVMGetEntryBasicBlock(f); bb;
	     bb = LLVMGetNextBasicBlock(bb)) {
		LLVMBasicBlockRef nb =
			LLVMInsertBasicBlockInContext(x->c, r->latch, "");
		clc_vmap_put(&r->m, LLVMBasicBlockAsValue(bb),
			     LLVMBasicBlockAsValue(nb));
	}
	for (LLVMBasicBlockRef bb = LLVMGetEntryBasicBlock(f); bb;
	     bb = LLVMGetNextBasicBlock(bb)) {
		LLVMBasicBlockRef nb = LLVMValueAsBasicBlock(
			clc_vmap_get(&r->m, LLVMBasicBlockAsValue(bb)));
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
		     i = LLVMGetNextInstruction(i)) {
			LLVMPositionBuilderAtEnd(x->b, nb);
			LLVMValueRef c, fn;
			if (LLVMIsAPHINode(i)) {
				c = LLVMBuildPhi(x->b, LLVMTypeOf(i), "");
			} else if (LLVMIsAReturnInst(i)) {
				c = LLVMBuildBr(x->b, r->latch);
			} else if (LLVMIsACallInst(i) &&
				   clc_callee_name(i, &fn) &&
				   clc_wi_kind(LLVMGetValueName(fn))) {
				c = wi_value(r, i, fn,
					     clc_wi_kind(LLVMGetValueName(fn)));
			} else {
				c = LLVMInstructionClone(i);
				if (LLVMIsAAllocaInst(i))
					LLVMPositionBuilderBefore(x->b,
								  r->entry_br);
				LLVMInsertIntoBuilder(x->b, c);
				made_add(r, c);
			}
			clc_vmap_put(&r->m, i, c);
		}
	}
}

/* Pass 2: operands and phi incomings to the loop's values. */
static void remap(rl *r)
{
	for (size_t q = 0; q < r->nmade; q++) {
		LLVMValueRef c = r->made[q];
		int n = LLVMGetNumOperands(c);
		for (int o = 0; o < n; o++) {
			LLVMValueRef v = LLVMGetOperand(c, (unsigned)o);
			LLVMValueRef w = clc_vmap_get(&r->m, v);
			if (w != v)
				LLVMSetOperand(c, (unsigned)o, w);
		}
	}
	LLVMValueRef f = r->k->fn;
	for (LLVMBasicBlockRef bb = LLVMGetEntryBasicBlock(f); bb;
	     bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb);
		     i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i)) {
			LLVMValueRef p = clc_vmap_get(&r->m, i);
			unsigned n = LLVMCountIncoming(i);
			for (unsigned q = 0; q < n; q++) {
				LLVMValueRef v = clc_vmap_get(
					&r->m, LLVMGetIncomingValue(i, q));
				LLVMBasicBlockRef b =
					LLVMValueAsBasicBlock(clc_vmap_get(
						&r->m,
						LLVMBasicBlockAsValue(
							LLVMGetIncomingBlock(
								i, q))));
				LLVMAddIncoming(p, &v, &b, 1);
			}
		}
}

/* The row loop unrolled 4 times (as HP_KERNEL's row loop is, decision
 * 44): llvm.loop metadata on the latch's branch, a node naming itself. */
static void unroll4(clc_ir *x, LLVMValueRef br)
{
	LLVMMetadataRef self = LLVMTemporaryMDNode(x->c, NULL, 0);
	static const char key[] = "llvm.loop.unroll.count";
	LLVMMetadataRef cnt[] = {
		LLVMMDStringInContext2(x->c, key, sizeof(key) - 1),
		LLVMValueAsMetadata(LLVMConstInt(x->i32, 4, 0))};
	LLVMMetadataRef ops[] = {self, LLVMMDNodeInContext2(x->c, cnt, 2)};
	LLVMMetadataRef loop = LLVMMDNodeInContext2(x->c, ops, 2);
	LLVMMetadataReplaceAllUsesWith(self, loop);
	unsigned kind = LLVMGetMDKindIDInContext(x->c, "llvm.loop", 9);
	LLVMSetMetadata(br, kind, LLVMMetadataAsValue(x->c, loop));
}

/* entry: the context, the arguments (byval structs copied per item in
 * the loop's first block @p top). */
static void params(rl *r, LLVMValueRef args, LLVMBasicBlockRef top)
{
	clc_ir *x = r->x;
	const clc_kernel *k = r->k;
	for (unsigned i = 0; i < k->meta.num_args; i++) {
		LLVMPositionBuilderBefore(x->b, r->entry_br);
		LLVMValueRef v = clc_arg_value(x, k, i, args);
		LLVMTypeRef bt = clc_byval_type(k->fn, i);
		if (bt) {
			LLVMValueRef copy = LLVMBuildAlloca(x->b, bt, "");
			LLVMPositionBuilderAtEnd(x->b, top);
			LLVMBuildMemCpy(x->b, copy, 8, v, 1, LLVMSizeOf(bt));
			v = copy;
		}
		clc_vmap_put(&r->m, LLVMGetParam(k->fn, i), v);
	}
}

static void build(rl *r, LLVMValueRef desc)
{
	clc_ir *x = r->x;
	const clc_kernel *k = r->k;
	char name[HP_CL_NAME_MAX + 32];
	snprintf(name, sizeof(name), "hp_krow_%s", k->name);
	LLVMTypeRef pt[] = {x->ptr, x->ptr, x->sz};
	LLVMValueRef f =
		LLVMAddFunction(x->m, name, LLVMFunctionType(x->vd, pt, 3, 0));
	r->entry = LLVMAppendBasicBlockInContext(x->c, f, "entry");
	LLVMBasicBlockRef header =
		LLVMAppendBasicBlockInContext(x->c, f, "row");
	LLVMBasicBlockRef top = LLVMAppendBasicBlockInContext(x->c, f, "item");
	r->latch = LLVMAppendBasicBlockInContext(x->c, f, "next");
	LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(x->c, f, "done");

	/* entry: enter with the row's first item */
	LLVMPositionBuilderAtEnd(x->b, r->entry);
	LLVMValueRef ctx = clc_row_enter(x, LLVMGetParam(f, 0), desc);
	r->entry_br = r->pre.at = LLVMBuildBr(x->b, header);

	/* header: k < n */
	LLVMPositionBuilderAtEnd(x->b, header);
	r->k_idx = LLVMBuildPhi(x->b, x->sz, "k");
	LLVMValueRef more = LLVMBuildICmp(x->b, LLVMIntULT, r->k_idx,
					  LLVMGetParam(f, 2), "");
	LLVMBuildCondBr(x->b, more, top, exit);

	params(r, LLVMGetParam(f, 1), top);
	clone_blocks(r);
	LLVMPositionBuilderAtEnd(x->b, top);
	LLVMBuildBr(x->b,
		    LLVMValueAsBasicBlock(clc_vmap_get(
			    &r->m, LLVMBasicBlockAsValue(
					   LLVMGetEntryBasicBlock(k->fn)))));
	remap(r);

	/* latch and exit */
	LLVMPositionBuilderAtEnd(x->b, r->latch);
	LLVMValueRef k1 =
		LLVMBuildAdd(x->b, r->k_idx, LLVMConstInt(x->sz, 1, 0), "");
	/* With V the vectoriser takes the loop as it is (unrolled first, its
	 * accesses would be strided across lanes). */
	LLVMValueRef back = LLVMBuildBr(x->b, header);
	if (!x->vector)
		unroll4(x, back);
	else
		clc_loop_parallel(x, header, r->latch, back, false);
	LLVMValueRef inc[] = {LLVMConstInt(x->sz, 0, 0), k1};
	LLVMBasicBlockRef from[] = {r->entry, r->latch};
	LLVMAddIncoming(r->k_idx, inc, from, 2);
	LLVMPositionBuilderAtEnd(x->b, exit);
	clc_row_leave(x, ctx);
	LLVMBuildRetVoid(x->b);
}

/* A __local variable (thread_local since make_local_tls), or a constant
 * expression over one. */
static bool local_var(LLVMValueRef v, unsigned depth)
{
	if (LLVMIsAGlobalVariable(v))
		return LLVMIsThreadLocal(v);
	if (!LLVMIsAConstantExpr(v) || depth > 8)
		return false;
	int n = LLVMGetNumOperands(v);
	for (int o = 0; o < n; o++)
		if (local_var(LLVMGetOperand(v, (unsigned)o), depth + 1))
			return true;
	return false;
}

/* Whether K's row loop may run the items of several work-groups in one
 * call (hp_kernel.row_spans_groups): K reads no local id, local linear id
 * or group id, no __local argument or variable. Only where the loop is
 * vectorised (x->vector): there each call pays the vector loop's set-up,
 * and scalar boards keep their figures (docs/design.md, 81). */
static bool spans_groups(const clc_ir *x, const clc_kernel *k)
{
	if (!x->vector || k->all_local)
		return false;
	for (unsigned a = 0; a < k->meta.num_args; a++)
		if (k->meta.args[a].addr_space == HP_CL_LOCAL)
			return false;
	for (LLVMBasicBlockRef bb = LLVMGetEntryBasicBlock(k->fn); bb;
	     bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
		     i = LLVMGetNextInstruction(i)) {
			int n = LLVMGetNumOperands(i);
			for (int o = 0; o < n; o++)
				if (local_var(LLVMGetOperand(i, (unsigned)o),
					      0))
					return false;
			LLVMValueRef fn;
			const char *cn;
			if (!LLVMIsACallInst(i) ||
			    !(cn = clc_callee_name(i, &fn)))
				continue;
			enum wi w = clc_wi_kind(cn);
			if (w == WI_LOCAL_ID || w == WI_LOCAL_LINEAR ||
			    !strcmp(cn, "_Z12get_group_idj"))
				return false;
		}
	return true;
}

bool clc_rowloop_build(clc_ir *x, clc_kernel *k, LLVMValueRef desc)
{
	char why[HP_CL_NAME_MAX + 64];
	size_t n = 0;
	const char *no = clc_wi_refuse(k, false, &n, why, sizeof(why));
	if (no) {
		fprintf(x->log,
			"remark: kernel %s: a call per work-item (%s)\n",
			k->name, no);
		return false;
	}
	/* K's values and the loop's few more; each instruction makes at most
	 * two whose operands are K's */
	rl r = {.x = x, .k = k, .capmade = 2 * n};
	r.made = malloc(r.capmade * sizeof(*r.made));
	if (!clc_vmap_init(&r.m, n + 64) || !r.made) {
		clc_vmap_free(&r.m);
		free(r.made);
		fprintf(x->log,
			"remark: kernel %s: a call per work-item "
			"(out of memory)\n",
			k->name);
		return false;
	}
	build(&r, desc);
	clc_vmap_free(&r.m);
	free(r.made);
	k->row_spans = spans_groups(x, k);
	fprintf(x->log,
		"remark: kernel %s: one loop per row, the body inlined%s\n",
		k->name, k->row_spans ? ", rows across work-groups" : "");
	return true;
}
