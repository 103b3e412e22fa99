/* SPDX-License-Identifier: MIT */
/** @file Sub-group functions without fibers (wgsg.c). */
#ifndef HOST_CLC_WGSG_H
#define HOST_CLC_WGSG_H

#include "irmap.h"

/** K's sub-group queries (get_sub_group_local_id, _id, _size) as
 * arithmetic on the local linear id and the launch's sub-group size, so
 * that the row loop and the work-group functions take them. */
void clc_sg_queries(clc_ir *x, clc_kernel *k);

/** One collective lowered (clc_sgw_lower): the call taken out, what took
 * its place. */
typedef struct {
	LLVMValueRef call, result, barrier;
	LLVMValueRef ops[4]; /* the call's arguments (poison while it is out) */
	LLVMValueRef made[24];
	unsigned nmade;
	bool wg; /* a work-group collective: all items reach it (a barrier) */
} clc_sgw_site;

typedef struct {
	clc_sgw_site *s;
	unsigned n, cap;
} clc_sgw;

/** K's sub-group collectives and barriers (the ones kernels/opencl/sgw.c
 * has) as a put, a work-group barrier and a fold, for the work-group
 * function (wgfn.c); the others stay, and keep K on fibers. */
void clc_sgw_lower(clc_ir *x, clc_kernel *k, clc_sgw *u);
/** The lowered calls back as they were (K goes to fibers). */
void clc_sgw_undo(clc_sgw *u);
/** The lowering kept: the calls taken out are deleted. */
void clc_sgw_done(clc_sgw *u);

#endif
