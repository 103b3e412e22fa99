// SPDX-License-Identifier: MIT
/*
 * The package stage of hp_cl_build: the kernels' descriptors (hp_kernel,
 * include/hartpool/kernel.h) and the metadata text hp_cl_program_parse
 * reads (section .hp_clmeta) as C for the cross gcc, that object and the
 * code generation stage's linked at address 0 (objlink.c), the ELF
 * converted to the kernel object (package.c); a kernel whose own __local
 * variables need more than the device has fails here.
 */
#define _GNU_SOURCE
#include "desc.h"
#include "fail.h"
#include "job.h"
#include "objlink.h"
#include "options.h"
#include "package.h"
#include "tools.h"
#include <hartpool/kernel.h>
#include <hartpool/object.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A C string literal of s. */
static void c_string(clc_sbuf *o, const char *s)
{
	clc_sb_add(o, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			clc_sb_add(o, "\\%c", *s);
		else if (*s == '\n')
			clc_sb_add(o, "\\n\"\n\t\"");
		else if (*s == '\t')
			clc_sb_add(o, "\\t");
		else if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
			clc_sb_add(o, "\\%03o", (unsigned char)*s);
		else
			clc_sb_add(o, "%c", *s);
	}
	clc_sb_add(o, "\"");
}

/* The metadata text (hartpool_cl.h; parsed by hp_cl_program_parse). */
static void meta_text(clc_sbuf *t, const clc_kernel *ks, unsigned nk,
		      const char *options, uint64_t globals, unsigned nrel)
{
	clc_sb_add(t, "hpcl 1\noptions\t%s\n", options ? options : "");
	/* the block's size; where the word and the initial bytes are, in
	 * fixed widths the package stage overwrites (package.c) */
	if (globals)
		clc_sb_add(t, "globals\t%010u\t%010u\t%010u\t%010u\t%010u\n",
			   (unsigned)globals, 0u, 0u, 0u, nrel);
	for (unsigned i = 0; i < nk; i++) {
		const hp_cl_kmeta *k = &ks[i].meta;
		clc_sb_add(t,
			   "kernel\t%s\t%s\t%u\t%u\t%u %u %u\t%u %u "
			   "%u\t%u\t%u\t%s\t%u\n",
			   k->name, k->device_name, k->num_args, k->args_size,
			   k->reqd[0], k->reqd[1], k->reqd[2], k->hint[0],
			   k->hint[1], k->hint[2], k->sub_group_size,
			   k->uses_barriers, k->attributes, ks[i].prints);
		for (unsigned a = 0; a < k->num_args; a++) {
			const hp_cl_arg *g = &k->args[a];
			clc_sb_add(t, "arg\t%u\t%u\t%u\t%u\t%u\t%u\t%s\t%s\n",
				   g->addr_space, g->access, g->type_qual,
				   g->offset, g->size, g->align, g->type_name,
				   g->name);
		}
	}
}

/* The descriptors and the metadata, as C for the cross gcc. */
static int desc_write(clc_log *l, const clc_kernel *ks, unsigned nk,
		      const char *options, uint64_t globals, unsigned nrel,
		      const char *path)
{
	clc_sbuf o = {0}, t = {0};
	clc_sb_add(&o, "#include <hartpool/kernel.h>\n");
	for (unsigned i = 0; i < nk; i++) {
		const hp_cl_kmeta *k = &ks[i].meta;
		/* With __local arguments the kernel gets local memory even
		 * without variables of its own (the executor gives a
		 * work-group local memory only when local_mem_bytes is not
		 * 0); its __local arguments start after local_mem_bytes. */
		bool local_args = false;
		for (unsigned a = 0; a < k->num_args; a++)
			local_args |= k->args[a].addr_space == HP_CL_LOCAL;
		unsigned lm = local_args ? 128u : 0u; /* a long16 */
		bool row = !k->uses_barriers || ks[i].wg_fn;
		if (row)
			clc_sb_add(&o,
				   "void hp_krow_%s(const hp_item *, const "
				   "void *, "
				   "size_t);\n",
				   k->name);
		clc_sb_add(
			&o,
			"void hp_kfn_%s(const hp_item *, const void *);\n"
			"HP_REGISTER_SECTION_ const hp_kernel hp_kernel_%s = "
			"{\n\t.name = \"%s\",\n\t.fn = hp_kfn_%s,\n"
			"\t.reqd_work_group_size = {%u, %u, %u},\n"
			"\t.sub_group_size = %u,\n\t.args_size = %u,\n"
			"\t.uses_barriers = %s,\n\t.local_mem_bytes = %u,\n",
			k->name, k->name, k->device_name, k->name, k->reqd[0],
			k->reqd[1], k->reqd[2], k->sub_group_size,
			k->args_size ? k->args_size : 0,
			k->uses_barriers ? "true" : "false", lm);
		if (row)
			clc_sb_add(&o, "\t.row = hp_krow_%s,\n", k->name);
		if (ks[i].wg_fn) /* a work-group function (wgfn.c) */
			clc_sb_add(&o, "\t.row_is_group = true,\n");
		if (ks[i].row_spans) /* rowloop.c */
			clc_sb_add(&o, "\t.row_spans_groups = true,\n");
		/* a fiber stack that holds the kernel's deepest chain of
		 * calls, printf's too; or what it needs of the hart's kernel
		 * stack (stack.c) */
		if (ks[i].stack_bytes)
			clc_sb_add(&o, "\t.stack_bytes = %u,\n",
				   ks[i].stack_bytes);
		clc_sb_add(&o, "};\n");
	}
	meta_text(&t, ks, nk, options, globals, nrel);
	clc_sb_add(&o, "__attribute__((section(\".hp_clmeta\"), used)) static "
		       "const char hpcl_meta[] =\n\t");
	c_string(&o, t.oom ? "" : t.s);
	clc_sb_add(&o, ";\n");
	int rc = o.oom || t.oom ? clc_fail(l, HP_OUT_OF_RESOURCES,
					   "out of memory for the descriptors")
				: clc_write(l, path, o.s, o.n);
	free(o.s);
	free(t.s);
	return rc;
}

int clc_stage_meta(clc_job *j)
{
	const clc_board *b = &j->b;
	const char *options = j->o->options;
	clc_sbuf t = {0};
	meta_text(&t, NULL, 0, options, 0, 0);
	unsigned fabi = b->abi[strlen(b->abi) - 1] == 'd'   ? HPK_FLOAT_DOUBLE
			: b->abi[strlen(b->abi) - 1] == 'f' ? HPK_FLOAT_SINGLE
							    : HPK_FLOAT_SOFT;
	int rc = t.oom ? clc_fail(&j->log, HP_OUT_OF_RESOURCES,
				  "out of memory for a kernel object")
		       : clc_meta_object(&j->log, b->xlen, fabi, t.s, &j->hpk,
					 &j->size);
	free(t.s);
	return rc;
}

/* Kernels whose own __local variables need more than the device's
 * @p limit bytes per work-group: HP_BUILD_PROGRAM_FAILURE, each named in
 * the log with its bytes and the limit. */
static int local_check(const void *hpk, size_t size, uint32_t limit, clc_log *l)
{
	hp_cl_program *p;
	int rc = hp_cl_program_parse(hpk, size, &p);
	if (rc)
		return rc;
	unsigned bad = 0;
	for (unsigned i = 0; i < p->num_kernels; i++) {
		const hp_cl_kmeta *k = &p->kernels[i];
		if (k->static_local <= limit)
			continue;
		fprintf(l->f,
			"error: kernel %s: %u bytes of __local memory, the "
			"device has %u per work-group\n",
			k->name, (unsigned)k->static_local, (unsigned)limit);
		bad++;
	}
	hp_cl_program_free(p);
	return bad ? clc_fail(l, HP_BUILD_PROGRAM_FAILURE,
			      "%u kernel%s with more __local memory than the "
			      "device's %u bytes (build log)",
			      bad, bad == 1 ? "" : "s", (unsigned)limit)
		   : 0;
}

/* The descriptors' C, compiled by the cross gcc into j->desco. */
static int desc_compile(clc_job *j)
{
	char inc[1100], gm[80], ga[48];
	snprintf(inc, sizeof(inc), "-I%s/include", clc_root());
	snprintf(gm, sizeof(gm), "-march=%s", j->b.arch);
	snprintf(ga, sizeof(ga), "-mabi=%s", j->b.abi);
	const char *av[] = {"riscv64-unknown-elf-gcc",
			    gm,
			    ga,
			    "-mcmodel=medany",
			    "-mno-relax",
			    "--specs=picolibc.specs",
			    "-O2",
			    "-DHP_KERNEL_OBJECT",
			    inc,
			    "-c",
			    j->descc,
			    "-o",
			    j->desco,
			    NULL};
	int rc = desc_write(&j->log, j->ks, j->nk, j->o->options,
			    j->globals_size, j->globals_nrel, j->descc);
	if (!rc && clc_run(&j->log, (char *const *)av))
		rc = clc_fail(&j->log, HP_BUILD_PROGRAM_FAILURE,
			      "compiling the descriptors failed");
	return rc;
}

/* The program's object and the descriptors' linked and converted. */
static int object_link(clc_job *j)
{
	char elfp[1200];
	snprintf(elfp, sizeof(elfp), "%s",
		 j->o->elf_path ? j->o->elf_path : "");
	if (!j->o->elf_path)
		snprintf(elfp, sizeof(elfp), "%s/program.elf", j->tmp);
	const char *objs[] = {j->obj, j->desco};
	/* kernels that need every __local variable of the program */
	const char *all_local[HPK_KERNELS_MAX + 1];
	unsigned na = 0;
	for (unsigned i = 0; i < j->nk; i++)
		if (j->ks[i].all_local)
			all_local[na++] = j->ks[i].name;
	all_local[na] = NULL;
	size_t en;
	uint8_t *e = NULL;
	int rc = clc_link(&j->log, &j->b, objs, 2, elfp);
	if (!rc && !(e = clc_slurp(elfp, &en)))
		rc = clc_fail(&j->log, HP_OUT_OF_RESOURCES, "cannot read %s",
			      elfp);
	if (!rc)
		rc = clc_convert(&j->log, e, en, j->b.xlen, all_local, &j->hpk,
				 &j->size);
	free(e);
	if (!j->o->elf_path)
		unlink(elfp);
	return rc;
}

int clc_stage_package(clc_job *j)
{
	int rc = desc_compile(j);
	unlink(j->descc);
	if (!rc)
		rc = object_link(j);
	if (!rc && j->o->local_mem_size &&
	    (rc = local_check(j->hpk, j->size, j->o->local_mem_size,
			      &j->log))) {
		free(j->hpk);
		j->hpk = NULL;
		j->size = 0;
	}
	return rc;
}
