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
 * at a barrier (or at `ret`) with that barrier's region as its exit. When a
 * region can leave by more than one exit, every work-item must leave by
 * the first one's (OpenCL: all reach the same barriers); one that does not
 * reports HP_KERNEL_FAULT (__hpcl_wg_diverged). After the loop the
 * group goes on with the exit's region.
 *
 * A value used outside its piece (and every phi) lives in a slot: stored
 * where it is defined (a phi: at the end of each predecessor), loaded
 * where it is used. A slot whose value is live where a region starts,
 * which is after a barrier, is per work-item, in the group's scratch
 * (it->fiber, stack_bytes per work-item); the others are one private
 * variable the optimizer turns back into registers. K's own allocas
 * (private arrays) are per work-item. The ids are the loops' values: the
 * local ids the counters, the global ones the group's first item's plus
 * them; what is the same for the whole group is read once.
 *
 * Taken: what the row loop takes (irmap.c, wi_refuse), barriers allowed,
 * and no struct argument by value. Others keep fibers (the build log says
 * so); a group that a team of harts shares always runs as fibers.
 */
#define _GNU_SOURCE
#include "wgfn.h"
#include "internal.h"
#include <stdlib.h>
#include <string.h>

unsigned idx_of(const vmap *m, LLVMValueRef v)
{
	LLVMValueRef r = vmap_get(m, v);
	return r == v ? 0 : (unsigned)(uintptr_t)r;
}

static void idx_put(vmap *m, LLVMValueRef v, unsigned i)
{
	vmap_put(m, v, (LLVMValueRef)(uintptr_t)i);
}

static bool barrier_call(LLVMValueRef i)
{
	LLVMValueRef fn;
	const char *n = LLVMIsACallInst(i) ? callee_name(i, &fn) : NULL;
	return n && wi_barrier(n);
}

/* ---- pieces and regions ---- */

static bool cut(wg *w)
{
	unsigned cap = 16;
	w->pc = malloc(cap * sizeof(*w->pc));
	if (!w->pc)
		return false;
	for (LLVMBasicBlockRef bb = LLVMGetEntryBasicBlock(w->k->fn); bb;
	     bb = LLVMGetNextBasicBlock(bb)) {
		idx_put(&w->where, LLVMBasicBlockAsValue(bb), w->np + 1);
		LLVMValueRef first = LLVMGetFirstInstruction(bb);
		unsigned phis = 0;
		for (LLVMValueRef i = first; i && LLVMIsAPHINode(i);
		     i = LLVMGetNextInstruction(i))
			phis++;
		if (phis > WG_EDGES_MAX ||
		    LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(bb)) >
			    WG_EDGES_MAX) {
			w->exits_full = true; /* past the bounds: fibers */
			return false;
		}
		for (LLVMValueRef i = first; i; i = LLVMGetNextInstruction(i)) {
			idx_put(&w->where, i, w->np + 1);
			bool b = barrier_call(i);
			if (!b && i != LLVMGetBasicBlockTerminator(bb))
				continue;
			if (w->np == cap) {
				piece *p = realloc(w->pc, 2 * cap * sizeof(*p));
				if (!p)
					return false;
				w->pc = p;
				cap *= 2;
			}
			w->pc[w->np++] = (piece){first, i, b, 0};
			first = LLVMGetNextInstruction(i);
		}
		idx_put(&w->last, LLVMBasicBlockAsValue(bb), w->np);
	}
	return true;
}

/* Region 0 starts at the entry, one more after each barrier. */
static bool regions(wg *w)
{
	w->rg = calloc(w->np + 1, sizeof(*w->rg));
	w->rstart = calloc(w->np, sizeof(bool));
	if (!w->rg || !w->rstart)
		return false;
	w->rg[w->nr++].start = 0;
	for (unsigned p = 0; p < w->np; p++)
		if (w->pc[p].barrier) {
			w->pc[p].region = w->nr;
			w->rg[w->nr++].start = p + 1;
			w->rstart[p + 1] = true;
		}
	return true;
}

unsigned succs(const wg *w, unsigned p, unsigned *out, unsigned max)
{
	if (w->pc[p].barrier) {
		out[0] = p + 1;
		return 1;
	}
	LLVMValueRef t = w->pc[p].last;
	unsigned n = LLVMGetNumSuccessors(t), k = 0;
	for (unsigned s = 0; s < n && k < max; s++)
		out[k++] =
			idx_of(&w->where,
			       LLVMBasicBlockAsValue(LLVMGetSuccessor(t, s))) -
			1;
	return k;
}

/* ---- which values need slots, and which slots are per work-item ---- */

unsigned piece_of(const wg *w, LLVMValueRef i)
{
	return idx_of(&w->where, i) - 1;
}

/* The piece where @p user uses a value (a phi: the end of the block the
 * value comes from, operand @p q). */
static unsigned use_piece(const wg *w, LLVMValueRef user, unsigned q)
{
	if (!LLVMIsAPHINode(user))
		return piece_of(w, user);
	return idx_of(&w->last,
		      LLVMBasicBlockAsValue(LLVMGetIncomingBlock(user, q))) -
	       1;
}

/* gen/kill of value @p v by piece; true if it has a use outside its own
 * piece (or is a phi). */
static bool uses(wg *w, LLVMValueRef v)
{
	unsigned def = piece_of(w, v);
	bool phi = LLVMIsAPHINode(v), shared = phi;
	memset(w->gen, 0, w->np * sizeof(bool));
	memset(w->kill, 0, w->np * sizeof(bool));
	for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		unsigned n = LLVMIsAPHINode(user) ? LLVMCountIncoming(user) : 1;
		for (unsigned q = 0; q < n; q++) {
			if (LLVMIsAPHINode(user) &&
			    LLVMGetIncomingValue(user, q) != v)
				continue;
			unsigned p = use_piece(w, user, q);
			if (p != def) {
				w->gen[p] = true;
				shared = true;
			}
		}
	}
	if (phi) {
		w->gen[def] = true;
		unsigned n = LLVMCountIncoming(v);
		for (unsigned q = 0; q < n; q++)
			w->kill[use_piece(w, v, q)] = true;
	} else {
		w->kill[def] = true;
	}
	return shared;
}

/* Live where a region starts (after a barrier): backwards to a fixpoint. */
static bool crosses(wg *w)
{
	memset(w->live, 0, w->np * sizeof(bool));
	unsigned s[WG_EDGES_MAX];
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned p = w->np; p-- > 0;) {
			bool out = false;
			unsigned n = succs(w, p, s, WG_EDGES_MAX);
			for (unsigned q = 0; q < n; q++)
				out |= w->live[s[q]];
			bool in = w->gen[p] || (out && !w->kill[p]);
			if (in != w->live[p]) {
				w->live[p] = in;
				changed = true;
			}
		}
	}
	for (unsigned p = 0; p < w->np; p++)
		if (w->rstart[p] && w->live[p])
			return true;
	return false;
}

static unsigned per_item(wg *w, LLVMTypeRef t, unsigned bytes)
{
	unsigned a = LLVMABIAlignmentOfType(w->td, t);
	w->stride = (w->stride + a - 1) / a * a;
	unsigned off = w->stride;
	w->stride += bytes;
	return off;
}

/* Slots for every shared value, K's allocas per work-item. */
/* Cheap arithmetic on what every region has (arguments, constants, the
 * work-item functions, K's allocas): computed again where it is used in
 * another piece rather than kept in a slot (the 32 tile addresses a
 * tiled SGEMM computes before its loop were 256 bytes per item, loaded
 * for every multiply-add). At most REMAT_DEPTH deep. */
#define REMAT_DEPTH 8

static bool remat_depth(wg *w, LLVMValueRef v, unsigned depth)
{
	if (!LLVMIsAInstruction(v) || LLVMIsAAllocaInst(v))
		return true;
	LLVMValueRef m = vmap_get(&w->rem, v);
	if (m != v)
		return m == (LLVMValueRef)(uintptr_t)1;
	bool ok = depth < REMAT_DEPTH;
	LLVMValueRef fn;
	if (ok && LLVMIsACallInst(v))
		ok = callee_name(v, &fn) && wi_kind(LLVMGetValueName(fn));
	else if (ok)
		switch (LLVMGetInstructionOpcode(v)) {
		case LLVMGetElementPtr:
		case LLVMAdd:
		case LLVMSub:
		case LLVMMul:
		case LLVMShl:
		case LLVMLShr:
		case LLVMAShr:
		case LLVMAnd:
		case LLVMOr:
		case LLVMXor:
		case LLVMTrunc:
		case LLVMZExt:
		case LLVMSExt:
		case LLVMPtrToInt:
		case LLVMIntToPtr:
		case LLVMAddrSpaceCast:
		case LLVMICmp:
		case LLVMSelect:
			break;
		default:
			ok = false;
		}
	unsigned n = LLVMIsACallInst(v) ? LLVMGetNumArgOperands(v)
					: (unsigned)LLVMGetNumOperands(v);
	for (unsigned o = 0; ok && o < n; o++)
		ok = remat_depth(w, LLVMGetOperand(v, o), depth + 1);
	/* a "no" found deep may be a "yes" nearer the top: keep only the
	 * answers that do not depend on the depth */
	if (ok || depth == 0)
		vmap_put(&w->rem, v, (LLVMValueRef)(uintptr_t)(ok ? 1 : 2));
	return ok;
}

bool wg_remat(wg *w, LLVMValueRef v)
{
	return LLVMIsAInstruction(v) && !LLVMIsAAllocaInst(v) &&
	       !LLVMIsAPHINode(v) && remat_depth(w, v, 0);
}

void wg_slots(wg *w)
{
	ir *x = w->x;
	for (unsigned p = 0; p < w->np; p++)
		for (LLVMValueRef i = w->pc[p].first;;
		     i = LLVMGetNextInstruction(i)) {
			LLVMTypeRef t = LLVMTypeOf(i);
			if (LLVMIsAAllocaInst(i)) {
				LLVMTypeRef at = LLVMGetAllocatedType(i);
				unsigned long long c = LLVMConstIntGetZExtValue(
					LLVMGetOperand(i, 0));
				unsigned sz = (unsigned)(LLVMABISizeOfType(
								 w->td, at) *
							 c);
				unsigned off = per_item(w, at, sz);
				vmap_put(&w->pervar, i,
					 LLVMConstInt(x->i64, off, 0));
			} else if (LLVMGetTypeKind(t) != LLVMVoidTypeKind &&
				   !wg_remat(w, i) && uses(w, i)) {
				LLVMValueRef s;
				if (!wg_divergent(w, i)) {
					/* the same for every item: one
					 * slot, and a copy in the loop */
					LLVMPositionBuilderBefore(x->b,
								  w->entry_br);
					s = LLVMBuildAlloca(x->b, t, "");
					vmap_put(&w->uni, i,
						 LLVMBuildAlloca(x->b, t, ""));
				} else if (crosses(w)) {
					unsigned off = per_item(
						w, t,
						(unsigned)LLVMStoreSizeOfType(
							w->td, t));
					s = LLVMConstInt(x->i64, off, 0);
				} else {
					LLVMPositionBuilderBefore(x->b,
								  w->entry_br);
					s = LLVMBuildAlloca(x->b, t, "");
				}
				vmap_put(&w->slot, i, s);
			}
			if (i == w->pc[p].last)
				break;
		}
	w->stride = (w->stride + 15) & ~15u;
}

static void wg_free(wg *w)
{
	vmap_free(&w->where);
	vmap_free(&w->last);
	vmap_free(&w->slot);
	vmap_free(&w->pervar);
	vmap_free(&w->params);
	vmap_free(&w->rm);
	vmap_free(&w->dv);
	vmap_free(&w->uni);
	vmap_free(&w->copy);
	vmap_free(&w->defs);
	vmap_free(&w->rem);
	free(w->pc);
	free(w->rg);
	free(w->rstart);
	free(w->live);
	free(w->gen);
	free(w->kill);
}

static bool byval_arg(const cl_kernel *k)
{
	for (unsigned i = 0; i < k->meta.num_args; i++)
		if (cl_byval_type(k->fn, i))
			return true;
	return false;
}

bool wgfn_build(ir *x, cl_kernel *k, LLVMValueRef desc)
{
	char why[HP_CL_NAME_MAX + 64];
	size_t n = 0;
	const char *no = wi_refuse(k, true, &n, why, sizeof(why));
	if (!no && byval_arg(k))
		no = "a struct argument by value";
	if (no) {
		fprintf(x->log,
			"remark: kernel %s: a fiber per work-item (%s)\n",
			k->name, no);
		return false;
	}
	wg w = {.x = x, .k = k, .td = LLVMGetModuleDataLayout(x->m)};
	n += 64;
	bool ok = vmap_init(&w.where, n) && vmap_init(&w.last, n) &&
		  vmap_init(&w.slot, n) && vmap_init(&w.pervar, n) &&
		  vmap_init(&w.params, n) && vmap_init(&w.rm, n) &&
		  vmap_init(&w.dv, n) && vmap_init(&w.uni, n) &&
		  vmap_init(&w.copy, n) && vmap_init(&w.defs, n) &&
		  vmap_init(&w.rem, n) && cut(&w) && regions(&w) &&
		  wg_divergence(&w);
	if (ok) {
		w.live = calloc(w.np, sizeof(bool));
		w.gen = calloc(w.np, sizeof(bool));
		w.kill = calloc(w.np, sizeof(bool));
		ok = w.live && w.gen && w.kill;
	}
	if (ok && w.nr > 255)
		no = "more than 254 barriers";
	else if (!ok && !w.exits_full)
		no = "out of memory";
	if (no || !ok || !wg_emit(&w, desc, n)) {
		if (w.f)
			LLVMDeleteFunction(w.f);
		wg_free(&w);
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
	fprintf(x->log,
		"remark: kernel %s: a work-group function, %u region%s, %u "
		"bytes per work-item across barriers\n",
		k->name, w.nr, w.nr == 1 ? "" : "s", w.stride);
	wg_free(&w);
	return true;
}
