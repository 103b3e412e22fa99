/* SPDX-License-Identifier: MIT */
/** @file What the rewrite stage's entry builders share: rewrite.c (the
 * entries) and rowloop.c (the row loop with the kernel inlined). */
#ifndef HOST_BUILD_REWRITE_H
#define HOST_BUILD_REWRITE_H

#include "job.h"

/* The types and functions the entries use. */
typedef struct {
	LLVMContextRef c;
	LLVMModuleRef m;
	LLVMBuilderRef b;
	LLVMTypeRef i8, i32, i64, sz, ptr, vd;
	LLVMTypeRef run_t, larg_t;
	LLVMValueRef run, larg;
	unsigned xlen;
	FILE *log;	 /* the build log */
	bool item_calls; /* -cl-hartpool-item-calls */
} ir;

/** The module's function @p name, declared with type @p t if missing. */
LLVMValueRef fn_get(ir *x, const char *name, LLVMTypeRef t);
/** Enum attribute @p name on @p f at @p idx. */
void fn_attr(ir *x, LLVMValueRef f, unsigned idx, const char *name);
/** Argument @p i of kernel @p k, loaded from the block at @p args (a
 * byval struct: its address in the block). */
LLVMValueRef arg_value(ir *x, const cl_kernel *k, unsigned i,
		       LLVMValueRef args);
/** rowloop.c: hp_krow_K as a loop over the row with K's body cloned into
 * it and the work-item ids as loop values; false (nothing built) when K
 * is not one it can take, the reason in the build log. */
bool rowloop_build(ir *x, const cl_kernel *k, LLVMValueRef desc);

#endif
