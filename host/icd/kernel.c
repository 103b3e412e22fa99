// SPDX-License-Identifier: MIT
/* Kernels: creation, arguments (OpenCL C kernels by their metadata; the
 * firmware's built-in kernels as raw bytes), info queries, and
 * clEnqueueNDRangeKernel / clEnqueueTask. */
#include "icd.h"
#include <hartpool/ndrange_check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void kernel_destroy(struct icd_object *o)
{
	cl_kernel k = (cl_kernel)o;
	for (unsigned i = 0; i < ICD_RAW_ARGS; i++)
		free(k->raw[i]);
	k->prog->kernels_attached--;
}

const struct icd_kind icd_kind_kernel = {
	.magic = MAGIC_KERNEL,
	.size = sizeof(struct _cl_kernel),
	.destroy = kernel_destroy,
};

/* The kernel's id on every device of its program that has it (a built-in
 * kernel: by name; the program's: by its short name in the device's
 * object), and the largest argument block among them. */
static cl_int kernel_ids(cl_program p, cl_kernel k, const char *name)
{
	ICD_EACH_DEVICE(d, p->devs)
	{
		int rc = HP_INVALID_KERNEL;
		uint32_t *id = &k->id[d->index];
		if (p->kind == PROG_BUILTIN)
			rc = hp_kernel_find(d->hp, name, id);
		else if (k->meta && p->at[d->index].loaded)
			rc = hp_object_kernel(d->hp, p->at[d->index].obj,
					      k->meta->device_name, id);
		else if (!p->at[d->index].loaded)
			continue; /* not built for it */
		const hp_mbox_kernel *mk = rc ? NULL : hp_kernel_at(d->hp, *id);
		FAIL_IF(!mk, CL_INVALID_KERNEL_NAME,
			"device %u ('%s') has no kernel '%s': %s", d->index,
			d->spec, name, hp_last_error());
		k->ids |= 1u << d->index;
		if (mk->args_size > k->args_size)
			k->args_size = mk->args_size;
	}
	return CL_SUCCESS;
}

static cl_int kernel_make(cl_program p, const char *name, cl_kernel *out)
{
	cl_kernel k = icd_obj_new(&icd_kind_kernel);
	if (!k)
		return CL_OUT_OF_HOST_MEMORY;
	/* the device knows a long name by its short form */
	for (unsigned i = 0; p->meta && i < p->meta->num_kernels; i++)
		if (!strcmp(p->meta->kernels[i].name, name))
			k->meta = &p->meta->kernels[i];
	cl_int rc = p->kind != PROG_BUILTIN && !k->meta
			    ? icd_fail(CL_INVALID_KERNEL_NAME,
				       "CL_INVALID_KERNEL_NAME", __func__,
				       "no kernel '%s' in the program", name)
			    : kernel_ids(p, k, name);
	if (!rc && !k->ids)
		rc = icd_fail(CL_INVALID_PROGRAM_EXECUTABLE,
			      "CL_INVALID_PROGRAM_EXECUTABLE", __func__,
			      "the program is built for none of its devices");
	if (rc) {
		icd_obj_discard(k);
		return rc;
	}
	k->prog = p;
	snprintf(k->name, sizeof(k->name), "%s", name);
	if (k->meta && k->meta->args_size > k->args_size)
		k->args_size = k->meta->args_size;
	if (k->args_size > HP_MBOX_ARGS_MAX)
		k->args_size = HP_MBOX_ARGS_MAX;
	icd_obj_parent(k, p);
	p->kernels_attached++;
	*out = k;
	return CL_SUCCESS;
}

/* An executable: built-in kernels, a loaded object, or a program without
 * kernels (nothing to load). */
static bool prog_built(cl_program p)
{
	bool loaded = false;
	for (unsigned i = 0; i < ICD_DEVICES_MAX; i++)
		loaded |= p->at[i].loaded;
	return p->status == CL_BUILD_SUCCESS &&
	       p->bin_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
	       (p->kind == PROG_BUILTIN || loaded ||
		(p->meta && !p->meta->num_kernels));
}

static bool name_in(const char *list, const char *name)
{
	size_t l = strlen(name);
	for (const char *s = list; s && *s;) {
		size_t n = strcspn(s, ";");
		if (n == l && !strncmp(s, name, l))
			return true;
		s += n + (s[n] == ';');
	}
	return false;
}

static cl_int check_create(cl_program p, const char *name)
{
	FAIL_IF(!icd_valid_program(p), CL_INVALID_PROGRAM,
		"%p is not a live program", (void *)p);
	FAIL_IF(!name, CL_INVALID_VALUE, "kernel name is NULL");
	FAIL_IF(!prog_built(p), CL_INVALID_PROGRAM_EXECUTABLE,
		"the program is not built (status %d)", p->status);
	FAIL_IF(!name_in(p->kernel_names, name), CL_INVALID_KERNEL_NAME,
		"no kernel '%s' in the program (%s)", name,
		p->kernel_names ? p->kernel_names : "");
	return CL_SUCCESS;
}

ICD_EXPORT cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name,
						cl_int *errp)
{
	icd_lock();
	cl_kernel k = NULL;
	cl_int err = check_create(p, name);
	if (!err)
		err = kernel_make(p, name, &k);
	icd_fail_deliver(icd_ctx_of(p), err);
	icd_unlock();
	if (errp)
		*errp = err;
	return k;
}

static cl_int check_all(cl_program p, cl_uint n, const cl_kernel *out)
{
	FAIL_IF(!icd_valid_program(p), CL_INVALID_PROGRAM,
		"%p is not a live program", (void *)p);
	FAIL_IF(!prog_built(p), CL_INVALID_PROGRAM_EXECUTABLE,
		"the program is not built (status %d)", p->status);
	FAIL_IF(out && n < p->num_kernels, CL_INVALID_VALUE,
		"room for %u kernels, the program has %u", n, p->num_kernels);
	return CL_SUCCESS;
}

static cl_int make_all(cl_program p, cl_kernel *out)
{
	cl_int rc = CL_SUCCESS;
	cl_uint i = 0;
	for (const char *s = p->kernel_names; *s && !rc; i++) {
		char name[HP_CL_NAME_MAX + 1];
		size_t l = strcspn(s, ";");
		snprintf(name, sizeof(name), "%.*s", (int)l, s);
		rc = kernel_make(p, name, &out[i]);
		s += l + (s[l] == ';');
	}
	if (rc)
		while (i-- > 1)
			icd_release(out[i - 1]);
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint n,
						       cl_kernel *out,
						       cl_uint *num)
{
	icd_lock();
	cl_int rc = check_all(p, n, out);
	if (!rc && out)
		rc = make_all(p, out);
	if (!rc && num)
		*num = p->num_kernels;
	icd_fail_deliver(icd_ctx_of(p), rc);
	icd_unlock();
	return rc;
}

ICD_REFCOUNT_CALL(clRetainKernel, cl_kernel, MAGIC_KERNEL, icd_retain,
		  CL_INVALID_KERNEL)

ICD_REFCOUNT_CALL(clReleaseKernel, cl_kernel, MAGIC_KERNEL, icd_release,
		  CL_INVALID_KERNEL)

static cl_int clone(cl_kernel src, cl_kernel *out)
{
	FAIL_IF(!icd_valid_kernel(src), CL_INVALID_KERNEL,
		"%p is not a live kernel", (void *)src);
	cl_kernel k = icd_obj_new(&icd_kind_kernel);
	if (!k)
		return CL_OUT_OF_HOST_MEMORY;
	/* everything after the head (dispatch, kind, references, parents) */
	memcpy((char *)k + sizeof(struct icd_object),
	       (const char *)src + sizeof(struct icd_object),
	       sizeof(*k) - sizeof(struct icd_object));
	for (unsigned i = 0; i < ICD_RAW_ARGS; i++)
		if (src->raw[i]) {
			k->raw[i] = malloc(src->raw_size[i]);
			if (k->raw[i])
				memcpy(k->raw[i], src->raw[i],
				       src->raw_size[i]);
			else
				k->raw_size[i] = 0;
		}
	icd_obj_parent(k, k->prog);
	k->prog->kernels_attached++;
	*out = k;
	return CL_SUCCESS;
}

ICD_EXPORT cl_kernel CL_API_CALL clCloneKernel(cl_kernel src, cl_int *errp)
{
	icd_lock();
	cl_kernel k = NULL;
	cl_int err = clone(src, &k);
	icd_fail_deliver(icd_ctx_of(src), err);
	icd_unlock();
	if (errp)
		*errp = err;
	return k;
}

/* The cl_mem an argument value names, or NULL (valid: a NULL buffer):
 * looked up among the live buffers, never dereferenced. Its address on a
 * device goes into the argument block at the launch. */
static cl_int arg_mem(const void *value, struct icd_arg_mem *am)
{
	cl_mem m = value ? *(const cl_mem *)value : NULL;
	*am = (struct icd_arg_mem){0};
	if (!m)
		return CL_SUCCESS;
	if (!icd_valid_mem(m))
		return CL_INVALID_MEM_OBJECT;
	*am = (struct icd_arg_mem){m, m->serial, 0};
	return CL_SUCCESS;
}

/* Built-in kernels: raw bytes; an 8-byte value that is a live cl_mem
 * becomes its device address at the launch. */
cl_int icd_kernel_set_raw(cl_kernel k, cl_uint i, size_t size,
			  const void *value)
{
	FAIL_IF(i >= ICD_RAW_ARGS, CL_INVALID_ARG_INDEX,
		"argument %u of a built-in kernel (at most %u)", i,
		ICD_RAW_ARGS);
	FAIL_IF(!size || size > HP_MBOX_ARGS_MAX, CL_INVALID_ARG_SIZE,
		"argument %u: size %zu is not in 1..%u", i, size,
		(unsigned)HP_MBOX_ARGS_MAX);
	uint8_t *b = malloc(size);
	if (!b)
		return CL_OUT_OF_HOST_MEMORY;
	if (!value)
		memset(b, 0, size);
	else
		memcpy(b, value, size);
	k->arg_mem[i] = (struct icd_arg_mem){0};
	if (value && size == sizeof(cl_mem))
		arg_mem(value, &k->arg_mem[i]);
	free(k->raw[i]);
	k->raw[i] = b;
	k->raw_size[i] = (uint32_t)size;
	if (i + 1 > k->raw_count)
		k->raw_count = i + 1;
	return CL_SUCCESS;
}

/* The largest local memory of the kernel's devices. */
static cl_ulong local_max(cl_kernel k)
{
	cl_ulong m = 0;
	ICD_EACH_DEVICE(d, k->ids)
	if (d->info.local_mem_size > m)
		m = d->info.local_mem_size;
	return m;
}

/* OpenCL C kernels: by the argument's metadata. */
static cl_int set_arg(cl_kernel k, cl_uint i, size_t size, const void *value)
{
	FAIL_IF(i >= k->meta->num_args, CL_INVALID_ARG_INDEX,
		"argument %u of '%s', which has %u", i, k->name,
		k->meta->num_args);
	const hp_cl_arg *a = &k->meta->args[i];
	uint64_t zero = 0;
	switch (a->addr_space) {
	case HP_CL_LOCAL:
		FAIL_IF(value, CL_INVALID_ARG_VALUE,
			"__local argument %u (%s) with a value", i, a->name);
		FAIL_IF(!size || size > local_max(k), CL_INVALID_ARG_SIZE,
			"__local argument %u (%s): %zu bytes, not in 1..%llu",
			i, a->name, size, (unsigned long long)local_max(k));
		k->local_size[i] = (uint32_t)size;
		break;
	case HP_CL_GLOBAL:
	case HP_CL_CONSTANT: {
		FAIL_IF(size != sizeof(cl_mem), CL_INVALID_ARG_SIZE,
			"buffer argument %u (%s): size %zu, not %zu", i,
			a->name, size, sizeof(cl_mem));
		cl_int rc = arg_mem(value, &k->arg_mem[i]);
		FAIL_IF(rc, CL_INVALID_MEM_OBJECT,
			"argument %u (%s): %p is not a live buffer", i, a->name,
			value ? (void *)*(const cl_mem *)value : NULL);
		memcpy(k->args + a->offset, &zero, 8);
		break;
	}
	default:
		FAIL_IF(!value, CL_INVALID_ARG_VALUE,
			"argument %u (%s) without a value", i, a->name);
		FAIL_IF(size != a->size, CL_INVALID_ARG_SIZE,
			"argument %u (%s): size %zu, not %u", i, a->name, size,
			(unsigned)a->size);
		memcpy(k->args + a->offset, value, size);
	}
	k->set[i / 64] |= 1ull << (i % 64);
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint i,
					     size_t size, const void *value)
{
	icd_lock();
	cl_int rc;
	if (!icd_valid_kernel(k))
		rc = icd_fail(CL_INVALID_KERNEL, "CL_INVALID_KERNEL", __func__,
			      "%p is not a live kernel", (void *)k);
	else
		rc = k->meta ? set_arg(k, i, size, value)
			     : icd_kernel_set_raw(k, i, size, value);
	icd_fail_deliver(icd_ctx_of(k), rc);
	icd_unlock();
	return rc;
}

static cl_int kernel_info(cl_kernel k, cl_kernel_info param, size_t size,
			  void *value, size_t *ret)
{
	cl_int rc;
	FAIL_IF(!icd_valid_kernel(k), CL_INVALID_KERNEL,
		"%p is not a live kernel", (void *)k);
	switch (param) {
	case CL_KERNEL_FUNCTION_NAME:
		rc = icd_info(k->name, strlen(k->name) + 1, size, value, ret);
		break;
	case CL_KERNEL_NUM_ARGS: {
		cl_uint n = k->meta ? k->meta->num_args : k->raw_count;
		rc = icd_info(&n, sizeof(n), size, value, ret);
		break;
	}
	case CL_KERNEL_REFERENCE_COUNT:
		rc = icd_info(&k->refs, sizeof(k->refs), size, value, ret);
		break;
	case CL_KERNEL_CONTEXT:
		rc = icd_info(&k->prog->ctx, sizeof(cl_context), size, value,
			      ret);
		break;
	case CL_KERNEL_PROGRAM:
		rc = icd_info(&k->prog, sizeof(k->prog), size, value, ret);
		break;
	case CL_KERNEL_ATTRIBUTES: {
		const char *s = k->meta ? k->meta->attributes : "";
		rc = icd_info(s, strlen(s) + 1, size, value, ret);
		break;
	}
	default:
		FAIL(CL_INVALID_VALUE, "no kernel info 0x%x", (unsigned)param);
	}
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info param,
					      size_t size, void *value,
					      size_t *ret)
{
	icd_lock();
	cl_int rc = kernel_info(k, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(k), rc);
	icd_unlock();
	return rc;
}

static cl_int arg_info(cl_kernel k, cl_uint i, cl_kernel_arg_info param,
		       size_t size, void *value, size_t *ret)
{
	cl_int rc;
	FAIL_IF(!icd_valid_kernel(k), CL_INVALID_KERNEL,
		"%p is not a live kernel", (void *)k);
	FAIL_IF(!k->meta, CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
		"'%s' is a built-in kernel: no argument info", k->name);
	FAIL_IF(i >= k->meta->num_args, CL_INVALID_ARG_INDEX,
		"argument %u of '%s', which has %u", i, k->name,
		k->meta->num_args);
	const hp_cl_arg *a = &k->meta->args[i];
	switch (param) {
	case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
		static const cl_kernel_arg_address_qualifier q[] = {
			CL_KERNEL_ARG_ADDRESS_PRIVATE,
			CL_KERNEL_ARG_ADDRESS_GLOBAL,
			CL_KERNEL_ARG_ADDRESS_CONSTANT,
			CL_KERNEL_ARG_ADDRESS_LOCAL};
		cl_kernel_arg_address_qualifier v =
			q[a->addr_space < 4 ? a->addr_space : 0];
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	}
	case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
		static const cl_kernel_arg_access_qualifier q[] = {
			CL_KERNEL_ARG_ACCESS_NONE,
			CL_KERNEL_ARG_ACCESS_READ_ONLY,
			CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
			CL_KERNEL_ARG_ACCESS_READ_WRITE};
		cl_kernel_arg_access_qualifier v =
			q[a->access < 4 ? a->access : 0];
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	}
	case CL_KERNEL_ARG_TYPE_NAME:
		rc = icd_info(a->type_name, strlen(a->type_name) + 1, size,
			      value, ret);
		break;
	case CL_KERNEL_ARG_TYPE_QUALIFIER: {
		cl_kernel_arg_type_qualifier v = 0;
		if (a->type_qual & HP_CL_QUAL_CONST)
			v |= CL_KERNEL_ARG_TYPE_CONST;
		if (a->type_qual & HP_CL_QUAL_RESTRICT)
			v |= CL_KERNEL_ARG_TYPE_RESTRICT;
		if (a->type_qual & HP_CL_QUAL_VOLATILE)
			v |= CL_KERNEL_ARG_TYPE_VOLATILE;
		if (a->type_qual & HP_CL_QUAL_PIPE)
			v |= CL_KERNEL_ARG_TYPE_PIPE;
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	}
	case CL_KERNEL_ARG_NAME:
		rc = icd_info(a->name, strlen(a->name) + 1, size, value, ret);
		break;
	default:
		FAIL(CL_INVALID_VALUE, "no argument info 0x%x",
		     (unsigned)param);
	}
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint i,
						 cl_kernel_arg_info param,
						 size_t size, void *value,
						 size_t *ret)
{
	icd_lock();
	cl_int rc = arg_info(k, i, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(k), rc);
	icd_unlock();
	return rc;
}

void icd_kernel_reqd(cl_kernel k, cl_device_id d, size_t out[3])
{
	const hp_mbox_kernel *mk = hp_kernel_at(d->hp, k->id[d->index]);
	for (int i = 0; i < 3; i++) {
		out[i] = k->meta ? k->meta->reqd[i] : 0;
		if (!out[i] && mk)
			out[i] = mk->reqd_work_group_size[i];
	}
}

static uint32_t kernel_sg(cl_kernel k, cl_device_id d)
{
	const hp_mbox_kernel *mk = hp_kernel_at(d->hp, k->id[d->index]);
	if (k->meta && k->meta->sub_group_size)
		return k->meta->sub_group_size;
	if (mk && mk->sub_group_size)
		return mk->sub_group_size;
	return d->info.default_sub_group_size ? d->info.default_sub_group_size
					      : 1;
}

/* The device a per-device query is about: @p d, which must have the
 * kernel, or (NULL) the kernel's one device. */
static cl_int check_kernel_device(cl_kernel k, cl_device_id *d)
{
	FAIL_IF(!icd_valid_kernel(k), CL_INVALID_KERNEL,
		"%p is not a live kernel", (void *)k);
	if (!*d && !(k->ids & (k->ids - 1)))
		*d = &icd_devices[__builtin_ctz(k->ids)];
	FAIL_IF(!*d, CL_INVALID_DEVICE,
		"no device given, and the kernel is on several");
	FAIL_IF(!icd_valid_device(*d) || !(k->ids & (1u << (*d)->index)),
		CL_INVALID_DEVICE, "%p is not a device the kernel is built for",
		(void *)*d);
	return CL_SUCCESS;
}

static cl_int work_group_info(cl_kernel k, cl_device_id d,
			      cl_kernel_work_group_info param, size_t size,
			      void *value, size_t *ret)
{
	cl_int rc;
	const hp_mbox_kernel *mk = hp_kernel_at(d->hp, k->id[d->index]);
	switch (param) {
	case CL_KERNEL_WORK_GROUP_SIZE: {
		uint32_t w = 0;
		hp_kernel_work_group_size(d->hp, k->id[d->index], &w);
		size_t v = w;
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	}
	case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
		size_t r[3];
		icd_kernel_reqd(k, d, r);
		rc = icd_info(r, sizeof(r), size, value, ret);
		break;
	}
	case CL_KERNEL_LOCAL_MEM_SIZE: {
		cl_ulong v = mk ? mk->local_mem_bytes : 0;
		if (k->meta)
			for (unsigned i = 0; i < k->meta->num_args; i++)
				if (k->meta->args[i].addr_space == HP_CL_LOCAL)
					v += k->local_size[i];
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	}
	case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: {
		size_t v = d->info.default_sub_group_size
				   ? d->info.default_sub_group_size
				   : 1;
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	}
	case CL_KERNEL_PRIVATE_MEM_SIZE: {
		cl_ulong v = 0; /* not known to the host */
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	}
	default:
		FAIL(CL_INVALID_VALUE, "no work-group info 0x%x",
		     (unsigned)param);
	}
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetKernelWorkGroupInfo(
	cl_kernel k, cl_device_id d, cl_kernel_work_group_info param,
	size_t size, void *value, size_t *ret)
{
	icd_lock();
	cl_int rc = check_kernel_device(k, &d);
	if (!rc)
		rc = work_group_info(k, d, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(k), rc);
	icd_unlock();
	return rc;
}

static cl_int sub_group_info(cl_kernel k, cl_device_id d,
			     cl_kernel_sub_group_info param, size_t in_size,
			     const void *in, size_t size, void *value,
			     size_t *ret)
{
	size_t sg = kernel_sg(k, d), v;
	uint32_t wgs = 0;
	hp_kernel_work_group_size(d->hp, k->id[d->index], &wgs);
	switch (param) {
	case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
	case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
		FAIL_IF(!in || !in_size || in_size % sizeof(size_t) ||
				in_size > 3 * sizeof(size_t),
			CL_INVALID_VALUE,
			"input %p of %zu bytes is not 1 to 3 size_t", in,
			in_size);
		size_t items = 1;
		for (size_t i = 0; i < in_size / sizeof(size_t); i++)
			items *= ((const size_t *)in)[i];
		if (param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
			v = items < sg ? items : sg;
		else
			v = (items + sg - 1) / sg;
		return icd_info(&v, sizeof(v), size, value, ret);
	}
	case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
		FAIL_IF(!in || in_size != sizeof(size_t), CL_INVALID_VALUE,
			"input %p of %zu bytes is not one size_t", in, in_size);
		size_t n = *(const size_t *)in, dims = size / sizeof(size_t);
		/* no local size gives that many sub-groups: all zeros */
		bool fits = n && n * sg <= wgs;
		size_t out3[3] = {fits ? n * sg : 0, fits, fits};
		FAIL_IF(value && (!dims || dims > 3 || size % sizeof(size_t)),
			CL_INVALID_VALUE,
			"output of %zu bytes is not 1 to 3 size_t", size);
		if (!value)
			dims = 1;
		return icd_info(out3, dims * sizeof(size_t), size, value, ret);
	}
	case CL_KERNEL_MAX_NUM_SUB_GROUPS:
		v = (wgs + sg - 1) / sg;
		return icd_info(&v, sizeof(v), size, value, ret);
	case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
		v = 0;
		return icd_info(&v, sizeof(v), size, value, ret);
	default:
		FAIL(CL_INVALID_VALUE, "no sub-group info 0x%x",
		     (unsigned)param);
	}
}

ICD_EXPORT cl_int CL_API_CALL clGetKernelSubGroupInfo(
	cl_kernel k, cl_device_id d, cl_kernel_sub_group_info param,
	size_t in_size, const void *in, size_t size, void *value, size_t *ret)
{
	icd_lock();
	cl_int rc = check_kernel_device(k, &d);
	if (!rc)
		rc = sub_group_info(k, d, param, in_size, in, size, value, ret);
	icd_fail_deliver(icd_ctx_of(k), rc);
	icd_unlock();
	return rc;
}

/* Does the program require uniform work-groups: OpenCL C 1.x (the default
 * -cl-std) or -cl-uniform-work-group-size. */
bool icd_kernel_uniform(cl_kernel k)
{
	if (!k->meta)
		return false;
	const char *o = k->prog->options ? k->prog->options : "";
	if (strstr(o, "-cl-uniform-work-group-size"))
		return true;
	return !strstr(o, "-cl-std=CL2.") && !strstr(o, "-cl-std=CL3.");
}
