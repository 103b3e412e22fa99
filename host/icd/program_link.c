// SPDX-License-Identifier: MIT
/* Separate compilation: clCompileProgram (a source or SPIR-V module, with
 * embedded headers, to a compiled object per device: the board's bitcode,
 * CL_PROGRAM_BINARIES, hartpool_cl.h's hp_cl_object_header) and
 * clLinkProgram (compiled objects and libraries to an executable, or with
 * -create-library to a library), through hp_cl_build's HP_CL_COMPILE and
 * HP_CL_LINK. A link that fails still returns its program, with the log. */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

static cl_int check_compile(cl_program p, cl_uint nh, const cl_program *headers,
			    const char **hnames, struct icd_headers *h)
{
	FAIL_IF((nh && (!headers || !hnames)) || (!nh && (headers || hnames)),
		CL_INVALID_VALUE, "%u headers at %p, names at %p", nh,
		(void *)headers, (void *)hnames);
	FAIL_IF(p->kind != PROG_SOURCE, CL_INVALID_OPERATION,
		"not a program from source or IL");
	for (cl_uint i = 0; i < nh; i++) {
		FAIL_IF(!icd_valid_program(headers[i]), CL_INVALID_PROGRAM,
			"header %u (%p) is not a live program", i,
			(void *)headers[i]);
		FAIL_IF(!headers[i]->source || headers[i]->il,
			CL_INVALID_OPERATION,
			"header %u is not a program from source", i);
		FAIL_IF(!hnames[i] || !*hnames[i], CL_INVALID_VALUE,
			"header %u has no include name", i);
	}
	h->n = nh;
	h->names = calloc(nh + 1, sizeof(char *));
	h->sources = calloc(nh + 1, sizeof(char *));
	h->lengths = calloc(nh + 1, sizeof(size_t));
	if (!h->names || !h->sources || !h->lengths)
		return CL_OUT_OF_HOST_MEMORY;
	for (cl_uint i = 0; i < nh; i++) {
		h->names[i] = hnames[i];
		h->sources[i] = headers[i]->source;
		h->lengths[i] = headers[i]->source_len;
	}
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clCompileProgram(
	cl_program p, cl_uint n, const cl_device_id *devs, const char *opts,
	cl_uint nh, const cl_program *headers, const char **hnames,
	void(CL_CALLBACK *notify)(cl_program, void *), void *data)
{
	icd_lock();
	uint32_t mask = 0;
	struct icd_headers h = {0};
	cl_int rc =
		icd_prog_check_build(p, n, devs, notify != NULL, data, &mask);
	if (!rc)
		rc = check_compile(p, nh, headers, hnames, &h);
	if (!rc) {
		p->status = CL_BUILD_IN_PROGRESS;
		rc = icd_prog_compile(p, opts, mask, HP_CL_COMPILE, &h);
		if (rc == CL_BUILD_PROGRAM_FAILURE)
			rc = CL_COMPILE_PROGRAM_FAILURE;
		icd_prog_built(p, rc, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
		if (notify)
			notify(p, data);
	}
	free(h.names);
	free(h.sources);
	free(h.lengths);
	icd_fail_deliver(icd_ctx_of(p), rc);
	icd_unlock();
	return rc;
}

/* Each input a compiled object or library; a device has objects in every
 * input or in none. */
static cl_int check_inputs(cl_uint ni, const cl_program *in, uint32_t mask)
{
	for (cl_uint i = 0; i < ni; i++) {
		FAIL_IF(!icd_valid_program(in[i]), CL_INVALID_PROGRAM,
			"input %u (%p) is not a live program", i,
			(void *)in[i]);
		cl_program_binary_type t = in[i]->bin_type;
		FAIL_IF(in[i]->status != CL_BUILD_SUCCESS ||
				(t != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
				 t != CL_PROGRAM_BINARY_TYPE_LIBRARY),
			CL_INVALID_OPERATION,
			"input %u is not a compiled object or a library "
			"(binary type 0x%x, status %d)",
			i, (unsigned)t, in[i]->status);
	}
	ICD_EACH_DEVICE(d, mask)
	{
		cl_uint have = 0;
		for (cl_uint i = 0; i < ni; i++)
			have += in[i]->at[d->index].hpk != NULL;
		FAIL_IF(have && have != ni, CL_INVALID_OPERATION,
			"device %u has objects in %u of the %u inputs",
			d->index, have, ni);
	}
	return CL_SUCCESS;
}

static cl_int check_link(cl_context c, cl_uint n, const cl_device_id *devs,
			 cl_uint ni, const cl_program *in, bool notify,
			 void *data, uint32_t *mask)
{
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	FAIL_IF((n && !devs) || (!n && devs), CL_INVALID_VALUE,
		"%u devices at %p", n, (void *)devs);
	cl_int rc = icd_devs_in(c->dev_mask, "context's", n, devs, mask);
	if (rc)
		return rc;
	if (!n)
		*mask = c->dev_mask;
	FAIL_IF(!ni || !in || (!notify && data), CL_INVALID_VALUE,
		"%u input programs at %p, user data %p", ni, (void *)in, data);
	FAIL_IF(ni > ICD_LINK_INPUTS_MAX, CL_INVALID_VALUE,
		"%u input programs, at most %u", ni, ICD_LINK_INPUTS_MAX);
	return check_inputs(ni, in, *mask);
}

/* Is "-create-library" one of the options? */
static bool wants_library(const char *opts)
{
	const char *w = opts;
	size_t l = strlen("-create-library");
	while (w && (w = strstr(w, "-create-library"))) {
		bool start = w == opts || w[-1] == ' ' || w[-1] == '\t';
		bool end = !w[l] || w[l] == ' ' || w[l] == '\t' || w[l] == '\n';
		if (start && end)
			return true;
		w += l;
	}
	return false;
}

static cl_int link(cl_program p, const char *opts, cl_uint ni,
		   const cl_program *in, uint32_t mask)
{
	bool lib = wants_library(opts);
	p->status = CL_BUILD_IN_PROGRESS;
	cl_int err = icd_prog_link(p, opts, ni, in, mask);
	if (err == CL_BUILD_PROGRAM_FAILURE)
		err = CL_LINK_PROGRAM_FAILURE;
	if (err == CL_INVALID_BUILD_OPTIONS)
		err = CL_INVALID_LINKER_OPTIONS;
	if (!err && !lib)
		err = icd_prog_load_built(p, CL_LINK_PROGRAM_FAILURE);
	return icd_prog_built(p, err,
			      lib ? CL_PROGRAM_BINARY_TYPE_LIBRARY
				  : CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
}

ICD_EXPORT cl_program CL_API_CALL clLinkProgram(
	cl_context c, cl_uint n, const cl_device_id *devs, const char *opts,
	cl_uint ni, const cl_program *in,
	void(CL_CALLBACK *notify)(cl_program, void *), void *data, cl_int *errp)
{
	icd_lock();
	cl_program p = NULL;
	uint32_t mask = 0;
	cl_int err =
		check_link(c, n, devs, ni, in, notify != NULL, data, &mask);
	if (!err && !(p = icd_prog_new(c, PROG_BINARY)))
		err = CL_OUT_OF_HOST_MEMORY;
	if (!err) {
		p->devs = mask;
		p->linked = true;
		err = link(p, opts, ni, in, mask);
		if (err != CL_OUT_OF_HOST_MEMORY && notify)
			notify(p, data);
	}
	/* a failed link is a program too: its log says why */
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
