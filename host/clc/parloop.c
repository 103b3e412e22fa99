// SPDX-License-Identifier: MIT
/*
 * Loops over work-items marked parallel (parloop.h): an access group (a
 * distinct node without operands, which only the IR parser makes) on
 * their accesses, llvm.loop.parallel_accesses on their latches; and the
 * groups put back after the first optimizer run, on every access of each
 * marked loop's blocks (the blocks that reach its latch without passing
 * its header).
 */
#include "parloop.h"
#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>
#include <stdlib.h>
#include <string.h>

static const char pa_key[] = "llvm.loop.parallel_accesses";

static LLVMMetadataRef access_group(LLVMContextRef c)
{
	static const char ir[] = "!hp = !{!0}\n!0 = distinct !{}\n";
	LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
		ir, sizeof(ir) - 1, "access-group");
	LLVMModuleRef m;
	char *msg = NULL;
	if (LLVMParseIRInContext(c, buf, &m, &msg)) { /* takes buf */
		LLVMDisposeMessage(msg);
		return NULL;
	}
	LLVMMetadataRef md = NULL;
	if (LLVMGetNamedMetadataNumOperands(m, "hp") == 1) {
		LLVMValueRef op;
		LLVMGetNamedMetadataOperands(m, "hp", &op);
		md = LLVMValueAsMetadata(op); /* the context keeps it */
	}
	LLVMDisposeModule(m);
	return md;
}

/* Whether pointer @p p may be one of the function's allocas (through
 * GEPs and casts; a phi or select is taken as one). */
static bool on_alloca(LLVMValueRef p)
{
	for (unsigned d = 0; d < 32; d++) {
		if (LLVMIsAAllocaInst(p) || LLVMIsAPHINode(p) ||
		    LLVMIsASelectInst(p))
			return true;
		if (!LLVMIsAGetElementPtrInst(p) && !LLVMIsACastInst(p) &&
		    !(LLVMIsAConstantExpr(p) && LLVMGetNumOperands(p) > 0))
			return false;
		p = LLVMGetOperand(p, 0);
	}
	return true;
}

/* Whether @p i is an access an item makes to memory no other item of the
 * loop touches between barriers (not atomic, not through an alloca). */
static bool item_access(LLVMValueRef i)
{
	if (LLVMIsALoadInst(i) || LLVMIsAStoreInst(i))
		return LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic &&
		       !LLVMGetVolatile(i) &&
		       !on_alloca(
			       LLVMGetOperand(i, LLVMIsAStoreInst(i) ? 1 : 0));
	if (!LLVMIsACallInst(i))
		return false;
	unsigned n = LLVMGetNumArgOperands(i);
	for (unsigned a = 0; a < n; a++) {
		LLVMValueRef v = LLVMGetOperand(i, a);
		if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind &&
		    on_alloca(v))
			return false;
	}
	return true;
}

static void mark(LLVMContextRef c, LLVMValueRef i, LLVMMetadataRef ag)
{
	if (item_access(i))
		LLVMSetMetadata(
			i, LLVMGetMDKindIDInContext(c, "llvm.access.group", 17),
			LLVMMetadataAsValue(c, ag));
}

void clc_loop_parallel(clc_ir *x, LLVMBasicBlockRef first,
		       LLVMBasicBlockRef last, LLVMValueRef latch_br,
		       bool predicate)
{
	LLVMMetadataRef ag = access_group(x->c);
	if (!ag)
		return;
	for (LLVMBasicBlockRef bb = first; bb; bb = LLVMGetNextBasicBlock(bb)) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
		     i = LLVMGetNextInstruction(i))
			mark(x->c, i, ag);
		if (bb == last)
			break;
	}
	LLVMMetadataRef self = LLVMTemporaryMDNode(x->c, NULL, 0);
	LLVMMetadataRef pa[] = {
		LLVMMDStringInContext2(x->c, pa_key, sizeof(pa_key) - 1), ag};
	static const char pred[] = "llvm.loop.vectorize.predicate.enable";
	LLVMMetadataRef pe[] = {
		LLVMMDStringInContext2(x->c, pred, sizeof(pred) - 1),
		LLVMValueAsMetadata(
			LLVMConstInt(LLVMInt1TypeInContext(x->c), 1, 0))};
	LLVMMetadataRef ops[] = {self, LLVMMDNodeInContext2(x->c, pa, 2),
				 LLVMMDNodeInContext2(x->c, pe, 2)};
	LLVMMetadataRef loop =
		LLVMMDNodeInContext2(x->c, ops, predicate ? 3 : 2);
	LLVMMetadataReplaceAllUsesWith(self, loop);
	LLVMSetMetadata(latch_br,
			LLVMGetMDKindIDInContext(x->c, "llvm.loop", 9),
			LLVMMetadataAsValue(x->c, loop));
}

/* ---- after the first optimizer run ---- */

/* The access group a loop's llvm.loop node @p loop names, or NULL. */
static LLVMValueRef group_of(LLVMContextRef c, LLVMValueRef loop)
{
	unsigned n = LLVMGetMDNodeNumOperands(loop);
	LLVMValueRef *ops = malloc((n ? n : 1) * sizeof(*ops)), ag = NULL;
	if (!ops)
		return NULL;
	LLVMGetMDNodeOperands(loop, ops);
	for (unsigned q = 1; q < n && !ag; q++) {
		if (!ops[q] || !LLVMIsAMDNode(ops[q]) ||
		    LLVMGetMDNodeNumOperands(ops[q]) != 2)
			continue;
		LLVMValueRef kv[2];
		LLVMGetMDNodeOperands(ops[q], kv);
		unsigned len = 0;
		const char *s = kv[0] ? LLVMGetMDString(kv[0], &len) : NULL;
		if (s && len == sizeof(pa_key) - 1 && !memcmp(s, pa_key, len))
			ag = kv[1];
	}
	free(ops);
	(void)c;
	return ag;
}

typedef struct {
	LLVMBasicBlockRef *bb;	 /* the function's blocks */
	unsigned *npred, **pred; /* predecessors, by block index */
	unsigned n;
} cfg;

static unsigned index_of(const cfg *g, LLVMBasicBlockRef b)
{
	for (unsigned q = 0; q < g->n; q++)
		if (g->bb[q] == b)
			return q;
	return g->n;
}

static bool cfg_build(cfg *g, LLVMValueRef f)
{
	g->n = LLVMCountBasicBlocks(f);
	g->bb = malloc(g->n * sizeof(*g->bb));
	g->npred = calloc(g->n, sizeof(*g->npred));
	g->pred = calloc(g->n, sizeof(*g->pred));
	if (!g->bb || !g->npred || !g->pred)
		return false;
	LLVMGetBasicBlocks(f, g->bb);
	for (unsigned b = 0; b < g->n; b++) {
		LLVMValueRef t = LLVMGetBasicBlockTerminator(g->bb[b]);
		unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
		for (unsigned s = 0; s < ns; s++) {
			unsigned to = index_of(g, LLVMGetSuccessor(t, s));
			unsigned *p = realloc(g->pred[to],
					      (g->npred[to] + 1) * sizeof(*p));
			if (!p)
				return false;
			p[g->npred[to]++] = b;
			g->pred[to] = p;
		}
	}
	return true;
}

static void cfg_free(cfg *g)
{
	for (unsigned b = 0; g->pred && b < g->n; b++)
		free(g->pred[b]);
	free(g->pred);
	free(g->npred);
	free(g->bb);
}

/* The blocks that reach @p latch without passing @p head, and @p head, in
 * @p in; false if they include the entry (head is no loop header). */
static bool loop_blocks(const cfg *g, unsigned head, unsigned latch, bool *in,
			unsigned *stack)
{
	unsigned sp = 0;
	memset(in, 0, g->n * sizeof(*in));
	in[head] = true;
	if (!in[latch])
		in[stack[sp++] = latch] = true;
	while (sp) {
		unsigned b = stack[--sp];
		if (b == 0)
			return false;
		for (unsigned p = 0; p < g->npred[b]; p++)
			if (!in[g->pred[b][p]])
				in[stack[sp++] = g->pred[b][p]] = true;
	}
	return true;
}

static void remark_fn(LLVMContextRef c, LLVMValueRef f, unsigned kloop)
{
	cfg g = {0};
	bool *in = NULL;
	unsigned *stack = NULL;
	if (!cfg_build(&g, f) || !(in = malloc(g.n * sizeof(*in))) ||
	    !(stack = malloc(g.n * sizeof(*stack))))
		goto out;
	for (unsigned b = 0; b < g.n; b++) {
		LLVMValueRef t = LLVMGetBasicBlockTerminator(g.bb[b]);
		LLVMValueRef loop = t ? LLVMGetMetadata(t, kloop) : NULL;
		LLVMValueRef ag = loop ? group_of(c, loop) : NULL;
		if (!ag)
			continue;
		for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++) {
			unsigned h = index_of(&g, LLVMGetSuccessor(t, s));
			if (!loop_blocks(&g, h, b, in, stack))
				continue;
			for (unsigned q = 0; q < g.n; q++)
				for (LLVMValueRef i =
					     in[q] ? LLVMGetFirstInstruction(
							     g.bb[q])
						   : NULL;
				     i; i = LLVMGetNextInstruction(i))
					mark(c, i, LLVMValueAsMetadata(ag));
			break;
		}
	}
out:
	free(stack);
	free(in);
	cfg_free(&g);
}

void clc_loops_remark(LLVMModuleRef m)
{
	LLVMContextRef c = LLVMGetModuleContext(m);
	unsigned kloop = LLVMGetMDKindIDInContext(c, "llvm.loop", 9);
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
	     f = LLVMGetNextFunction(f))
		if (LLVMCountBasicBlocks(f))
			remark_fn(c, f, kloop);
}
