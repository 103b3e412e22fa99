// SPDX-License-Identifier: MIT
/*
 * The compile stage: the program's sources, one after the other
 * (clCreateProgramWithSource), to LLVM bitcode for the board by clang-19
 * (-c -emit-llvm), with the argument metadata (-cl-kernel-arg-info) the
 * read stage takes the kernels' arguments from. A SPIR-V module
 * (clCreateProgramWithIL) is checked (hp_spirv_read) and translated to
 * bitcode by the SPIRV-LLVM-Translator instead (llvm-spirv-15 -r, with the
 * kernels' argument names), which the read stage then makes RISC-V's
 * (spir.c).
 */
#define _GNU_SOURCE
#include "compile.h"
#include "fail.h"
#include "job.h"
#include "options.h"
#include "tools.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The sources into j->src, "#line 1" naming the program. */
static int write_sources(clc_job *j)
{
	const hp_cl_build_options *o = j->o;
	FILE *f = fopen(j->src, "w");
	if (f)
		fprintf(f, "#line 1 \"%s\"\n",
			o->source_name ? o->source_name : "program.cl");
	for (unsigned i = 0; f && i < o->count; i++) {
		size_t l = o->lengths && o->lengths[i] ? o->lengths[i]
						       : strlen(o->sources[i]);
		fwrite(o->sources[i], 1, l, f);
		fputc('\n', f);
	}
	if (!f || fclose(f))
		return clc_fail(&j->log, HP_OUT_OF_RESOURCES, "cannot write %s",
				j->src);
	return 0;
}

const char *clc_translator(void)
{
	static const char *const names[] = {"/usr/bin/llvm-spirv-15",
					    "/usr/lib/llvm-15/bin/llvm-spirv"};
	return clc_tool("HP_LLVM_SPIRV", names,
			sizeof(names) / sizeof(names[0]));
}

static int translate(clc_job *j)
{
	const hp_cl_build_options *o = j->o;
	hp_spirv_device dev = {.address_bits = j->b.xlen,
			       .fp64 = clc_board_has_d(&j->b),
			       .atomics64 = j->b.xlen == 64};
	hp_spirv_info info;
	char why[256];
	int rc =
		hp_spirv_read(o->il, o->il_size, &dev, &info, why, sizeof(why));
	if (rc)
		return clc_fail(&j->log, rc, "%s", why);
	const char *tr = clc_translator();
	if (!tr)
		return clc_fail(&j->log, HP_COMPILER_NOT_AVAILABLE,
				"no SPIR-V translator (install llvm-spirv-15; "
				"HP_LLVM_SPIRV names another)");
	void *low = NULL;
	size_t nlow = 0;
	if ((rc = hp_spirv_lower(o->il, o->il_size, j->b.xlen, &low, &nlow)))
		return clc_fail(&j->log, rc, "cannot rewrite the module");
	rc = clc_write(&j->log, j->src, low, nlow);
	free(low);
	if (rc)
		return rc;
	const char *av[] = {tr,
			    "-r",
			    "--spirv-gen-kernel-arg-name-md",
			    "--spirv-target-env=CL1.2",
			    "-o",
			    j->bc,
			    j->src,
			    NULL};
	if (clc_run(&j->log, (char *const *)av))
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"the SPIR-V translator refused the module "
				"(build log)");
	return 0;
}

/* The embedded headers under the job's folder (inc/NAME), for -I. */
static int write_headers(clc_job *j, char *inc, size_t n)
{
	const hp_cl_build_options *o = j->o;
	snprintf(inc, n, "%s/inc", j->tmp);
	for (unsigned i = 0; i < o->num_headers; i++) {
		const char *name = o->header_names ? o->header_names[i] : NULL;
		const char *text =
			o->header_sources ? o->header_sources[i] : NULL;
		if (!name || !*name || *name == '/' || strstr(name, "..") ||
		    !text)
			return clc_fail(&j->log, HP_INVALID_VALUE,
					"header %u: name '%s' (relative, "
					"without '..') and text %p",
					i, name ? name : "(null)",
					(const void *)text);
		char path[1400];
		snprintf(path, sizeof(path), "%s/%s", inc, name);
		/* the folders of "sub/t.h" */
		for (char *sl = path + strlen(inc) + 1; (sl = strchr(sl, '/'));
		     sl++) {
			*sl = 0;
			mkdir(path, 0700);
			*sl = '/';
		}
		mkdir(inc, 0700);
		size_t l = o->header_lengths && o->header_lengths[i]
				   ? o->header_lengths[i]
				   : strlen(text);
		int rc = clc_write(&j->log, path, text, l);
		if (rc)
			return rc;
	}
	return 0;
}

int clc_stage_compile(clc_job *j)
{
	if (j->o->il)
		return translate(j);
	char inc[1300], incopt[1310];
	int rc = write_headers(j, inc, sizeof(inc));
	if (rc)
		return rc;
	snprintf(incopt, sizeof(incopt), "-I%s", inc);
	rc = write_sources(j);
	if (rc)
		return rc;
	char target[64], march[80], mabi[48], std[32], ext[600];
	snprintf(target, sizeof(target), "--target=riscv%u-unknown-elf",
		 j->b.xlen);
	snprintf(march, sizeof(march), "-march=%s", j->b.arch);
	snprintf(mabi, sizeof(mabi), "-mabi=%s", j->b.abi);
	snprintf(std, sizeof(std), "-cl-std=%s", j->opts.std);
	clc_extensions(&j->b, ext, sizeof(ext));
	const char *av[200] = {j->cc,
			       "-x",
			       "cl",
			       std,
			       "-Xclang",
			       "-finclude-default-header",
			       "-Xclang",
			       "-ffake-address-space-map",
			       "-Xclang",
			       ext,
			       "-cl-kernel-arg-info",
			       target,
			       march,
			       mabi,
			       "-mcmodel=medany",
			       "-mno-relax",
			       "-fno-jump-tables",
			       j->opts.opt_disable ? "-O0" : "-O2",
			       "-Xclang",
			       "-disable-O0-optnone",
			       "-c",
			       "-emit-llvm",
			       "-o",
			       j->bc};
	unsigned n = 24;
	/* the device's OpenCL version (clang defines the C version only) */
	av[n++] = "-D__OPENCL_VERSION__=300";
	/* extensions clang knows only as macros its header tests (it sets
	 * them for SPIR targets alone): hartpool_cl.h's sub-group ones */
	av[n++] = "-Dcl_khr_subgroup_shuffle=1";
	av[n++] = "-Dcl_khr_subgroup_shuffle_relative=1";
	av[n++] = "-Dcl_khr_subgroup_clustered_reduce=1";
	/* __builtin_expect and __builtin_assume are clang's in every mode */
	av[n++] = "-Dcl_khr_expect_assume=1";
	/* OpenCL C has no C library: printf("text\n") stays printf (not
	 * puts or putchar, which would pull in picolibc's stdio) */
	av[n++] = "-fno-builtin";
	for (unsigned i = 0; i < j->opts.n; i++)
		av[n++] = j->opts.words[i];
	if (j->o->num_headers)
		av[n++] = incopt;
	/* OpenCL C 3.0 features clang's header declares from macros
	 * (header-only features): the library has them */
	char ext3[120] = "-cl-ext=+__opencl_c_generic_address_space,"
			 "+__opencl_c_program_scope_global_variables";
	if (!strcmp(j->opts.std, "CL3.0")) {
		/* the generic address space (kernels/opencl/generic.cl),
		 * program-scope variables (globals.c) */
		av[n++] = "-Xclang";
		av[n++] = ext3;
		av[n++] = "-D__opencl_c_work_group_collective_functions=1";
		/* every atomic is sequentially consistent and all harts share
		 * one coherent memory */
		av[n++] = "-D__opencl_c_atomic_order_acq_rel=1";
		av[n++] = "-D__opencl_c_atomic_order_seq_cst=1";
		av[n++] = "-D__opencl_c_atomic_scope_device=1";
		av[n++] = "-D__opencl_c_atomic_scope_all_devices=1";
	}
	av[n++] = j->src;
	av[n] = NULL;
	if (clc_run(&j->log, (char *const *)av))
		return clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
				"the OpenCL C compiler reported errors "
				"(build log)");
	return 0;
}
