/* SPDX-License-Identifier: MIT */
/** @file The loops of a work-group function (wgregion.c). */
#ifndef HOST_CLC_WGREGION_H
#define HOST_CLC_WGREGION_H

#include "wg.h"

/** The function hp_krow_K, every region's loops; false if out
 * of memory or past a bound (exits_full). */
bool clc_wg_emit(clc_wg *w, LLVMValueRef desc, size_t nvals);

#endif
