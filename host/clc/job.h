/* SPDX-License-Identifier: MIT */
/** @file hp_cl_build as a pipeline of named stages over one job
 * (docs/opencl.md). clc.c runs them in this order; each stage is in the
 * file of its concern and returns 0 or an HP_ error said in the job's log
 * (clc_fail, fail.h), declared in the header of its file:
 *
 *   options.c  the build options, clang's extension list (no LLVM)
 *   compile.c  compile: the sources to LLVM bitcode (clang-19 -c -emit-llvm)
 *   kernels.c  read: the bitcode into the job's module; the kernels, their
 *              parameters, argument metadata, block layout, the call graph
 *   rewrite.c  rewrite: kernel-scope __local variables thread_local; the
 *              entries unpacking the argument block (IRBuilder)
 *   link.c     link: the built-in library (LLVMLinkModules2), internalize,
 *              optimize (LLVMRunPasses), verify
 *   codegen.c  codegen: the RISC-V object (LLVMTargetMachineEmitToFile)
 *   desc.c     package: the descriptors and the metadata (C for the cross
 *              gcc), then objlink.c links and package.c converts
 *
 * The IR is read, changed and written only through LLVM's C API.
 */
#ifndef HOST_CLC_JOB_H
#define HOST_CLC_JOB_H

#include "fail.h"
#include "options.h"
#include "tools.h"
#include <hartpool_cl.h>
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a function reaches through its calls (kernels.c). */
#define REACH_BARRIER 1u /* a barrier-like built-in: fibers */
#define REACH_WG 2u	 /* a work-group collective: the runtime's scratch */
#define REACH_KERNEL 4u	 /* another kernel: its __local variables */
#define REACH_PRINTF 8u	 /* printf: a fiber needs a larger stack */

typedef struct {
	char name[HP_CL_NAME_MAX + 1];
	LLVMValueRef fn; /* the kernel in the job's module */
	hp_cl_kmeta meta;
	bool all_local;	      /* needs every __local variable of the program */
	bool prints;	      /* reaches printf */
	unsigned stack_bytes; /* hp_kernel.stack_bytes (stack.c) */
	bool wg_fn;	      /* barriers: hp_krow_K is a work-group function */
	bool row_spans;	      /* hp_krow_K may run past a group (rowloop.c) */
	unsigned wg_scratch;  /* its bytes per work-item (wgfn.c) */
} clc_kernel;

/* A function's frame, as the code generator reported it (stack.c). */
typedef struct {
	char *name;
	unsigned size;
} clc_frame;

/* Fiber stacks (hp_kernel.stack_bytes): the executor's default, and what a
 * kernel that prints starts from (printf and the firmware's formatting
 * under it). */
#define HPCL_FIBER_STACK HP_FIBER_STACK_DEFAULT
#define HPCL_PRINTF_STACK 2048u
/* What a kernel without barriers may take of the hart's kernel stack:
 * HP_KERNEL_STACK_USE (hartpool/kernel.h). */

typedef struct clc_job {
	const hp_cl_build_options *o;
	clc_opts opts;
	clc_board b;
	const char *cc;	  /* clang-19 */
	char libbc[1200]; /* the built-in library's bitcode */
	char tmp[32];	  /* the job's folder, "" if none */
	/* src: the OpenCL C source, or the SPIR-V module (program.spv) */
	char src[1200], bc[1200], obj[1200], descc[1200], desco[1200];
	clc_sbuf msgs; /* the messages of the options and the read stage */
	clc_log log;   /* the build log (open_memstream) and the failure */
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMModuleRef lib; /* the built-in library, if read before the link */
	LLVMTargetMachineRef tm;
	clc_kernel *ks;
	unsigned nk;
	void *hpk; /* the result */
	size_t size;
	uint64_t globals_size; /* the program-scope variables' block (globals.c)
				*/
	unsigned globals_nrel; /* the addresses among its initial bytes */
	bool cached; /* key is the job's in the build cache (cache.h) */
	bool hit;    /* the object came from there */
	char key[65];
	clc_frame *frames; /* every function's frame (stack.c) */
	unsigned nframes, capframes;
	bool frames_lost; /* one did not fit in memory */
} clc_job;

#endif
