// SPDX-License-Identifier: MIT
/* Kernels: creation, arguments (OpenCL C kernels by their metadata; the
 * firmware's built-in kernels as raw bytes), info queries, and
 * clEnqueueNDRangeKernel / clEnqueueTask. */
#include "icd.h"
#include <hartpool/ndrange_check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool icd_valid_kernel(cl_kernel k)
{
	return icd_obj_valid(k, MAGIC_KERNEL);
}

static void kernel_destroy(cl_kernel k)
{
	for (unsigned i = 0; i < ICD_RAW_ARGS; i++)
		free(k->raw[i]);
	k->prog->kernels_attached--;
	cl_program p = k->prog;
	icd_obj_free(k, sizeof(*k));
	icd_program_drop(p);
}

void icd_kernel_retain(cl_kernel k)
{
	k->refs++;
}

void icd_kernel_release(cl_kernel k)
{
	if (icd_obj_unref(k))
		kernel_destroy(k);
}

void icd_kernel_hold(cl_kernel k)
{
	k->holds++;
}

void icd_kernel_drop(cl_kernel k)
{
	if (icd_obj_unhold(k))
		kernel_destroy(k);
}

static cl_int kernel_make(cl_program p, const char *name, cl_kernel *out)
{
	cl_kernel k = icd_obj_new(MAGIC_KERNEL, sizeof(*k));
	if (!k)
		return CL_OUT_OF_HOST_MEMORY;
	int rc;
	if (p->kind == PROG_BUILTIN)
		rc = hp_kernel_find(icd_device.hp, name, &k->id);
	else {
		/* the device knows a long name by its short form */
		for (unsigned i = 0; p->meta && i < p->meta->num_kernels; i++)
			if (!strcmp(p->meta->kernels[i].name, name))
				k->meta = &p->meta->kernels[i];
		rc = k->meta ? hp_object_kernel(icd_device.hp, p->obj,
						k->meta->device_name, &k->id)
			     : HP_INVALID_KERNEL;
	}
	const hp_mbox_kernel *mk =
		rc ? NULL : hp_kernel_at(icd_device.hp, k->id);
	if (!mk) {
		icd_obj_free(k, sizeof(*k));
		return CL_INVALID_KERNEL_NAME;
	}
	k->prog = p;
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->args_size = mk->args_size;
	if (k->meta && k->meta->args_size > k->args_size)
		k->args_size = k->meta->args_size;
	if (k->args_size > HP_MBOX_ARGS_MAX)
		k->args_size = HP_MBOX_ARGS_MAX;
	icd_program_hold(p);
	p->kernels_attached++;
	*out = k;
	return CL_SUCCESS;
}

/* An executable: built-in kernels, a loaded object, or a program without
 * kernels (nothing to load). */
static bool prog_built(cl_program p)
{
	return p->status == CL_BUILD_SUCCESS &&
	       p->bin_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE &&
	       (p->kind == PROG_BUILTIN || p->loaded ||
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

ICD_EXPORT cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name,
						cl_int *errp)
{
	icd_lock();
	cl_kernel k = NULL;
	cl_int err = CL_INVALID_PROGRAM;
	if (!icd_valid_program(p))
		goto out;
	err = CL_INVALID_VALUE;
	if (!name)
		goto out;
	err = CL_INVALID_PROGRAM_EXECUTABLE;
	if (!prog_built(p))
		goto out;
	err = CL_INVALID_KERNEL_NAME;
	if (!name_in(p->kernel_names, name))
		goto out;
	err = kernel_make(p, name, &k);
out:
	icd_unlock();
	if (errp)
		*errp = err;
	return k;
}

ICD_EXPORT cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint n,
						       cl_kernel *out,
						       cl_uint *num)
{
	icd_lock();
	cl_int rc = CL_INVALID_PROGRAM;
	if (!icd_valid_program(p))
		goto out;
	rc = CL_INVALID_PROGRAM_EXECUTABLE;
	if (!prog_built(p))
		goto out;
	rc = CL_INVALID_VALUE;
	if (out && n < p->num_kernels)
		goto out;
	rc = CL_SUCCESS;
	if (out) {
		cl_uint i = 0;
		for (const char *s = p->kernel_names; *s && !rc; i++) {
			char name[64];
			size_t l = strcspn(s, ";");
			snprintf(name, sizeof(name), "%.*s", (int)l, s);
			rc = kernel_make(p, name, &out[i]);
			s += l + (s[l] == ';');
		}
		if (rc)
			while (i-- > 1)
				icd_kernel_release(out[i - 1]);
	}
	if (!rc && num)
		*num = p->num_kernels;
out:
	icd_unlock();
	return rc;
}

ICD_REFCOUNT_CALL(clRetainKernel, cl_kernel, icd_valid_kernel,
		  icd_kernel_retain, CL_INVALID_KERNEL)

ICD_REFCOUNT_CALL(clReleaseKernel, cl_kernel, icd_valid_kernel,
		  icd_kernel_release, CL_INVALID_KERNEL)

ICD_EXPORT cl_kernel CL_API_CALL clCloneKernel(cl_kernel src, cl_int *errp)
{
	icd_lock();
	cl_kernel k = NULL;
	cl_int err = CL_INVALID_KERNEL;
	if (!icd_valid_kernel(src))
		goto out;
	err = CL_OUT_OF_HOST_MEMORY;
	if (!(k = icd_obj_new(MAGIC_KERNEL, sizeof(*k))))
		goto out;
	/* everything after the head (dispatch, kind, references) */
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
	icd_program_hold(k->prog);
	k->prog->kernels_attached++;
	err = CL_SUCCESS;
out:
	icd_unlock();
	if (errp)
		*errp = err;
	return k;
}

/* The cl_mem an argument value names, or NULL (valid: a NULL buffer):
 * looked up among the live buffers, never dereferenced. */
static cl_int arg_mem(const void *value, struct icd_arg_mem *am, uint64_t *addr)
{
	cl_mem m = value ? *(const cl_mem *)value : NULL;
	*am = (struct icd_arg_mem){0};
	*addr = 0;
	if (!m)
		return CL_SUCCESS;
	if (!icd_valid_mem(m))
		return CL_INVALID_MEM_OBJECT;
	*am = (struct icd_arg_mem){m, m->serial};
	*addr = m->addr;
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint i,
					     size_t size, const void *value)
{
	icd_lock();
	cl_int rc = CL_INVALID_KERNEL;
	if (!icd_valid_kernel(k))
		goto out;
	if (!k->meta) {
		/* built-in: raw bytes; an 8-byte value that is a live cl_mem
		 * becomes its device address */
		rc = CL_INVALID_ARG_INDEX;
		if (i >= ICD_RAW_ARGS)
			goto out;
		rc = CL_INVALID_ARG_SIZE;
		if (!size || size > HP_MBOX_ARGS_MAX)
			goto out;
		uint8_t *b = malloc(size);
		rc = CL_OUT_OF_HOST_MEMORY;
		if (!b)
			goto out;
		if (!value)
			memset(b, 0, size);
		else
			memcpy(b, value, size);
		k->arg_mem[i] = (struct icd_arg_mem){0};
		uint64_t a;
		if (value && size == sizeof(cl_mem) &&
		    !arg_mem(value, &k->arg_mem[i], &a) && a)
			memcpy(b, &a, 8);
		free(k->raw[i]);
		k->raw[i] = b;
		k->raw_size[i] = (uint32_t)size;
		if (i + 1 > k->raw_count)
			k->raw_count = i + 1;
		rc = CL_SUCCESS;
		goto out;
	}
	rc = CL_INVALID_ARG_INDEX;
	if (i >= k->meta->num_args)
		goto out;
	const hp_cl_arg *a = &k->meta->args[i];
	uint64_t addr;
	switch (a->addr_space) {
	case HP_CL_LOCAL:
		rc = CL_INVALID_ARG_VALUE;
		if (value)
			goto out;
		rc = CL_INVALID_ARG_SIZE;
		if (!size || size > icd_device.info.local_mem_size)
			goto out;
		k->local_size[i] = (uint32_t)size;
		break;
	case HP_CL_GLOBAL:
	case HP_CL_CONSTANT:
		rc = CL_INVALID_ARG_SIZE;
		if (size != sizeof(cl_mem))
			goto out;
		if ((rc = arg_mem(value, &k->arg_mem[i], &addr)))
			goto out;
		memcpy(k->args + a->offset, &addr, 8);
		break;
	default:
		rc = CL_INVALID_ARG_VALUE;
		if (!value)
			goto out;
		rc = CL_INVALID_ARG_SIZE;
		if (size != a->size)
			goto out;
		memcpy(k->args + a->offset, value, size);
	}
	k->set |= 1ull << i;
	rc = CL_SUCCESS;
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel k, cl_uint i,
						       const void *v)
{
	(void)i, (void)v;
	return icd_check(k, MAGIC_KERNEL, CL_INVALID_OPERATION,
			 CL_INVALID_KERNEL);
}

ICD_EXPORT cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel k,
						  cl_kernel_exec_info p,
						  size_t size, const void *v)
{
	(void)p, (void)size, (void)v;
	return icd_check(k, MAGIC_KERNEL, CL_INVALID_OPERATION,
			 CL_INVALID_KERNEL);
}

/* The buffers the arguments name, into @p hold: each still the buffer it
 * was when set (a released handle, or one since reused for another
 * buffer, is CL_INVALID_KERNEL_ARGS). */
static cl_int args_hold(cl_kernel k, unsigned n, struct icd_hold *hold)
{
	for (unsigned i = 0; i < n; i++) {
		const struct icd_arg_mem *am = &k->arg_mem[i];
		if (!am->mem)
			continue;
		if (!icd_valid_mem(am->mem) || am->mem->serial != am->serial)
			return CL_INVALID_KERNEL_ARGS;
		cl_int rc = icd_hold_mem(hold, am->mem);
		if (rc)
			return rc;
	}
	return CL_SUCCESS;
}

cl_int icd_kernel_pack(cl_kernel k, uint8_t *out, uint32_t *size,
		       uint32_t *local_bytes, struct icd_hold *hold)
{
	memset(out, 0, HP_MBOX_ARGS_MAX);
	*local_bytes = 0;
	*size = k->args_size;
	if (!k->meta) {
		uint32_t off = 0;
		for (unsigned i = 0; i < k->raw_count; i++) {
			uint32_t s = k->raw_size[i], al = 1;
			if (!k->raw[i])
				return CL_INVALID_KERNEL_ARGS;
			while (al < s && al < 8)
				al <<= 1;
			off = (off + al - 1) & ~(al - 1);
			if (off + s > k->args_size)
				return CL_INVALID_KERNEL_ARGS;
			memcpy(out + off, k->raw[i], s);
			off += s;
		}
		return args_hold(k, k->raw_count, hold);
	}
	memcpy(out, k->args, k->args_size);
	uint32_t loc = 0;
	for (unsigned i = 0; i < k->meta->num_args; i++) {
		if (!(k->set & (1ull << i)))
			return CL_INVALID_KERNEL_ARGS;
		if (k->meta->args[i].addr_space != HP_CL_LOCAL)
			continue;
		loc = (loc + 63u) & ~63u;
		uint64_t o = loc;
		memcpy(out + k->meta->args[i].offset, &o, 8);
		loc += k->local_size[i];
	}
	*local_bytes = loc;
	return args_hold(k, k->meta->num_args, hold);
}

ICD_EXPORT cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info param,
					      size_t size, void *value,
					      size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_KERNEL;
	if (!icd_valid_kernel(k))
		goto out;
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
		rc = CL_INVALID_VALUE;
	}
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint i,
						 cl_kernel_arg_info param,
						 size_t size, void *value,
						 size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_KERNEL;
	if (!icd_valid_kernel(k))
		goto out;
	rc = CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
	if (!k->meta)
		goto out;
	rc = CL_INVALID_ARG_INDEX;
	if (i >= k->meta->num_args)
		goto out;
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
		rc = CL_INVALID_VALUE;
	}
out:
	icd_unlock();
	return rc;
}

static void kernel_reqd(cl_kernel k, size_t out[3])
{
	const hp_mbox_kernel *mk = hp_kernel_at(icd_device.hp, k->id);
	for (int i = 0; i < 3; i++) {
		out[i] = k->meta ? k->meta->reqd[i] : 0;
		if (!out[i] && mk)
			out[i] = mk->reqd_work_group_size[i];
	}
}

static uint32_t kernel_sg(cl_kernel k)
{
	const hp_mbox_kernel *mk = hp_kernel_at(icd_device.hp, k->id);
	if (k->meta && k->meta->sub_group_size)
		return k->meta->sub_group_size;
	if (mk && mk->sub_group_size)
		return mk->sub_group_size;
	return icd_device.info.default_sub_group_size
		       ? icd_device.info.default_sub_group_size
		       : 1;
}

ICD_EXPORT cl_int CL_API_CALL clGetKernelWorkGroupInfo(
	cl_kernel k, cl_device_id d, cl_kernel_work_group_info param,
	size_t size, void *value, size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_KERNEL;
	if (!icd_valid_kernel(k))
		goto out;
	rc = CL_INVALID_DEVICE;
	if (d && !icd_valid_device(d))
		goto out;
	const hp_mbox_kernel *mk = hp_kernel_at(icd_device.hp, k->id);
	switch (param) {
	case CL_KERNEL_WORK_GROUP_SIZE: {
		uint32_t w = 0;
		hp_kernel_work_group_size(icd_device.hp, k->id, &w);
		size_t v = w;
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	}
	case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
		size_t r[3];
		kernel_reqd(k, r);
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
		size_t v = icd_device.info.default_sub_group_size
				   ? icd_device.info.default_sub_group_size
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
		rc = CL_INVALID_VALUE;
	}
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetKernelSubGroupInfo(
	cl_kernel k, cl_device_id d, cl_kernel_sub_group_info param,
	size_t in_size, const void *in, size_t size, void *value, size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_KERNEL;
	if (!icd_valid_kernel(k))
		goto out;
	rc = CL_INVALID_DEVICE;
	if (d && !icd_valid_device(d))
		goto out;
	size_t sg = kernel_sg(k), v;
	uint32_t wgs = 0;
	hp_kernel_work_group_size(icd_device.hp, k->id, &wgs);
	rc = CL_INVALID_VALUE;
	switch (param) {
	case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
	case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
		if (!in || !in_size || in_size % sizeof(size_t) ||
		    in_size > 3 * sizeof(size_t))
			goto out;
		size_t items = 1;
		for (size_t i = 0; i < in_size / sizeof(size_t); i++)
			items *= ((const size_t *)in)[i];
		if (param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
			v = items < sg ? items : sg;
		else
			v = (items + sg - 1) / sg;
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	}
	case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
		if (!in || in_size != sizeof(size_t))
			goto out;
		size_t n = *(const size_t *)in, dims = size / sizeof(size_t);
		size_t out3[3] = {n * sg <= wgs ? n * sg : 0, 1, 1};
		if (value && (!dims || dims > 3 || size % sizeof(size_t)))
			goto out;
		if (!value)
			dims = 1;
		rc = icd_info(out3, dims * sizeof(size_t), size, value, ret);
		break;
	}
	case CL_KERNEL_MAX_NUM_SUB_GROUPS:
		v = (wgs + sg - 1) / sg;
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
		v = 0;
		rc = icd_info(&v, sizeof(v), size, value, ret);
		break;
	default:
		break;
	}
out:
	icd_unlock();
	return rc;
}

/* ---- launching ---- */

static cl_int run_kernel(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_command_queue q = c->ev->queue;
	hp_buffer pb = icd_printf_get(q);
	hp_ndrange r = c->range;
	r.printf_buf = pb;
	r.printf_size = pb ? ICD_PRINTF_SIZE : 0;
	int rc = hp_enqueue_kernel(q->hq, c->kernel->id, &r, c->args,
				   c->args_size, deps, n, &c->ev->dev);
	if (rc) {
		if (pb)
			hp_buffer_free(icd_device.hp, pb);
		return icd_err(rc);
	}
	c->ev->printf_buf = pb;
	c->ev->on_device = true;
	return CL_SUCCESS;
}

/* Does the program require uniform work-groups: OpenCL C 1.x (the default
 * -cl-std) or -cl-uniform-work-group-size. */
static bool uniform_required(cl_kernel k)
{
	if (!k->meta)
		return false;
	const char *o = k->prog->options ? k->prog->options : "";
	if (strstr(o, "-cl-uniform-work-group-size"))
		return true;
	return !strstr(o, "-cl-std=CL2.") && !strstr(o, "-cl-std=CL3.");
}

/* The launch's NDRange from the API's arguments, checked as OpenCL 3.0
 * asks (clEnqueueNDRangeKernel) against the device and the kernel, by the
 * rules the firmware checks too (include/hartpool/ndrange_check.h: the
 * same HP_ code, which is the CL code, and the same sentence in @p why).
 * A global size of 0 is an empty launch (2.1 and later). */
static cl_int ndrange_make(cl_kernel k, cl_uint dim, const size_t *offset,
			   const size_t *global, const size_t *local,
			   hp_ndrange *r, char *why, size_t why_size)
{
	const hp_device_info *di = &icd_device.info;
	if (dim >= 1 && dim <= 3 && !global)
		return CL_INVALID_GLOBAL_WORK_SIZE;
	*r = (hp_ndrange){.work_dim = dim};
	for (cl_uint i = 0; global && i < dim && i < 3; i++) {
		r->global[i] = global[i];
		r->offset[i] = offset ? offset[i] : 0;
	}
	uint32_t wgs = 0;
	hp_kernel_work_group_size(icd_device.hp, k->id, &wgs);
	hp_nd_limits lim = {.max_work_dim = di->max_work_dim,
			    .address_bits = di->address_bits,
			    .max_item = di->max_work_item_sizes,
			    .max_group = wgs};
	cl_int rc = hp_nd_check_global(&lim, dim, r->global, r->offset, NULL,
				       NULL, why, why_size);
	if (rc)
		return rc;
	size_t reqd[3];
	kernel_reqd(k, reqd);
	bool has_reqd = reqd[0] || reqd[1] || reqd[2];
	r->uniform = uniform_required(k);
	if (!local)
		return has_reqd ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS;
	uint64_t g[3] = {1, 1, 1}, e[3] = {1, 1, 1};
	uint32_t req[3];
	for (cl_uint i = 0; i < 3; i++) {
		if (i < dim)
			g[i] = global[i], e[i] = local[i];
		req[i] = has_reqd ? (reqd[i] ? (uint32_t)reqd[i] : 1) : 0;
	}
	if ((rc = hp_nd_check_local(&lim, dim, g, e, req, r->uniform, why,
				    why_size)))
		return rc;
	for (cl_uint i = 0; i < dim; i++)
		r->local[i] = local[i];
	r->local_given = true;
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueNDRangeKernel(
	cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *offset,
	const size_t *global, const size_t *local, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	icd_lock();
	hp_ndrange r;
	struct icd_cmd *c = NULL;
	cl_int rc = CL_INVALID_COMMAND_QUEUE;
	if (!icd_valid_queue(q))
		goto out;
	rc = CL_INVALID_KERNEL;
	if (!icd_valid_kernel(k))
		goto out;
	rc = CL_INVALID_CONTEXT;
	if (k->prog->ctx != q->ctx)
		goto out;
	char why[160]; /* the rule's sentence (the device's own words) */
	if ((rc = icd_check_wait(q->ctx, nw, w)) ||
	    (rc = ndrange_make(k, dim, offset, global, local, &r, why,
			       sizeof(why))))
		goto out;
	rc = CL_OUT_OF_HOST_MEMORY;
	if (!(c = calloc(1, sizeof(*c))) ||
	    !(c->args = malloc(HP_MBOX_ARGS_MAX)))
		goto out;
	uint32_t lbytes;
	if ((rc = icd_kernel_pack(k, c->args, &c->args_size, &lbytes,
				  &c->hold)))
		goto out;
	const hp_mbox_kernel *mk = hp_kernel_at(icd_device.hp, k->id);
	rc = CL_OUT_OF_RESOURCES;
	if ((uint64_t)lbytes + (mk ? mk->local_mem_bytes : 0) >
	    icd_device.info.local_mem_size)
		goto out;
	r.local_mem_bytes = lbytes;
	c->range = r;
	c->run = run_kernel;
	c->kernel = c->hold.kernel = k;
	icd_kernel_hold(k);
	rc = icd_submit(q, c, nw, w, CL_COMMAND_NDRANGE_KERNEL, ev);
	c = NULL; /* icd_submit's now */
out:
	if (c)
		icd_cmd_free(c);
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k,
					    cl_uint nw, const cl_event *w,
					    cl_event *ev)
{
	size_t one = 1;
	return clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, nw, w, ev);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueNativeKernel(
	cl_command_queue q, void(CL_CALLBACK *fn)(void *), void *args,
	size_t cb, cl_uint nm, const cl_mem *ml, const void **loc, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	(void)fn, (void)args, (void)cb, (void)nm, (void)ml, (void)loc;
	(void)nw, (void)w, (void)ev;
	return icd_check(q, MAGIC_QUEUE, CL_INVALID_OPERATION,
			 CL_INVALID_COMMAND_QUEUE);
}
