// SPDX-License-Identifier: MIT
/*
 * The rewrite stage, on the job's module through LLVM's C API:
 *
 * - every kernel-scope __local variable (an internal addrspace(3) global)
 *   becomes thread_local: the library's __tls_get_addr puts them in the
 *   work-group's local memory;
 * - per kernel K, built with the IRBuilder:
 *     hp_kbody_K(ptr noalias readonly args), always inlined: one
 *       work-item; loads each argument from the block (a __global or
 *       __constant pointer from 8 bytes, a __local one through
 *       __hpcl_local_arg, a struct by value in place, a value as its
 *       type) and calls K (not inlined: OpenCL declares the work-item
 *       functions `const`, so inside one function the compiler may
 *       compute get_global_id once; the row loop changes the item);
 *     hp_kfn_K(it, args): the per-item entry, and for kernels without
 *     barriers hp_krow_K(it, args, n): n work-items along dimension 0;
 *     both call __hpcl_run (kernels/opencl/rt.c) with where the __local
 *     arguments start, the descriptor hp_kernel_K's local_mem_bytes as
 *     clc_convert sets it.
 */
#define _GNU_SOURCE
#include "rewrite.h"
#include "fail.h"
#include "irmap.h"
#include "job.h"
#include "kernels.h"
#include "options.h"
#include "rowloop.h"
#include "wgfn.h"
#include "wgsg.h"
#include <llvm-c/Analysis.h>
#include <stdio.h>
#include <string.h>

static void make_local_tls(LLVMModuleRef m)
{
	for (LLVMValueRef g = LLVMGetFirstGlobal(m); g;
	     g = LLVMGetNextGlobal(g))
		if (LLVMGetLinkage(g) == LLVMInternalLinkage &&
		    LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 &&
		    !LLVMIsGlobalConstant(g) && !LLVMIsThreadLocal(g))
			LLVMSetThreadLocal(g, 1);
}

/* With V, llvm.fmuladd becomes llvm.fma: the same instruction on a
 * RISC-V hart with F and D (the code generator fuses every fmuladd it
 * can), but the vector code generator's sinking of a splat into
 * vfmacc.vf knows only fma: with fmuladd a vectorised sum of products
 * over a row's items (sgemm_tiled) kept every scalar factor as a splat
 * vector, spilled. */
static void fmuladd_to_fma(LLVMModuleRef m)
{
	unsigned id = LLVMLookupIntrinsicID("llvm.fma", 8);
	LLVMValueRef next;
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = next) {
		next = LLVMGetNextFunction(f);
		size_t n;
		const char *name = LLVMGetValueName2(f, &n);
		if (n < 13 || strncmp(name, "llvm.fmuladd.", 13))
			continue;
		LLVMTypeRef ft = LLVMGlobalGetValueType(f);
		LLVMTypeRef t = LLVMGetReturnType(ft);
		LLVMValueRef fma = LLVMGetIntrinsicDeclaration(m, id, &t, 1);
		if (LLVMGlobalGetValueType(fma) != ft)
			continue;
		LLVMReplaceAllUsesWith(f, fma);
		LLVMDeleteFunction(f);
	}
}

/* The address of thread_local @p g before @p at, once
 * per variable: @p got/@p addr hold those made. */
static LLVMValueRef tls_addr(clc_ir *x, LLVMValueRef g, LLVMValueRef at,
			     LLVMValueRef *got, LLVMValueRef *addr, unsigned *n)
{
	for (unsigned q = 0; q < *n; q++)
		if (got[q] == g)
			return addr[q];
	if (*n == 64)
		return NULL;
	unsigned id = LLVMLookupIntrinsicID("llvm.threadlocal.address", 24);
	LLVMTypeRef pt = LLVMTypeOf(g);
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(x->m, id, &pt, 1);
	LLVMPositionBuilderBefore(x->b, at);
	got[*n] = g;
	return addr[(*n)++] = LLVMBuildCall2(
		       x->b, LLVMIntrinsicGetType(x->c, id, &pt, 1), fn, &g, 1,
		       "");
}

static bool tls_var(LLVMValueRef v)
{
	return v && LLVMIsAGlobalVariable(v) && LLVMIsThreadLocal(v);
}

/* With V: the __local variables' addresses (thread_local since
 * make_local_tls) that row function @p f uses, taken once in its entry.
 * A reference to a TLS variable is a call of __tls_get_addr (the objects
 * are position-independent) where the code generator meets it, once per
 * block: in sgemm_tiled's vectorised rows two calls and the spills
 * around them cost 2.2 instructions per element. Referred to through
 * llvm.threadlocal.address, which the optimizer keeps where it is put. */
static void tls_hoist(clc_ir *x, LLVMValueRef f)
{
	LLVMValueRef got[64], addr[64];
	unsigned n = 0;
	/* after the entry's __hpcl_row_enter: the TLS base is the thread
	 * pointer it sets */
	LLVMValueRef at =
		LLVMGetBasicBlockTerminator(LLVMGetEntryBasicBlock(f));
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
	     bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
		     i = LLVMGetNextInstruction(i)) {
			int no = LLVMGetNumOperands(i);
			for (int o = 0; o < no; o++) {
				LLVMValueRef v = LLVMGetOperand(i, (unsigned)o),
					     r;
				if (tls_var(v)) {
					r = tls_addr(x, v, at, got, addr, &n);
				} else if (LLVMIsAConstantExpr(v) &&
					   LLVMGetConstOpcode(v) ==
						   LLVMGetElementPtr &&
					   tls_var(LLVMGetOperand(v, 0))) {
					r = tls_addr(x, LLVMGetOperand(v, 0),
						     at, got, addr, &n);
					unsigned ni =
						(unsigned)LLVMGetNumOperands(
							v) -
						1;
					LLVMValueRef idx[8];
					if (!r || ni > 8)
						continue;
					for (unsigned q = 0; q < ni; q++)
						idx[q] = LLVMGetOperand(v,
									q + 1);
					LLVMPositionBuilderBefore(x->b, at);
					LLVMTypeRef st =
						LLVMGetGEPSourceElementType(v);
					r = LLVMIsInBounds(v)
						    ? LLVMBuildInBoundsGEP2(
							      x->b, st, r, idx,
							      ni, "")
						    : LLVMBuildGEP2(x->b, st, r,
								    idx, ni,
								    "");
				} else {
					continue;
				}
				if (r)
					LLVMSetOperand(i, (unsigned)o, r);
			}
		}
}

static void ir_init(clc_ir *x, clc_job *j)
{
	x->c = j->ctx;
	x->m = j->mod;
	x->xlen = j->b.xlen;
	x->log = j->log.f;
	x->item_calls = j->opts.item_calls;
	x->vector = clc_board_vector(&j->b);
	x->i8 = LLVMInt8TypeInContext(x->c);
	x->i32 = LLVMInt32TypeInContext(x->c);
	x->i64 = LLVMInt64TypeInContext(x->c);
	x->sz = x->xlen == 64 ? x->i64 : x->i32;
	x->ptr = LLVMPointerTypeInContext(x->c, 0);
	x->vd = LLVMVoidTypeInContext(x->c);
	LLVMTypeRef rp[] = {x->ptr, x->ptr, x->sz, x->sz, x->ptr};
	x->run_t = LLVMFunctionType(x->vd, rp, 5, 0);
	x->run = clc_fn_get(x, "__hpcl_run", x->run_t);
	x->larg_t = LLVMFunctionType(x->ptr, &x->i64, 1, 0);
	x->larg = clc_fn_get(x, "__hpcl_local_arg", x->larg_t);
}

/* The call of the kernel repeats its parameters' ABI attributes. */
static void call_attrs(clc_ir *x, LLVMValueRef call, LLVMValueRef fn,
		       unsigned n)
{
	static const char *const names[] = {"signext", "zeroext", "inreg",
					    "byval", "align"};
	for (unsigned i = 0; i < n; i++) {
		bool byval = clc_byval_type(fn, i) != NULL;
		for (unsigned q = 0; q < 5; q++) {
			unsigned kind = LLVMGetEnumAttributeKindForName(
				names[q], strlen(names[q]));
			LLVMAttributeRef a =
				LLVMGetEnumAttributeAtIndex(fn, i + 1, kind);
			if (a && (q < 4 || byval))
				LLVMAddCallSiteAttribute(call, i + 1, a);
		}
	}
	unsigned ni = LLVMGetEnumAttributeKindForName("noinline", 8);
	LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
				 LLVMCreateEnumAttribute(x->c, ni, 0));
}

/* hp_kbody_K: one work-item. */
static LLVMValueRef body_build(clc_ir *x, const clc_kernel *k)
{
	char name[HP_CL_NAME_MAX + 32];
	snprintf(name, sizeof(name), "hp_kbody_%s", k->name);
	LLVMValueRef f = LLVMAddFunction(
		x->m, name, LLVMFunctionType(x->vd, &x->ptr, 1, 0));
	LLVMSetLinkage(f, LLVMInternalLinkage);
	clc_fn_attr(x, f, 1, "noalias");
	clc_fn_attr(x, f, 1, "readonly");
	clc_fn_attr(x, f, LLVMAttributeFunctionIndex, "alwaysinline");
	LLVMPositionBuilderAtEnd(x->b,
				 LLVMAppendBasicBlockInContext(x->c, f, ""));
	unsigned n = k->meta.num_args;
	LLVMValueRef av[HP_CL_ARGS_MAX + 1];
	for (unsigned i = 0; i < n; i++)
		av[i] = clc_arg_value(x, k, i, LLVMGetParam(f, 0));
	LLVMValueRef call = LLVMBuildCall2(x->b, LLVMGlobalGetValueType(k->fn),
					   k->fn, av, n, "");
	LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(k->fn));
	call_attrs(x, call, k->fn, n);
	LLVMBuildRetVoid(x->b);
	return f;
}

/* hp_kfn_K (@p row false) or hp_krow_K: __hpcl_run over the body. */
static void entry_build(clc_ir *x, const clc_kernel *k, LLVMValueRef desc,
			LLVMValueRef body, bool row)
{
	char name[HP_CL_NAME_MAX + 32];
	snprintf(name, sizeof(name), "hp_k%s_%s", row ? "row" : "fn", k->name);
	LLVMTypeRef pt[] = {x->ptr, x->ptr, x->sz};
	LLVMValueRef f = LLVMAddFunction(
		x->m, name, LLVMFunctionType(x->vd, pt, row ? 3 : 2, 0));
	LLVMPositionBuilderAtEnd(x->b,
				 LLVMAppendBasicBlockInContext(x->c, f, ""));
	LLVMValueRef lm = clc_local_args_at(x, desc);
	LLVMValueRef av[] = {
		LLVMGetParam(f, 0), LLVMGetParam(f, 1),
		row ? LLVMGetParam(f, 2) : LLVMConstInt(x->sz, 1, 0), lm, body};
	LLVMBuildCall2(x->b, x->run_t, x->run, av, 5, "");
	LLVMBuildRetVoid(x->b);
}

static void entries_build(clc_ir *x, clc_kernel *k)
{
	char name[HP_CL_NAME_MAX + 32];
	snprintf(name, sizeof(name), "hp_kernel_%s", k->name);
	LLVMValueRef desc = LLVMAddGlobal(x->m, x->i8, name);
	if (!x->item_calls)
		clc_sg_queries(x, k);
	LLVMSetGlobalConstant(desc, 1);
	LLVMSetVisibility(desc, LLVMHiddenVisibility);
	LLVMValueRef body = body_build(x, k);
	entry_build(x, k, desc, body, false);
	if (!k->meta.uses_barriers &&
	    (x->item_calls || !clc_rowloop_build(x, k, desc)))
		entry_build(x, k, desc, body, true);
	if (k->meta.uses_barriers && !x->item_calls)
		k->wg_fn = clc_wgfn_build(x, k, desc);
}

int clc_stage_rewrite(clc_job *j)
{
	clc_ir x;
	make_local_tls(j->mod);
	ir_init(&x, j);
	if (x.vector)
		fmuladd_to_fma(j->mod);
	x.b = LLVMCreateBuilderInContext(j->ctx);
	for (unsigned i = 0; i < j->nk; i++)
		entries_build(&x, &j->ks[i]);
	for (LLVMValueRef f = LLVMGetFirstFunction(j->mod); f && x.vector;
	     f = LLVMGetNextFunction(f)) {
		size_t len;
		const char *name = LLVMGetValueName2(f, &len);
		if (len > 8 && !strncmp(name, "hp_krow_", 8) &&
		    LLVMCountBasicBlocks(f))
			tls_hoist(&x, f);
	}
	LLVMDisposeBuilder(x.b);
	char *msg = NULL;
	if (LLVMVerifyModule(j->mod, LLVMReturnStatusAction, &msg)) {
		fprintf(j->log.f, "error: the rewritten module: %s\n",
			msg ? msg : "");
		LLVMDisposeMessage(msg);
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"the rewritten IR does not verify (build log)");
	}
	LLVMDisposeMessage(msg);
	return 0;
}
