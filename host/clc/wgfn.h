/* SPDX-License-Identifier: MIT */
/** @file Work-group functions of barrier kernels (wgfn.c). */
#ifndef HOST_CLC_WGFN_H
#define HOST_CLC_WGFN_H

#include "irmap.h"

/** hp_krow_K as a work-group function of barrier kernel K (its
 * per-item scratch in k->wg_scratch); false (nothing built) when K is not
 * one it can take, the reason in the build log. */
bool clc_wgfn_build(clc_ir *x, clc_kernel *k, LLVMValueRef desc);

#endif
