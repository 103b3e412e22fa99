/* SPDX-License-Identifier: MIT */
/** @file What the rewrite stage's entry builders share (irmap.c): the
 * IR types and helpers of rewrite.c (the entries), rowloop.c (the row loop
 * with the kernel inlined) and the work-group functions (wgfn.c). */
#ifndef HOST_CLC_IRMAP_H
#define HOST_CLC_IRMAP_H

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
	/* The board has V: the loops over work-items are marked parallel
	 * (parloop.h), so the vectoriser runs the items on lanes
	 * (docs/vector.md). */
	bool vector;
} clc_ir;

/** The module's function @p name, declared with type @p t if missing. */
LLVMValueRef clc_fn_get(clc_ir *x, const char *name, LLVMTypeRef t);
/** Enum attribute @p name on @p f at @p idx. */
void clc_fn_attr(clc_ir *x, LLVMValueRef f, unsigned idx, const char *name);
/** Argument @p i of kernel @p k, loaded from the block at @p args (a
 * byval struct: its address in the block). */
LLVMValueRef clc_arg_value(clc_ir *x, const clc_kernel *k, unsigned i,
			   LLVMValueRef args);
/** A call of the module's function @p name (declared if missing). */
LLVMValueRef clc_call_named(clc_ir *x, const char *name, LLVMTypeRef ret,
			    LLVMTypeRef *pt, unsigned np, LLVMValueRef *av);
/** Where kernel descriptor @p desc's __local arguments start (its
 * local_mem_bytes, a size_t), loaded where the builder is. */
LLVMValueRef clc_local_args_at(clc_ir *x, LLVMValueRef desc);
/** The run-time context of a loop entry, set up from its first item @p it
 * where the builder is (__hpcl_row_enter, kernels/opencl/rt.c); the
 * context, for clc_row_leave. */
LLVMValueRef clc_row_enter(clc_ir *x, LLVMValueRef it, LLVMValueRef desc);
void clc_row_leave(clc_ir *x, LLVMValueRef ctx);

/** Calls made once in a loop entry's first block, before @p at, by callee
 * and constant argument (the work-item functions whose values are the
 * same for every item). */
#define PRECACHE_MAX 64u
typedef struct {
	LLVMValueRef at;
	LLVMValueRef fn[PRECACHE_MAX], val[PRECACHE_MAX];
	unsigned arg[PRECACHE_MAX], n;
} clc_precache;
/** @p fn(a) (or @p fn() without @p has_arg), once. */
LLVMValueRef clc_precall(clc_ir *x, clc_precache *p, LLVMValueRef fn,
			 unsigned a, bool has_arg);

/** A map from a kernel's values to their clones (open addressing). */
typedef struct {
	LLVMValueRef *key, *val;
	size_t cap;
} clc_vmap;
bool clc_vmap_init(clc_vmap *m, size_t n);
void clc_vmap_free(clc_vmap *m);
void clc_vmap_clear(clc_vmap *m);
/** The index + 1 a map holds for @p v as a number, 0 if none. */
unsigned clc_idx_of(const clc_vmap *m, LLVMValueRef v);
void clc_vmap_put(clc_vmap *m, LLVMValueRef k, LLVMValueRef v);
/** The value @p k maps to, or @p k itself. */
LLVMValueRef clc_vmap_get(const clc_vmap *m, LLVMValueRef k);

/** The work-item functions the entries replace, by what they depend on. */
enum wi {
	WI_NONE,
	WI_GLOBAL_ID, /* per item, by dimension */
	WI_LOCAL_ID,
	WI_GLOBAL_LINEAR,
	WI_LOCAL_LINEAR,
	WI_UNIFORM, /* the same for every item of a group */
};
enum wi clc_wi_kind(const char *mangled);
/** The name of @p call's callee (*fn the function), NULL if indirect. */
const char *clc_callee_name(LLVMValueRef call, LLVMValueRef *fn);

/** A work-group barrier (barrier, work_group_barrier, and
 * wait_group_events, which waits for copies that are done at once). */
bool clc_wi_barrier(const char *mangled);
/** For an async copy (async_work_group_copy, _strided_copy): the length
 * of its name's "_Z<n><name>" prefix; else 0. */
size_t clc_wi_async(const char *mangled);
/** Why kernel @p k's body cannot be cloned into a loop over work-items
 * (with @p barriers: work-group barriers are allowed), or NULL; @p n
 * counts its values (blocks, instructions, parameters). */
const char *clc_wi_refuse(const clc_kernel *k, bool barriers, size_t *n,
			  char *why, size_t wn);

#endif
