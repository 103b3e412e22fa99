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
#include "internal.h"
#include "rewrite.h"
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_ID 0xffffffffu /* the region id of `ret` */

typedef struct {
	LLVMValueRef first, last; /* last: a barrier call or the terminator */
	bool barrier;
	unsigned region; /* barrier pieces: the region after it */
} piece;

typedef struct {
	LLVMBasicBlockRef pre; /* jumps to the loop nest */
	unsigned start;	       /* its first piece */
} region;

typedef struct {
	ir *x;
	const cl_kernel *k;
	LLVMTargetDataRef td;
	piece *pc;
	unsigned np;
	region *rg;
	unsigned nr;
	vmap where;  /* K's instructions, blocks -> piece + 1 (first piece) */
	vmap last;   /* K's blocks -> their terminator's piece + 1 */
	vmap slot;   /* shared values -> a private alloca or an offset */
	vmap pervar; /* K's allocas -> offset */
	vmap params; /* K's parameters -> the loaded arguments */
	unsigned stride;
	bool *live, *gen, *kill, *rstart;
	/* the function */
	LLVMValueRef f, scratch, rid, entry_br, av[HP_CL_ARGS_MAX + 1];
	LLVMValueRef lsz[3], pre_fn[64], pre_val[64];
	unsigned pre_arg[64], npre;
	LLVMBasicBlockRef exit, diverge;
	/* the region being built */
	vmap rm;
	unsigned cur; /* piece */
	LLVMValueRef x_, y_, z_, wi, sbase;
	LLVMBasicBlockRef latch;
	LLVMValueRef exit_ids[256];
	LLVMBasicBlockRef exit_bbs[256];
	unsigned nexit;
	bool exits_full;
} wg;

static unsigned idx_of(const vmap *m, LLVMValueRef v)
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

/* The pieces after piece @p p (across barriers too); count returned. */
static unsigned succs(const wg *w, unsigned p, unsigned *out, unsigned max)
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

static unsigned piece_of(const wg *w, LLVMValueRef i)
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
	unsigned s[64];
	for (bool changed = true; changed;) {
		changed = false;
		for (unsigned p = w->np; p-- > 0;) {
			bool out = false;
			unsigned n = succs(w, p, s, 64);
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
static void slots(wg *w)
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
				   uses(w, i)) {
				LLVMValueRef s;
				if (crosses(w)) {
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

/* ---- building a region ---- */

static LLVMValueRef slot_ptr(wg *w, LLVMValueRef v)
{
	LLVMValueRef s = vmap_get(&w->slot, v);
	if (!LLVMIsAConstantInt(s))
		return s;
	return LLVMBuildGEP2(w->x->b, w->x->i8, w->sbase, &s, 1, "");
}

/* K's value @p v where the builder is, in piece w->cur. */
static LLVMValueRef val(wg *w, LLVMValueRef v)
{
	if (LLVMIsAArgument(v))
		return vmap_get(&w->params, v);
	if (!LLVMIsAInstruction(v))
		return v;
	LLVMValueRef off = vmap_get(&w->pervar, v);
	if (off != v)
		return LLVMBuildGEP2(w->x->b, w->x->i8, w->sbase, &off, 1, "");
	LLVMValueRef c = vmap_get(&w->rm, v);
	if (c != v && piece_of(w, v) == w->cur)
		return c;
	LLVMTypeRef t = LLVMTypeOf(v);
	LLVMValueRef l = LLVMBuildLoad2(w->x->b, t, slot_ptr(w, v), "");
	LLVMSetAlignment(l, LLVMABIAlignmentOfType(w->td, t));
	return l;
}

static void store_slot(wg *w, LLVMValueRef v, LLVMValueRef c)
{
	LLVMValueRef st = LLVMBuildStore(w->x->b, c, slot_ptr(w, v));
	LLVMSetAlignment(st, LLVMABIAlignmentOfType(w->td, LLVMTypeOf(c)));
}

/* A call in the entry block, once per callee and constant argument. */
static LLVMValueRef pre(wg *w, LLVMValueRef fn, LLVMTypeRef ft, unsigned a,
			bool has_arg)
{
	ir *x = w->x;
	for (unsigned q = 0; q < w->npre; q++)
		if (w->pre_fn[q] == fn && w->pre_arg[q] == a)
			return w->pre_val[q];
	LLVMBasicBlockRef at = LLVMGetInsertBlock(x->b);
	LLVMPositionBuilderBefore(x->b, w->entry_br);
	LLVMValueRef arg = LLVMConstInt(x->i32, a, 0);
	LLVMValueRef c = LLVMBuildCall2(x->b, ft, fn, &arg, has_arg, "");
	if (has_arg && x->xlen == 64) {
		unsigned k = LLVMGetEnumAttributeKindForName("signext", 7);
		LLVMAddCallSiteAttribute(c, 1,
					 LLVMCreateEnumAttribute(x->c, k, 0));
	}
	LLVMPositionBuilderAtEnd(x->b, at);
	if (w->npre < 64) {
		w->pre_fn[w->npre] = fn;
		w->pre_arg[w->npre] = a;
		w->pre_val[w->npre++] = c;
	}
	return c;
}

/* The library's work-item function @p name (size_t (uint) or (void)),
 * called once in entry. */
static LLVMValueRef pre_lib(wg *w, const char *name, unsigned a, bool arg)
{
	ir *x = w->x;
	LLVMTypeRef ft = LLVMFunctionType(x->sz, &x->i32, arg, 0);
	return pre(w, fn_get(x, name, ft), ft, a, arg);
}

/* The local id in dimension @p d (a value). */
static LLVMValueRef lid_of(wg *w, LLVMValueRef d)
{
	ir *x = w->x;
	if (LLVMIsAConstantInt(d)) {
		unsigned long long c = LLVMConstIntGetZExtValue(d);
		return c == 0	? w->x_
		       : c == 1 ? w->y_
		       : c == 2 ? w->z_
				: LLVMConstInt(x->sz, 0, 0);
	}
	LLVMValueRef r = LLVMConstInt(x->sz, 0, 0);
	LLVMValueRef ids[] = {w->x_, w->y_, w->z_};
	for (unsigned q = 3; q-- > 0;) {
		LLVMValueRef e =
			LLVMBuildICmp(x->b, LLVMIntEQ, d,
				      LLVMConstInt(LLVMTypeOf(d), q, 0), "");
		r = LLVMBuildSelect(x->b, e, ids[q], r, "");
	}
	return r;
}

/* A work-item function's value for the item of the loop. */
static LLVMValueRef wi_val(wg *w, LLVMValueRef call, LLVMValueRef fn,
			   enum wi kind)
{
	ir *x = w->x;
	bool arg = LLVMGetNumArgOperands(call) != 0;
	LLVMValueRef d = arg ? val(w, LLVMGetOperand(call, 0)) : NULL;
	bool konst = !arg || LLVMIsAConstantInt(d);
	LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
	LLVMValueRef base = NULL;
	if (kind == WI_LOCAL_ID)
		return lid_of(w, d);
	if (kind == WI_LOCAL_LINEAR)
		return w->wi;
	if (kind == WI_GLOBAL_LINEAR) {
		LLVMValueRef gx = pre_lib(w, "_Z15get_global_sizej", 0, true);
		LLVMValueRef gy = pre_lib(w, "_Z15get_global_sizej", 1, true);
		LLVMValueRef r = LLVMBuildMul(x->b, w->z_, gy, "");
		r = LLVMBuildAdd(x->b, r, w->y_, "");
		r = LLVMBuildMul(x->b, r, gx, "");
		r = LLVMBuildAdd(x->b, r, w->x_, "");
		return LLVMBuildAdd(x->b, pre(w, fn, ft, 0, false), r, "");
	}
	if (konst)
		base = pre(w, fn, ft,
			   arg ? (unsigned)LLVMConstIntGetZExtValue(d) : 0,
			   arg);
	else
		base = LLVMBuildCall2(x->b, ft, fn, &d, 1, "");
	if (kind == WI_UNIFORM)
		return base;
	return LLVMBuildAdd(x->b, base, lid_of(w, d), ""); /* WI_GLOBAL_ID */
}

static void exit_to(wg *w, unsigned id)
{
	ir *x = w->x;
	if (w->nexit < 256) {
		w->exit_ids[w->nexit] = LLVMConstInt(x->i32, id, 0);
		w->exit_bbs[w->nexit++] = LLVMGetInsertBlock(x->b);
	} else {
		w->exits_full = true;
	}
	LLVMBuildBr(x->b, w->latch);
}

static bool lifetime(LLVMValueRef i)
{
	LLVMValueRef fn;
	const char *n = LLVMIsACallInst(i) ? callee_name(i, &fn) : NULL;
	return n && !strncmp(n, "llvm.lifetime.", 14);
}

/* Phis of the blocks @p t goes to get their values from this block:
 * every value read first, then every slot written (a phi may read
 * another's old value). */
static void phi_copies(wg *w, LLVMValueRef t)
{
	LLVMBasicBlockRef from = LLVMGetInstructionParent(t), done[16];
	LLVMValueRef phis[64], vals[64];
	unsigned nd = 0, n = 0, ns = LLVMGetNumSuccessors(t);
	for (unsigned s = 0; s < ns; s++) {
		LLVMBasicBlockRef to = LLVMGetSuccessor(t, s);
		bool seen = false;
		for (unsigned q = 0; q < nd; q++)
			seen |= done[q] == to;
		if (seen)
			continue;
		if (nd < 16)
			done[nd++] = to;
		for (LLVMValueRef p = LLVMGetFirstInstruction(to);
		     p && LLVMIsAPHINode(p) && n < 64;
		     p = LLVMGetNextInstruction(p)) {
			unsigned ni = LLVMCountIncoming(p);
			for (unsigned q = 0; q < ni; q++)
				if (LLVMGetIncomingBlock(p, q) == from) {
					phis[n] = p;
					vals[n++] = val(
						w, LLVMGetIncomingValue(p, q));
					break;
				}
		}
	}
	for (unsigned q = 0; q < n; q++)
		store_slot(w, phis[q], vals[q]);
}

/* Instruction @p i of piece w->cur, cloned where the builder is; the
 * region's blocks of the pieces in @p blk. */
static void clone_one(wg *w, LLVMValueRef i, LLVMBasicBlockRef *blk)
{
	ir *x = w->x;
	LLVMValueRef fn, c;
	if (LLVMIsAPHINode(i)) {
		c = val(w, i); /* its slot */
	} else if (i == w->pc[w->cur].last && w->pc[w->cur].barrier) {
		exit_to(w, w->pc[w->cur].region);
		return;
	} else if (LLVMIsAReturnInst(i)) {
		exit_to(w, EXIT_ID);
		return;
	} else if (LLVMIsAAllocaInst(i) || lifetime(i)) {
		return;
	} else if (LLVMIsACallInst(i) && callee_name(i, &fn) &&
		   wi_kind(LLVMGetValueName(fn))) {
		c = wi_val(w, i, fn, wi_kind(LLVMGetValueName(fn)));
	} else {
		int n = LLVMGetNumOperands(i);
		LLVMValueRef ops[n > 0 ? n : 1];
		for (int o = 0; o < n; o++) {
			LLVMValueRef v = LLVMGetOperand(i, (unsigned)o);
			ops[o] =
				LLVMValueIsBasicBlock(v)
					? LLVMBasicBlockAsValue(
						  blk[idx_of(&w->where, v) - 1])
					: val(w, v);
		}
		if (LLVMIsATerminatorInst(i))
			phi_copies(w, i);
		c = LLVMInstructionClone(i);
		for (int o = 0; o < n; o++)
			LLVMSetOperand(c, (unsigned)o, ops[o]);
		LLVMInsertIntoBuilder(x->b, c);
		if (LLVMIsATerminatorInst(i))
			return;
	}
	vmap_put(&w->rm, i, c);
	if (vmap_get(&w->slot, i) != i && !LLVMIsAPHINode(i))
		store_slot(w, i, c);
}

static LLVMValueRef phi0(ir *x, LLVMBasicBlockRef from)
{
	LLVMValueRef p = LLVMBuildPhi(x->b, x->sz, "");
	LLVMValueRef z = LLVMConstInt(x->sz, 0, 0);
	LLVMAddIncoming(p, &z, &from, 1);
	return p;
}

/* counter @p v + 1 below @p lim: back to @p head, else on to @p out. */
static void step(ir *x, LLVMValueRef v, LLVMValueRef lim,
		 LLVMBasicBlockRef head, LLVMBasicBlockRef out)
{
	LLVMValueRef n = LLVMBuildAdd(x->b, v, LLVMConstInt(x->sz, 1, 0), "");
	LLVMBasicBlockRef at = LLVMGetInsertBlock(x->b);
	LLVMAddIncoming(v, &n, &at, 1);
	LLVMBuildCondBr(x->b, LLVMBuildICmp(x->b, LLVMIntULT, n, lim, ""), head,
			out);
}

/* The region's pieces (from its start, not past a barrier) in @p order;
 * their blocks in @p blk. */
static unsigned gather(wg *w, unsigned start, unsigned *order,
		       LLVMBasicBlockRef *blk, LLVMBasicBlockRef before)
{
	unsigned n = 0, s[64];
	order[n++] = start;
	blk[start] = LLVMInsertBasicBlockInContext(w->x->c, before, "");
	for (unsigned q = 0; q < n; q++) {
		if (w->pc[order[q]].barrier)
			continue;
		unsigned ns = succs(w, order[q], s, 64);
		for (unsigned t = 0; t < ns; t++)
			if (!blk[s[t]]) {
				blk[s[t]] = LLVMInsertBasicBlockInContext(
					w->x->c, before, "");
				order[n++] = s[t];
			}
	}
	return n;
}

/* The exit ids, each once; the count. */
static unsigned distinct(wg *w, unsigned *ids)
{
	unsigned n = 0;
	for (unsigned e = 0; e < w->nexit; e++) {
		unsigned id =
			(unsigned)LLVMConstIntGetZExtValue(w->exit_ids[e]);
		bool seen = false;
		for (unsigned q = 0; q < n; q++)
			seen |= ids[q] == id;
		if (!seen)
			ids[n++] = id;
	}
	return n;
}

static LLVMBasicBlockRef region_bb(wg *w, unsigned id)
{
	return id == EXIT_ID ? w->exit : w->rg[id].pre;
}

/* After every item of the region: to the exit's region. */
static void dispatch(wg *w)
{
	ir *x = w->x;
	unsigned ids[256], n = distinct(w, ids);
	if (n == 0) {
		LLVMBuildUnreachable(x->b);
		return;
	}
	if (n == 1) {
		LLVMBuildBr(x->b, region_bb(w, ids[0]));
		return;
	}
	LLVMValueRef id = LLVMBuildLoad2(x->b, x->i32, w->rid, "");
	LLVMValueRef sw = LLVMBuildSwitch(x->b, id, w->exit, n);
	for (unsigned q = 0; q < n; q++)
		if (ids[q] != EXIT_ID)
			LLVMAddCase(sw, LLVMConstInt(x->i32, ids[q], 0),
				    region_bb(w, ids[q]));
}

/* Where the items leave: with more than one exit, each must take the
 * first item's. */
static void agree(wg *w, LLVMBasicBlockRef next)
{
	ir *x = w->x;
	unsigned ids[256];
	if (w->exits_full) {
		LLVMBuildBr(x->b, w->diverge);
		return;
	}
	if (distinct(w, ids) < 2) {
		LLVMBuildBr(x->b, next);
		return;
	}
	LLVMValueRef id = LLVMBuildPhi(x->b, x->i32, "");
	LLVMAddIncoming(id, w->exit_ids, w->exit_bbs, w->nexit);
	LLVMValueRef first = LLVMBuildICmp(x->b, LLVMIntEQ, w->wi,
					   LLVMConstInt(x->sz, 0, 0), "");
	LLVMValueRef prev = LLVMBuildLoad2(x->b, x->i32, w->rid, "");
	LLVMValueRef ag = LLVMBuildSelect(x->b, first, id, prev, "");
	LLVMBuildStore(x->b, ag, w->rid);
	LLVMBuildCondBr(x->b, LLVMBuildICmp(x->b, LLVMIntNE, id, ag, ""),
			w->diverge, next);
}

static void build_region(wg *w, unsigned r, unsigned *order,
			 LLVMBasicBlockRef *blk)
{
	ir *x = w->x;
	LLVMValueRef f = w->f;
	LLVMBasicBlockRef hz = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef hy = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef hx = LLVMAppendBasicBlockInContext(x->c, f, "");
	w->latch = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef ix = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef ly = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef lz = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMPositionBuilderAtEnd(x->b, w->rg[r].pre);
	LLVMBuildBr(x->b, hz);
	LLVMPositionBuilderAtEnd(x->b, hz);
	w->z_ = phi0(x, w->rg[r].pre);
	LLVMBuildBr(x->b, hy);
	LLVMPositionBuilderAtEnd(x->b, hy);
	w->y_ = phi0(x, hz);
	LLVMBuildBr(x->b, hx);
	LLVMPositionBuilderAtEnd(x->b, hx);
	w->x_ = phi0(x, hy);
	LLVMValueRef wi = LLVMBuildMul(x->b, w->z_, w->lsz[1], "");
	wi = LLVMBuildAdd(x->b, wi, w->y_, "");
	wi = LLVMBuildMul(x->b, wi, w->lsz[0], "");
	w->wi = LLVMBuildAdd(x->b, wi, w->x_, "");
	LLVMValueRef off = LLVMBuildMul(x->b, w->wi,
					LLVMConstInt(x->sz, w->stride, 0), "");
	w->sbase = LLVMBuildGEP2(x->b, x->i8, w->scratch, &off, 1, "");

	memset(blk, 0, w->np * sizeof(*blk));
	unsigned n = gather(w, w->rg[r].start, order, blk, w->latch);
	LLVMBuildBr(x->b, blk[w->rg[r].start]);
	w->nexit = 0;
	w->exits_full = false;
	for (unsigned q = 0; q < n; q++) {
		w->cur = order[q];
		LLVMPositionBuilderAtEnd(x->b, blk[order[q]]);
		for (LLVMValueRef i = w->pc[w->cur].first;;
		     i = LLVMGetNextInstruction(i)) {
			clone_one(w, i, blk);
			if (i == w->pc[w->cur].last)
				break;
		}
	}
	LLVMPositionBuilderAtEnd(x->b, w->latch);
	agree(w, ix);
	LLVMPositionBuilderAtEnd(x->b, ix);
	step(x, w->x_, w->lsz[0], hx, ly);
	LLVMPositionBuilderAtEnd(x->b, ly);
	step(x, w->y_, w->lsz[1], hy, lz);
	LLVMPositionBuilderAtEnd(x->b, lz);
	step(x, w->z_, w->lsz[2], hz, after);
	LLVMPositionBuilderAtEnd(x->b, after);
	dispatch(w);
}

static LLVMValueRef call_lib(ir *x, const char *name, LLVMTypeRef ret,
			     LLVMTypeRef *pt, unsigned np, LLVMValueRef *av)
{
	LLVMTypeRef t = LLVMFunctionType(ret, pt, np, 0);
	return LLVMBuildCall2(x->b, t, fn_get(x, name, t), av, np, "");
}

/* entry: the context, the scratch, the group's sizes, the arguments;
 * exit and the divergence report. */
static void frame(wg *w, LLVMValueRef desc, LLVMValueRef *ctx)
{
	ir *x = w->x;
	LLVMValueRef f = w->f;
	LLVMPositionBuilderAtEnd(x->b,
				 LLVMAppendBasicBlockInContext(x->c, f, ""));
	*ctx = LLVMBuildAlloca(x->b, LLVMArrayType2(x->i8, 32), "");
	LLVMSetAlignment(*ctx, 8);
	LLVMValueRef off = LLVMConstInt(x->i64, HP_KDESC_LOCAL_MEM(x->xlen), 0);
	LLVMValueRef lm = LLVMBuildLoad2(
		x->b, x->i32, LLVMConstGEP2(x->i8, desc, &off, 1), "");
	LLVMSetAlignment(lm, 4);
	if (x->xlen == 64)
		lm = LLVMBuildZExt(x->b, lm, x->i64, "");
	LLVMTypeRef et[] = {x->ptr, x->ptr, x->sz};
	LLVMValueRef ea[] = {*ctx, LLVMGetParam(f, 0), lm};
	call_lib(x, "__hpcl_row_enter", x->vd, et, 3, ea);
	w->scratch = call_lib(x, "__hpcl_wg_scratch", x->ptr, NULL, 0, NULL);
	for (unsigned d = 0; d < 3; d++) {
		LLVMValueRef a = LLVMConstInt(x->i32, d, 0);
		w->lsz[d] =
			call_lib(x, "__hpcl_wg_size", x->sz, &x->i32, 1, &a);
	}
	w->rid = LLVMBuildAlloca(x->b, x->i32, "");
	for (unsigned i = 0; i < w->k->meta.num_args; i++)
		vmap_put(&w->params, LLVMGetParam(w->k->fn, i),
			 arg_value(x, w->k, i, LLVMGetParam(f, 1)));
	for (unsigned r = 0; r < w->nr; r++)
		w->rg[r].pre = LLVMAppendBasicBlockInContext(x->c, f, "");
	w->entry_br = LLVMBuildBr(x->b, w->rg[0].pre);
	w->exit = LLVMAppendBasicBlockInContext(x->c, f, "");
	w->diverge = LLVMAppendBasicBlockInContext(x->c, f, "");
	LLVMPositionBuilderAtEnd(x->b, w->diverge);
	call_lib(x, "__hpcl_wg_diverged", x->vd, NULL, 0, NULL);
	LLVMBuildBr(x->b, w->exit);
	LLVMPositionBuilderAtEnd(x->b, w->exit);
	call_lib(x, "__hpcl_row_leave", x->vd, &x->ptr, 1, ctx);
	LLVMBuildRetVoid(x->b);
}

static bool build(wg *w, LLVMValueRef desc, size_t nvals)
{
	ir *x = w->x;
	char name[HP_CL_NAME_MAX + 32];
	snprintf(name, sizeof(name), "hp_krow_%s", w->k->name);
	LLVMTypeRef pt[] = {x->ptr, x->ptr, x->sz};
	w->f = LLVMAddFunction(x->m, name, LLVMFunctionType(x->vd, pt, 3, 0));
	LLVMValueRef ctx;
	frame(w, desc, &ctx);
	slots(w);
	unsigned *order = malloc(w->np * sizeof(*order));
	LLVMBasicBlockRef *blk = malloc(w->np * sizeof(*blk));
	bool ok = order && blk;
	for (unsigned r = 0; ok && r < w->nr; r++) {
		vmap_free(&w->rm);
		ok = vmap_init(&w->rm, nvals);
		if (ok)
			build_region(w, r, order, blk);
	}
	free(order);
	free(blk);
	return ok;
}

static void wg_free(wg *w)
{
	vmap_free(&w->where);
	vmap_free(&w->last);
	vmap_free(&w->slot);
	vmap_free(&w->pervar);
	vmap_free(&w->params);
	vmap_free(&w->rm);
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
		  vmap_init(&w.params, n) && vmap_init(&w.rm, n) && cut(&w) &&
		  regions(&w);
	if (ok) {
		w.live = calloc(w.np, sizeof(bool));
		w.gen = calloc(w.np, sizeof(bool));
		w.kill = calloc(w.np, sizeof(bool));
		ok = w.live && w.gen && w.kill;
	}
	if (ok && w.nr > 255)
		no = "more than 254 barriers";
	else if (!ok)
		no = "out of memory";
	if (no || !build(&w, desc, n)) {
		if (w.f)
			LLVMDeleteFunction(w.f);
		wg_free(&w);
		fprintf(x->log,
			"remark: kernel %s: a fiber per work-item (%s)\n",
			k->name, no ? no : "out of memory");
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
