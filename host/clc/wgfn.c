// SPDX-License-Identifier: MIT
/*
 * Work-group functions for OpenCL kernels with barriers (docs/design.md,
 * decision 68): hp_krow_K(it, args, n) runs a whole work-group, its
 * work-items as loops between the barriers, instead of one fiber each.
 *
 * K's blocks are cut after every barrier call into pieces. A region starts
 * at K's entry or after a barrier and holds the pieces reachable from its
 * start without passing a barrier. Each region becomes a loop nest over
 * the group's work-items (z, y, x: remainder groups have their own sizes)
 * with the region's pieces cloned as its body; a work-item leaves the body
 * at a barrier (or at `ret`) with that barrier's region as its exit. Where
 * an exit lies under a branch on a value that differs between items
 * (wgdiv.c), every work-item must leave by the first one's (OpenCL: all
 * reach the same barriers); one that does not reports HP_KERNEL_FAULT
 * (__hpcl_wg_diverged). After the loop the group goes on with the exit's
 * region.
 *
 * A value used outside its piece (and every phi) lives in a slot: stored
 * where it is defined (a phi: at the end of each predecessor), loaded
 * where it is used. A slot whose value is live where a region starts,
 * which is after a barrier, is per work-item, in the group's scratch
 * (it->fiber, stack_bytes per work-item); the others are one private
 * variable the optimizer turns back into registers. A uniform value has
 * one slot, copied into each region's loop; cheap arithmetic on ids and
 * arguments is computed again where it is used (wgcut.c). K's own allocas
 * (private arrays) are per work-item. The ids are the loops' values: the
 * local ids the counters, the global ones the group's first item's plus
 * them; what is the same for the whole group is read once.
 *
 * Taken: what the row loop takes (irmap.c, clc_wi_refuse), barriers allowed,
 * and no struct argument by value. Others keep fibers (the build log says
 * so); with a team of harts the team's first runs the whole group.
 */
#define _GNU_SOURCE
#include "wgfn.h"
#include "irmap.h"
#include "job.h"
#include "kernels.h"
#include "wg.h"
#include "wgcut.h"
#include "wgdiv.h"
#include "wgregion.h"
#include "wgsg.h"
#include <stdlib.h>
#include <string.h>

static void wg_free(clc_wg *w)
{
	clc_vmap_free(&w->where);
	clc_vmap_free(&w->last);
	clc_vmap_free(&w->slot);
	clc_vmap_free(&w->pervar);
	clc_vmap_free(&w->params);
	clc_vmap_free(&w->rm);
	clc_vmap_free(&w->dv);
	clc_vmap_free(&w->uni);
	clc_vmap_free(&w->copy);
	clc_vmap_free(&w->defs);
	clc_vmap_free(&w->rem);
	free(w->pc);
	free(w->rg);
	free(w->rstart);
	free(w->live);
	free(w->gen);
	free(w->kill);
}

static bool byval_arg(const clc_kernel *k)
{
	for (unsigned i = 0; i < k->meta.num_args; i++)
		if (clc_byval_type(k->fn, i))
			return true;
	return false;
}

bool clc_wgfn_build(clc_ir *x, clc_kernel *k, LLVMValueRef desc)
{
	char why[HP_CL_NAME_MAX + 64];
	size_t n = 0;
	clc_sgw u;
	clc_sgw_lower(x, k, &u);
	const char *no = clc_wi_refuse(k, true, &n, why, sizeof(why));
	if (!no && byval_arg(k))
		no = "a struct argument by value";
	if (no) {
		clc_sgw_undo(&u);
		fprintf(x->log,
			"remark: kernel %s: a fiber per work-item (%s)\n",
			k->name, no);
		return false;
	}
	clc_wg w = {.x = x, .k = k, .td = LLVMGetModuleDataLayout(x->m)};
	n += 64;
	bool ok = clc_vmap_init(&w.where, n) && clc_vmap_init(&w.last, n) &&
		  clc_vmap_init(&w.slot, n) && clc_vmap_init(&w.pervar, n) &&
		  clc_vmap_init(&w.params, n) && clc_vmap_init(&w.rm, n) &&
		  clc_vmap_init(&w.dv, n) && clc_vmap_init(&w.uni, n) &&
		  clc_vmap_init(&w.copy, n) && clc_vmap_init(&w.defs, n) &&
		  clc_vmap_init(&w.rem, n) && clc_wg_cut(&w) &&
		  clc_wg_divergence(&w);
	if (ok) {
		w.live = calloc(w.np, sizeof(bool));
		w.gen = calloc(w.np, sizeof(bool));
		w.kill = calloc(w.np, sizeof(bool));
		ok = w.live && w.gen && w.kill;
	}
	for (unsigned i = 0; ok && i < u.n; i++)
		if (!u.s[i].wg &&
		    clc_wg_ctrl_divergent(
			    &w, LLVMGetInstructionParent(u.s[i].barrier)))
			no = "a sub-group function under a branch that differs "
			     "between work-items";
	if (ok && !no && w.nr > 255)
		no = "more than 254 barriers";
	else if (!ok && !w.exits_full)
		no = "out of memory";
	if (no || !ok || !clc_wg_emit(&w, desc, n)) {
		if (w.f)
			LLVMDeleteFunction(w.f);
		wg_free(&w);
		clc_sgw_undo(&u);
		fprintf(x->log,
			"remark: kernel %s: a fiber per work-item (%s)\n",
			k->name,
			no	       ? no
			: w.exits_full ? "past its bounds: 256 exits or "
					 "uniform values a region, 64 "
					 "successors or phis a block"
				       : "out of memory");
		return false;
	}
	k->wg_scratch = w.stride;
	if (u.n) /* the folds' slots: the run-time's __local variables */
		k->all_local = true;
	clc_sgw_done(&u);
	fprintf(x->log,
		"remark: kernel %s: a work-group function, %u region%s, %u "
		"bytes per work-item across barriers",
		k->name, w.nr, w.nr == 1 ? "" : "s", w.stride);
	if (w.leaders)
		fprintf(x->log, ", %u region%s for sub-groups' first items",
			w.leaders, w.leaders == 1 ? "" : "s");
	fputc('\n', x->log);
	wg_free(&w);
	return true;
}
