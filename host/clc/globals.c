// SPDX-License-Identifier: MIT
/*
 * Program-scope global variables (OpenCL C 3.0's
 * __opencl_c_program_scope_global_variables, SPIR-V's CrossWorkgroup
 * variables): the kernel object's image is read-only, so the program's
 * writable variables live in a buffer of the program's own, one per
 * device (the ICD makes it: host/lib/clglobals.c). Here, after the read
 * stage, every such variable gets an offset in a block; the block's
 * initial bytes become one read-only variable (__hpcl_globals_init, a
 * packed struct of the initializers and their padding), its address a
 * read-only word the host fills in before it loads the object
 * (__hpcl_globals, externally initialized so no load of it folds); every
 * use of a variable becomes that word's value plus the offset. The
 * metadata's "globals" line gets the block's size and where the two are
 * in the image (package.c fills those in after the link).
 *
 * Variables of the private space with initializers (the translator's
 * statics) go in the block too. An initializer holding an address is
 * refused with the variable named.
 */
#define _GNU_SOURCE
#include "globals.h"
#include "fail.h"
#include "job.h"
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is @p g a program-scope variable the block holds? */
static bool in_block(LLVMValueRef g)
{
	size_t n;
	const char *name = LLVMGetValueName2(g, &n);
	unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
	return !LLVMIsDeclaration(g) && !LLVMIsGlobalConstant(g) &&
	       !LLVMIsThreadLocal(g) && (as == 1 || as == 0) &&
	       strncmp(name, "llvm.", 5) && strncmp(name, "__hpcl_", 7);
}

/* Does constant @p c refer to a global (an address)? */
static bool has_address(LLVMValueRef c, unsigned depth)
{
	if (!c || depth > 16)
		return false;
	if (LLVMIsAGlobalValue(c))
		return true;
	for (int i = 0; i < LLVMGetNumOperands(c); i++)
		if (has_address(LLVMGetOperand(c, (unsigned)i), depth + 1))
			return true;
	return false;
}

/* The address of block offset @p off as @p ty, built before @p at. */
static LLVMValueRef block_at(clc_job *j, LLVMBuilderRef b, LLVMValueRef slot,
			     uint64_t off, LLVMTypeRef ty)
{
	LLVMTypeRef gp = LLVMPointerTypeInContext(j->ctx, 1);
	LLVMValueRef base = LLVMBuildLoad2(b, gp, slot, "hp.globals");
	LLVMSetMetadata(base,
			LLVMGetMDKindIDInContext(j->ctx, "invariant.load", 14),
			LLVMMetadataAsValue(
				j->ctx, LLVMMDNodeInContext2(j->ctx, NULL, 0)));
	LLVMValueRef ix = LLVMConstInt(LLVMInt64TypeInContext(j->ctx), off, 0);
	LLVMValueRef p = LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(j->ctx),
					       base, &ix, 1, "hp.gvar");
	return LLVMTypeOf(p) == ty ? p : LLVMBuildAddrSpaceCast(b, p, ty, "");
}

/* Does @p e (a constant) refer to @p var? */
static bool refers(LLVMValueRef e, LLVMValueRef var, unsigned depth)
{
	if (e == var)
		return true;
	if (!LLVMIsAConstantExpr(e) || depth > 8)
		return false;
	for (int i = 0; i < LLVMGetNumOperands(e); i++)
		if (refers(LLVMGetOperand(e, (unsigned)i), var, depth + 1))
			return true;
	return false;
}

/* Constant @p e with @p var the block's word plus @p off, as instructions
 * at the builder's point (the base is an instruction, so nothing folds
 * back into a constant); NULL if an expression of a kind not known. */
static LLVMValueRef rebuild(clc_job *j, LLVMBuilderRef b, LLVMValueRef e,
			    LLVMValueRef var, LLVMValueRef slot, uint64_t off,
			    unsigned depth)
{
	if (e == var)
		return block_at(j, b, slot, off, LLVMTypeOf(var));
	if (!refers(e, var, 0))
		return e;
	unsigned n = (unsigned)LLVMGetNumOperands(e);
	LLVMValueRef ops[16];
	if (n > 16 || depth > 8)
		return NULL;
	for (unsigned i = 0; i < n; i++)
		if (!(ops[i] = rebuild(j, b, LLVMGetOperand(e, i), var, slot,
				       off, depth + 1)))
			return NULL;
	switch (LLVMGetConstOpcode(e)) {
	case LLVMGetElementPtr: {
		LLVMValueRef g =
			LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(e), ops[0],
				      ops + 1, n - 1, "");
		if (LLVMIsAGetElementPtrInst(g))
			LLVMSetIsInBounds(g, LLVMIsInBounds(e));
		return g;
	}
	case LLVMAddrSpaceCast:
		return LLVMBuildAddrSpaceCast(b, ops[0], LLVMTypeOf(e), "");
	case LLVMBitCast:
		return LLVMBuildBitCast(b, ops[0], LLVMTypeOf(e), "");
	case LLVMPtrToInt:
		return LLVMBuildPtrToInt(b, ops[0], LLVMTypeOf(e), "");
	default:
		return NULL;
	}
}

/* Where an instruction that uses a value at operand @p k of @p w goes:
 * before w, or (a phi) at the end of the block the value comes from. */
static void position(LLVMBuilderRef b, LLVMValueRef w, unsigned k)
{
	if (LLVMIsAPHINode(w))
		LLVMPositionBuilderBefore(b,
					  LLVMGetBasicBlockTerminator(
						  LLVMGetIncomingBlock(w, k)));
	else
		LLVMPositionBuilderBefore(b, w);
}

/* The instructions that use @p v, through constant expressions too, into
 * @p out (up to @p cap); false if a use is neither that nor an
 * initializer. */
static bool users_of(LLVMValueRef v, LLVMValueRef *out, unsigned *n,
		     unsigned cap, unsigned depth)
{
	if (depth > 8)
		return false;
	for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef w = LLVMGetUser(u);
		if (LLVMIsAConstantExpr(w)) {
			if (!users_of(w, out, n, cap, depth + 1))
				return false;
			continue;
		}
		/* an initializer: a block variable's is rebuilt apart
		 * (init_const) */
		if (LLVMIsAConstant(w) || LLVMIsAGlobalVariable(w))
			continue;
		if (!LLVMIsAInstruction(w) || *n == cap)
			return false;
		bool have = false;
		for (unsigned i = 0; i < *n && !have; i++)
			have = out[i] == w;
		if (!have)
			out[(*n)++] = w;
	}
	return true;
}

/* Every use of variable @p v in functions: the block's word plus @p off. */
static bool replace(clc_job *j, LLVMBuilderRef b, LLVMValueRef v,
		    LLVMValueRef slot, uint64_t off)
{
	static __thread LLVMValueRef users[8192];
	unsigned nu = 0;
	if (!users_of(v, users, &nu, 8192, 0))
		return false;
	for (unsigned i = 0; i < nu; i++) {
		LLVMValueRef w = users[i];
		for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(w); k++) {
			LLVMValueRef o = LLVMGetOperand(w, k);
			if (!refers(o, v, 0))
				continue;
			position(b, w, k);
			LLVMValueRef r = rebuild(j, b, o, v, slot, off, 0);
			if (!r)
				return false;
			LLVMSetOperand(w, k, r);
		}
	}
	return true;
}

/* @p a and @p b kept through the optimizer (llvm.used): the host finds
 * them in the image by name. */
static void used_add(clc_job *j, LLVMValueRef a, LLVMValueRef b)
{
	LLVMTypeRef pt = LLVMPointerTypeInContext(j->ctx, 0);
	LLVMValueRef old = LLVMGetNamedGlobal(j->mod, "llvm.used");
	LLVMValueRef init = old ? LLVMGetInitializer(old) : NULL;
	unsigned n = init ? (unsigned)LLVMGetNumOperands(init) : 0;
	LLVMValueRef *el = calloc(n + 2, sizeof(*el));
	if (!el)
		return;
	for (unsigned i = 0; i < n; i++)
		el[i] = LLVMGetOperand(init, i);
	el[n++] = a; /* both in the default space */
	if (b)
		el[n++] = b;
	LLVMTypeRef at = LLVMArrayType2(pt, n);
	if (old)
		LLVMDeleteGlobal(old);
	LLVMValueRef u = LLVMAddGlobal(j->mod, at, "llvm.used");
	LLVMSetLinkage(u, LLVMAppendingLinkage);
	LLVMSetSection(u, "llvm.metadata");
	LLVMSetInitializer(u, LLVMConstArray2(pt, el, n));
	free(el);
}

/* What the block's initial bytes need to say an address: the variables
 * and their offsets, and the pointers' offsets (to which the host adds
 * the block's address). */
typedef struct {
	clc_job *j;
	LLVMTargetDataRef td;
	LLVMValueRef *vars;
	uint64_t *offs;
	unsigned nv;
	uint32_t rels[HP_CL_GLOBALS_RELS_MAX];
	unsigned nrel;
} reloc;

/* An address constant @p c with each block variable its offset in the
 * block (an integer as a pointer); NULL if it names anything else. */
static LLVMValueRef addr_const(reloc *r, LLVMValueRef c, unsigned depth)
{
	for (unsigned i = 0; i < r->nv; i++)
		if (c == r->vars[i])
			return LLVMConstIntToPtr(
				LLVMConstInt(LLVMInt64TypeInContext(r->j->ctx),
					     r->offs[i], 0),
				LLVMTypeOf(c));
	if (!LLVMIsAConstantExpr(c) || depth > 8)
		return NULL;
	unsigned n = (unsigned)LLVMGetNumOperands(c);
	LLVMValueRef ops[16];
	if (n > 16)
		return NULL;
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef o = LLVMGetOperand(c, i);
		ops[i] = has_address(o, 0) ? addr_const(r, o, depth + 1) : o;
		if (!ops[i])
			return NULL;
	}
	switch (LLVMGetConstOpcode(c)) {
	case LLVMGetElementPtr:
		return (LLVMIsInBounds(c) ? LLVMConstInBoundsGEP2
					  : LLVMConstGEP2)(
			LLVMGetGEPSourceElementType(c), ops[0], ops + 1, n - 1);
	case LLVMAddrSpaceCast:
		return LLVMConstAddrSpaceCast(ops[0], LLVMTypeOf(c));
	case LLVMBitCast:
		return LLVMConstBitCast(ops[0], LLVMTypeOf(c));
	default:
		return NULL;
	}
}

/* Initializer @p c of type @p ty at block offset @p at, its addresses as
 * block offsets (each pointer's offset listed); NULL if one cannot be. */
static LLVMValueRef init_const(reloc *r, LLVMValueRef c, LLVMTypeRef ty,
			       uint64_t at, unsigned depth)
{
	if (!has_address(c, 0))
		return c;
	LLVMValueRef els[256];
	unsigned n;
	switch (LLVMGetTypeKind(ty)) {
	case LLVMPointerTypeKind:
		if (r->nrel == HP_CL_GLOBALS_RELS_MAX)
			return NULL;
		r->rels[r->nrel++] = (uint32_t)at;
		return addr_const(r, c, 0);
	case LLVMStructTypeKind:
		n = LLVMCountStructElementTypes(ty);
		if (n > 256 || depth > 8)
			return NULL;
		for (unsigned i = 0; i < n; i++)
			if (!(els[i] = init_const(
				      r, LLVMGetAggregateElement(c, i),
				      LLVMStructGetTypeAtIndex(ty, i),
				      at + LLVMOffsetOfElement(r->td, ty, i),
				      depth + 1)))
				return NULL;
		return LLVMGetStructName(ty) ? LLVMConstNamedStruct(ty, els, n)
					     : LLVMConstStructInContext(
						       r->j->ctx, els, n,
						       LLVMIsPackedStruct(ty));
	case LLVMArrayTypeKind: {
		LLVMTypeRef et = LLVMGetElementType(ty);
		uint64_t es = LLVMABISizeOfType(r->td, et);
		n = (unsigned)LLVMGetArrayLength2(ty);
		if (n > 256 || depth > 8)
			return NULL;
		for (unsigned i = 0; i < n; i++)
			if (!(els[i] = init_const(r,
						  LLVMGetAggregateElement(c, i),
						  et, at + i * es, depth + 1)))
				return NULL;
		return LLVMConstArray2(et, els, n);
	}
	default:
		return NULL;
	}
}

/* The block's three read-only variables: the initial bytes (a packed
 * struct of @p ne values), the word with its address, the addresses'
 * offsets; the word. */
static LLVMValueRef block_globals(clc_job *j, LLVMTypeRef *tys,
				  LLVMValueRef *vals, unsigned ne,
				  uint64_t maxal, const reloc *r)
{
	LLVMValueRef init = LLVMAddGlobal(
		j->mod, LLVMStructTypeInContext(j->ctx, tys, ne, 1),
		"__hpcl_globals_init");
	LLVMSetInitializer(init, LLVMConstStructInContext(j->ctx, vals, ne, 1));
	LLVMSetGlobalConstant(init, 1);
	LLVMSetAlignment(init, (unsigned)maxal);
	/* internal: reached PC-relative (the image has no GOT for them);
	 * llvm.used keeps them and their names */
	LLVMSetLinkage(init, LLVMInternalLinkage);
	LLVMValueRef slot = LLVMAddGlobal(
		j->mod, LLVMPointerTypeInContext(j->ctx, 1), "__hpcl_globals");
	LLVMSetInitializer(slot,
			   LLVMConstNull(LLVMPointerTypeInContext(j->ctx, 1)));
	LLVMSetGlobalConstant(slot, 1);
	LLVMSetExternallyInitialized(slot, 1);
	LLVMSetAlignment(slot, 8);
	LLVMSetLinkage(slot, LLVMInternalLinkage);
	used_add(j, init, slot);
	if (r->nrel) { /* where the pointers among the bytes are */
		LLVMTypeRef i32 = LLVMInt32TypeInContext(j->ctx);
		LLVMValueRef ro[HP_CL_GLOBALS_RELS_MAX];
		for (unsigned i = 0; i < r->nrel; i++)
			ro[i] = LLVMConstInt(i32, r->rels[i], 0);
		LLVMValueRef rel =
			LLVMAddGlobal(j->mod, LLVMArrayType2(i32, r->nrel),
				      "__hpcl_globals_rel");
		LLVMSetInitializer(rel, LLVMConstArray2(i32, ro, r->nrel));
		LLVMSetGlobalConstant(rel, 1);
		LLVMSetLinkage(rel, LLVMInternalLinkage);
		used_add(j, rel, NULL);
	}
	return slot;
}

/* Every variable's uses moved into the block, the variables gone. */
static int move_all(clc_job *j, LLVMValueRef *vars, const uint64_t *offs,
		    unsigned nv, LLVMValueRef slot)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(j->ctx);
	int rc = 0;
	for (unsigned i = 0; i < nv && !rc; i++) {
		size_t n;
		const char *name = LLVMGetValueName2(vars[i], &n);
		if (!replace(j, b, vars[i], slot, offs[i]))
			rc = clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				      "program-scope variable %s is used where "
				      "it cannot be moved (an initializer, or "
				      "an expression of an unknown kind)",
				      name);
	}
	LLVMDisposeBuilder(b);
	for (unsigned i = 0; i < nv && !rc; i++) {
		/* no instruction may use it still (what is left: expressions
		 * nothing uses) */
		LLVMValueRef left[1];
		unsigned nl = 0;
		if (!users_of(vars[i], left, &nl, 1, 0) || nl) {
			size_t n;
			rc = clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				      "program-scope variable %s is still used "
				      "after the move",
				      LLVMGetValueName2(vars[i], &n));
			break;
		}
		LLVMReplaceAllUsesWith(vars[i],
				       LLVMGetPoison(LLVMTypeOf(vars[i])));
		LLVMDeleteGlobal(vars[i]);
	}
	return rc;
}

int clc_stage_globals(clc_job *j)
{
	LLVMValueRef vars[HP_CL_GLOBALS_VARS_MAX];
	unsigned nv = 0;
	for (LLVMValueRef g = LLVMGetFirstGlobal(j->mod); g;
	     g = LLVMGetNextGlobal(g)) {
		if (!in_block(g))
			continue;
		size_t n;
		const char *name = LLVMGetValueName2(g, &n);
		if (nv == HP_CL_GLOBALS_VARS_MAX)
			return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
					"more than %u program-scope variables",
					HP_CL_GLOBALS_VARS_MAX);
		(void)name;
		vars[nv++] = g;
	}
	if (!nv)
		return 0;
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(j->tm);
	LLVMTypeRef i8 = LLVMInt8TypeInContext(j->ctx);
	LLVMTypeRef tys[2 * HP_CL_GLOBALS_VARS_MAX];
	LLVMValueRef vals[2 * HP_CL_GLOBALS_VARS_MAX];
	uint64_t offs[HP_CL_GLOBALS_VARS_MAX], at = 0, maxal = 8;
	unsigned ne = 0;
	for (unsigned i = 0; i < nv; i++) {
		LLVMTypeRef t = LLVMGlobalGetValueType(vars[i]);
		uint64_t size = LLVMABISizeOfType(td, t);
		uint64_t al = LLVMABIAlignmentOfType(td, t);
		if (LLVMGetAlignment(vars[i]) > al)
			al = LLVMGetAlignment(vars[i]);
		maxal = al > maxal ? al : maxal;
		uint64_t pad = (al - at % al) % al;
		if (pad) { /* padding as bytes in the packed block */
			tys[ne] = LLVMArrayType2(i8, pad);
			vals[ne] = LLVMConstNull(tys[ne]);
			ne++;
		}
		offs[i] = at + pad;
		tys[ne] = t;
		vals[ne++] = NULL; /* below, once every offset is known */
		at = offs[i] + size;
	}
	static __thread reloc r;
	r = (reloc){.j = j, .td = td, .vars = vars, .offs = offs, .nv = nv};
	for (unsigned i = 0, e = 0; i < nv; i++, e++) {
		while (vals[e]) /* the padding before it */
			e++;
		vals[e] = init_const(&r, LLVMGetInitializer(vars[i]), tys[e],
				     offs[i], 0);
		if (!vals[e]) {
			size_t n;
			LLVMDisposeTargetData(td);
			return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
					"program-scope variable %s: its "
					"initializer holds an address of "
					"something not a program-scope "
					"variable",
					LLVMGetValueName2(vars[i], &n));
		}
	}
	LLVMDisposeTargetData(td);
	if (at > HP_CL_GLOBALS_MAX)
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"program-scope variables of %llu bytes, more "
				"than the device's %u",
				(unsigned long long)at, HP_CL_GLOBALS_MAX);
	LLVMValueRef slot = block_globals(j, tys, vals, ne, maxal, &r);
	int rc = move_all(j, vars, offs, nv, slot);
	j->globals_size = at;
	j->globals_nrel = r.nrel;
	return rc;
}
