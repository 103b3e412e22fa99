// SPDX-License-Identifier: MIT
/* Programs: from OpenCL C source, from a kernel object (.hpk,
 * clCreateProgramWithBinary) or the firmware's built-in kernels, their
 * lifetimes and info queries (building them: program_build.c). */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

void icd_prog_unload(cl_program p)
{
	ICD_EACH_DEVICE(d, p->devs)
	{
		struct icd_prog_dev *a = &p->at[d->index];
		if (a->loaded) {
			hp_object_unload(d->hp, a->obj);
			a->loaded = false;
		}
		/* the program's variables go with it (a rebuild resets
		 * them) */
		if (a->globals)
			hp_buffer_free(d->hp, a->globals);
		a->globals = 0;
		a->globals_size = 0;
	}
	if (p->meta)
		hp_cl_program_free(p->meta);
	p->meta = NULL;
	free(p->kernel_names);
	p->kernel_names = NULL;
	p->num_kernels = 0;
}

/* The program goes once it is released and its kernels are gone. */
static void prog_destroy(struct icd_object *o)
{
	cl_program p = (cl_program)o;
	icd_prog_unload(p);
	free(p->source);
	free(p->il);
	free(p->spec);
	for (unsigned i = 0; i < ICD_DEVICES_MAX; i++)
		free(p->at[i].hpk);
	free(p->log);
	free(p->options);
}

const struct icd_kind icd_kind_program = {
	.magic = MAGIC_PROGRAM,
	.size = sizeof(struct _cl_program),
	.destroy = prog_destroy,
};

cl_program icd_prog_new(cl_context c, enum prog_kind kind)
{
	cl_program p = icd_obj_new(&icd_kind_program);
	if (!p)
		return NULL;
	p->ctx = c;
	p->devs = c->dev_mask;
	p->kind = kind;
	p->status = CL_BUILD_NONE;
	p->bin_type = CL_PROGRAM_BINARY_TYPE_NONE;
	icd_obj_parent(p, c);
	return p;
}

/* A program that was not handed out (its creation failed). */
void icd_prog_free(cl_program p)
{
	prog_destroy((struct icd_object *)p);
	icd_obj_discard(p);
}

static cl_int check_source(cl_context c, cl_uint n, const char **strs)
{
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	FAIL_IF(!n || !strs, CL_INVALID_VALUE, "%u strings at %p", n,
		(void *)strs);
	for (cl_uint i = 0; i < n; i++)
		FAIL_IF(!strs[i], CL_INVALID_VALUE, "string %u is NULL", i);
	return CL_SUCCESS;
}

/* The strings concatenated (a length of 0: up to the string's 0; a length
 * given is taken whole, NUL bytes and all), their bytes in @p len. */
static char *source_join(cl_uint n, const char **strs, const size_t *lens,
			 size_t *len)
{
	size_t total = 0, o = 0;
	for (cl_uint i = 0; i < n; i++)
		total += lens && lens[i] ? lens[i] : strlen(strs[i]);
	char *src = malloc(total + 1);
	for (cl_uint i = 0; src && i < n; i++) {
		size_t l = lens && lens[i] ? lens[i] : strlen(strs[i]);
		memcpy(src + o, strs[i], l);
		o += l;
	}
	if (src)
		src[o] = 0;
	*len = o;
	return src;
}

ICD_EXPORT cl_program CL_API_CALL clCreateProgramWithSource(cl_context c,
							    cl_uint n,
							    const char **strs,
							    const size_t *lens,
							    cl_int *errp)
{
	cl_program p = NULL;
	icd_lock();
	cl_int err = check_source(c, n, strs);
	if (!err) {
		p = icd_prog_new(c, PROG_SOURCE);
		if (p &&
		    !(p->source = source_join(n, strs, lens, &p->source_len))) {
			icd_prog_free(p);
			p = NULL;
		}
		err = p ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
	}
	icd_fail_deliver(icd_ctx_of(c), err);
	icd_unlock();
	if (errp)
		*errp = err;
	return p;
}

static cl_int check_binary(cl_context c, cl_uint n, const cl_device_id *devs,
			   const size_t *lens, const unsigned char **bins)
{
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	FAIL_IF(!n || !devs || !lens || !bins, CL_INVALID_VALUE,
		"%u devices, devices %p, lengths %p, binaries %p", n,
		(void *)devs, (void *)lens, (void *)bins);
	for (cl_uint i = 0; i < n; i++)
		FAIL_IF(!lens[i] || !bins[i], CL_INVALID_VALUE,
			"binary %u: %p of %zu bytes", i, (void *)bins[i],
			lens[i]);
	return icd_devs_in(c->dev_mask, "context's", n, devs, NULL);
}

/* Device @p d's binary: a kernel object (its build options kept), or a
 * compiled object or library for the device's board (its kind in
 * @p type). */
static cl_int binary_take(cl_program p, cl_device_id d, const void *bin,
			  size_t len, cl_program_binary_type *type)
{
	struct icd_prog_dev *a = &p->at[d->index];
	p->devs |= 1u << d->index;
	if (a->hpk)
		return CL_SUCCESS; /* a device named twice: the first */
	if (!(a->hpk = malloc(len)))
		return CL_OUT_OF_HOST_MEMORY;
	memcpy(a->hpk, bin, len);
	a->hpk_size = len;
	char board[32];
	unsigned kind = hp_cl_object_kind(bin, len, board);
	if (kind) {
		FAIL_IF(strcmp(board, d->board), CL_INVALID_BINARY,
			"device %u's binary was compiled for board %s, the "
			"device is %s",
			d->index, board, d->board);
		cl_program_binary_type t =
			kind == HP_CL_LIBRARY
				? CL_PROGRAM_BINARY_TYPE_LIBRARY
				: CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
		FAIL_IF(*type && *type != t, CL_INVALID_BINARY,
			"device %u's binary is of another kind than the "
			"others'",
			d->index);
		*type = t;
		return CL_SUCCESS;
	}
	FAIL_IF(*type && *type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
		CL_INVALID_BINARY,
		"device %u's binary is an executable, the others' are not",
		d->index);
	*type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
	hp_cl_program *meta;
	FAIL_IF(hp_cl_program_parse(a->hpk, len, &meta), CL_INVALID_BINARY,
		"%zu bytes for device %u are no kernel object: %s", len,
		d->index, hp_last_error());
	if (!p->options)
		p->options = strdup(meta->build_options);
	hp_cl_program_free(meta);
	return CL_SUCCESS;
}

ICD_EXPORT cl_program CL_API_CALL clCreateProgramWithBinary(
	cl_context c, cl_uint n, const cl_device_id *devs, const size_t *lens,
	const unsigned char **bins, cl_int *status, cl_int *errp)
{
	cl_program p = NULL;
	icd_lock();
	cl_int err = check_binary(c, n, devs, lens, bins);
	if (!err && !(p = icd_prog_new(c, PROG_BINARY)))
		err = CL_OUT_OF_HOST_MEMORY;
	if (p)
		p->devs = 0;
	cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
	for (cl_uint i = 0; p && i < n; i++) {
		cl_int e = binary_take(p, devs[i], bins[i], lens[i], &type);
		if (status)
			status[i] = e;
		err = err ? err : e;
	}
	if (!err) {
		p->bin_type = type;
		/* an object or library is ready to link as it is */
		if (type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
			p->status = CL_BUILD_SUCCESS;
	}
	if (err && p) {
		icd_prog_free(p);
		p = NULL;
	}
	icd_fail_deliver(icd_ctx_of(c), err);
	icd_unlock();
	if (errp)
		*errp = err;
	return p;
}

/* Is the name @p s (@p l bytes) one of @p d's built-in kernels? */
static bool is_builtin(cl_device_id d, const char *s, size_t l)
{
	const char *b = d->builtins;
	while (*b) {
		size_t bl = strcspn(b, ";");
		if (bl == l && !strncmp(b, s, l))
			return true;
		b += bl + (b[bl] == ';');
	}
	return false;
}

/* Every name must be a built-in kernel; their number into @p count. */
static cl_int check_builtins(cl_context c, cl_uint n, const cl_device_id *devs,
			     const char *names, cl_uint *count, uint32_t *mask)
{
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	FAIL_IF(!n || !devs || !names || !*names, CL_INVALID_VALUE,
		"%u devices at %p, names %p", n, (void *)devs,
		(const void *)names);
	cl_int rc = icd_devs_in(c->dev_mask, "context's", n, devs, mask);
	if (rc)
		return rc;
	*count = 0;
	for (const char *s = names; *s;) {
		size_t l = strcspn(s, ";");
		for (cl_uint i = 0; i < n; i++)
			FAIL_IF(!l || !is_builtin(devs[i], s, l),
				CL_INVALID_VALUE,
				"'%.*s' is not a built-in kernel of device "
				"%u (%s)",
				(int)l, s, devs[i]->index, devs[i]->builtins);
		(*count)++;
		s += l + (s[l] == ';');
	}
	return CL_SUCCESS;
}

ICD_EXPORT cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
	cl_context c, cl_uint n, const cl_device_id *devs, const char *names,
	cl_int *errp)
{
	cl_program p = NULL;
	cl_uint count = 0;
	uint32_t mask = 0;
	icd_lock();
	cl_int err = check_builtins(c, n, devs, names, &count, &mask);
	if (!err && (p = icd_prog_new(c, PROG_BUILTIN)) &&
	    !(p->kernel_names = strdup(names))) {
		icd_prog_free(p);
		p = NULL;
	}
	if (!err && !p)
		err = CL_OUT_OF_HOST_MEMORY;
	if (p) {
		p->devs = mask;
		p->num_kernels = count;
		p->status = CL_BUILD_SUCCESS;
		p->bin_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
	}
	icd_fail_deliver(icd_ctx_of(c), err);
	icd_unlock();
	if (errp)
		*errp = err;
	return p;
}

ICD_REFCOUNT_CALL(clRetainProgram, cl_program, MAGIC_PROGRAM, icd_retain,
		  CL_INVALID_PROGRAM)

ICD_REFCOUNT_CALL(clReleaseProgram, cl_program, MAGIC_PROGRAM, icd_release,
		  CL_INVALID_PROGRAM)

ICD_EXPORT cl_int CL_API_CALL clSetProgramReleaseCallback(
	cl_program p, void(CL_CALLBACK *fn)(cl_program, void *), void *data)
{
	(void)fn, (void)data;
	/* deprecated in 3.0: no program-scope global destructors */
	return icd_check(p, MAGIC_PROGRAM, CL_INVALID_OPERATION,
			 CL_INVALID_PROGRAM);
}

static cl_int program_info(cl_program p, cl_program_info param, size_t size,
			   void *value, size_t *ret)
{
	cl_int rc;
	FAIL_IF(!icd_valid_program(p), CL_INVALID_PROGRAM,
		"%p is not a live program", (void *)p);
	cl_device_id d[ICD_DEVICES_MAX];
	size_t sizes[ICD_DEVICES_MAX];
	cl_uint nd = 0;
	ICD_EACH_DEVICE(x, p->devs)
	{
		sizes[nd] = p->at[x->index].hpk_size;
		d[nd++] = x;
	}
	cl_bool no = CL_FALSE;
	bool built = p->status == CL_BUILD_SUCCESS &&
		     p->bin_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
	switch (param) {
	case CL_PROGRAM_REFERENCE_COUNT:
		rc = icd_info(&p->refs, sizeof(p->refs), size, value, ret);
		break;
	case CL_PROGRAM_CONTEXT:
		rc = icd_info(&p->ctx, sizeof(p->ctx), size, value, ret);
		break;
	case CL_PROGRAM_NUM_DEVICES:
		rc = icd_info(&nd, sizeof(nd), size, value, ret);
		break;
	case CL_PROGRAM_DEVICES:
		rc = icd_info(d, nd * sizeof(d[0]), size, value, ret);
		break;
	case CL_PROGRAM_SOURCE: {
		const char *s = p->source ? p->source : "";
		rc = icd_info(s, p->source ? p->source_len + 1 : 1, size, value,
			      ret);
		break;
	}
	case CL_PROGRAM_IL:
		rc = icd_info(p->il, p->il ? p->il_size : 0, size, value, ret);
		break;
	case CL_PROGRAM_BINARY_SIZES:
		rc = icd_info(sizes, nd * sizeof(size_t), size, value, ret);
		break;
	case CL_PROGRAM_BINARIES:
		FAIL_IF(value && size < nd * sizeof(unsigned char *),
			CL_INVALID_VALUE,
			"CL_PROGRAM_BINARIES: %zu bytes for %u pointers", size,
			nd);
		for (cl_uint i = 0; value && i < nd; i++) {
			unsigned char *to = ((unsigned char **)value)[i];
			if (to && sizes[i])
				memcpy(to, p->at[d[i]->index].hpk, sizes[i]);
		}
		if (ret)
			*ret = nd * sizeof(unsigned char *);
		rc = CL_SUCCESS;
		break;
	case CL_PROGRAM_NUM_KERNELS: {
		size_t nk = p->num_kernels;
		rc = built ? icd_info(&nk, sizeof(nk), size, value, ret)
			   : CL_INVALID_PROGRAM_EXECUTABLE;
		break;
	}
	case CL_PROGRAM_KERNEL_NAMES: {
		const char *s = p->kernel_names ? p->kernel_names : "";
		rc = built ? icd_info(s, strlen(s) + 1, size, value, ret)
			   : CL_INVALID_PROGRAM_EXECUTABLE;
		break;
	}
	case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
	case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
		rc = icd_info(&no, sizeof(no), size, value, ret);
		break;
	default:
		FAIL(CL_INVALID_VALUE, "no program info 0x%x", (unsigned)param);
	}
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetProgramInfo(cl_program p,
					       cl_program_info param,
					       size_t size, void *value,
					       size_t *ret)
{
	icd_lock();
	cl_int rc = program_info(p, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(p), rc);
	icd_unlock();
	return rc;
}

static cl_int build_info(cl_program p, cl_device_id d,
			 cl_program_build_info param, size_t size, void *value,
			 size_t *ret)
{
	cl_int rc;
	FAIL_IF(!icd_valid_program(p), CL_INVALID_PROGRAM,
		"%p is not a live program", (void *)p);
	FAIL_IF(!icd_valid_device(d) || !(p->devs & (1u << d->index)),
		CL_INVALID_DEVICE, "%p is not a device of the program",
		(void *)d);
	switch (param) {
	case CL_PROGRAM_BUILD_STATUS:
		rc = icd_info(&p->status, sizeof(p->status), size, value, ret);
		break;
	case CL_PROGRAM_BUILD_OPTIONS: {
		const char *s = p->options ? p->options : "";
		rc = icd_info(s, strlen(s) + 1, size, value, ret);
		break;
	}
	case CL_PROGRAM_BUILD_LOG: {
		const char *s = p->log ? p->log : "";
		rc = icd_info(s, strlen(s) + 1, size, value, ret);
		break;
	}
	case CL_PROGRAM_BINARY_TYPE:
		rc = icd_info(&p->bin_type, sizeof(p->bin_type), size, value,
			      ret);
		break;
	case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
		size_t z = p->at[d->index].globals_size;
		rc = icd_info(&z, sizeof(z), size, value, ret);
		break;
	}
	default:
		FAIL(CL_INVALID_VALUE, "no build info 0x%x", (unsigned)param);
	}
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p,
						    cl_device_id d,
						    cl_program_build_info param,
						    size_t size, void *value,
						    size_t *ret)
{
	icd_lock();
	cl_int rc = build_info(p, d, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(p), rc);
	icd_unlock();
	return rc;
}
