/* SPDX-License-Identifier: MIT */
/** @file Loops over work-items marked parallel (parloop.c), on boards with
 * V: the row loop's and the work-group regions' loops, so the vectoriser
 * runs their items on lanes with no alias checks between items. */
#ifndef HOST_CLC_PARLOOP_H
#define HOST_CLC_PARLOOP_H

#include "irmap.h"

/** The loop whose blocks are @p first to @p last (the function's order)
 * and whose latch ends in @p latch_br marked parallel, as PoCL marks its
 * loops: its memory accesses in one access group, which the latch's
 * llvm.loop names in llvm.loop.parallel_accesses. Work-items between
 * barriers share no data but through atomics, which the vectoriser leaves
 * alone. Accesses through the function's allocas (one copy for every
 * item) are not marked: where one survives the optimizer, the vectoriser
 * (which checks every access) does not take the loop as parallel. */
void clc_loop_parallel(clc_ir *x, LLVMBasicBlockRef first,
		       LLVMBasicBlockRef last, LLVMValueRef latch_br,
		       bool predicate);

/** The access groups again on every access of every loop marked parallel
 * in @p m: the optimizer drops them where it makes an access of two (a
 * store sunk out of both arms of a branch), after which the loop is no
 * longer parallel for the vectoriser. Run between the link stage's
 * optimizer (without the vectoriser) and the code generator's. */
void clc_loops_remark(LLVMModuleRef m);

#endif
