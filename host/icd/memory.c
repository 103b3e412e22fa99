// SPDX-License-Identifier: MIT
/* Buffers and sub-buffers: creation, info, lifetimes (the commands on
 * them: transfer.c). */
#include "icd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Every command that uses a buffer holds it until it completes (struct
 * icd_hold), a sub-buffer holds its buffer (its parent): the buffer goes
 * when the last of those and of the application's references does. */
static void mem_destroy(struct icd_object *o)
{
	cl_mem m = (cl_mem)o;
	for (struct icd_map *p = m->maps, *nx; p; p = nx) {
		nx = p->next;
		free(p);
	}
	if (!m->parent)
		icd_mem_free(m);
	if (m->svm_shadow_size)
		munmap(m->svm_ptr, m->svm_shadow_size);
	free(m->shadow);
}

const struct icd_kind icd_kind_mem = {
	.magic = MAGIC_MEM,
	.size = sizeof(struct _cl_mem),
	.destroy = mem_destroy,
};

static uint64_t next_serial = 1;

uint64_t icd_mem_serial(void)
{
	return next_serial++;
}

static const cl_mem_flags ACCESS =
	CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags HOST_ACCESS =
	CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

static bool one_bit(cl_mem_flags f)
{
	return !(f & (f - 1));
}

static cl_int check_buffer(cl_context c, cl_mem_flags flags, size_t size,
			   void *host, const cl_mem_properties *props)
{
	FAIL_IF(props && props[0], CL_INVALID_PROPERTY,
		"buffer property 0x%llx is not one",
		(unsigned long long)(props ? props[0] : 0));
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	const cl_mem_flags known = ACCESS | HOST_ACCESS | CL_MEM_USE_HOST_PTR |
				   CL_MEM_ALLOC_HOST_PTR |
				   CL_MEM_COPY_HOST_PTR |
				   CL_MEM_KERNEL_READ_AND_WRITE;
	bool use = flags & CL_MEM_USE_HOST_PTR;
	bool copy = flags & CL_MEM_COPY_HOST_PTR;
	FAIL_IF((flags & ~known) || (flags & CL_MEM_KERNEL_READ_AND_WRITE),
		CL_INVALID_VALUE, "flags 0x%llx: unknown or image-only bits",
		(unsigned long long)flags);
	FAIL_IF(!one_bit(flags & ACCESS) || !one_bit(flags & HOST_ACCESS),
		CL_INVALID_VALUE,
		"flags 0x%llx: more than one device or host access",
		(unsigned long long)flags);
	FAIL_IF(use && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)),
		CL_INVALID_VALUE,
		"flags 0x%llx: CL_MEM_USE_HOST_PTR with ALLOC or COPY",
		(unsigned long long)flags);
	cl_ulong max = icd_ctx_max_alloc(c);
	FAIL_IF(!size || size > max, CL_INVALID_BUFFER_SIZE,
		"size %zu is not in 1..%llu (CL_DEVICE_MAX_MEM_ALLOC_SIZE, "
		"the least of the context's devices)",
		size, (unsigned long long)max);
	FAIL_IF((use || copy) != (host != NULL), CL_INVALID_HOST_PTR,
		"host_ptr %p with flags 0x%llx", host,
		(unsigned long long)flags);
	return CL_SUCCESS;
}

/* CL_MEM_USE_HOST_PTR on SVM memory: a view of the allocation, as a
 * sub-buffer is of its buffer (CL_MEM_USES_SVM_POINTER). */
static cl_mem svm_buffer(cl_context c, cl_mem svm, cl_mem_flags flags,
			 size_t size, void *host, bool props)
{
	cl_mem m = icd_obj_new(&icd_kind_mem);
	if (!m)
		return NULL;
	m->serial = next_serial++;
	m->ctx = c;
	m->flags = flags & ACCESS ? flags : flags | CL_MEM_READ_WRITE;
	m->size = size;
	m->parent = svm;
	m->origin = icd_svm_offset(svm, host);
	m->host_ptr = host;
	m->num_props = props ? 1 : 0;
	icd_obj_parent(m, svm);
	icd_obj_parent(m, c);
	return m;
}

static cl_mem buffer_new(cl_context c, cl_mem_flags flags, size_t size,
			 void *host, bool props, cl_int *err)
{
	cl_mem svm =
		flags & CL_MEM_USE_HOST_PTR ? icd_svm_find(c, host, 0) : NULL;
	if (svm && !icd_svm_find(c, host, size)) {
		*err = icd_fail(CL_INVALID_BUFFER_SIZE,
				"CL_INVALID_BUFFER_SIZE", "clCreateBuffer",
				"%zu bytes at %p leave the SVM allocation at "
				"%p (%zu bytes)",
				size, host, (void *)svm->svm_ptr,
				svm->svm_size);
		return NULL;
	}
	cl_mem m = svm ? svm_buffer(c, svm, flags, size, host, props)
		       : icd_obj_new(&icd_kind_mem);
	*err = m ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
	if (!m || svm)
		return m;
	/* on the context's first device (its other copies when needed): no
	 * content yet is current everywhere */
	cl_device_id d = c->devs[0];
	m->size = size;
	m->valid = host ? 1u << d->index : ~0u;
	hp_buffer a;
	int rc = 0;
	*err = icd_mem_addr(m, d, &a);
	if (!*err && host && (rc = hp_buffer_write(d->hp, a, 0, host, size)))
		*err = icd_mem_failed(rc, "clCreateBuffer", size, d);
	if (*err) {
		icd_mem_free(m);
		icd_obj_discard(m);
		return NULL;
	}
	if (!(flags & ACCESS))
		flags |= CL_MEM_READ_WRITE;
	m->serial = next_serial++;
	m->ctx = c;
	m->flags = flags;
	m->host_ptr = flags & CL_MEM_USE_HOST_PTR ? host : NULL;
	m->num_props = props ? 1 : 0;
	icd_obj_parent(m, c);
	*err = CL_SUCCESS;
	return m;
}

static cl_mem create_buffer(cl_context c, cl_mem_flags flags, size_t size,
			    void *host, const cl_mem_properties *props,
			    cl_int *errp)
{
	cl_mem m = NULL;
	icd_lock();
	cl_int err = check_buffer(c, flags, size, host, props);
	if (!err)
		m = buffer_new(c, flags, size, host, props != NULL, &err);
	icd_fail_deliver(icd_ctx_of(c), err);
	icd_unlock();
	if (errp)
		*errp = err;
	return m;
}

ICD_EXPORT cl_mem CL_API_CALL clCreateBuffer(cl_context c, cl_mem_flags flags,
					     size_t size, void *host,
					     cl_int *errp)
{
	return create_buffer(c, flags, size, host, NULL, errp);
}

ICD_EXPORT cl_mem CL_API_CALL clCreateBufferWithProperties(
	cl_context c, const cl_mem_properties *props, cl_mem_flags flags,
	size_t size, void *host, cl_int *errp)
{
	return create_buffer(c, flags, size, host, props, errp);
}

/* A sub-buffer's flags may narrow its buffer's, never widen them. */
static bool sub_flags_ok(cl_mem_flags p, cl_mem_flags f)
{
	return !(
		((p & CL_MEM_WRITE_ONLY) &&
		 (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
		((p & CL_MEM_READ_ONLY) &&
		 (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
		((p & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY)) ||
		((p & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY)) ||
		((p & CL_MEM_HOST_NO_ACCESS) &&
		 (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))));
}

/* A buffer made on an SVM pointer (a view of its allocation, not a
 * sub-buffer). */
static bool on_svm(cl_mem m)
{
	return m->parent && m->parent->svm && !m->assoc;
}

static cl_int check_sub(cl_mem p, cl_mem_flags flags,
			cl_buffer_create_type type, const cl_buffer_region *r)
{
	FAIL_IF(!icd_valid_mem(p) || (p->parent && !on_svm(p)),
		CL_INVALID_MEM_OBJECT,
		"%p is not a live buffer that is no sub-buffer", (void *)p);
	FAIL_IF(type != CL_BUFFER_CREATE_TYPE_REGION || !r, CL_INVALID_VALUE,
		"create type 0x%x with info %p", (unsigned)type,
		(const void *)r);
	FAIL_IF((flags & ~(ACCESS | HOST_ACCESS)) || !one_bit(flags & ACCESS) ||
			!one_bit(flags & HOST_ACCESS) ||
			!sub_flags_ok(p->flags, flags),
		CL_INVALID_VALUE, "flags 0x%llx do not fit the buffer's 0x%llx",
		(unsigned long long)flags, (unsigned long long)p->flags);
	FAIL_IF(!r->size, CL_INVALID_BUFFER_SIZE, "region size 0");
	FAIL_IF(r->origin > p->size || r->size > p->size - r->origin,
		CL_INVALID_VALUE,
		"region %zu + %zu is outside the buffer's %zu bytes", r->origin,
		r->size, p->size);
	FAIL_IF(r->origin % HP_MBOX_BUFFER_ALIGN,
		CL_MISALIGNED_SUB_BUFFER_OFFSET,
		"origin %zu is not a multiple of %u", r->origin,
		(unsigned)HP_MBOX_BUFFER_ALIGN);
	return CL_SUCCESS;
}

static cl_mem sub_new(cl_mem p, cl_mem_flags flags, const cl_buffer_region *r)
{
	cl_mem m = icd_obj_new(&icd_kind_mem);
	if (!m)
		return NULL;
	m->serial = next_serial++;
	m->ctx = p->ctx;
	m->flags = (flags & ACCESS ? flags & ACCESS : p->flags & ACCESS) |
		   (flags & HOST_ACCESS ? flags & HOST_ACCESS
					: p->flags & HOST_ACCESS) |
		   (p->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
				CL_MEM_COPY_HOST_PTR));
	m->size = r->size;
	/* (of a buffer on SVM memory: of its allocation) */
	m->parent = p->parent ? p->parent : p;
	m->origin = (p->parent ? p->origin : 0) + r->origin;
	m->assoc = p;
	m->assoc_off = r->origin;
	m->host_ptr = p->host_ptr ? (char *)p->host_ptr + r->origin : NULL;
	icd_obj_parent(m, p);
	icd_obj_parent(m, m->ctx);
	return m;
}

ICD_EXPORT cl_mem CL_API_CALL clCreateSubBuffer(cl_mem p, cl_mem_flags flags,
						cl_buffer_create_type type,
						const void *info, cl_int *errp)
{
	cl_mem m = NULL;
	icd_lock();
	cl_int err = check_sub(p, flags, type, info);
	if (!err && !(m = sub_new(p, flags, info)))
		err = CL_OUT_OF_HOST_MEMORY;
	icd_fail_deliver(icd_ctx_of(p), err);
	icd_unlock();
	if (errp)
		*errp = err;
	return m;
}

ICD_REFCOUNT_CALL(clRetainMemObject, cl_mem, MAGIC_MEM, icd_retain,
		  CL_INVALID_MEM_OBJECT)

ICD_REFCOUNT_CALL(clReleaseMemObject, cl_mem, MAGIC_MEM, icd_release,
		  CL_INVALID_MEM_OBJECT)

ICD_EXPORT cl_int CL_API_CALL clSetMemObjectDestructorCallback(
	cl_mem m, void(CL_CALLBACK *fn)(cl_mem, void *), void *data)
{
	return icd_set_destructor(
		m, MAGIC_MEM, (void(CL_CALLBACK *)(void *, void *))(void *)fn,
		data);
}

static cl_int mem_info(cl_mem m, cl_mem_info param, size_t size, void *value,
		       size_t *ret)
{
	FAIL_IF(!icd_valid_mem(m), CL_INVALID_MEM_OBJECT,
		"%p is not a live buffer", (void *)m);
	cl_mem_object_type t = CL_MEM_OBJECT_BUFFER;
	cl_bool f = CL_FALSE;
	switch (param) {
	case CL_MEM_TYPE:
		return icd_info(&t, sizeof(t), size, value, ret);
	case CL_MEM_FLAGS:
		return icd_info(&m->flags, sizeof(m->flags), size, value, ret);
	case CL_MEM_SIZE:
		return icd_info(&m->size, sizeof(m->size), size, value, ret);
	case CL_MEM_HOST_PTR:
		return icd_info(&m->host_ptr, sizeof(void *), size, value, ret);
	case CL_MEM_MAP_COUNT:
		return icd_info(&m->map_count, sizeof(cl_uint), size, value,
				ret);
	case CL_MEM_REFERENCE_COUNT:
		return icd_info(&m->refs, sizeof(cl_uint), size, value, ret);
	case CL_MEM_CONTEXT:
		return icd_info(&m->ctx, sizeof(m->ctx), size, value, ret);
	case CL_MEM_ASSOCIATED_MEMOBJECT:
		return icd_info(&m->assoc, sizeof(m->assoc), size, value, ret);
	case CL_MEM_OFFSET:
		return icd_info(&m->assoc_off, sizeof(m->assoc_off), size,
				value, ret);
	case CL_MEM_USES_SVM_POINTER:
		f = m->parent && m->parent->svm;
		return icd_info(&f, sizeof(f), size, value, ret);
	case CL_MEM_PROPERTIES:
		return icd_info(m->props, m->num_props * sizeof(m->props[0]),
				size, value, ret);
	default:
		FAIL(CL_INVALID_VALUE, "no buffer info 0x%x", (unsigned)param);
	}
}

ICD_EXPORT cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info param,
						 size_t size, void *value,
						 size_t *ret)
{
	icd_lock();
	cl_int rc = mem_info(m, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(m), rc);
	icd_unlock();
	return rc;
}
