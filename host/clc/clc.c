// SPDX-License-Identifier: MIT
/*
 * hp_cl_build: OpenCL C -> kernel object (docs/opencl.md), the stages of
 * job.h over one job: compile (clang-19 to bitcode), read (the kernels),
 * rewrite (thread_local __local variables, the entries), link (the
 * built-in library, internalize, optimize), codegen (the RISC-V object),
 * package (descriptors, link, conversion). The IR goes through LLVM's C
 * API only; each stage returns 0 or an HP_ error said in the job's log
 * (clc_fail), whose sentence hp_cl_build leaves in hp_last_error().
 */
#define _GNU_SOURCE
#include "cache.h"
#include "clobj.h"
#include "codegen.h"
#include "compile.h"
#include "desc.h"
#include "fail.h"
#include "globals.h"
#include "job.h"
#include "kernels.h"
#include "last_error.h"
#include "link.h"
#include "options.h"
#include "prebuilt.h"
#include "rewrite.h"
#include "spir.h"
#include "stack.h"
#include "tools.h"
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* LLVM's messages (the linker's, the code generator's) go to the build
 * log; without a handler an error would end the process. */
static void diag(LLVMDiagnosticInfoRef di, void *arg)
{
	clc_job *j = arg;
	LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(di);
	if (sev == LLVMDSRemark && getenv("HARTPOOL_LLVM_OPTIONS")) {
		/* asked for (codegen.c): into the log as they come */
		char *d = LLVMGetDiagInfoDescription(di);
		fprintf(j->log.f, "llvm remark: %s\n", d ? d : "");
		LLVMDisposeMessage(d);
		return;
	}
	if (sev != LLVMDSError && sev != LLVMDSWarning)
		return; /* remarks and notes: the optimizer's, not asked for */
	char *d = LLVMGetDiagInfoDescription(di);
	if (d && sev == LLVMDSWarning && clc_stack_diag(j, d)) {
		LLVMDisposeMessage(d);
		return; /* a frame's size, asked for */
	}
	/* The row loop's unroll count is a hint (rowloop.c): a body too
	 * large to unroll stays rolled. The user's own pragmas were taken
	 * (and reported) by clang's -O2 at the compile stage. */
	if (d && sev == LLVMDSWarning && strstr(d, "loop not unrolled")) {
		LLVMDisposeMessage(d);
		return;
	}
	fprintf(j->log.f, "%s: %s\n", sev == LLVMDSError ? "error" : "warning",
		d ? d : "");
	LLVMDisposeMessage(d);
}

/* The options, the compiler, the board, the library, the job's folder. */
static int job_setup(clc_job *j)
{
	const hp_cl_build_options *o = j->o;
	bool link = o && o->mode == HP_CL_LINK;
	int rc =
		clc_opts_parse(o ? o->options : NULL, link, &j->opts, &j->msgs);
	if (o && o->mode > HP_CL_LINK)
		return clc_fail(&j->log, HP_INVALID_VALUE, "build mode %u",
				o->mode);
	if (link && (!o->num_objects || !o->objects || !o->object_sizes))
		return clc_fail(&j->log, HP_INVALID_VALUE,
				"a link of no objects");
	if (!link &&
	    (!o || ((!o->count || !o->sources) && (!o->il || !o->il_size))))
		return clc_fail(&j->log, HP_INVALID_VALUE,
				"no OpenCL C source and no SPIR-V module");
	if (rc) {
		if (j->msgs.s)
			fputs(j->msgs.s, j->log.f);
		return clc_fail(&j->log, rc, "invalid build options%s",
				j->msgs.s ? " (build log)" : "");
	}
	if (!(j->cc = hp_cl_compiler()))
		return clc_fail(&j->log, HP_COMPILER_NOT_AVAILABLE,
				"no clang-19 (install clang-19; HP_CLANG names "
				"another)");
	if ((rc = clc_board_get(&j->log, o->board ? o->board : "qemu-virt",
				&j->b)))
		return rc;
	/* With V, the library built with V (its yields clobber the vector
	 * registers: docs/vector.md). */
	snprintf(j->libbc, sizeof(j->libbc), "%s/build/opencl/%s%s-%s/hpcl.bc",
		 clc_root(), j->b.libarch, clc_board_vector(&j->b) ? "v" : "",
		 j->b.abi);
	if (access(j->libbc, R_OK))
		return clc_fail(&j->log, HP_COMPILER_NOT_AVAILABLE,
				"no OpenCL built-in library %s (make opencl)",
				j->libbc);
	snprintf(j->tmp, sizeof(j->tmp), "/tmp/hartpool-cl-XXXXXX");
	if (!mkdtemp(j->tmp)) {
		j->tmp[0] = 0;
		return clc_fail(&j->log, HP_OUT_OF_RESOURCES, "mkdtemp: %s",
				strerror(errno));
	}
	snprintf(j->src, sizeof(j->src), "%s/program.%s", j->tmp,
		 o->il ? "spv" : "cl");
	snprintf(j->bc, sizeof(j->bc), "%s/program.bc", j->tmp);
	snprintf(j->obj, sizeof(j->obj), "%s/program.o", j->tmp);
	snprintf(j->descc, sizeof(j->descc), "%s/desc.c", j->tmp);
	snprintf(j->desco, sizeof(j->desco), "%s/desc.o", j->tmp);
	j->ctx = LLVMContextCreate();
	LLVMContextSetDiagnosticHandler(j->ctx, diag, j);
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	remove(path); /* what cannot go stays; the walk goes on */
	return 0;
}

static void job_end(clc_job *j)
{
	if (j->tmp[0]) /* the job's folder and all in it (headers too) */
		nftw(j->tmp, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	if (j->tm)
		LLVMDisposeTargetMachine(j->tm);
	if (j->lib)
		LLVMDisposeModule(j->lib);
	if (j->mod)
		LLVMDisposeModule(j->mod);
	if (j->ctx)
		LLVMContextDispose(j->ctx);
	free(j->msgs.s);
	free(j->ks);
	for (unsigned i = 0; i < j->nframes; i++)
		free(j->frames[i].name);
	free(j->frames);
	clc_opts_free(&j->opts);
}

/* The object from the build cache, with the log it was built with: 0, or
 * 1 if it is not there. */
static int from_cache(clc_job *j)
{
	char *log = NULL;
	if (!j->cached ||
	    !clc_cache_get(j->key, &j->hpk, &j->size, &log, j->o->elf_path))
		return 1;
	fputs(log, j->log.f);
	free(log);
	j->hit = true;
	if (j->o->from_cache)
		*j->o->from_cache = true;
	return 0;
}

/* The stages, in order; a program without kernels ends after reading. */
static int job_run(clc_job *j)
{
	int rc;
	if ((rc = job_setup(j)))
		return rc;
	j->cached = clc_cache_key(j, j->key);
	if (!from_cache(j))
		return 0;
	if (j->o->mode == HP_CL_LINK)
		rc = clc_stage_link_objects(j);
	else if (!(rc = clc_stage_compile(j)) && !(rc = clc_stage_parse(j)) &&
		 j->o->il)
		rc = clc_spir_fixup(j);
	if (rc)
		return rc;
	if (j->o->mode == HP_CL_COMPILE)
		return clc_stage_object(j, HP_CL_OBJECT);
	if (j->o->mode == HP_CL_LINK && j->opts.create_library)
		return clc_stage_object(j, HP_CL_LIBRARY);
	/* a linked module: calls across its objects inlined like a source's */
	if (j->o->mode == HP_CL_LINK &&
	    ((rc = clc_target_machine(j)) || (rc = clc_optimize_module(j))))
		return rc;
	if ((rc = clc_stage_read(j)))
		return rc;
	if (!j->nk)
		return clc_stage_meta(j);
	if ((!j->tm && (rc = clc_target_machine(j))) ||
	    (rc = clc_stage_globals(j)) || (rc = clc_stage_rewrite(j)) ||
	    (rc = clc_stage_link(j)) || (rc = clc_stage_codegen(j)) ||
	    (rc = clc_stage_package(j)))
		return rc;
	return 0;
}

int hp_cl_build(const hp_cl_build_options *o, void **hpk, size_t *size,
		char **logp)
{
	clc_job j;
	char *mlog = NULL;
	size_t mlen = 0;
	memset(&j, 0, sizeof(j));
	j.o = o;
	j.log.f = open_memstream(&mlog, &mlen);
	if (o && o->from_cache)
		*o->from_cache = false;
	int rc = job_run(&j);
	*hpk = rc ? NULL : j.hpk;
	*size = rc ? 0 : j.size;
	if (rc)
		free(j.hpk);
	job_end(&j);
	fclose(j.log.f);
	if (rc) /* the sentence of the failure said in the log */
		hp_fail(rc, "%s", j.log.why);
	/* an object read from the cache is not written again */
	if (!rc && j.cached && !j.hit)
		clc_cache_put(j.key, j.hpk, j.size, mlog, o->elf_path);
	if (!rc) /* for host tools without a compiler (prebuilt.h) */
		clc_prebuilt_put(o, j.hpk, j.size, mlog);
	if (logp)
		*logp = mlog ? mlog : strdup("");
	else
		free(mlog);
	return rc;
}
