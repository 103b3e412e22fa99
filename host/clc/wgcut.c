// SPDX-License-Identifier: MIT
/*
 * A work-group function's analysis (wgcut.h): K's blocks cut into pieces at
 * barriers, its regions, which values need slots (liveness across the
 * pieces) and which are computed again where used.
 */
#define _GNU_SOURCE
#include "wgcut.h"
#include "irmap.h"
#include "wg.h"
#include "wgdiv.h"
#include <stdlib.h>
#include <string.h>

static void idx_put(clc_vmap *m, LLVMValueRef v, unsigned i)
{
	clc_vmap_put(m, v, (LLVMValueRef)(uintptr_t)i);
}

static bool barrier_call(LLVMValueRef i)
{
	LLVMValueRef fn;
	const char *n = LLVMIsACallInst(i) ? clc_callee_name(i, &fn) : NULL;
	return n && clc_wi_barrier(n);
}

/* ---- pieces and regions ---- */

static bool cut_pieces(clc_wg *w)
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
				clc_piece *p =
					realloc(w->pc, 2 * cap * sizeof(*p));
				if (!p)
					return false;
				w->pc = p;
				cap *= 2;
			}
			w->pc[w->np++] = (clc_piece){first, i, b, 0};
			first = LLVMGetNextInstruction(i);
		}
		idx_put(&w->last, LLVMBasicBlockAsValue(bb), w->np);
	}
	return true;
}

/* Region 0 starts at the entry, one more after each barrier. */
static bool regions(clc_wg *w)
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

unsigned clc_succs(const clc_wg *w, unsigned p, unsigned *out, unsigned max)
{
	if (w->pc[p].barrier) {
		out[0] = p + 1;
		return 1;
	}
	LLVMValueRef t = w->pc[p].last;
	unsigned n = LLVMGetNumSuccessors(t), k = 0;
	for (unsigned s = 0; s < n && k < max; s++)
		out[k++] =
			clc_idx_of(&w->where, LLVMBasicBlockAsValue(
						      LLVMGetSuccessor(t, s))) -
			1;
	return k;
}

/* ---- which values need slots, and which slots are per work-item ---- */

unsigned clc_piece_of(const clc_wg *w, LLVMValueRef i)
{
	return clc_idx_of(&w->where, i) - 1;
}

/* The piece where @p user uses a value (a phi: the end of the block the
 * value comes from, operand @p q). */
static unsigned use_piece(const clc_wg *w, LLVMValueRef user, unsigned q)
{
	if (!LLVMIsAPHINode(user))
		return clc_piece_of(w, user);
	return clc_idx_of(&w->last, LLVMBasicBlockAsValue(
					    LLVMGetIncomingBlock(user, q))) -
	       1;
}

/* gen/kill of value @p v by piece; true if it has a use outside its own
 * piece (or is a phi). */
static bool uses(clc_wg *w, LLVMValueRef v)
{
	unsigned def = clc_piece_of(w, v);
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
static bool crosses(clc_wg *w)
{
	memset(w->live, 0, w->np * sizeof(bool));
	unsigned s[WG_EDGES_MAX];
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned p = w->np; p-- > 0;) {
			bool out = false;
			unsigned n = clc_succs(w, p, s, WG_EDGES_MAX);
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

static unsigned per_item(clc_wg *w, LLVMTypeRef t, unsigned bytes)
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

static bool remat_depth(clc_wg *w, LLVMValueRef v, unsigned depth)
{
	if (!LLVMIsAInstruction(v) || LLVMIsAAllocaInst(v))
		return true;
	LLVMValueRef m = clc_vmap_get(&w->rem, v);
	if (m != v)
		return m == (LLVMValueRef)(uintptr_t)1;
	bool ok = depth < REMAT_DEPTH;
	LLVMValueRef fn;
	if (ok && LLVMIsACallInst(v))
		ok = clc_callee_name(v, &fn) &&
		     clc_wi_kind(LLVMGetValueName(fn));
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
		clc_vmap_put(&w->rem, v, (LLVMValueRef)(uintptr_t)(ok ? 1 : 2));
	return ok;
}

bool clc_wg_remat(clc_wg *w, LLVMValueRef v)
{
	return LLVMIsAInstruction(v) && !LLVMIsAAllocaInst(v) &&
	       !LLVMIsAPHINode(v) && remat_depth(w, v, 0);
}

void clc_wg_slots(clc_wg *w)
{
	clc_ir *x = w->x;
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
				clc_vmap_put(&w->pervar, i,
					     LLVMConstInt(x->i64, off, 0));
			} else if (LLVMGetTypeKind(t) != LLVMVoidTypeKind &&
				   !clc_wg_remat(w, i) && uses(w, i)) {
				LLVMValueRef s;
				if (!clc_wg_divergent(w, i)) {
					/* the same for every item: one
					 * slot, and a copy in the loop */
					LLVMPositionBuilderBefore(x->b,
								  w->entry_br);
					s = LLVMBuildAlloca(x->b, t, "");
					clc_vmap_put(
						&w->uni, i,
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
				clc_vmap_put(&w->slot, i, s);
			}
			if (i == w->pc[p].last)
				break;
		}
	w->stride = (w->stride + 15) & ~15u;
}

bool clc_wg_cut(clc_wg *w)
{
	return cut_pieces(w) && regions(w);
}
