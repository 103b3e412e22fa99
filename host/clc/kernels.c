// SPDX-License-Identifier: MIT
/*
 * The read stage: the compile stage's bitcode becomes the job's module
 * (LLVMParseBitcodeInContext2); from it, through LLVM's C API, the kernels
 * (spir_kernel functions), their parameters' types, the argument metadata
 * clang attaches (kernel_arg_addr_space, _access_qual, _type, _type_qual,
 * _name; reqd_work_group_size, work_group_size_hint,
 * intel_reqd_sub_group_size), the layout of the argument block and what
 * each kernel reaches through its calls: barriers (fibers), work-group
 * collectives and other kernels (their __local variables).
 */
#define _GNU_SOURCE
#include "kernels.h"
#include "fail.h"
#include "job.h"
#include "options.h"
#include <hartpool/mbox.h>
#include <hartpool/object.h>
#include <llvm-c/BitReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A defined function of the module and what it reaches (REACH_*). */
typedef struct {
	LLVMValueRef f;
	unsigned reach;
	bool kernel;
} fnode;

typedef struct {
	fnode *f;
	size_t n;
} fgraph;

static const char *vname(LLVMValueRef v)
{
	size_t len;
	const char *s = LLVMGetValueName2(v, &len);
	return s ? s : "";
}

/* Barrier-like built-ins: a kernel calling one (maybe through its own
 * functions) runs its work-items as fibers. */
static bool barrier_builtin(const char *n)
{
	if (strstr(n, "get_sub_group") || strstr(n, "get_max_sub_group") ||
	    strstr(n, "get_num_sub_groups") ||
	    strstr(n, "get_enqueued_num_sub_groups"))
		return false;
	return strstr(n, "barrier") || strstr(n, "work_group_") ||
	       strstr(n, "sub_group_") || strstr(n, "wait_group_events");
}

static unsigned parse_qual(const char *s)
{
	unsigned q = 0;
	q |= strstr(s, "const") ? HP_CL_QUAL_CONST : 0;
	q |= strstr(s, "restrict") ? HP_CL_QUAL_RESTRICT : 0;
	q |= strstr(s, "volatile") ? HP_CL_QUAL_VOLATILE : 0;
	q |= strstr(s, "pipe") ? HP_CL_QUAL_PIPE : 0;
	return q;
}

static unsigned parse_access(const char *s)
{
	if (!strcmp(s, "read_only"))
		return HP_CL_READ_ONLY;
	if (!strcmp(s, "write_only"))
		return HP_CL_WRITE_ONLY;
	if (!strcmp(s, "read_write"))
		return HP_CL_READ_WRITE;
	return HP_CL_ACCESS_NONE;
}

/* The device's name of kernel @p name (hartpool_cl.h). */
static void device_name(const char *name, char out[32])
{
	size_t l = strlen(name);
	if (l < 32) {
		memcpy(out, name, l + 1);
		return;
	}
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < l; i++)
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	snprintf(out, 32, "%.22s_%08x", name, (unsigned)h);
}

/* What calling @p callee adds to the caller's reach. */
static unsigned reach_of(const fgraph *g, LLVMValueRef callee)
{
	const char *cn = vname(callee);
	unsigned r = barrier_builtin(cn) ? REACH_BARRIER : 0;
	if (strstr(cn, "work_group_") && !strstr(cn, "barrier"))
		r |= REACH_WG;
	if (!strcmp(cn, "printf"))
		r |= REACH_PRINTF;
	for (size_t q = 0; q < g->n; q++)
		if (g->f[q].f == callee)
			r |= g->f[q].reach |
			     (g->f[q].kernel ? REACH_KERNEL : 0);
	return r;
}

/* One pass over @p f's calls; true if its reach grew. */
static bool reach_pass(const fgraph *g, fnode *f)
{
	unsigned r = f->reach;
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->f); bb;
	     bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
		     in = LLVMGetNextInstruction(in)) {
			if (!LLVMIsACallInst(in))
				continue;
			LLVMValueRef c = LLVMGetCalledValue(in);
			if (c && LLVMIsAFunction(c))
				r |= reach_of(g, c);
		}
	bool grew = r != f->reach;
	f->reach = r;
	return grew;
}

/* The defined functions, kernels marked; what each reaches: directly,
 * then through the calls until nothing changes. */
static int graph_build(LLVMModuleRef m, fgraph *g)
{
	size_t cap = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
	     f = LLVMGetNextFunction(f))
		cap++;
	g->f = calloc(cap ? cap : 1, sizeof(fnode));
	if (!g->f)
		return -1;
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
	     f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f))
			continue;
		fnode *n = &g->f[g->n++];
		n->f = f;
		n->kernel =
			LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t k = 0; k < g->n; k++)
			changed |= reach_pass(g, &g->f[k]);
	}
	return 0;
}

/* ---- metadata ---- */

/* The metadata tuple @p kind attached to @p fn (as a value), or NULL. */
static LLVMValueRef md_get(LLVMContextRef ctx, LLVMValueRef fn,
			   const char *kind)
{
	unsigned id =
		LLVMGetMDKindIDInContext(ctx, kind, (unsigned)strlen(kind));
	size_t n = 0;
	LLVMValueMetadataEntry *e = LLVMGlobalCopyAllMetadata(fn, &n);
	LLVMValueRef v = NULL;
	for (size_t i = 0; i < n; i++)
		if (LLVMValueMetadataEntriesGetKind(e, (unsigned)i) == id)
			v = LLVMMetadataAsValue(
				ctx, LLVMValueMetadataEntriesGetMetadata(
					     e, (unsigned)i));
	if (e)
		LLVMDisposeValueMetadataEntries(e);
	return v;
}

/* Item @p k of a metadata tuple: a string or an integer, as text. */
static bool md_item(LLVMValueRef node, unsigned k, char *out, size_t n)
{
	unsigned cnt = node ? LLVMGetMDNodeNumOperands(node) : 0;
	if (k >= cnt || cnt > 4096)
		return false;
	LLVMValueRef ops[cnt];
	LLVMGetMDNodeOperands(node, ops);
	LLVMValueRef v = ops[k];
	if (v && LLVMIsAConstantInt(v)) {
		snprintf(out, n, "%lld", LLVMConstIntGetSExtValue(v));
		return true;
	}
	unsigned len = 0;
	const char *s = v ? LLVMGetMDString(v, &len) : NULL;
	if (!s)
		return false;
	snprintf(out, n, "%.*s", (int)len, s);
	return true;
}

/* Three integers of a metadata tuple (reqd_work_group_size...). */
static void md_three(LLVMContextRef ctx, LLVMValueRef fn, const char *name,
		     uint32_t out[3])
{
	LLVMValueRef t = md_get(ctx, fn, name);
	for (unsigned i = 0; i < 3; i++) {
		char v[32] = "0";
		if (t)
			md_item(t, i, v, sizeof(v));
		out[i] = (uint32_t)strtoul(v, NULL, 10);
	}
}

/* ---- IR types: size and alignment for the argument block ---- */

static int type_layout(LLVMTypeRef t, unsigned xlen, uint64_t *size,
		       uint64_t *align, int depth);

/* The fields of a struct, packed or not. */
static int struct_layout(LLVMTypeRef t, unsigned xlen, uint64_t *size,
			 uint64_t *align, int depth)
{
	if (LLVMIsOpaqueStruct(t))
		return -1;
	bool packed = LLVMIsPackedStruct(t);
	uint64_t off = 0, al = 1;
	for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++) {
		uint64_t s, a;
		if (type_layout(LLVMStructGetTypeAtIndex(t, i), xlen, &s, &a,
				depth + 1))
			return -1;
		if (packed)
			a = 1;
		off = (off + a - 1) / a * a + s;
		if (a > al)
			al = a;
	}
	*align = al;
	*size = (off + al - 1) / al * al;
	return 0;
}

/* Arrays; OpenCL vectors: 3 components take the room of 4, the
 * alignment is the size. */
static int seq_layout(LLVMTypeRef t, unsigned xlen, uint64_t *size,
		      uint64_t *align, int depth)
{
	uint64_t es, ea;
	if (type_layout(LLVMGetElementType(t), xlen, &es, &ea, depth + 1))
		return -1;
	if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
		*size = LLVMGetArrayLength2(t) * es;
		*align = ea;
		return 0;
	}
	uint64_t cnt = LLVMGetVectorSize(t);
	*size = (cnt == 3 ? 4 : cnt) * es;
	*align = *size;
	return 0;
}

static int type_layout(LLVMTypeRef t, unsigned xlen, uint64_t *size,
		       uint64_t *align, int depth)
{
	if (depth > 16)
		return -1;
	switch (LLVMGetTypeKind(t)) {
	case LLVMIntegerTypeKind: {
		unsigned bits = LLVMGetIntTypeWidth(t);
		*size = bits == 1 ? 1 : (bits + 7) / 8;
		*align = *size > 8 ? 8 : *size;
		if (bits == 128)
			*align = 16;
		return 0;
	}
	case LLVMFloatTypeKind:
		return *size = *align = 4, 0;
	case LLVMDoubleTypeKind:
		return *size = *align = 8, 0;
	case LLVMHalfTypeKind:
		return *size = *align = 2, 0;
	case LLVMPointerTypeKind:
		return *size = *align = xlen / 8, 0;
	case LLVMStructTypeKind:
		return struct_layout(t, xlen, size, align, depth);
	case LLVMArrayTypeKind:
	case LLVMVectorTypeKind:
		return seq_layout(t, xlen, size, align, depth);
	default:
		return -1;
	}
}

/* ---- kernels ---- */

/* Parameter @p i's byval type, or NULL. */
LLVMTypeRef clc_byval_type(LLVMValueRef fn, unsigned i)
{
	unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
	LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, i + 1, kind);
	return a ? LLVMGetTypeAttributeValue(a) : NULL;
}

/* Argument @p i's metadata, from the tuples @p md (addr_space,
 * access_qual, type, type_qual, name). */
static void arg_meta(LLVMValueRef md[5], unsigned i, hp_cl_arg *a)
{
	char v[128] = "";
	if (md_item(md[0], i, v, sizeof(v)))
		a->addr_space = (unsigned)atoi(v);
	if (md_item(md[1], i, v, sizeof(v)))
		a->access = parse_access(v);
	if (md_item(md[2], i, v, sizeof(v)))
		snprintf(a->type_name, sizeof(a->type_name), "%s", v);
	if (md_item(md[3], i, v, sizeof(v)))
		a->type_qual = parse_qual(v);
	if (md_item(md[4], i, v, sizeof(v)))
		snprintf(a->name, sizeof(a->name), "%s", v);
}

/* Argument @p i: its metadata, size and alignment in the block (offsets:
 * arg_layout). */
static int arg_read(clc_job *j, clc_kernel *k, LLVMValueRef md[5], unsigned i)
{
	hp_cl_arg *a = &k->meta.args[i];
	LLVMTypeRef ty = LLVMTypeOf(LLVMGetParam(k->fn, i));
	LLVMTypeRef byval = clc_byval_type(k->fn, i);
	arg_meta(md, i, a);
	if (strstr(a->type_name, "image") || strstr(a->type_name, "sampler") ||
	    strstr(a->type_name, "pipe") || (a->type_qual & 8)) {
		clc_sb_add(
			&j->msgs,
			"error: kernel %s, argument %u (%s): images, samplers "
			"and pipes are not supported by this device\n",
			k->name, i, a->type_name);
		return HP_BUILD_PROGRAM_FAILURE;
	}
	uint64_t size = 8, align = 8;
	int bad = 0;
	if (a->addr_space)
		;
	else if (byval)
		bad = type_layout(byval, j->b.xlen, &size, &align, 0);
	else if (LLVMGetTypeKind(ty) == LLVMPointerTypeKind)
		bad = 1;
	else
		bad = type_layout(ty, j->b.xlen, &size, &align, 0);
	if (bad) {
		char *ts = LLVMPrintTypeToString(ty);
		clc_sb_add(&j->msgs,
			   "error: kernel %s, argument %u (%s %s): unsupported "
			   "argument type (IR %s)\n",
			   k->name, i, a->type_name, a->name, ts);
		LLVMDisposeMessage(ts);
		return HP_BUILD_PROGRAM_FAILURE;
	}
	/* Pointers are 8-byte words the device checks in place; a struct
	 * by value is passed as a pointer into the block (its alignment);
	 * other values are read with unaligned loads (rewrite.c), so they
	 * need none. */
	if (align > 64)
		align = 64;
	if (!a->addr_space && !byval)
		align = 1;
	a->size = (uint32_t)size;
	a->align = (uint32_t)align;
	return 0;
}

/* The arguments' offsets: pointers first, then structs by their
 * alignment, then the other values, each group in order, so that nothing
 * but a struct's alignment pads the block: it takes what the arguments'
 * sizes add up to (what OpenCL's CL_DEVICE_MAX_PARAMETER_SIZE counts).
 * Returns the block's size. */
static uint32_t arg_layout(hp_cl_kmeta *mk)
{
	uint32_t off = 0;
	for (int pass = 0; pass < 8; pass++)
		for (unsigned i = 0; i < mk->num_args; i++) {
			hp_cl_arg *a = &mk->args[i];
			/* pass 0 pointers; 1..6 structs aligned 64..2; 7 the
			 * rest (alignment 1) */
			int want = a->addr_space  ? 0
				   : a->align > 1 ? 7 - __builtin_ctz(a->align)
						  : 7;
			if (want != pass)
				continue;
			off = (off + a->align - 1) / a->align * a->align;
			a->offset = off;
			off += a->size;
		}
	return off;
}

/* vec_type_hint's type as OpenCL C spells it ("uint4"), from the
 * kernel's !vec_type_hint {TYPE undef, i32 signed}; "" if none. */
static void vec_hint(LLVMContextRef ctx, LLVMValueRef fn, char *out, size_t n)
{
	out[0] = 0;
	LLVMValueRef t = md_get(ctx, fn, "vec_type_hint");
	if (!t || LLVMGetMDNodeNumOperands(t) != 2)
		return;
	LLVMValueRef ops[2];
	LLVMGetMDNodeOperands(t, ops);
	if (!ops[0] || !ops[1] || !LLVMIsAConstantInt(ops[1]))
		return;
	LLVMTypeRef ty = LLVMTypeOf(ops[0]), el = ty;
	unsigned lanes = 0;
	if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
		lanes = LLVMGetVectorSize(ty);
		el = LLVMGetElementType(ty);
	}
	bool is_signed = LLVMConstIntGetZExtValue(ops[1]) != 0;
	const char *name = NULL;
	switch (LLVMGetTypeKind(el)) {
	case LLVMHalfTypeKind:
		name = "half";
		break;
	case LLVMFloatTypeKind:
		name = "float";
		break;
	case LLVMDoubleTypeKind:
		name = "double";
		break;
	case LLVMIntegerTypeKind: {
		static const char *const ints[] = {"char", "short", "int",
						   "long"};
		unsigned w = LLVMGetIntTypeWidth(el);
		unsigned k = w == 8 ? 0 : w == 16 ? 1 : w == 32 ? 2 : 3;
		if (w != 8 && w != 16 && w != 32 && w != 64)
			return;
		snprintf(out, n, "%s%s", is_signed ? "" : "u", ints[k]);
		break;
	}
	default:
		return;
	}
	if (name)
		snprintf(out, n, "%s", name);
	if (lanes)
		snprintf(out + strlen(out), n - strlen(out), "%u", lanes);
}

/* The attributes text of the kernel (clGetKernelInfo). */
static void attr_text(hp_cl_kmeta *mk, const char *vec)
{
	size_t al = 0;
	if (vec[0])
		al += (size_t)snprintf(mk->attributes + al,
				       sizeof(mk->attributes) - al,
				       "vec_type_hint(%s)", vec);
	if (mk->reqd[0])
		al += (size_t)snprintf(
			mk->attributes + al, sizeof(mk->attributes) - al,
			"%sreqd_work_group_size(%u,%u,%u)", al ? " " : "",
			mk->reqd[0], mk->reqd[1], mk->reqd[2]);
	if (mk->hint[0])
		al += (size_t)snprintf(
			mk->attributes + al, sizeof(mk->attributes) - al,
			"%swork_group_size_hint(%u,%u,%u)", al ? " " : "",
			mk->hint[0], mk->hint[1], mk->hint[2]);
	if (mk->sub_group_size)
		snprintf(mk->attributes + al, sizeof(mk->attributes) - al,
			 "%sintel_reqd_sub_group_size(%u)", al ? " " : "",
			 mk->sub_group_size);
}

/* Whether @p v (an operand, maybe a constant expression) names a
 * variable of another kernel, "OTHER.var". */
static bool names_other(const fgraph *g, LLVMValueRef self, LLVMValueRef v,
			int depth)
{
	if (!v || depth > 4)
		return false;
	if (LLVMIsAGlobalValue(v)) {
		const char *n = vname(v);
		for (size_t q = 0; q < g->n; q++) {
			const char *kn = vname(g->f[q].f);
			size_t l = strlen(kn);
			if (g->f[q].kernel && g->f[q].f != self &&
			    !strncmp(n, kn, l) && n[l] == '.')
				return true;
		}
		return false;
	}
	if (!LLVMIsAConstantExpr(v))
		return false;
	for (int i = 0; i < LLVMGetNumOperands(v); i++)
		if (names_other(g, self, LLVMGetOperand(v, (unsigned)i),
				depth + 1))
			return true;
	return false;
}

/* Another kernel's __local variables used by @p fn (called, or inlined
 * into it: its variables keep their names, "other.var"). */
static bool uses_other_locals(const fgraph *g, LLVMValueRef fn)
{
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
	     bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
		     in = LLVMGetNextInstruction(in))
			for (int i = 0; i < LLVMGetNumOperands(in); i++)
				if (names_other(g, fn,
						LLVMGetOperand(in, (unsigned)i),
						0))
					return true;
	return false;
}

/* Kernel @p f: its parameters, argument metadata and block layout. */
static int kernel_read(clc_job *j, const fgraph *g, const fnode *f,
		       clc_kernel *k)
{
	const char *name = vname(f->f);
	memset(k, 0, sizeof(*k));
	if (strlen(name) > HP_CL_NAME_MAX) {
		clc_sb_add(&j->msgs,
			   "error: kernel name '%s' longer than %u bytes\n",
			   name, HP_CL_NAME_MAX);
		return HP_BUILD_PROGRAM_FAILURE;
	}
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->fn = f->f;
	hp_cl_kmeta *mk = &k->meta;
	snprintf(mk->name, sizeof(mk->name), "%s", name);
	device_name(name, mk->device_name);
	mk->num_args = LLVMCountParams(f->f);
	if (mk->num_args > HP_CL_ARGS_MAX) {
		clc_sb_add(&j->msgs,
			   "error: kernel %s: %u arguments, more than the %u a "
			   "kernel may have\n",
			   name, mk->num_args, HP_CL_ARGS_MAX);
		return HP_BUILD_PROGRAM_FAILURE;
	}
	static const char *const kinds[5] = {
		"kernel_arg_addr_space", "kernel_arg_access_qual",
		"kernel_arg_type", "kernel_arg_type_qual", "kernel_arg_name"};
	LLVMValueRef md[5];
	for (unsigned i = 0; i < 5; i++)
		md[i] = md_get(j->ctx, f->f, kinds[i]);
	for (unsigned i = 0; i < mk->num_args; i++) {
		int rc = arg_read(j, k, md, i);
		if (rc)
			return rc;
	}
	mk->args_size = arg_layout(mk);
	if (mk->args_size > HP_MBOX_ARGS_MAX) {
		clc_sb_add(
			&j->msgs,
			"error: kernel %s: arguments take %u bytes, the device "
			"passes at most %u\n",
			k->name, mk->args_size, HP_MBOX_ARGS_MAX);
		return HP_BUILD_PROGRAM_FAILURE;
	}
	uint32_t sg[3];
	md_three(j->ctx, f->f, "reqd_work_group_size", mk->reqd);
	md_three(j->ctx, f->f, "work_group_size_hint", mk->hint);
	md_three(j->ctx, f->f, "intel_reqd_sub_group_size", sg);
	mk->sub_group_size = sg[0];
	mk->uses_barriers = (f->reach & REACH_BARRIER) != 0;
	k->prints = (f->reach & REACH_PRINTF) != 0;
	/* the work-group collectives' scratch is a runtime variable of the
	 * same TLS block: such a kernel gets room for all of it too */
	k->all_local = (f->reach & (REACH_KERNEL | REACH_WG)) != 0 ||
		       uses_other_locals(g, f->f);
	char vec[16];
	vec_hint(j->ctx, f->f, vec, sizeof(vec));
	attr_text(mk, vec);
	return 0;
}

/* The bitcode into the job's context and module. */
int clc_stage_parse(clc_job *j)
{
	LLVMMemoryBufferRef buf;
	char *msg = NULL;
	if (LLVMCreateMemoryBufferWithContentsOfFile(j->bc, &buf, &msg)) {
		fprintf(j->log.f, "error: %s: %s\n", j->bc, msg ? msg : "");
		LLVMDisposeMessage(msg);
		return clc_fail(&j->log, HP_OUT_OF_RESOURCES,
				"cannot read the IR");
	}
	int bad = LLVMParseBitcodeInContext2(j->ctx, buf, &j->mod);
	LLVMDisposeMemoryBuffer(buf);
	return bad ? clc_fail(&j->log, HP_OUT_OF_RESOURCES,
			      "cannot read the IR")
		   : 0;
}

int clc_stage_read(clc_job *j)
{
	fgraph g = {0};
	int rc = 0;
	j->ks = calloc(HPK_KERNELS_MAX, sizeof(*j->ks));
	if (!j->ks || graph_build(j->mod, &g)) {
		free(g.f);
		return clc_fail(&j->log, HP_OUT_OF_RESOURCES, "out of memory");
	}
	for (size_t i = 0; i < g.n && !rc; i++) {
		if (!g.f[i].kernel)
			continue;
		if (j->nk == HPK_KERNELS_MAX) {
			clc_sb_add(&j->msgs, "error: more than %u kernels\n",
				   HPK_KERNELS_MAX);
			rc = HP_BUILD_PROGRAM_FAILURE;
		} else if (!(rc = kernel_read(j, &g, &g.f[i], &j->ks[j->nk]))) {
			j->nk++;
		}
	}
	free(g.f);
	if (rc) {
		if (j->msgs.s)
			fputs(j->msgs.s, j->log.f);
		return clc_fail(&j->log, rc, "%s",
				j->msgs.s ? "the kernels cannot be built as "
					    "they are (build log)"
					  : "out of memory");
	}
	return 0;
}
