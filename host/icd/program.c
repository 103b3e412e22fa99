// SPDX-License-Identifier: MIT
/* Programs: from OpenCL C source (hp_cl_build, then hp_object_load), from a
 * kernel object (.hpk, clCreateProgramWithBinary) or the firmware's
 * built-in kernels; build, compile and link, their info queries. */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

static void prog_unload(cl_program p)
{
	if (p->loaded)
		hp_object_unload(icd_device.hp, p->obj);
	p->loaded = false;
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
	prog_unload(p);
	free(p->source);
	free(p->hpk);
	free(p->log);
	free(p->options);
}

const struct icd_kind icd_kind_program = {
	.magic = MAGIC_PROGRAM,
	.size = sizeof(struct _cl_program),
	.destroy = prog_destroy,
};

static cl_program prog_new(cl_context c, enum prog_kind kind)
{
	cl_program p = icd_obj_new(&icd_kind_program);
	if (!p)
		return NULL;
	p->ctx = c;
	p->kind = kind;
	p->status = CL_BUILD_NONE;
	p->bin_type = CL_PROGRAM_BINARY_TYPE_NONE;
	icd_obj_parent(p, c);
	return p;
}

/* A program that was not handed out (its creation failed). */
static void prog_free(cl_program p)
{
	prog_destroy((struct icd_object *)p);
	icd_obj_discard(p);
}

ICD_EXPORT cl_program CL_API_CALL clCreateProgramWithSource(cl_context c,
							    cl_uint n,
							    const char **strs,
							    const size_t *lens,
							    cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	cl_program p = NULL;
	icd_lock();
	if (!icd_valid_ctx(c)) {
		err = CL_INVALID_CONTEXT;
		goto out;
	}
	size_t total = 0;
	if (!n || !strs)
		err = CL_INVALID_VALUE;
	for (cl_uint i = 0; !err && i < n; i++) {
		if (!strs[i])
			err = CL_INVALID_VALUE;
		else
			total += lens && lens[i] ? lens[i] : strlen(strs[i]);
	}
	if (err)
		goto out;
	p = prog_new(c, PROG_SOURCE);
	if (!p || !(p->source = malloc(total + 1))) {
		if (p)
			prog_free(p);
		p = NULL;
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	size_t o = 0;
	for (cl_uint i = 0; i < n; i++) {
		size_t l = lens && lens[i] ? lens[i] : strlen(strs[i]);
		memcpy(p->source + o, strs[i], l);
		o += l;
	}
	p->source[o] = 0;
out:
	icd_unlock();
	if (errp)
		*errp = err;
	return p;
}

ICD_EXPORT cl_program CL_API_CALL clCreateProgramWithIL(cl_context c,
							const void *il,
							size_t len,
							cl_int *errp)
{
	(void)il, (void)len;
	if (errp)
		*errp = icd_check(c, MAGIC_CONTEXT, CL_INVALID_OPERATION,
				  CL_INVALID_CONTEXT);
	return NULL;
}

/* Read the kernel object's metadata and kernel names and load it (a
 * program without kernels is not loaded: there is nothing to run).
 * CL_INVALID_BINARY for an object that is not one, CL_OUT_OF_RESOURCES
 * when the device's tables or code memory are full (the reason is
 * hp_last_error()). */
static cl_int prog_load(cl_program p)
{
	prog_unload(p);
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
			prog_unload(p);
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

ICD_EXPORT cl_program CL_API_CALL clCreateProgramWithBinary(
	cl_context c, cl_uint n, const cl_device_id *devs, const size_t *lens,
	const unsigned char **bins, cl_int *status, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	cl_program p = NULL;
	icd_lock();
	if (!icd_valid_ctx(c))
		err = CL_INVALID_CONTEXT;
	else if (!n || !devs || !lens || !bins)
		err = CL_INVALID_VALUE;
	else if (n != 1 || !icd_valid_device(devs[0]))
		err = CL_INVALID_DEVICE;
	else if (!lens[0] || !bins[0])
		err = CL_INVALID_VALUE;
	if (err)
		goto out;
	p = prog_new(c, PROG_BINARY);
	if (!p || !(p->hpk = malloc(lens[0]))) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	memcpy(p->hpk, bins[0], lens[0]);
	p->hpk_size = lens[0];
	hp_cl_program *meta;
	if (hp_cl_program_parse(p->hpk, p->hpk_size, &meta)) {
		err = CL_INVALID_BINARY;
	} else {
		p->options = strdup(meta->build_options);
		hp_cl_program_free(meta);
		p->bin_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
	}
	if (status)
		status[0] = err;
out:
	if (err && p) {
		prog_free(p);
		p = NULL;
	}
	icd_unlock();
	if (errp)
		*errp = err;
	return p;
}

ICD_EXPORT cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
	cl_context c, cl_uint n, const cl_device_id *devs, const char *names,
	cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	cl_program p = NULL;
	icd_lock();
	if (!icd_valid_ctx(c))
		err = CL_INVALID_CONTEXT;
	else if (!n || !devs || !names || !*names)
		err = CL_INVALID_VALUE;
	else
		for (cl_uint i = 0; i < n; i++)
			if (!icd_valid_device(devs[i]))
				err = CL_INVALID_DEVICE;
	if (err)
		goto out;
	/* every name must be a built-in kernel */
	cl_uint count = 0;
	for (const char *s = names; *s;) {
		size_t l = strcspn(s, ";");
		bool found = false;
		const char *b = icd_device.builtins;
		while (*b && !found) {
			size_t bl = strcspn(b, ";");
			found = bl == l && !strncmp(b, s, l);
			b += bl + (b[bl] == ';');
		}
		if (!found || !l) {
			err = CL_INVALID_VALUE;
			goto out;
		}
		count++;
		s += l + (s[l] == ';');
	}
	p = prog_new(c, PROG_BUILTIN);
	if (!p || !(p->kernel_names = strdup(names))) {
		err = CL_OUT_OF_HOST_MEMORY;
		if (p)
			prog_free(p);
		p = NULL;
		goto out;
	}
	p->num_kernels = count;
	p->status = CL_BUILD_SUCCESS;
	p->bin_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
out:
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

ICD_EXPORT cl_int CL_API_CALL clSetProgramSpecializationConstant(
	cl_program p, cl_uint id, size_t size, const void *value)
{
	(void)id, (void)size, (void)value;
	return icd_check(p, MAGIC_PROGRAM, CL_INVALID_OPERATION,
			 CL_INVALID_PROGRAM);
}

static cl_int check_devs(cl_uint n, const cl_device_id *devs)
{
	if ((n && !devs) || (!n && devs))
		return CL_INVALID_VALUE;
	for (cl_uint i = 0; i < n; i++)
		if (!icd_valid_device(devs[i]))
			return CL_INVALID_DEVICE;
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

ICD_EXPORT cl_int CL_API_CALL clBuildProgram(
	cl_program p, cl_uint n, const cl_device_id *devs, const char *opts,
	void(CL_CALLBACK *notify)(cl_program, void *), void *data)
{
	icd_lock();
	cl_int rc = CL_INVALID_PROGRAM;
	if (!icd_valid_program(p))
		goto out;
	if ((rc = check_devs(n, devs)))
		goto out;
	rc = CL_INVALID_VALUE;
	if (!notify && data)
		goto out;
	rc = CL_INVALID_OPERATION;
	if (p->kernels_attached || p->kind == PROG_BUILTIN)
		goto out;
	p->status = CL_BUILD_IN_PROGRESS;
	if (p->kind == PROG_SOURCE) {
		rc = compile(p, opts);
	} else {
		rc = CL_SUCCESS;
		if (opts) {
			free(p->options);
			p->options = strdup(opts);
		}
		if (!p->log)
			p->log = strdup("");
	}
	if (!rc)
		rc = load_built(p, CL_BUILD_PROGRAM_FAILURE);
	if (!rc) {
		p->status = CL_BUILD_SUCCESS;
		p->bin_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
	} else
		p->status = CL_BUILD_ERROR;
	if (notify)
		notify(p, data);
out:
	icd_unlock();
	return rc;
}

/* Compile: the source is compiled (to check it and produce the log) and
 * kept; linking builds the sources of its inputs together. */
ICD_EXPORT cl_int CL_API_CALL clCompileProgram(
	cl_program p, cl_uint n, const cl_device_id *devs, const char *opts,
	cl_uint nh, const cl_program *headers, const char **hnames,
	void(CL_CALLBACK *notify)(cl_program, void *), void *data)
{
	icd_lock();
	cl_int rc = CL_INVALID_PROGRAM;
	if (!icd_valid_program(p))
		goto out;
	if ((rc = check_devs(n, devs)))
		goto out;
	rc = CL_INVALID_VALUE;
	if ((!notify && data) || (nh && (!headers || !hnames)) ||
	    (!nh && (headers || hnames)))
		goto out;
	rc = CL_INVALID_OPERATION;
	if (p->kernels_attached || p->kind != PROG_SOURCE)
		goto out;
	rc = compile(p, opts);
	if (!rc) {
		p->status = CL_BUILD_SUCCESS;
		p->bin_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
	} else if (rc == CL_BUILD_PROGRAM_FAILURE)
		rc = CL_COMPILE_PROGRAM_FAILURE;
	if (notify)
		notify(p, data);
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_program CL_API_CALL clLinkProgram(
	cl_context c, cl_uint n, const cl_device_id *devs, const char *opts,
	cl_uint ni, const cl_program *in,
	void(CL_CALLBACK *notify)(cl_program, void *), void *data, cl_int *errp)
{
	icd_lock();
	cl_program p = NULL;
	cl_int err = CL_INVALID_CONTEXT;
	if (!icd_valid_ctx(c))
		goto out;
	if ((err = check_devs(n, devs)))
		goto out;
	err = CL_INVALID_VALUE;
	if (!ni || !in || (!notify && data))
		goto out;
	size_t total = 1, olen = opts ? strlen(opts) + 2 : 1;
	for (cl_uint i = 0; i < ni; i++) {
		if (!icd_valid_program(in[i])) {
			err = CL_INVALID_PROGRAM;
			goto out;
		}
		if (in[i]->kind != PROG_SOURCE ||
		    in[i]->bin_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT) {
			err = CL_INVALID_OPERATION;
			goto out;
		}
		total += strlen(in[i]->source) + 2;
		olen += strlen(in[i]->options) + 1;
	}
	err = CL_OUT_OF_HOST_MEMORY;
	p = prog_new(c, PROG_SOURCE);
	char *o = calloc(1, olen);
	if (!p || !o || !(p->source = calloc(1, total))) {
		free(o);
		goto out;
	}
	/* the compile options of the first input, then the link options */
	strcat(o, in[0]->options);
	for (cl_uint i = 0; i < ni; i++) {
		strcat(p->source, in[i]->source);
		strcat(p->source, "\n");
	}
	if (opts) {
		strcat(o, " ");
		strcat(o, opts);
	}
	err = compile(p, o);
	free(o);
	if (err == CL_BUILD_PROGRAM_FAILURE)
		err = CL_LINK_PROGRAM_FAILURE;
	if (!err)
		err = load_built(p, CL_LINK_PROGRAM_FAILURE);
	if (!err) {
		p->status = CL_BUILD_SUCCESS;
		p->bin_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
	} else
		p->status = CL_BUILD_ERROR;
	if (notify)
		notify(p, data);
	if (err == CL_INVALID_BUILD_OPTIONS)
		err = CL_INVALID_LINKER_OPTIONS;
out:
	if (err && err != CL_LINK_PROGRAM_FAILURE && p) {
		prog_free(p);
		p = NULL;
	}
	icd_unlock();
	if (errp)
		*errp = err;
	return p;
}

ICD_EXPORT cl_int CL_API_CALL clGetProgramInfo(cl_program p,
					       cl_program_info param,
					       size_t size, void *value,
					       size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_PROGRAM;
	if (!icd_valid_program(p))
		goto out;
	cl_device_id d = &icd_device;
	cl_uint one = 1;
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
		rc = icd_info(&one, sizeof(one), size, value, ret);
		break;
	case CL_PROGRAM_DEVICES:
		rc = icd_info(&d, sizeof(d), size, value, ret);
		break;
	case CL_PROGRAM_SOURCE: {
		const char *s = p->source ? p->source : "";
		rc = icd_info(s, strlen(s) + 1, size, value, ret);
		break;
	}
	case CL_PROGRAM_IL:
		rc = icd_info(NULL, 0, size, value, ret);
		break;
	case CL_PROGRAM_BINARY_SIZES:
		rc = icd_info(&p->hpk_size, sizeof(size_t), size, value, ret);
		break;
	case CL_PROGRAM_BINARIES:
		rc = CL_INVALID_VALUE;
		if (value && size < sizeof(unsigned char *))
			break;
		if (value && ((unsigned char **)value)[0] && p->hpk_size)
			memcpy(((unsigned char **)value)[0], p->hpk,
			       p->hpk_size);
		if (ret)
			*ret = sizeof(unsigned char *);
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
		rc = CL_INVALID_VALUE;
	}
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p,
						    cl_device_id d,
						    cl_program_build_info param,
						    size_t size, void *value,
						    size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_PROGRAM;
	if (!icd_valid_program(p))
		goto out;
	rc = CL_INVALID_DEVICE;
	if (!icd_valid_device(d))
		goto out;
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
		size_t z = 0;
		rc = icd_info(&z, sizeof(z), size, value, ret);
		break;
	}
	default:
		rc = CL_INVALID_VALUE;
	}
out:
	icd_unlock();
	return rc;
}
