/* SPDX-License-Identifier: MIT */
/** @file K cut at its barriers into pieces and regions, and the slots of
 * the values they share (wgcut.c). */
#ifndef HOST_CLC_WGCUT_H
#define HOST_CLC_WGCUT_H

#include "wg.h"

/** The pieces and regions of K (false: out of memory or past the
 * bounds, exits_full). */
bool clc_wg_cut(clc_wg *w);
/** The piece of K's instruction @p i. */
unsigned clc_piece_of(const clc_wg *w, LLVMValueRef i);
/** The pieces after piece @p p (across barriers too); count returned. */
unsigned clc_succs(const clc_wg *w, unsigned p, unsigned *out, unsigned max);
/** Whether K's value @p v is cheap arithmetic on what every region has,
 * computed again in a piece that uses it rather than kept in a slot. */
bool clc_wg_remat(clc_wg *w, LLVMValueRef v);
/** Slots for every shared value, K's allocas per work-item (needs the
 * entry block's branch, w->entry_br). */
void clc_wg_slots(clc_wg *w);

#endif
