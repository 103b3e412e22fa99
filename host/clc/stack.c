// SPDX-License-Identifier: MIT
/*
 * The stack a kernel needs (job.h): the code generator reports every
 * function's frame (the "warn-stack-size" attribute at 0 makes it say each
 * one through the context's diagnostics), and a kernel needs the deepest
 * chain of frames from its entries (hp_kfn_NAME, hp_krow_NAME) plus what
 * the calls out of the object take (libm, the firmware's printf). A frame
 * larger than the guard below a stack could step over it and write what
 * lies beneath, so a kernel with barriers gets a fiber stack that holds
 * its chain, and one without says what it needs of the hart's kernel stack
 * (the executor refuses to run it where that is less); past either
 * limit the build says so.
 */
#define _GNU_SOURCE
#include "stack.h"
#include "fail.h"
#include "job.h"
#include <hartpool/kernel.h>
#include <hartpool/object.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clc_stack_mark(clc_job *j)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(j->mod); f;
	     f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f))
			LLVMAddAttributeAtIndex(
				f, LLVMAttributeFunctionIndex,
				LLVMCreateStringAttribute(
					j->ctx, "warn-stack-size", 15, "0", 1));
}

bool clc_stack_diag(clc_job *j, const char *d)
{
	const char *s = strstr(d, "stack frame size (");
	const char *q = s ? strstr(s, "in function '") : NULL;
	if (!q)
		return false;
	unsigned long size = strtoul(s + 18, NULL, 10);
	q += 13;
	const char *e = strchr(q, '\'');
	if (!e)
		return false;
	if (j->nframes == j->capframes) {
		unsigned cap = j->capframes ? 2 * j->capframes : 64;
		clc_frame *nf = realloc(j->frames, cap * sizeof(*nf));
		if (!nf) {
			j->frames_lost = true; /* clc_stack_check says so */
			return true;
		}
		j->frames = nf;
		j->capframes = cap;
	}
	clc_frame *f = &j->frames[j->nframes];
	if (!(f->name = strndup(q, (size_t)(e - q)))) {
		j->frames_lost = true;
		return true;
	}
	f->size = (unsigned)size;
	j->nframes++;
	return true;
}

static unsigned frame_of(const clc_job *j, const char *name)
{
	for (unsigned i = 0; i < j->nframes; i++)
		if (!strcmp(j->frames[i].name, name))
			return j->frames[i].size;
	return 0; /* no frame: a leaf that keeps everything in registers */
}

/* What a call out of the object may take (libm's functions; the
 * firmware's printf formatting is counted by the fiber's printf stack). */
#define OUTSIDE_BYTES 512u

/* Each function's deepest chain, once (a program of shared callees would
 * otherwise cost a walk per path). */
typedef struct {
	LLVMValueRef *f;
	unsigned *v, n, cap;
	bool oom;
} memo;

static bool memo_get(const memo *m, LLVMValueRef f, unsigned *v)
{
	for (unsigned i = 0; i < m->n; i++)
		if (m->f[i] == f) {
			*v = m->v[i];
			return true;
		}
	return false;
}

static unsigned memo_put(memo *m, LLVMValueRef f, unsigned v)
{
	if (m->n == m->cap) {
		unsigned cap = m->cap ? 2 * m->cap : 64;
		LLVMValueRef *nf = realloc(m->f, cap * sizeof(*nf));
		if (nf)
			m->f = nf;
		unsigned *nv = nf ? realloc(m->v, cap * sizeof(*nv)) : NULL;
		if (!nv) {
			m->oom = true;
			return v;
		}
		m->v = nv;
		m->cap = cap;
	}
	m->f[m->n] = f;
	m->v[m->n++] = v;
	return v;
}

/* The deepest chain from @p f; UINT32_MAX past @p depth calls (a cycle:
 * OpenCL C has no recursion, but C kernels may). */
static unsigned chain(const clc_job *j, memo *m, LLVMValueRef f, unsigned depth)
{
	size_t n;
	const char *name = LLVMGetValueName2(f, &n);
	unsigned known;
	if (LLVMIsDeclaration(f))
		return OUTSIDE_BYTES;
	if (memo_get(m, f, &known))
		return known;
	if (depth > 64)
		return UINT32_MAX;
	unsigned deepest = 0;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
	     bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
		     in = LLVMGetNextInstruction(in)) {
			if (LLVMGetInstructionOpcode(in) != LLVMCall)
				continue;
			LLVMValueRef c = LLVMGetCalledValue(in);
			if (!c || !LLVMIsAFunction(c) ||
			    LLVMGetIntrinsicID(c) != 0)
				continue;
			unsigned d = chain(j, m, c, depth + 1);
			if (d > deepest)
				deepest = d;
		}
	if (deepest == UINT32_MAX)
		return memo_put(m, f, UINT32_MAX);
	return memo_put(m, f, frame_of(j, name) + deepest);
}

static unsigned kernel_need(const clc_job *j, memo *m, const char *kname)
{
	static const char *const pre[] = {"hp_kfn_", "hp_krow_"};
	unsigned need = 0;
	for (unsigned p = 0; p < 2; p++) {
		char n[HP_CL_NAME_MAX + 16];
		snprintf(n, sizeof(n), "%s%s", pre[p], kname);
		LLVMValueRef f = LLVMGetNamedFunction(j->mod, n);
		unsigned d = f ? chain(j, m, f, 0) : 0;
		if (d > need)
			need = d;
	}
	return need;
}

int clc_stack_check(clc_job *j)
{
	unsigned bad = 0;
	memo m = {0};
	for (unsigned i = 0; i < j->nk; i++) {
		clc_kernel *k = &j->ks[i];
		unsigned need = kernel_need(j, &m, k->name);
		if (need == UINT32_MAX) {
			/* a cycle: the guard below the stack is all there is */
			k->stack_bytes = k->meta.uses_barriers && k->prints
						 ? HPCL_PRINTF_STACK
						 : 0;
			continue;
		}
		if (k->wg_fn) {
			/* a work-group function: stack_bytes is its items'
			 * scratch (the values they keep across barriers,
			 * where fibers' stacks would be); its frame is on
			 * the hart's kernel stack */
			k->stack_bytes = (k->wg_scratch + 15) & ~15u;
			if (need <= HP_KERNEL_STACK_USE &&
			    k->stack_bytes <= HPK_STACK_MAX)
				continue;
			fprintf(j->log.f,
				"error: kernel %s as a work-group function "
				"needs %u bytes of the hart's kernel stack "
				"(%u for it) and %u of scratch per work-item "
				"(at most %u); -cl-hartpool-item-calls keeps "
				"fibers\n",
				k->name, need, HP_KERNEL_STACK_USE,
				k->stack_bytes, HPK_STACK_MAX);
			bad++;
			continue;
		}
		if (k->meta.uses_barriers) {
			unsigned base = k->prints ? HPCL_PRINTF_STACK
						  : HPCL_FIBER_STACK;
			unsigned s = (need + base / 2 + 15) & ~15u;
			k->stack_bytes = s > base ? s : (k->prints ? base : 0);
			if (s <= HPK_STACK_MAX)
				continue;
			fprintf(j->log.f,
				"error: kernel %s needs %u bytes of stack per "
				"work-item (its deepest chain of calls); a "
				"fiber has at most %u\n",
				k->name, need, HPK_STACK_MAX);
			bad++;
			continue;
		}
		k->stack_bytes = (need + 15) & ~15u;
		if (need <= HP_KERNEL_STACK_USE)
			continue;
		fprintf(j->log.f,
			"error: kernel %s needs %u bytes of stack (its deepest "
			"chain of calls); kernels without barriers run on the "
			"hart's kernel stack, which has %u for them\n",
			k->name, need, HP_KERNEL_STACK_USE);
		bad++;
	}
	bool oom = m.oom || j->frames_lost;
	free(m.f);
	free(m.v);
	if (oom)
		return clc_fail(
			&j->log, HP_OUT_OF_RESOURCES,
			"no host memory to measure the kernels' stacks");
	return bad ? clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
			      "%u kernel%s need%s more stack than the device "
			      "gives (build log)",
			      bad, bad == 1 ? "" : "s", bad == 1 ? "s" : "")
		   : 0;
}
