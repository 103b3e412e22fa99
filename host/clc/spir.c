// SPDX-License-Identifier: MIT
/*
 * A translated SPIR-V module made a RISC-V one (spir.h): the translator
 * (llvm-spirv-15 -r) gives SPIR IR, target spir/spir64, functions in the
 * spir_func convention, the OpenCL built-ins mangled with SPIR's address
 * spaces ("AS1": PU3AS1) and called with vectors as values. The built-in
 * library is clang's RISC-V code: the same address space numbers, mangled
 * by their names (PU8CLglobal, private pointers PU9CLprivate) and lowered
 * to the RISC-V calling convention (a float4 as an i128, a float8 through
 * memory, sret). So: the RISC-V target and data layout, the C convention,
 * and each built-in the module declares matched to the library's by its
 * demangled signature (address-space names made one, qualifiers in one
 * order) and called through a thunk that passes what the library's
 * function takes: the value itself, the same bytes as another type, or a
 * pointer to a copy; an sret result read back. The thunks inline.
 */
#define _GNU_SOURCE
#include "spir.h"
#include "codegen.h"
#include "fail.h"
#include "job.h"
#include "link.h"
#include "options.h"
#include <llvm-c/BitReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The C++ ABI's demangler (libstdc++, which LLVM links) */
char *__cxa_demangle(const char *mangled, char *buf, size_t *n, int *status);

/* One word of a demangled parameter, as both manglings agree on it: the
 * SPIR numbers as clang's names; private is the default. */
static const char *word_canon(const char *w)
{
	static const char *const map[][2] = {
		{"AS1", "CLglobal"},  {"AS2", "CLconstant"}, {"AS3", "CLlocal"},
		{"AS4", "CLgeneric"}, {"AS0", ""},	     {"CLprivate", ""}};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(w, map[i][0]))
			return map[i][1];
	return w;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One level of a type (between '*'s): its words canonical and sorted. */
static void level_canon(char *lv, char *out, size_t n)
{
	char *words[32];
	int nw = 0;
	char *save = NULL;
	for (char *w = strtok_r(lv, " ", &save); w && nw < 32;
	     w = strtok_r(NULL, " ", &save)) {
		const char *c = word_canon(w);
		if (*c)
			words[nw++] = (char *)c;
	}
	qsort(words, (size_t)nw, sizeof(words[0]), cmp_str);
	for (int i = 0; i < nw; i++) {
		strncat(out, i ? " " : "", n - strlen(out) - 1);
		strncat(out, words[i], n - strlen(out) - 1);
	}
}

/* "name(int volatile AS1*, int)" -> "name(CLglobal int volatile*,int)":
 * false if @p d is not a function's signature. */
static bool sig_canon(const char *d, char *out, size_t n)
{
	const char *open = strchr(d, '(');
	size_t dl = strlen(d);
	if (!open || dl < 2 || d[dl - 1] != ')' || (size_t)(open - d) >= n)
		return false;
	snprintf(out, n, "%.*s(", (int)(open - d + 0), d);
	char param[512];
	const char *p = open + 1, *end = d + dl - 1;
	while (p < end) {
		/* up to the next ',' outside parentheses */
		int depth = 0;
		const char *q = p;
		for (; q < end && (depth || *q != ','); q++)
			depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		if ((size_t)(q - p) >= sizeof(param))
			return false;
		memcpy(param, p, (size_t)(q - p));
		param[q - p] = 0;
		/* levels split at '*' */
		char *lv = param;
		for (char *star; (star = strchr(lv, '*')) || *lv;) {
			if (star)
				*star = 0;
			level_canon(lv, out, n);
			if (!star)
				break;
			strncat(out, "*", n - strlen(out) - 1);
			lv = star + 1;
		}
		strncat(out, q < end ? "," : "", n - strlen(out) - 1);
		p = q < end ? q + 1 : q;
		while (*p == ' ')
			p++;
	}
	strncat(out, ")", n - strlen(out) - 1);
	return strlen(out) < n - 1;
}

static bool canon_of(const char *mangled, char *out, size_t n)
{
	int st = 0;
	char *d = __cxa_demangle(mangled, NULL, NULL, &st);
	bool ok = d && !st && sig_canon(d, out, n);
	free(d);
	return ok;
}

/* The length of "_Z<len><name>" in @p m, or 0. */
static size_t name_prefix(const char *m)
{
	if (strncmp(m, "_Z", 2))
		return 0;
	char *e;
	unsigned long l = strtoul(m + 2, &e, 10);
	if (e == m + 2 || strlen(e) < l)
		return 0;
	return (size_t)(e - m) + l;
}

/* The library's function for the module's declaration @p f, or NULL. */
static LLVMValueRef lib_match(LLVMModuleRef lib, const char *name)
{
	LLVMValueRef same = LLVMGetNamedFunction(lib, name);
	if (same)
		return same;
	size_t pl = name_prefix(name);
	char want[1024], have[1024];
	if (!pl || !canon_of(name, want, sizeof(want)))
		return NULL;
	for (LLVMValueRef l = LLVMGetFirstFunction(lib); l;
	     l = LLVMGetNextFunction(l)) {
		size_t len;
		const char *ln = LLVMGetValueName2(l, &len);
		if (len < pl || strncmp(ln, name, pl) || name_prefix(ln) != pl)
			continue;
		if (canon_of(ln, have, sizeof(have)) && !strcmp(want, have))
			return l;
	}
	return NULL;
}

/* Function @p from's return and @p np parameters' attributes onto
 * function @p to, or (to NULL) call @p call. */
static void attrs_copy(LLVMValueRef from, unsigned np, LLVMValueRef to,
		       LLVMValueRef call)
{
	for (unsigned i = 0; i <= np; i++) {
		unsigned idx = i ? i : LLVMAttributeReturnIndex;
		unsigned na = LLVMGetAttributeCountAtIndex(from, idx);
		LLVMAttributeRef *at = na ? calloc(na, sizeof(*at)) : NULL;
		if (!at)
			continue;
		LLVMGetAttributesAtIndex(from, idx, at);
		for (unsigned k = 0; k < na; k++) {
			if (to)
				LLVMAddAttributeAtIndex(to, idx, at[k]);
			else
				LLVMAddCallSiteAttribute(call, idx, at[k]);
		}
		free(at);
	}
}

/* A slot of the thunk's frame, aligned for any value (a double16). */
static LLVMValueRef slot_new(LLVMBuilderRef b, LLVMTypeRef ty)
{
	LLVMValueRef s = LLVMBuildAlloca(b, ty, "");
	LLVMSetAlignment(s, 128);
	return s;
}

/* @p v as the bytes of type @p to, through memory. */
static LLVMValueRef as_type(LLVMBuilderRef b, LLVMValueRef slot, LLVMValueRef v,
			    LLVMTypeRef to)
{
	if (LLVMTypeOf(v) == to)
		return v;
	LLVMBuildStore(b, v, slot);
	return LLVMBuildLoad2(b, to, slot, "");
}

/* The thunk @p th (the module's signature) calling @p lf (the library's
 * declaration, of its own type) in the library's convention. */
static bool thunk_body(LLVMContextRef c, LLVMValueRef th, LLVMValueRef lf,
		       LLVMTypeRef slot_ty)
{
	LLVMTypeRef tt = LLVMGlobalGetValueType(th),
		    lt = LLVMGlobalGetValueType(lf);
	unsigned tn = LLVMCountParamTypes(tt), ln = LLVMCountParamTypes(lt);
	LLVMTypeRef tret = LLVMGetReturnType(tt), lret = LLVMGetReturnType(lt);
	unsigned sret_kind = LLVMGetEnumAttributeKindForName("sret", 4);
	bool sret = ln == tn + 1 &&
		    LLVMGetEnumAttributeAtIndex(lf, 1, sret_kind) != NULL;
	if (ln != tn + (sret ? 1u : 0u) || tn > 16)
		return false;
	LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c, th, ""));
	LLVMValueRef args[17];
	LLVMTypeRef lp[17];
	LLVMGetParamTypes(lt, lp);
	unsigned a = 0;
	LLVMValueRef res = sret ? slot_new(b, slot_ty) : NULL;
	if (sret)
		args[a++] = res;
	for (unsigned i = 0; i < tn; i++, a++) {
		LLVMValueRef v = LLVMGetParam(th, i);
		LLVMTypeRef want = lp[a];
		if (LLVMTypeOf(v) == want) {
			args[a] = v;
		} else if (LLVMGetTypeKind(want) == LLVMPointerTypeKind &&
			   LLVMGetTypeKind(LLVMTypeOf(v)) !=
				   LLVMPointerTypeKind) {
			/* indirect: a pointer to a copy */
			LLVMValueRef s = slot_new(b, slot_ty);
			LLVMBuildStore(b, v, s);
			args[a] = s;
		} else {
			args[a] = as_type(b, slot_new(b, slot_ty), v, want);
		}
	}
	LLVMValueRef call = LLVMBuildCall2(b, lt, lf, args, a, "");
	/* the library's parameter attributes at the call (signext, ...) */
	attrs_copy(lf, ln, NULL, call);
	if (LLVMGetTypeKind(tret) == LLVMVoidTypeKind)
		LLVMBuildRetVoid(b);
	else if (sret)
		LLVMBuildRet(b, LLVMBuildLoad2(b, tret, res, ""));
	else if (lret == tret)
		LLVMBuildRet(b, call);
	else
		LLVMBuildRet(b, as_type(b, slot_new(b, slot_ty), call, tret));
	LLVMDisposeBuilder(b);
	return true;
}

/* The module's declaration @p f called as the library's @p l: renamed if
 * the types agree, else through a thunk. */
static bool bind(clc_job *j, LLVMValueRef f, LLVMValueRef l)
{
	size_t len;
	const char *ln = LLVMGetValueName2(l, &len);
	LLVMTypeRef lt = LLVMGlobalGetValueType(l);
	LLVMValueRef decl = LLVMGetNamedFunction(j->mod, ln);
	if (decl == f && LLVMGlobalGetValueType(f) == lt)
		return true;
	if (decl == f) { /* the same name, another type: f gives way */
		LLVMSetValueName2(f, "hp_spir.old", 11);
		decl = NULL;
	}
	if (!decl) {
		decl = LLVMAddFunction(j->mod, ln, lt);
		attrs_copy(l, LLVMCountParamTypes(lt), decl, NULL);
	}
	if (LLVMGlobalGetValueType(f) == lt) {
		LLVMReplaceAllUsesWith(f, decl);
		LLVMDeleteFunction(f);
		return true;
	}
	/* a slot big and aligned enough for any value passed (a double16) */
	LLVMTypeRef slot = LLVMArrayType2(LLVMInt64TypeInContext(j->ctx), 16);
	char tn[1100];
	snprintf(tn, sizeof(tn), "hp_spir.%s", ln);
	LLVMValueRef th =
		LLVMAddFunction(j->mod, tn, LLVMGlobalGetValueType(f));
	LLVMSetLinkage(th, LLVMInternalLinkage);
	LLVMAddAttributeAtIndex(
		th, LLVMAttributeFunctionIndex,
		LLVMCreateEnumAttribute(
			j->ctx,
			LLVMGetEnumAttributeKindForName("alwaysinline", 12),
			0));
	if (!thunk_body(j->ctx, th, decl, slot)) {
		LLVMDeleteFunction(th);
		return false;
	}
	LLVMReplaceAllUsesWith(f, th);
	LLVMDeleteFunction(f);
	return true;
}

/* Every "_Z" declaration bound to the library's function. */
static int bind_builtins(clc_job *j, LLVMModuleRef lib)
{
	int rc = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(j->mod), next; f; f = next) {
		next = LLVMGetNextFunction(f);
		size_t len;
		const char *n = LLVMGetValueName2(f, &len);
		if (!LLVMIsDeclaration(f) || strncmp(n, "_Z", 2))
			continue;
		LLVMValueRef l = lib_match(lib, n);
		if (!l || LLVMIsDeclaration(l)) {
			int st = 0;
			char *d = __cxa_demangle(n, NULL, NULL, &st);
			fprintf(j->log.f,
				"error: the module calls %s (%s), which the "
				"device's OpenCL library does not have\n",
				d && !st ? d : n, n);
			free(d);
			rc = HP_BUILD_PROGRAM_FAILURE;
			continue;
		}
		if (!bind(j, f, l)) {
			fprintf(j->log.f,
				"error: the module calls %s with parameters "
				"the library's function does not take\n",
				n);
			rc = HP_BUILD_PROGRAM_FAILURE;
		}
	}
	return rc;
}

/* printf's float arguments promoted to double, as C promotes them and the
 * library reads them where the board has doubles (a SPIR-V module may pass
 * them as they are). */
static void printf_promote(clc_job *j, LLVMValueRef f, LLVMValueRef in)
{
	LLVMValueRef callee = LLVMGetCalledValue(in);
	size_t len;
	const char *n = callee ? LLVMGetValueName2(callee, &len) : NULL;
	if (!n || strcmp(n, "printf") || !clc_board_has_d(&j->b))
		return;
	(void)f;
	LLVMBuilderRef b = LLVMCreateBuilderInContext(j->ctx);
	LLVMPositionBuilderBefore(b, in);
	unsigned na = (unsigned)LLVMGetNumArgOperands(in);
	for (unsigned i = 1; i < na; i++) {
		LLVMValueRef a = LLVMGetOperand(in, i);
		LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(a));
		if (k == LLVMFloatTypeKind || k == LLVMHalfTypeKind)
			LLVMSetOperand(
				in, i,
				LLVMBuildFPExt(b, a,
					       LLVMDoubleTypeInContext(j->ctx),
					       ""));
	}
	LLVMDisposeBuilder(b);
}

/* Functions and calls in the C convention (spir_kernel stays); SPIR-V's
 * DontInline is a hint, and a module from clang -O0 has it on every
 * function with optnone: both go, so helpers inline like a source's. */
static void c_convention(clc_job *j, LLVMModuleRef m)
{
	unsigned noinl = LLVMGetEnumAttributeKindForName("noinline", 8),
		 optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
	     f = LLVMGetNextFunction(f)) {
		if (LLVMGetFunctionCallConv(f) == LLVMSPIRFUNCCallConv)
			LLVMSetFunctionCallConv(f, LLVMCCallConv);
		LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex,
					       noinl);
		LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex,
					       optnone);
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
		     bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
			     in = LLVMGetNextInstruction(in)) {
				if (!LLVMIsACallInst(in))
					continue;
				if (LLVMGetInstructionCallConv(in) ==
				    LLVMSPIRFUNCCallConv)
					LLVMSetInstructionCallConv(
						in, LLVMCCallConv);
				LLVMRemoveCallSiteEnumAttribute(
					in, LLVMAttributeFunctionIndex, noinl);
				printf_promote(j, f, in);
			}
	}
}

int clc_optimize_module(clc_job *j)
{
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
	LLVMPassBuilderOptionsSetLoopUnrolling(po, 0);
	/* a compiled object keeps what it defines for the link (-O2 would
	 * drop an unused linkonce_odr function another object imports) */
	bool keep = j->opts.opt_disable || j->o->mode == HP_CL_COMPILE;
	LLVMErrorRef e = LLVMRunPasses(
		j->mod, keep ? "always-inline" : "default<O2>", j->tm, po);
	LLVMDisposePassBuilderOptions(po);
	if (!e)
		return 0;
	char *msg = LLVMGetErrorMessage(e);
	fprintf(j->log.f, "error: the optimizer: %s\n", msg);
	LLVMDisposeErrorMessage(msg);
	return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
			"optimizing the module failed (build log)");
}

int clc_spir_fixup(clc_job *j)
{
	const char *t = LLVMGetTarget(j->mod);
	unsigned bits = !strncmp(t, "spir64", 6) ? 64
			: !strncmp(t, "spir", 4) ? 32
						 : 0;
	if (!bits)
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"the translated module's target is '%s', not "
				"SPIR",
				t);
	if (bits != j->b.xlen)
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"a %u-bit SPIR module for a %u-bit device",
				bits, j->b.xlen);
	char triple[32];
	snprintf(triple, sizeof(triple), "riscv%u-unknown-elf", j->b.xlen);
	LLVMSetTarget(j->mod, triple);
	int rc = clc_target_machine(j);
	if (rc)
		return rc;
	LLVMTargetDataRef td = LLVMCreateTargetDataLayout(j->tm);
	char *dl = LLVMCopyStringRepOfTargetData(td);
	LLVMSetDataLayout(j->mod, dl);
	LLVMDisposeMessage(dl);
	LLVMDisposeTargetData(td);
	c_convention(j, j->mod);
	/* UniformConstant variables (printf's formats, tables) are constant
	 * by their storage class; the translator leaves them writable */
	for (LLVMValueRef g = LLVMGetFirstGlobal(j->mod); g;
	     g = LLVMGetNextGlobal(g))
		if (LLVMGetInitializer(g) &&
		    LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 2)
			LLVMSetGlobalConstant(g, 1);
	LLVMModuleRef lib = NULL;
	if (clc_library_open(j, &lib))
		return clc_fail(&j->log, HP_COMPILER_NOT_AVAILABLE,
				"cannot read the OpenCL library %s", j->libbc);
	rc = bind_builtins(j, lib);
	j->lib = lib; /* the link stage links it */
	if (rc)
		return clc_fail(&j->log, rc,
				"the module's built-in calls cannot be bound "
				"(build log)");
	return clc_optimize_module(j);
}
