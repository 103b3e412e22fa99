/* SPDX-License-Identifier: MIT */
/** @file Which of K's values and blocks differ between work-items
 * (wgdiv.c). */
#ifndef HOST_CLC_WGDIV_H
#define HOST_CLC_WGDIV_H

#include "wg.h"

/** Whether K's value @p v may differ between the work-items of a group
 * (after clc_wg_divergence). */
bool clc_wg_divergent(const clc_wg *w, LLVMValueRef v);
/** Whether block @p b of K runs for only some items of a group (it is
 * under a branch on a divergent value, before the branch's join). */
bool clc_wg_ctrl_divergent(const clc_wg *w, LLVMBasicBlockRef b);
/** Which of K's values may differ between work-items: those of the ids,
 * loads, calls, and all values under a branch on one. */
bool clc_wg_divergence(clc_wg *w);

#endif
