/* SPDX-License-Identifier: MIT */
/** @file What a region's loop treats apart (wglead.c, for wgregion.c):
 * collectives' folds, async copies, and regions only sub-groups' first
 * items run. */
#ifndef HOST_CLC_WGLEAD_H
#define HOST_CLC_WGLEAD_H

#include "wg.h"

/** Whether @p i is a sub-group or work-group collective's fold (wgsg.c's
 * `__hpcl_sgw_*_once`), which runs once per group. */
bool clc_wg_once(LLVMValueRef i);

/** An async copy (callee @p fn, its @p n arguments in @p a, which has
 * room for two more) as the item w->wi does its share in a region's
 * loop: kernels/opencl/async.cl's __hpcl_async_items. */
LLVMValueRef clc_wg_async(clc_wg *w, LLVMValueRef fn, LLVMValueRef *a,
			  unsigned n);

/** Whether region @p r (its @p n pieces in @p order) does nothing for an
 * item that is not its sub-group's first; then w->lead_br is its test,
 * whose condition the region's loop makes w->lead_cond. */
bool clc_wg_leaders_only(clc_wg *w, unsigned r, const unsigned *order,
			 unsigned n);

#endif
