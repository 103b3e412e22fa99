// SPDX-License-Identifier: MIT
/*
 * The code generation stage: LLVM's RISC-V target (initialized once per
 * process) as the board wants it: the module's triple, the board's ISA
 * letters as features, its ABI, no linker relaxation (gp is the
 * firmware's), position-independent code (TLS through __tls_get_addr),
 * the medany code model (every reference PC-relative) and -O2 (-O0 with
 * -cl-opt-disable); the object goes to the job's folder
 * (LLVMTargetMachineEmitToFile), after the pipeline once more (-O2, or
 * the always-inliner with -cl-opt-disable), as clang -c of the linked
 * bitcode ran it. The link stage's optimizer
 * runs with the same target machine.
 */
#define _GNU_SOURCE
#include "codegen.h"
#include "fail.h"
#include "job.h"
#include "options.h"
#include "stack.h"
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void riscv_init(void)
{
	LLVMInitializeRISCVTargetInfo();
	LLVMInitializeRISCVTarget();
	LLVMInitializeRISCVTargetMC();
	LLVMInitializeRISCVAsmPrinter();
	LLVMInitializeRISCVAsmParser(); /* the library's inline asm */
	/* Loops whose trip count is known only at run time are unrolled
	 * (with a remainder loop), as clang's -O3 does for many targets: an
	 * OpenCL sgemm_naive's k loop kept a counter beside its two pointers,
	 * 1.19x the built-in kernel's instructions; unrolled, 0.79x. Once per
	 * process, the same for every build (LLVM's options are global). */
	const char *av[16] = {"hartpool", "-unroll-runtime"};
	int ac = 2;
	/* HARTPOOL_LLVM_OPTIONS: more of LLVM's options, for looking into
	 * the pipeline (-pass-remarks-missed=loop-vectorize: docs/opencl.md);
	 * up to 14 words, the rest ignored. */
	static char opts[512];
	const char *e = getenv("HARTPOOL_LLVM_OPTIONS");
	if (e && strlen(e) < sizeof(opts)) {
		strcpy(opts, e);
		for (char *w = strtok(opts, " "); w && ac < 16;
		     w = strtok(NULL, " "))
			av[ac++] = w;
	}
	LLVMParseCommandLineOptions(ac, av, NULL);
}

int clc_target_machine(clc_job *j)
{
	char *msg = NULL, features[64], cpu[32];
	LLVMTargetRef t;
	pthread_once(&once, riscv_init);
	const char *triple = LLVMGetTarget(j->mod);
	if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
		fprintf(j->log.f, "error: target %s: %s\n", triple, msg);
		LLVMDisposeMessage(msg);
		return clc_fail(&j->log, HP_COMPILER_NOT_AVAILABLE,
				"LLVM has no RISC-V target (build log)");
	}
	clc_features(&j->b, features, sizeof(features));
	snprintf(cpu, sizeof(cpu), "generic-rv%u", j->b.xlen);
	LLVMTargetMachineOptionsRef o = LLVMCreateTargetMachineOptions();
	LLVMTargetMachineOptionsSetCPU(o, cpu);
	LLVMTargetMachineOptionsSetFeatures(o, features);
	LLVMTargetMachineOptionsSetABI(o, j->b.abi);
	LLVMTargetMachineOptionsSetCodeGenOptLevel(
		o, j->opts.opt_disable ? LLVMCodeGenLevelNone
				       : LLVMCodeGenLevelDefault);
	LLVMTargetMachineOptionsSetRelocMode(o, LLVMRelocPIC);
	LLVMTargetMachineOptionsSetCodeModel(o, LLVMCodeModelMedium);
	j->tm = LLVMCreateTargetMachineWithOptions(t, triple, o);
	LLVMDisposeTargetMachineOptions(o);
	return j->tm ? 0
		     : clc_fail(&j->log, HP_COMPILER_NOT_AVAILABLE,
				"no RISC-V target machine for %s", triple);
}

int clc_stage_codegen(clc_job *j)
{
	char *msg = NULL;
	/* clang -c of the linked bitcode ran its pipeline once more before
	 * the code generator (at -O0 the always-inliner, which now inlines
	 * the bodies __hpcl_run's inlining made direct calls): so does this
	 * stage, the objects are the same */
	LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
	LLVMErrorRef e = LLVMRunPasses(
		j->mod, j->opts.opt_disable ? "always-inline" : "default<O2>",
		j->tm, po);
	LLVMDisposePassBuilderOptions(po);
	if (e) {
		msg = LLVMGetErrorMessage(e);
		fprintf(j->log.f, "error: the optimizer: %s\n", msg);
		LLVMDisposeErrorMessage(msg);
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"optimizing the program failed (build log)");
	}
	clc_stack_mark(j);
	if (LLVMTargetMachineEmitToFile(j->tm, j->mod, j->obj, LLVMObjectFile,
					&msg)) {
		fprintf(j->log.f, "error: code generation: %s\n",
			msg ? msg : "");
		LLVMDisposeMessage(msg);
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"compiling the program failed (build log)");
	}
	LLVMDisposeMessage(msg);
	return clc_stack_check(j);
}
