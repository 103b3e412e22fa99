// SPDX-License-Identifier: MIT
/* Building programs: clBuildProgram, clCompileProgram, clLinkProgram
 * (hp_cl_build, then hp_object_load), the build log. */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

/* Read the kernel object's metadata and kernel names and load it (a
 * program without kernels is not loaded: there is nothing to run).
 * CL_INVALID_BINARY for an object that is not one, CL_OUT_OF_RESOURCES
 * when the device's tables or code memory are full (the reason is
 * hp_last_error()). */
static cl_int prog_load(cl_program p)
{
	icd_prog_unload(p);
	int rc = hp_cl_program_parse(p->hpk, p->hpk_size, &p->meta);
	if (rc) {
		p->meta = NULL;
		return rc == HP_INVALID_PROGRAM || rc == HP_INVALID_BINARY
			       ? CL_INVALID_BINARY
			       : icd_err(rc);
	}
	if (p->meta->num_kernels) {
		rc = hp_object_load(icd_device.hp, p->hpk, p->hpk_size, &p->obj,
				    NULL);
		if (rc) {
			icd_prog_unload(p);
			return rc == HP_INVALID_BINARY ? CL_INVALID_BINARY
						       : icd_err(rc);
		}
		p->loaded = true;
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

static cl_int check_devs(cl_uint n, const cl_device_id *devs)
{
	FAIL_IF((n && !devs) || (!n && devs), CL_INVALID_VALUE,
		"%u devices at %p", n, (void *)devs);
	for (cl_uint i = 0; i < n; i++)
		FAIL_IF(!icd_valid_device(devs[i]), CL_INVALID_DEVICE,
			"device %u (%p) is not hartpool's", i, (void *)devs[i]);
	return CL_SUCCESS;
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

/* Compile p->source with @p opts into p->hpk (and the log). */
static cl_int compile(cl_program p, const char *opts)
{
	free(p->options);
	p->options = strdup(opts ? opts : "");
	free(p->log);
	p->log = NULL;
	free(p->hpk);
	p->hpk = NULL;
	p->hpk_size = 0;
	hp_cl_build_options o = {.board = icd_device.board,
				 .options = opts,
				 .sources = (const char *const *)&p->source,
				 .count = 1,
				 .local_mem_size =
					 icd_device.info.local_mem_size};
	void *hpk = NULL;
	size_t n = 0;
	char *log = NULL;
	int rc = hp_cl_build(&o, &hpk, &n, &log);
	p->log = log ? log : strdup("");
	if (rc && (!p->log || !p->log[0]))
		log_add(p, hp_last_error()); /* a log never empty on failure */
	if (rc) {
		free(hpk);
		p->status = CL_BUILD_ERROR;
		if (rc == HP_INVALID_BUILD_OPTIONS)
			return CL_INVALID_BUILD_OPTIONS;
		if (rc == HP_COMPILER_NOT_AVAILABLE)
			return CL_COMPILER_NOT_AVAILABLE;
		if (rc == HP_OUT_OF_RESOURCES)
			return CL_OUT_OF_HOST_MEMORY;
		return CL_BUILD_PROGRAM_FAILURE;
	}
	p->hpk = hpk;
	p->hpk_size = n;
	return CL_SUCCESS;
}

/* Load what compile() built, or the binary; the device's reason for a
 * refusal goes to the build log. A source program's object is the
 * compiler's own: a device that refuses it is a failed build (@p failure),
 * not CL_INVALID_BINARY. Full device tables or memory are
 * CL_OUT_OF_RESOURCES. */
static cl_int load_built(cl_program p, cl_int failure)
{
	cl_int rc = prog_load(p);
	if (!rc)
		return CL_SUCCESS;
	log_add(p, hp_last_error());
	if (rc == CL_OUT_OF_RESOURCES || rc == CL_OUT_OF_HOST_MEMORY ||
	    (rc == CL_INVALID_BINARY && p->kind == PROG_BINARY))
		return rc;
	return failure;
}

static cl_int check_build(cl_program p, cl_uint n, const cl_device_id *devs,
			  bool notify, void *data)
{
	FAIL_IF(!icd_valid_program(p), CL_INVALID_PROGRAM,
		"%p is not a live program", (void *)p);
	cl_int rc = check_devs(n, devs);
	if (rc)
		return rc;
	FAIL_IF(!notify && data, CL_INVALID_VALUE,
		"user data %p without a pfn_notify", data);
	FAIL_IF(p->kernels_attached, CL_INVALID_OPERATION,
		"%u kernels of the program exist", p->kernels_attached);
	return CL_SUCCESS;
}

/* The build's end: its status, and a failure said with the log's size. */
static cl_int built(cl_program p, cl_int rc, cl_program_binary_type type)
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

static cl_int build(cl_program p, const char *opts)
{
	cl_int rc = CL_SUCCESS;
	p->status = CL_BUILD_IN_PROGRESS;
	if (p->kind == PROG_SOURCE) {
		rc = compile(p, opts);
	} else {
		if (opts) {
			free(p->options);
			p->options = strdup(opts);
		}
		if (!p->log)
			p->log = strdup("");
	}
	if (!rc)
		rc = load_built(p, CL_BUILD_PROGRAM_FAILURE);
	return built(p, rc, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
}

ICD_EXPORT cl_int CL_API_CALL clBuildProgram(
	cl_program p, cl_uint n, const cl_device_id *devs, const char *opts,
	void(CL_CALLBACK *notify)(cl_program, void *), void *data)
{
	icd_lock();
	cl_int rc = check_build(p, n, devs, notify != NULL, data);
	if (!rc && p->kind == PROG_BUILTIN)
		rc = icd_fail(CL_INVALID_OPERATION, "CL_INVALID_OPERATION",
			      __func__, "a program of built-in kernels");
	if (!rc) {
		rc = build(p, opts);
		if (notify)
			notify(p, data);
	}
	icd_fail_deliver(icd_ctx_of(p), rc);
	icd_unlock();
	return rc;
}

static cl_int check_compile(cl_program p, cl_uint nh, const cl_program *headers,
			    const char **hnames)
{
	FAIL_IF((nh && (!headers || !hnames)) || (!nh && (headers || hnames)),
		CL_INVALID_VALUE, "%u headers at %p, names at %p", nh,
		(void *)headers, (void *)hnames);
	FAIL_IF(p->kind != PROG_SOURCE, CL_INVALID_OPERATION,
		"not a program from source");
	return CL_SUCCESS;
}

/* Compile: the source is compiled (to check it and produce the log) and
 * kept; linking builds the sources of its inputs together. */
ICD_EXPORT cl_int CL_API_CALL clCompileProgram(
	cl_program p, cl_uint n, const cl_device_id *devs, const char *opts,
	cl_uint nh, const cl_program *headers, const char **hnames,
	void(CL_CALLBACK *notify)(cl_program, void *), void *data)
{
	icd_lock();
	cl_int rc = check_build(p, n, devs, notify != NULL, data);
	if (!rc)
		rc = check_compile(p, nh, headers, hnames);
	if (!rc) {
		rc = compile(p, opts);
		if (rc == CL_BUILD_PROGRAM_FAILURE)
			rc = CL_COMPILE_PROGRAM_FAILURE;
		built(p, rc, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
		if (notify)
			notify(p, data);
	}
	icd_fail_deliver(icd_ctx_of(p), rc);
	icd_unlock();
	return rc;
}

static cl_int check_link(cl_context c, cl_uint n, const cl_device_id *devs,
			 cl_uint ni, const cl_program *in, bool notify,
			 void *data)
{
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	cl_int rc = check_devs(n, devs);
	if (rc)
		return rc;
	FAIL_IF(!ni || !in || (!notify && data), CL_INVALID_VALUE,
		"%u input programs at %p, user data %p", ni, (void *)in, data);
	for (cl_uint i = 0; i < ni; i++) {
		FAIL_IF(!icd_valid_program(in[i]), CL_INVALID_PROGRAM,
			"input %u (%p) is not a live program", i,
			(void *)in[i]);
		FAIL_IF(in[i]->kind != PROG_SOURCE ||
				in[i]->bin_type !=
					CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
			CL_INVALID_OPERATION,
			"input %u is not a compiled program", i);
	}
	return CL_SUCCESS;
}

/* The linked program's source (its inputs' joined) and options (the
 * compile options of the first input, then the link options). */
static cl_int link_source(cl_program p, const char *opts, cl_uint ni,
			  const cl_program *in, char **o)
{
	size_t total = 1, olen = opts ? strlen(opts) + 2 : 1;
	for (cl_uint i = 0; i < ni; i++) {
		total += strlen(in[i]->source) + 2;
		olen += strlen(in[i]->options) + 1;
	}
	*o = calloc(1, olen);
	if (!*o || !(p->source = calloc(1, total)))
		return CL_OUT_OF_HOST_MEMORY;
	strcat(*o, in[0]->options);
	for (cl_uint i = 0; i < ni; i++) {
		strcat(p->source, in[i]->source);
		strcat(p->source, "\n");
	}
	if (opts) {
		strcat(*o, " ");
		strcat(*o, opts);
	}
	return CL_SUCCESS;
}

static cl_int link(cl_program p, const char *opts, cl_uint ni,
		   const cl_program *in)
{
	char *o = NULL;
	cl_int err = link_source(p, opts, ni, in, &o);
	if (!err)
		err = compile(p, o);
	free(o);
	if (err == CL_BUILD_PROGRAM_FAILURE)
		err = CL_LINK_PROGRAM_FAILURE;
	if (!err)
		err = load_built(p, CL_LINK_PROGRAM_FAILURE);
	return built(p, err, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
}

ICD_EXPORT cl_program CL_API_CALL clLinkProgram(
	cl_context c, cl_uint n, const cl_device_id *devs, const char *opts,
	cl_uint ni, const cl_program *in,
	void(CL_CALLBACK *notify)(cl_program, void *), void *data, cl_int *errp)
{
	icd_lock();
	cl_program p = NULL;
	cl_int err = check_link(c, n, devs, ni, in, notify != NULL, data);
	if (!err && !(p = icd_prog_new(c, PROG_SOURCE)))
		err = CL_OUT_OF_HOST_MEMORY;
	if (!err) {
		err = link(p, opts, ni, in);
		if (err != CL_OUT_OF_HOST_MEMORY && notify)
			notify(p, data);
		if (err == CL_INVALID_BUILD_OPTIONS)
			err = CL_INVALID_LINKER_OPTIONS;
	}
	if (err && err != CL_LINK_PROGRAM_FAILURE && p) {
		icd_prog_free(p);
		p = NULL;
	}
	icd_fail_deliver(icd_ctx_of(c), err);
	icd_unlock();
	if (errp)
		*errp = err;
	return p;
}
