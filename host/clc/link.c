// SPDX-License-Identifier: MIT
/*
 * The link stage, through LLVM's C API: the built-in library's bitcode
 * (build/opencl/ARCH-ABI/hpcl.bc), read lazily, into the job's module
 * (LLVMLinkModules2: only the definitions the program reaches);
 * every definition internal except the entries, __tls_get_addr and
 * hp_api_ptr (what the code generator and the loader need by name, and
 * what llvm.used keeps); then the optimizer (LLVMRunPasses: default<O2>,
 * or with -cl-opt-disable only globaldce and always-inline, which the
 * entries' bodies need) and the verifier.
 */
#define _GNU_SOURCE
#include "link.h"
#include "fail.h"
#include "job.h"
#include "options.h"
#include "parloop.h"
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Comdat.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool named(LLVMValueRef v, const char *pre, const char *k)
{
	size_t len, pl = strlen(pre);
	const char *n = LLVMGetValueName2(v, &len);
	return n && len == pl + strlen(k) && !strncmp(n, pre, pl) &&
	       !strcmp(n + pl, k);
}

/* Whether @p v is in the initializer of llvm.used / llvm.compiler.used. */
static bool in_used(LLVMModuleRef m, LLVMValueRef v)
{
	static const char *const lists[] = {"llvm.used", "llvm.compiler.used"};
	for (unsigned l = 0; l < 2; l++) {
		LLVMValueRef g = LLVMGetNamedGlobal(m, lists[l]);
		LLVMValueRef init = g ? LLVMGetInitializer(g) : NULL;
		for (int i = 0; init && i < LLVMGetNumOperands(init); i++)
			if (LLVMGetOperand(init, (unsigned)i) == v)
				return true;
	}
	return false;
}

static bool kept(const clc_job *j, LLVMValueRef v)
{
	if (named(v, "", "__tls_get_addr") || named(v, "", "hp_api_ptr"))
		return true;
	for (unsigned i = 0; i < j->nk; i++)
		if (named(v, "hp_kfn_", j->ks[i].name) ||
		    named(v, "hp_krow_", j->ks[i].name))
			return true;
	return in_used(j->mod, v);
}

/* A definition with outside linkage that is not kept: internal. */
static void internalize_one(const clc_job *j, LLVMValueRef v)
{
	size_t len;
	const char *n = LLVMGetValueName2(v, &len);
	LLVMLinkage l = LLVMGetLinkage(v);
	if (LLVMIsDeclaration(v) || l == LLVMInternalLinkage ||
	    l == LLVMPrivateLinkage || l == LLVMAppendingLinkage ||
	    l == LLVMAvailableExternallyLinkage || !strncmp(n, "llvm.", 5) ||
	    kept(j, v))
		return;
	LLVMSetLinkage(v, LLVMInternalLinkage);
	LLVMSetVisibility(v, LLVMDefaultVisibility);
	LLVMSetComdat(v, NULL);
}

static void internalize(const clc_job *j)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(j->mod); f;
	     f = LLVMGetNextFunction(f))
		internalize_one(j, f);
	for (LLVMValueRef g = LLVMGetFirstGlobal(j->mod); g;
	     g = LLVMGetNextGlobal(g))
		internalize_one(j, g);
	for (LLVMValueRef a = LLVMGetFirstGlobalAlias(j->mod); a;
	     a = LLVMGetNextGlobalAlias(a))
		internalize_one(j, a);
}

/* Only what the program uses, and what that uses, is linked: the linker
 * takes a linkonce_odr definition only when something refers to it (and
 * internalize then makes it internal like the rest). __tls_get_addr is
 * referred to by the code generator, not the IR: it stays. */
static int lazy_library(clc_job *j, LLVMModuleRef lib)
{
	/* a name both define: an error, as the linker would say it (the
	 * linker keeps a program's definition over a linkonce one) */
	int clash = 0;
	for (LLVMValueRef f = LLVMGetFirstFunction(j->mod); f;
	     f = LLVMGetNextFunction(f)) {
		size_t len;
		const char *n = LLVMGetValueName2(f, &len);
		LLVMValueRef l = LLVMGetNamedFunction(lib, n);
		if (LLVMIsDeclaration(f) ||
		    LLVMGetLinkage(f) == LLVMInternalLinkage || !l ||
		    LLVMIsDeclaration(l))
			continue;
		fprintf(j->log.f,
			"error: Linking globals named '%s': symbol multiply "
			"defined (by the program and the built-in library)\n",
			n);
		clash = 1;
	}
	if (clash)
		return 1;
	for (LLVMValueRef f = LLVMGetFirstFunction(lib); f;
	     f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f) &&
		    LLVMGetLinkage(f) == LLVMExternalLinkage &&
		    !named(f, "", "__tls_get_addr"))
			LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
	for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g;
	     g = LLVMGetNextGlobal(g))
		if (!LLVMIsDeclaration(g) &&
		    LLVMGetLinkage(g) == LLVMExternalLinkage)
			LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
	return 0;
}

int clc_library_open(clc_job *j, LLVMModuleRef *lib)
{
	LLVMMemoryBufferRef buf;
	char *msg = NULL;
	*lib = NULL;
	if (LLVMCreateMemoryBufferWithContentsOfFile(j->libbc, &buf, &msg)) {
		fprintf(j->log.f, "error: %s: %s\n", j->libbc, msg ? msg : "");
		LLVMDisposeMessage(msg);
		return 1;
	}
	/* lazily: a body is read only if it is linked (the module owns the
	 * buffer now) */
	if (LLVMGetBitcodeModuleInContext2(j->ctx, buf, lib)) {
		fprintf(j->log.f, "error: %s: not LLVM bitcode\n", j->libbc);
		return 1;
	}
	return 0;
}

static int link_library(clc_job *j)
{
	/* opened already by a stage that looked into it (spir.c) */
	LLVMModuleRef lib = j->lib;
	j->lib = NULL;
	if (!lib && clc_library_open(j, &lib))
		return 1;
	if (lazy_library(j, lib)) {
		LLVMDisposeModule(lib);
		return 1;
	}
	/* the library goes into the program's module (and is gone) */
	return LLVMLinkModules2(j->mod, lib) ? 1 : 0;
}

int clc_stage_link(clc_job *j)
{
	if (link_library(j))
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"linking the built-in library failed "
				"(build log)");
	internalize(j);
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	/* With V the loops are vectorised (and unrolled) by the code
	 * generator's run alone, after the access groups this run drops
	 * are back (parloop.h): unrolled first, a loop over items would be
	 * vectorised four items to a lane group, or not at all. */
	bool v = clc_board_vector(&j->b);
	if (v) {
		LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
		LLVMPassBuilderOptionsSetLoopUnrolling(po, 0);
	}
	LLVMErrorRef e = LLVMRunPasses(
		j->mod,
		j->opts.opt_disable ? "globaldce,always-inline" : "default<O2>",
		j->tm, po);
	LLVMDisposePassBuilderOptions(po);
	char *msg = NULL;
	if (e) {
		msg = LLVMGetErrorMessage(e);
		fprintf(j->log.f, "error: the optimizer: %s\n", msg);
		LLVMDisposeErrorMessage(msg);
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"optimizing the program failed (build log)");
	}
	if (v)
		clc_loops_remark(j->mod);
	if (LLVMVerifyModule(j->mod, LLVMReturnStatusAction, &msg)) {
		fprintf(j->log.f, "error: the linked module: %s\n",
			msg ? msg : "");
		LLVMDisposeMessage(msg);
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"the linked IR does not verify (build log)");
	}
	LLVMDisposeMessage(msg);
	return 0;
}
