// SPDX-License-Identifier: MIT
/*
 * What the entry builders of the rewrite stage share (irmap.h): the
 * module's functions, a kernel's arguments from the block, a map from a
 * kernel's values to their clones, and the work-item functions by name.
 */
#include "irmap.h"
#include "job.h"
#include "kdesc.h"
#include "kernels.h"
#include <llvm-c/DebugInfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a map from K's values to the loop's (open addressing) ---- */

LLVMValueRef clc_fn_get(clc_ir *x, const char *name, LLVMTypeRef t)
{
	LLVMValueRef f = LLVMGetNamedFunction(x->m, name);
	return f ? f : LLVMAddFunction(x->m, name, t);
}

void clc_fn_attr(clc_ir *x, LLVMValueRef f, unsigned idx, const char *name)
{
	unsigned k = LLVMGetEnumAttributeKindForName(name, strlen(name));
	LLVMAddAttributeAtIndex(f, idx, LLVMCreateEnumAttribute(x->c, k, 0));
}

/* Argument @p i of kernel @p k, from the block at @p args. */
LLVMValueRef clc_arg_value(clc_ir *x, const clc_kernel *k, unsigned i,
			   LLVMValueRef args)
{
	const hp_cl_arg *a = &k->meta.args[i];
	LLVMTypeRef ty = LLVMTypeOf(LLVMGetParam(k->fn, i));
	LLVMValueRef off = LLVMConstInt(x->i64, a->offset, 0);
	LLVMValueRef p = LLVMBuildGEP2(x->b, x->i8, args, &off, 1, "");
	if (clc_byval_type(k->fn, i))
		return p;
	if (a->addr_space) {
		LLVMValueRef v = LLVMBuildLoad2(x->b, x->i64, p, "");
		LLVMSetAlignment(v, 8);
		if (a->addr_space != HP_CL_LOCAL)
			return LLVMBuildIntToPtr(x->b, v, ty, "");
		v = LLVMBuildCall2(x->b, x->larg_t, x->larg, &v, 1, "");
		return LLVMBuildAddrSpaceCast(x->b, v, ty, "");
	}
	LLVMValueRef v = LLVMBuildLoad2(x->b, ty, p, "");
	LLVMSetAlignment(v, 1);
	return v;
}

LLVMValueRef clc_call_named(clc_ir *x, const char *name, LLVMTypeRef ret,
			    LLVMTypeRef *pt, unsigned np, LLVMValueRef *av)
{
	LLVMTypeRef t = LLVMFunctionType(ret, pt, np, 0);
	return LLVMBuildCall2(x->b, t, clc_fn_get(x, name, t), av, np, "");
}

LLVMValueRef clc_local_args_at(clc_ir *x, LLVMValueRef desc)
{
	LLVMValueRef off = LLVMConstInt(x->i64, HP_KDESC_LOCAL_MEM(x->xlen), 0);
	LLVMValueRef lm = LLVMBuildLoad2(
		x->b, x->i32, LLVMConstGEP2(x->i8, desc, &off, 1), "");
	LLVMSetAlignment(lm, 4);
	return x->xlen == 64 ? LLVMBuildZExt(x->b, lm, x->i64, "") : lm;
}

LLVMValueRef clc_row_enter(clc_ir *x, LLVMValueRef it, LLVMValueRef desc)
{
	LLVMValueRef ctx = LLVMBuildAlloca(x->b, LLVMArrayType2(x->i8, 32),
					   "ctx"); /* HPCL_CTX_BYTES */
	LLVMSetAlignment(ctx, 8);
	LLVMTypeRef pt[] = {x->ptr, x->ptr, x->sz};
	LLVMValueRef av[] = {ctx, it, clc_local_args_at(x, desc)};
	clc_call_named(x, "__hpcl_row_enter", x->vd, pt, 3, av);
	return ctx;
}

void clc_row_leave(clc_ir *x, LLVMValueRef ctx)
{
	clc_call_named(x, "__hpcl_row_leave", x->vd, &x->ptr, 1, &ctx);
}

LLVMValueRef clc_precall(clc_ir *x, clc_precache *p, LLVMValueRef fn,
			 unsigned a, bool has_arg)
{
	for (unsigned q = 0; q < p->n; q++)
		if (p->fn[q] == fn && p->arg[q] == a)
			return p->val[q];
	LLVMBasicBlockRef at = LLVMGetInsertBlock(x->b);
	LLVMPositionBuilderBefore(x->b, p->at);
	LLVMValueRef arg = LLVMConstInt(x->i32, a, 0);
	LLVMValueRef c = LLVMBuildCall2(x->b, LLVMGlobalGetValueType(fn), fn,
					&arg, has_arg, "");
	if (has_arg && x->xlen == 64) { /* the psABI's 32-bit argument */
		unsigned k = LLVMGetEnumAttributeKindForName("signext", 7);
		LLVMAddCallSiteAttribute(c, 1,
					 LLVMCreateEnumAttribute(x->c, k, 0));
	}
	LLVMPositionBuilderAtEnd(x->b, at);
	if (p->n < PRECACHE_MAX) {
		p->fn[p->n] = fn;
		p->arg[p->n] = a;
		p->val[p->n++] = c;
	}
	return c;
}

bool clc_vmap_init(clc_vmap *m, size_t n)
{
	m->cap = 64;
	while (m->cap < 2 * n)
		m->cap *= 2;
	m->key = calloc(m->cap, sizeof(*m->key));
	m->val = calloc(m->cap, sizeof(*m->val));
	return m->key && m->val;
}

unsigned clc_idx_of(const clc_vmap *m, LLVMValueRef v)
{
	LLVMValueRef r = clc_vmap_get(m, v);
	return r == v ? 0 : (unsigned)(uintptr_t)r;
}

void clc_vmap_clear(clc_vmap *m)
{
	memset(m->key, 0, m->cap * sizeof(*m->key));
}

void clc_vmap_free(clc_vmap *m)
{
	free(m->key);
	free(m->val);
}

static size_t vmap_slot(const clc_vmap *m, LLVMValueRef k)
{
	size_t h = ((uintptr_t)k >> 4) * 0x9E3779B97F4A7C15ull;
	size_t i = h & (m->cap - 1);
	while (m->key[i] && m->key[i] != k)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void clc_vmap_put(clc_vmap *m, LLVMValueRef k, LLVMValueRef v)
{
	size_t i = vmap_slot(m, k);
	m->key[i] = k;
	m->val[i] = v;
}

LLVMValueRef clc_vmap_get(const clc_vmap *m, LLVMValueRef k)
{
	size_t i = vmap_slot(m, k);
	return m->key[i] ? m->val[i] : k;
}

/* ---- the work-item functions ---- */

enum wi clc_wi_kind(const char *n)
{
	static const struct {
		const char *name;
		enum wi kind;
	} t[] = {
		{"_Z13get_global_idj", WI_GLOBAL_ID},
		{"_Z12get_local_idj", WI_LOCAL_ID},
		{"_Z20get_global_linear_idv", WI_GLOBAL_LINEAR},
		{"_Z19get_local_linear_idv", WI_LOCAL_LINEAR},
		{"_Z12get_work_dimv", WI_UNIFORM},
		{"_Z15get_global_sizej", WI_UNIFORM},
		{"_Z14get_local_sizej", WI_UNIFORM},
		{"_Z23get_enqueued_local_sizej", WI_UNIFORM},
		{"_Z14get_num_groupsj", WI_UNIFORM},
		{"_Z12get_group_idj", WI_UNIFORM},
		{"_Z17get_global_offsetj", WI_UNIFORM},
		/* a group's sub-groups (kernels/opencl/sgw.c, wgsg.c) */
		{"_Z22get_max_sub_group_sizev", WI_UNIFORM},
		{"_Z18get_num_sub_groupsv", WI_UNIFORM},
		{"_Z27get_enqueued_num_sub_groupsv", WI_UNIFORM},
		{"__hpcl_sgw_width", WI_UNIFORM},
		{"__hpcl_sgw_items", WI_UNIFORM},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(n, t[i].name))
			return t[i].kind;
	return WI_NONE;
}

const char *clc_callee_name(LLVMValueRef call, LLVMValueRef *fn)
{
	LLVMValueRef f = LLVMGetCalledValue(call);
	*fn = LLVMIsAFunction(f) ? f : NULL;
	if (!*fn)
		return NULL;
	size_t len;
	return LLVMGetValueName2(f, &len);
}

bool clc_wi_barrier(const char *n)
{
	return !strcmp(n, "_Z7barrierj") ||
	       !strcmp(n, "_Z18work_group_barrierj") ||
	       !strcmp(n, "_Z18work_group_barrierj12memory_scope") ||
	       !strncmp(n, "_Z17wait_group_events", 21);
}

size_t clc_wi_async(const char *n)
{
	static const char *const p[] = {"_Z21async_work_group_copy",
					"_Z29async_work_group_strided_copy"};
	for (unsigned i = 0; i < 2; i++)
		if (!strncmp(n, p[i], strlen(p[i])))
			return strlen(p[i]);
	return 0;
}

const char *clc_wi_refuse(const clc_kernel *k, bool barriers, size_t *n,
			  char *why, size_t wn)
{
	LLVMValueRef f = k->fn;
	if (LLVMGetSubprogram(f))
		return "built with -g";
	if (k->prints)
		return "printf, which names the work-item";
	*n = LLVMCountParams(f) + 1;
	LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
	for (LLVMBasicBlockRef bb = entry; bb; bb = LLVMGetNextBasicBlock(bb)) {
		++*n;
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
		     i = LLVMGetNextInstruction(i)) {
			++*n;
			if (LLVMIsAAllocaInst(i) &&
			    (bb != entry ||
			     !LLVMIsAConstantInt(LLVMGetOperand(i, 0))))
				return "an alloca of run-time size";
			if (!LLVMIsACallInst(i))
				continue;
			LLVMValueRef fn;
			const char *cn = clc_callee_name(i, &fn);
			if (!fn)
				return "an indirect call";
			if (LLVMGetIntrinsicID(fn) || clc_wi_kind(cn) ||
			    (barriers &&
			     (clc_wi_barrier(cn) || clc_wi_async(cn))))
				continue;
			if (!LLVMIsDeclaration(fn)) {
				snprintf(why, wn, "calls %s out of line", cn);
				return why;
			}
			if (strstr(cn, "sub_group") ||
			    strstr(cn, "work_group") ||
			    strstr(cn, "wait_group_events")) {
				snprintf(why, wn, "calls %s", cn);
				return why;
			}
		}
	}
	return NULL;
}
