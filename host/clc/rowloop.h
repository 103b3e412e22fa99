/* SPDX-License-Identifier: MIT */
/** @file The row loop (rowloop.c). */
#ifndef HOST_CLC_ROWLOOP_H
#define HOST_CLC_ROWLOOP_H

#include "irmap.h"

/** hp_krow_K as a loop over the row with K's body cloned into
 * it and the work-item ids as loop values; false (nothing built) when K
 * is not one it can take, the reason in the build log. */
bool clc_rowloop_build(clc_ir *x, clc_kernel *k, LLVMValueRef desc);

#endif
