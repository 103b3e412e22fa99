/* SPDX-License-Identifier: MIT */
/** @file A work-group function being built: the state wgfn.c sets up and
 * wgcut.c (pieces, regions, slots), wgdiv.c (divergence) and wgregion.c
 * (the loops) work on. */
#ifndef HOST_CLC_WG_H
#define HOST_CLC_WG_H

#include "irmap.h"
#include <llvm-c/Target.h>

#define EXIT_ID 0xffffffffu /* the region id of `ret` */
/* At most this many successors of a block, and phis in one (cut()). */
#define WG_EDGES_MAX 64u

typedef struct {
	LLVMValueRef first, last; /* last: a barrier call or the terminator */
	bool barrier;
	unsigned region; /* barrier pieces: the region after it */
} clc_piece;

typedef struct {
	LLVMBasicBlockRef pre; /* jumps to the loop nest */
	unsigned start;	       /* its first piece */
} clc_region;

typedef struct clc_wg {
	clc_ir *x;
	const clc_kernel *k;
	LLVMTargetDataRef td;
	clc_piece *pc;
	unsigned np;
	clc_region *rg;
	unsigned nr;
	clc_vmap
		where; /* K's instructions, blocks -> piece + 1 (first piece) */
	clc_vmap last; /* K's blocks -> their terminator's piece + 1 */
	clc_vmap slot; /* shared values -> a private alloca or an offset */
	clc_vmap pervar; /* K's allocas -> offset */
	clc_vmap params; /* K's parameters -> the loaded arguments */
	clc_vmap dv;	 /* K's values that differ between work-items -> 1 */
	clc_vmap uni;	 /* uniform shared values -> their copy in the loop */
	clc_vmap copy;	 /* per-item shared values -> their copy in the loop */
	clc_vmap defs;	 /* the region being built: shared values it sets */
	clc_vmap rem;	 /* values computed again where used: 1 yes, 2 no */
	unsigned stride;
	unsigned leaders; /* regions whose loop runs sub-groups' first items */
	bool *live, *gen, *kill, *rstart;
	/* the function */
	LLVMValueRef f, scratch, rid, entry_br, av[HP_CL_ARGS_MAX + 1];
	LLVMValueRef lsz[3];
	clc_precache pre; /* the group's values, read in entry */
	LLVMBasicBlockRef exit, diverge;
	/* the region being built */
	clc_vmap rm;
	unsigned cur;	/* piece */
	unsigned start; /* the region's first piece */
	LLVMValueRef x_, y_, z_, wi, sbase;
	LLVMBasicBlockRef latch;
	LLVMValueRef exit_ids[256];
	LLVMBasicBlockRef exit_bbs[256];
	unsigned nexit;
	bool exits_full; /* over 256 exits or uniform values: fibers */
	bool diverges;	 /* an exit only some items may reach */
	LLVMValueRef pre_br, hx_br; /* where a uniform value enters */
	LLVMValueRef lead_br,
		lead_cond;	    /* a leaders' region's test (wglead.c) */
	LLVMValueRef used_uni[256]; /* uniform values the region uses */
	unsigned nuni;
} clc_wg;

#endif
