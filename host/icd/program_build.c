// SPDX-License-Identifier: MIT
/* Building programs: clBuildProgram (hp_cl_build, then hp_object_load),
 * the compiles and links clCompileProgram and clLinkProgram
 * (program_link.c) run, the build log. */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

/* Device @p d's kernels are the program's (the first device's): the same
 * names with the same argument blocks, so one kernel object's arguments
 * serve every device. CL_INVALID_BINARY with the difference if not. */
static cl_int meta_same(const hp_cl_program *a, const hp_cl_program *b,
			cl_device_id d)
{
	FAIL_IF(a->num_kernels != b->num_kernels, CL_INVALID_BINARY,
		"device %u's object has %u kernels, the first device's %u",
		d->index, b->num_kernels, a->num_kernels);
	for (unsigned i = 0; i < a->num_kernels; i++) {
		const hp_cl_kmeta *x = &a->kernels[i], *y = &b->kernels[i];
		bool same = !strcmp(x->name, y->name) &&
			    x->num_args == y->num_args &&
			    x->args_size == y->args_size;
		for (unsigned j = 0; same && j < x->num_args; j++)
			same = x->args[j].offset == y->args[j].offset &&
			       x->args[j].size == y->args[j].size &&
			       x->args[j].addr_space == y->args[j].addr_space;
		FAIL_IF(!same, CL_INVALID_BINARY,
			"kernel '%s' takes other arguments on device %u than "
			"on "
			"the first device",
			x->name, d->index);
	}
	return CL_SUCCESS;
}

/* Load device @p d's object (a program without kernels is not loaded:
 * there is nothing to run). */
static cl_int dev_load(cl_program p, cl_device_id d)
{
	struct icd_prog_dev *a = &p->at[d->index];
	hp_cl_program *m;
	int rc = hp_cl_program_parse(a->hpk, a->hpk_size, &m);
	if (rc)
		return rc == HP_INVALID_PROGRAM || rc == HP_INVALID_BINARY
			       ? CL_INVALID_BINARY
			       : icd_err(rc);
	cl_int e = CL_SUCCESS;
	if (!p->meta)
		p->meta = m;
	else {
		e = meta_same(p->meta, m, d);
		hp_cl_program_free(m);
		if (e)
			return e;
	}
	if (!p->meta->num_kernels)
		return CL_SUCCESS;
	/* its program-scope variables: a block of the program's own on
	 * the device, its address in the copy that is loaded */
	void *patched = NULL;
	rc = hp_cl_globals_prepare(d->hp, a->hpk, a->hpk_size, p->meta,
				   &patched, &a->globals);
	if (rc)
		return icd_err(rc);
	a->globals_size = p->meta->globals_size;
	rc = hp_object_load(d->hp, patched ? patched : a->hpk, a->hpk_size,
			    &a->obj, NULL);
	free(patched);
	if (rc)
		return rc == HP_INVALID_BINARY ? CL_INVALID_BINARY
					       : icd_err(rc);
	a->loaded = true;
	return CL_SUCCESS;
}

/* Read each device's object's metadata and load it there (the devices
 * without one are not built for), then the kernel names. CL_INVALID_BINARY
 * for an object that is not one, CL_OUT_OF_RESOURCES when the device's
 * tables or code memory are full (the reason is hp_last_error()). */
static cl_int prog_load(cl_program p)
{
	icd_prog_unload(p);
	cl_int rc = CL_SUCCESS;
	ICD_EACH_DEVICE(d, p->devs)
	if (!rc && p->at[d->index].hpk)
		rc = dev_load(p, d);
	if (!rc && !p->meta)
		rc = CL_INVALID_BINARY;
	if (rc) {
		icd_prog_unload(p);
		return rc;
	}
	size_t len = 1;
	for (unsigned i = 0; i < p->meta->num_kernels; i++)
		len += strlen(p->meta->kernels[i].name) + 1;
	p->kernel_names = calloc(1, len);
	if (!p->kernel_names)
		return CL_OUT_OF_HOST_MEMORY;
	for (unsigned i = 0; i < p->meta->num_kernels; i++) {
		if (i)
			strcat(p->kernel_names, ";");
		strcat(p->kernel_names, p->meta->kernels[i].name);
	}
	p->num_kernels = p->meta->num_kernels;
	return CL_SUCCESS;
}

/* A build's device list: in the program's devices; none given, all. */
static cl_int check_devs(cl_program p, cl_uint n, const cl_device_id *devs,
			 uint32_t *mask)
{
	FAIL_IF((n && !devs) || (!n && devs), CL_INVALID_VALUE,
		"%u devices at %p", n, (void *)devs);
	cl_int rc = icd_devs_in(p->devs, "program's", n, devs, mask);
	if (!rc && !n)
		*mask = p->devs;
	return rc;
}

/* Append a line to the build log. */
static void log_add(cl_program p, const char *line)
{
	size_t a = p->log ? strlen(p->log) : 0, b = strlen(line);
	char *n = realloc(p->log, a + b + 2);
	if (!n)
		return;
	memcpy(n + a, line, b);
	n[a + b] = '\n';
	n[a + b + 1] = 0;
	p->log = n;
}

static cl_int build_error(int rc)
{
	if (rc == HP_INVALID_BUILD_OPTIONS)
		return CL_INVALID_BUILD_OPTIONS;
	if (rc == HP_COMPILER_NOT_AVAILABLE)
		return CL_COMPILER_NOT_AVAILABLE;
	if (rc == HP_OUT_OF_RESOURCES)
		return CL_OUT_OF_HOST_MEMORY;
	return CL_BUILD_PROGRAM_FAILURE;
}

/* An earlier device of @p mask whose object fits @p d too (the same board
 * and local memory). */
static struct icd_prog_dev *built_alike(cl_program p, uint32_t mask,
					cl_device_id d)
{
	ICD_EACH_DEVICE(e, mask & ((1u << d->index) - 1))
	if (p->at[e->index].hpk && !strcmp(e->board, d->board) &&
	    e->info.local_mem_size == d->info.local_mem_size)
		return &p->at[e->index];
	return NULL;
}

/* hp_cl_build of @p o for device @p d into its object (the log
 * appended; a log never empty on failure). */
static cl_int run_build(cl_program p, cl_device_id d, hp_cl_build_options *o)
{
	o->board = d->board;
	o->local_mem_size = d->info.local_mem_size;
	void *hpk = NULL;
	size_t n = 0;
	char *log = NULL;
	int rc = hp_cl_build(o, &hpk, &n, &log);
	if (log && *log)
		log_add(p, log);
	free(log);
	if (rc && (!p->log || !p->log[0]))
		log_add(p, hp_last_error());
	if (rc) {
		free(hpk);
		return build_error(rc);
	}
	free(p->at[d->index].hpk);
	p->at[d->index].hpk = hpk;
	p->at[d->index].hpk_size = n;
	return CL_SUCCESS;
}

/* Compile p->source (or its module) with @p opts for device @p d in mode
 * @p mode (HP_CL_BUILD or HP_CL_COMPILE, with @p h's headers). */
static cl_int compile_for(cl_program p, cl_device_id d, const char *opts,
			  unsigned mode, const struct icd_headers *h)
{
	hp_cl_build_options o = {.options = opts,
				 .sources = (const char *const *)&p->source,
				 .lengths = &p->source_len,
				 .count = 1,
				 .mode = mode};
	if (h) {
		o.header_names = h->names;
		o.header_sources = h->sources;
		o.header_lengths = h->lengths;
		o.num_headers = h->n;
	}
	void *il = NULL;
	if (p->il) {
		if (!(il = icd_prog_il(p)))
			return CL_OUT_OF_HOST_MEMORY;
		o.il = il, o.il_size = p->il_size;
		o.sources = NULL, o.count = 0;
	}
	cl_int rc = run_build(p, d, &o);
	free(il);
	return rc;
}

/* The program's objects dropped, a new log and options. */
static void prog_reset(cl_program p, const char *opts)
{
	free(p->options);
	p->options = strdup(opts ? opts : "");
	free(p->log);
	p->log = NULL;
	icd_prog_unload(p);
	for (unsigned i = 0; i < ICD_DEVICES_MAX; i++) {
		free(p->at[i].hpk);
		p->at[i].hpk = NULL;
		p->at[i].hpk_size = 0;
	}
}

/* A compile's or link's end: a log (never NULL), the status of a failure. */
static cl_int prog_end(cl_program p, cl_int rc)
{
	if (!p->log)
		p->log = strdup("");
	if (rc)
		p->status = CL_BUILD_ERROR;
	return rc;
}

cl_int icd_prog_compile(cl_program p, const char *opts, uint32_t mask,
			unsigned mode, const struct icd_headers *h)
{
	prog_reset(p, opts);
	cl_int rc = CL_SUCCESS;
	ICD_EACH_DEVICE(d, mask)
	{
		struct icd_prog_dev *a = built_alike(p, mask, d);
		if (a && (p->at[d->index].hpk = malloc(a->hpk_size))) {
			memcpy(p->at[d->index].hpk, a->hpk, a->hpk_size);
			p->at[d->index].hpk_size = a->hpk_size;
		} else if (a)
			rc = CL_OUT_OF_HOST_MEMORY;
		else
			rc = compile_for(p, d, opts, mode, h);
		if (rc)
			break;
	}
	return prog_end(p, rc);
}

cl_int icd_prog_link(cl_program p, const char *opts, cl_uint ni,
		     const cl_program *in, uint32_t mask)
{
	prog_reset(p, opts);
	cl_int rc = CL_SUCCESS;
	ICD_EACH_DEVICE(d, mask)
	{
		const void *objs[ICD_LINK_INPUTS_MAX];
		size_t sizes[ICD_LINK_INPUTS_MAX];
		unsigned n = 0;
		for (cl_uint i = 0; i < ni; i++)
			if (in[i]->at[d->index].hpk) {
				objs[n] = in[i]->at[d->index].hpk;
				sizes[n++] = in[i]->at[d->index].hpk_size;
			}
		if (!n)
			continue; /* no objects for it: no executable */
		hp_cl_build_options o = {.options = opts,
					 .mode = HP_CL_LINK,
					 .objects = objs,
					 .object_sizes = sizes,
					 .num_objects = n};
		if ((rc = run_build(p, d, &o)))
			break;
	}
	return prog_end(p, rc);
}

/* Load what compile() built, or the binary; the device's reason for a
 * refusal goes to the build log. A source program's object is the
 * compiler's own: a device that refuses it is a failed build (@p failure),
 * not CL_INVALID_BINARY. Full device tables or memory are
 * CL_OUT_OF_RESOURCES. */
cl_int icd_prog_load_built(cl_program p, cl_int failure)
{
	cl_int rc = prog_load(p);
	if (!rc)
		return CL_SUCCESS;
	log_add(p, hp_last_error());
	if (rc == CL_OUT_OF_RESOURCES || rc == CL_OUT_OF_HOST_MEMORY ||
	    (rc == CL_INVALID_BINARY && p->kind == PROG_BINARY && !p->linked))
		return rc;
	return failure;
}

cl_int icd_prog_check_build(cl_program p, cl_uint n, const cl_device_id *devs,
			    bool notify, void *data, uint32_t *mask)
{
	FAIL_IF(!icd_valid_program(p), CL_INVALID_PROGRAM,
		"%p is not a live program", (void *)p);
	cl_int rc = check_devs(p, n, devs, mask);
	if (rc)
		return rc;
	FAIL_IF(!notify && data, CL_INVALID_VALUE,
		"user data %p without a pfn_notify", data);
	FAIL_IF(p->kernels_attached, CL_INVALID_OPERATION,
		"%u kernels of the program exist", p->kernels_attached);
	return CL_SUCCESS;
}

/* The build's end: its status, and a failure said with the log's size. */
cl_int icd_prog_built(cl_program p, cl_int rc, cl_program_binary_type type)
{
	p->status = rc ? CL_BUILD_ERROR : CL_BUILD_SUCCESS;
	if (!rc)
		p->bin_type = type;
	if (rc == CL_BUILD_PROGRAM_FAILURE ||
	    rc == CL_COMPILE_PROGRAM_FAILURE || rc == CL_LINK_PROGRAM_FAILURE)
		icd_fail(rc,
			 rc == CL_BUILD_PROGRAM_FAILURE
				 ? "CL_BUILD_PROGRAM_FAILURE"
			 : rc == CL_LINK_PROGRAM_FAILURE
				 ? "CL_LINK_PROGRAM_FAILURE"
				 : "CL_COMPILE_PROGRAM_FAILURE",
			 "build",
			 "the program failed to build: %zu bytes of build log "
			 "(CL_PROGRAM_BUILD_LOG)",
			 p->log ? strlen(p->log) : (size_t)0);
	return rc;
}

/* A program of compiled-object or library binaries: linked into an
 * executable (its binaries the link's one input). */
static cl_int build_objects(cl_program p, const char *opts, uint32_t mask)
{
	struct _cl_program *in = calloc(1, sizeof(*in));
	if (!in)
		return CL_OUT_OF_HOST_MEMORY;
	for (unsigned i = 0; i < ICD_DEVICES_MAX; i++) {
		in->at[i] = p->at[i];
		p->at[i].hpk = NULL;
	}
	cl_program one = in;
	cl_int rc = icd_prog_link(p, "", 1, &one, mask);
	for (unsigned i = 0; i < ICD_DEVICES_MAX; i++)
		free(in->at[i].hpk);
	free(in);
	free(p->options);
	p->options = strdup(opts ? opts : "");
	return rc == CL_LINK_PROGRAM_FAILURE ? CL_BUILD_PROGRAM_FAILURE : rc;
}

static cl_int build(cl_program p, const char *opts, uint32_t mask)
{
	cl_int rc = CL_SUCCESS;
	p->status = CL_BUILD_IN_PROGRESS;
	if (p->kind == PROG_SOURCE) {
		rc = icd_prog_compile(p, opts, mask, HP_CL_BUILD, NULL);
	} else if (p->bin_type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
		   p->bin_type == CL_PROGRAM_BINARY_TYPE_LIBRARY) {
		rc = build_objects(p, opts, mask);
	} else {
		if (opts) {
			free(p->options);
			p->options = strdup(opts);
		}
		if (!p->log)
			p->log = strdup("");
	}
	if (!rc)
		rc = icd_prog_load_built(p, CL_BUILD_PROGRAM_FAILURE);
	return icd_prog_built(p, rc, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
}

ICD_EXPORT cl_int CL_API_CALL clBuildProgram(
	cl_program p, cl_uint n, const cl_device_id *devs, const char *opts,
	void(CL_CALLBACK *notify)(cl_program, void *), void *data)
{
	icd_lock();
	uint32_t mask = 0;
	cl_int rc =
		icd_prog_check_build(p, n, devs, notify != NULL, data, &mask);
	if (!rc && p->kind == PROG_BUILTIN)
		rc = icd_fail(CL_INVALID_OPERATION, "CL_INVALID_OPERATION",
			      __func__, "a program of built-in kernels");
	if (!rc) {
		rc = build(p, opts, mask);
		if (notify)
			notify(p, data);
	}
	icd_fail_deliver(icd_ctx_of(p), rc);
	icd_unlock();
	return rc;
}
