// SPDX-License-Identifier: MIT
/* Shared virtual memory (docs/opencl.md, "Shared virtual memory"). An
 * allocation is a buffer of the ICD's own whose copy on every device of
 * the context starts at one device address; its pointer is a page of that
 * range, and the host sees the same number: a device's own memory where
 * the transport maps it at its addresses (fine-grain: host and device
 * share every byte and their atomics), else host pages mapped there, which
 * maps and unmaps fill and write back (coarse-grain). Pointers the
 * application passes are looked up among the context's allocations
 * (core/svm.c); the commands are the buffers' (core/cmd.c). */
#include "icd.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Host pages: an allocation's host range is whole pages of its own. */
#define SVM_PAGE 4096u
/* The largest alignment clSVMAlloc takes. */
#define SVM_ALIGN_MAX (1u << 16)

static const cl_svm_mem_flags SVM_ACCESS =
	CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;

static cl_int check_alloc(cl_context c, cl_svm_mem_flags f, size_t size,
			  cl_uint align)
{
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	const cl_svm_mem_flags known =
		SVM_ACCESS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
	cl_svm_mem_flags a = f & SVM_ACCESS;
	FAIL_IF((f & ~known) || (a & (a - 1)), CL_INVALID_VALUE,
		"SVM flags 0x%llx: unknown bits or more than one access",
		(unsigned long long)f);
	FAIL_IF((f & CL_MEM_SVM_ATOMICS) && !(f & CL_MEM_SVM_FINE_GRAIN_BUFFER),
		CL_INVALID_VALUE,
		"SVM flags 0x%llx: CL_MEM_SVM_ATOMICS without "
		"CL_MEM_SVM_FINE_GRAIN_BUFFER",
		(unsigned long long)f);
	cl_ulong max = icd_ctx_max_alloc(c);
	FAIL_IF(!size || size > max, CL_INVALID_VALUE,
		"SVM size %zu is not in 1..%llu (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
		size, (unsigned long long)max);
	FAIL_IF((align & (align - 1)) || align > SVM_ALIGN_MAX,
		CL_INVALID_VALUE,
		"SVM alignment %u: not a power of two up to %u", align,
		SVM_ALIGN_MAX);
	if (!(f & CL_MEM_SVM_FINE_GRAIN_BUFFER))
		return CL_SUCCESS;
	FAIL_IF(c->num_devs > 1, CL_INVALID_OPERATION,
		"fine-grain SVM in a context of %u devices: each has its own "
		"memory (coarse-grain SVM spans them)",
		c->num_devs);
	FAIL_IF(!(icd_svm_caps(c->devs[0]) & CL_DEVICE_SVM_FINE_GRAIN_BUFFER),
		CL_INVALID_OPERATION,
		"fine-grain SVM on device %u ('%s'): its memory is not mapped "
		"at its own addresses in this process (a serial link, or the "
		"range was taken; docs/opencl.md)",
		c->devs[0]->index, c->devs[0]->spec);
	return CL_SUCCESS;
}

/* Copies on the other devices at the first one's address, and the host's
 * view of the pointer's pages. */
static cl_int place(cl_context c, cl_mem m, hp_buffer base)
{
	for (cl_uint i = 1; i < c->num_devs; i++) {
		cl_device_id d = c->devs[i];
		int rc = hp_buffer_alloc_at(d->hp, base, m->size,
					    &m->at[d->index]);
		if (rc) {
			m->at[d->index] = 0;
			return icd_mem_failed(rc, "clSVMAlloc", m->size, d);
		}
	}
	for (cl_uint i = 0; i < c->num_devs; i++)
		if (hp_buffer_host_ptr(c->devs[i]->hp, base))
			return CL_SUCCESS; /* a device's memory is there */
	size_t span = (m->svm_size + SVM_PAGE - 1) / SVM_PAGE * SVM_PAGE;
	void *r =
		mmap(m->svm_ptr, span, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (r != MAP_FAILED && r != m->svm_ptr)
		munmap(r, span);
	FAIL_IF(r != m->svm_ptr, CL_OUT_OF_RESOURCES,
		"host addresses %p (+%zu) for an SVM allocation are taken in "
		"this process (sanitizer shadow memory?)",
		(void *)m->svm_ptr, span);
	m->svm_shadow_size = span;
	return CL_SUCCESS;
}

static cl_int svm_new(cl_context c, cl_svm_mem_flags f, size_t size,
		      cl_uint align, void **out)
{
	size_t al = align > SVM_PAGE ? align : SVM_PAGE;
	size_t span = (size + SVM_PAGE - 1) / SVM_PAGE * SVM_PAGE;
	cl_mem m = icd_obj_new(&icd_kind_mem);
	if (!m)
		return CL_OUT_OF_HOST_MEMORY;
	m->serial = icd_mem_serial();
	m->ctx = c;
	m->flags = f & SVM_ACCESS ? f & SVM_ACCESS : CL_MEM_READ_WRITE;
	m->size = span + al - HP_MBOX_BUFFER_ALIGN;
	m->valid = ~0u;
	m->svm = true;
	m->svm_size = size;
	hp_buffer base = 0;
	cl_int rc = icd_mem_addr(m, c->devs[0], &base);
	if (!rc) {
		uint64_t p = (base + al - 1) / al * al;
		m->svm_at = (size_t)(p - base);
		m->svm_ptr = (char *)(uintptr_t)p;
		/* where maps put offset 0 (only the pointer's pages are
		 * ever touched) */
		m->host_ptr = (char *)(uintptr_t)base;
		rc = place(c, m, base);
	}
	if (!rc)
		rc = icd_svm_add(c, m);
	if (rc) {
		if (m->svm_shadow_size)
			munmap(m->svm_ptr, m->svm_shadow_size);
		icd_mem_free(m);
		icd_obj_discard(m);
		return rc;
	}
	*out = m->svm_ptr;
	return CL_SUCCESS;
}

ICD_EXPORT void *CL_API_CALL clSVMAlloc(cl_context c, cl_svm_mem_flags f,
					size_t size, cl_uint align)
{
	icd_lock();
	void *p = NULL;
	cl_int rc = check_alloc(c, f, size, align);
	if (!rc)
		rc = svm_new(c, f, size, align, &p);
	icd_fail_deliver(icd_valid_ctx(c) ? c : NULL, rc);
	icd_unlock();
	return p;
}

ICD_EXPORT void CL_API_CALL clSVMFree(cl_context c, void *p)
{
	icd_lock();
	cl_int rc = CL_SUCCESS;
	if (!icd_valid_ctx(c))
		rc = icd_fail(CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT",
			      __func__, "%p is not a live context", (void *)c);
	else if (p && !icd_svm_release(c, p))
		rc = icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE", __func__,
			      "%p is no SVM allocation of the context", p);
	icd_fail_deliver(icd_valid_ctx(c) ? c : NULL, rc);
	icd_unlock();
}

/* ---- commands ---- */

static cl_int check_queue(cl_command_queue q, cl_uint nw, const cl_event *w)
{
	FAIL_IF(!icd_valid_queue(q), CL_INVALID_COMMAND_QUEUE,
		"%p is not a live command queue", (void *)q);
	return icd_check_wait(q->ctx, nw, w);
}

/* The allocation of @p q's context that holds [p, p + n), or NULL
 * (*rc CL_INVALID_VALUE when @p need, or when p is in one that the range
 * leaves). */
static cl_mem svm_of(cl_command_queue q, const void *p, size_t n, bool need,
		     const char *what, cl_int *rc)
{
	cl_mem m = icd_svm_find(q->ctx, p, 0);
	*rc = CL_SUCCESS;
	if (m && n > m->svm_size - (size_t)((const char *)p - m->svm_ptr))
		*rc = icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE",
			       "clEnqueueSVM*",
			       "%s %p + %zu bytes leaves its SVM allocation "
			       "(%p, %zu bytes)",
			       what, p, n, (void *)m->svm_ptr, m->svm_size);
	else if (!m && need)
		*rc = icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE",
			       "clEnqueueSVM*",
			       "%s %p is in no SVM allocation of the context",
			       what, p);
	return *rc ? NULL : m;
}

static struct icd_cmd *memcpy_cmd(cl_mem dm, cl_mem sm, char *dst,
				  const char *src, size_t n)
{
	struct icd_cmd *c;
	if (dm && sm) {
		if ((c = icd_cmd_on(CMD_COPY, sm, dm)))
			c->u.copy = (struct icd_cmd_copy){
				sm, dm, icd_svm_offset(sm, src),
				icd_svm_offset(dm, dst), n};
	} else if (dm || sm) {
		cl_mem m = dm ? dm : sm;
		if ((c = icd_cmd_on(dm ? CMD_WRITE : CMD_READ, m, NULL)))
			c->u.rw = (struct icd_cmd_rw){
				m, icd_svm_offset(m, dm ? dst : src), n,
				dm ? (void *)src : dst};
	} else if ((c = icd_cmd_new(CMD_HOST_COPY))) {
		c->u.host_copy = (struct icd_cmd_host_copy){dst, src, n};
	}
	return c;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue q,
						 cl_bool block, void *dst,
						 const void *src, size_t n,
						 cl_uint nw, const cl_event *w,
						 cl_event *ev)
{
	icd_lock();
	cl_int rc = check_queue(q, nw, w);
	const char *d = dst, *s = src;
	if (!rc && (!dst || !src))
		rc = icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE", __func__,
			      "dst %p, src %p", dst, src);
	if (!rc && n && d < s + n && s < d + n)
		rc = icd_fail(CL_MEM_COPY_OVERLAP, "CL_MEM_COPY_OVERLAP",
			      __func__, "%zu bytes from %p to %p overlap", n,
			      src, dst);
	cl_mem dm = NULL, sm = NULL;
	if (!rc)
		dm = svm_of(q, dst, n, false, "dst_ptr", &rc);
	if (!rc)
		sm = svm_of(q, src, n, false, "src_ptr", &rc);
	if (!rc)
		rc = icd_enqueue(q,
				 n ? memcpy_cmd(dm, sm, dst, src, n)
				   : icd_cmd_new(CMD_MARKER),
				 nw, w, CL_COMMAND_SVM_MEMCPY, block, ev);
	icd_fail_deliver(icd_ctx_of(q), rc);
	icd_unlock();
	return rc;
}

static cl_int check_fill(const char *p, const void *pat, size_t ps, size_t n)
{
	FAIL_IF(!pat || !ps || ps > 128 || (ps & (ps - 1)), CL_INVALID_VALUE,
		"pattern %p of %zu bytes (1, 2, 4, ... 128)", pat, ps);
	FAIL_IF((uintptr_t)p % ps || n % ps, CL_INVALID_VALUE,
		"svm_ptr %p or size %zu not a multiple of the pattern's %zu",
		(const void *)p, n, ps);
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue q, void *p,
						  const void *pat, size_t ps,
						  size_t n, cl_uint nw,
						  const cl_event *w,
						  cl_event *ev)
{
	icd_lock();
	cl_int rc = check_queue(q, nw, w);
	cl_mem m = NULL;
	if (!rc)
		rc = check_fill(p, pat, ps, n);
	if (!rc)
		m = svm_of(q, p, n, true, "svm_ptr", &rc);
	if (!rc) {
		struct icd_cmd *c = icd_cmd_on(CMD_FILL, m, NULL);
		if (c) {
			struct icd_cmd_fill *f = &c->u.fill;
			f->mem = m;
			f->off = icd_svm_offset(m, p);
			f->size = n;
			f->pattern_size = (unsigned)ps;
			memcpy(f->pattern, pat, ps);
		}
		rc = icd_enqueue(q, c, nw, w, CL_COMMAND_SVM_MEMFILL, false,
				 ev);
	}
	icd_fail_deliver(icd_ctx_of(q), rc);
	icd_unlock();
	return rc;
}

static cl_int check_map_flags(cl_map_flags f, size_t n)
{
	const cl_map_flags known =
		CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
	FAIL_IF(!n, CL_INVALID_VALUE, "size 0");
	FAIL_IF((f & ~known) || ((f & CL_MAP_WRITE_INVALIDATE_REGION) &&
				 (f & (CL_MAP_READ | CL_MAP_WRITE))),
		CL_INVALID_VALUE, "map flags 0x%llx", (unsigned long long)f);
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue q, cl_bool block,
					      cl_map_flags f, void *p, size_t n,
					      cl_uint nw, const cl_event *w,
					      cl_event *ev)
{
	icd_lock();
	cl_int rc = check_queue(q, nw, w);
	cl_mem m = NULL;
	if (!rc)
		rc = check_map_flags(f, n);
	if (!rc)
		m = svm_of(q, p, n, true, "svm_ptr", &rc);
	void *at;
	if (!rc)
		rc = icd_mem_map(q, m, block, f, icd_svm_offset(m, p), n, nw, w,
				 ev, CL_COMMAND_SVM_MAP, &at);
	icd_fail_deliver(icd_ctx_of(q), rc);
	icd_unlock();
	return rc;
}

/* The unmap: the pages written back to the queue's device when they were
 * mapped for writing; an unmap of what was not mapped orders only. */
ICD_EXPORT cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue q, void *p,
						cl_uint nw, const cl_event *w,
						cl_event *ev)
{
	icd_lock();
	cl_int rc = check_queue(q, nw, w);
	cl_mem m = NULL;
	if (!rc)
		m = svm_of(q, p, 0, true, "svm_ptr", &rc);
	struct icd_map **pp = m ? icd_mem_map_of(m, p) : NULL;
	if (!rc)
		rc = pp ? icd_mem_unmap(q, m, pp, nw, w, ev,
					CL_COMMAND_SVM_UNMAP)
			: icd_enqueue(q, icd_cmd_new(CMD_MARKER), nw, w,
				      CL_COMMAND_SVM_UNMAP, false, ev);
	icd_fail_deliver(icd_ctx_of(q), rc);
	icd_unlock();
	return rc;
}

static cl_int migrate_cmd(cl_command_queue q, cl_uint n, const void **ps,
			  const size_t *ss, cl_mem_migration_flags f,
			  struct icd_cmd **out)
{
	const cl_mem_migration_flags known =
		CL_MIGRATE_MEM_OBJECT_HOST |
		CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
	FAIL_IF(!n || !ps || (f & ~known), CL_INVALID_VALUE,
		"%u pointers at %p, flags 0x%llx", n, (const void *)ps,
		(unsigned long long)f);
	struct icd_cmd *c = icd_cmd_new(CMD_MIGRATE);
	if (!c)
		return CL_OUT_OF_HOST_MEMORY;
	cl_int rc = CL_SUCCESS;
	for (cl_uint i = 0; i < n && !rc; i++) {
		cl_mem m = ps[i] ? svm_of(q, ps[i], ss ? ss[i] : 0, true,
					  "svm_pointers[i]", &rc)
				 : NULL;
		if (!ps[i])
			rc = icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE",
				      __func__, "svm_pointers[%u] is NULL", i);
		if (!rc)
			rc = icd_cmd_use(c, m);
	}
	if (rc) {
		icd_cmd_free(c);
		return rc;
	}
	c->u.migrate = (struct icd_cmd_migrate){
		.host = f & CL_MIGRATE_MEM_OBJECT_HOST,
		.undefined = f & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED};
	*out = c;
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueSVMMigrateMem(
	cl_command_queue q, cl_uint n, const void **ps, const size_t *ss,
	cl_mem_migration_flags f, cl_uint nw, const cl_event *w, cl_event *ev)
{
	icd_lock();
	struct icd_cmd *c = NULL;
	cl_int rc = check_queue(q, nw, w);
	if (!rc)
		rc = migrate_cmd(q, n, ps, ss, f, &c);
	if (!rc)
		rc = icd_enqueue(q, c, nw, w, CL_COMMAND_SVM_MIGRATE_MEM, false,
				 ev);
	icd_fail_deliver(icd_ctx_of(q), rc);
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueSVMFree(
	cl_command_queue q, cl_uint n, void *ps[],
	void(CL_CALLBACK *fn)(cl_command_queue, cl_uint, void *[], void *),
	void *data, cl_uint nw, const cl_event *w, cl_event *ev)
{
	icd_lock();
	cl_int rc = check_queue(q, nw, w);
	if (!rc && (!n) != (!ps))
		rc = icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE", __func__,
			      "%u pointers at %p", n, (void *)ps);
	struct icd_cmd *c = NULL;
	if (!rc && (c = icd_cmd_new(CMD_SVM_FREE))) {
		void **copy = n ? malloc(n * sizeof(*copy)) : NULL;
		if (n && !copy) {
			icd_cmd_free(c);
			c = NULL;
		} else {
			if (n)
				memcpy(copy, ps, n * sizeof(*copy));
			c->u.svm_free =
				(struct icd_cmd_svm_free){fn, data, n, copy};
		}
	}
	if (!rc)
		rc = icd_enqueue(q, c, nw, w, CL_COMMAND_SVM_FREE, false, ev);
	icd_fail_deliver(icd_ctx_of(q), rc);
	icd_unlock();
	return rc;
}

/* ---- kernels ---- */

/* An SVM pointer argument: its allocation is held and made current on
 * the device at each launch, the pointer itself is the value (the same
 * number on the host and the device). */
static cl_int set_svm(cl_kernel k, cl_uint i, const void *v)
{
	unsigned n = k->meta ? k->meta->num_args : ICD_RAW_ARGS;
	FAIL_IF(i >= n, CL_INVALID_ARG_INDEX,
		"argument %u of '%s', which has %u", i, k->name, n);
	FAIL_IF(k->meta && k->meta->args[i].addr_space != HP_CL_GLOBAL &&
			k->meta->args[i].addr_space != HP_CL_CONSTANT,
		CL_INVALID_ARG_VALUE,
		"argument %u (%s) is not a __global or __constant pointer", i,
		k->meta->args[i].name);
	cl_mem m = v ? icd_svm_find(k->prog->ctx, v, 0) : NULL;
	FAIL_IF(v && !m, CL_INVALID_ARG_VALUE,
		"argument %u: %p is in no SVM allocation of the kernel's "
		"context",
		i, v);
	uint64_t zero = 0;
	if (!k->meta) {
		cl_int rc = icd_kernel_set_raw(k, i, sizeof(zero), &zero);
		if (rc)
			return rc;
	} else {
		memcpy(k->args + k->meta->args[i].offset, &zero, 8);
		k->set[i / 64] |= 1ull << (i % 64);
	}
	k->arg_mem[i] =
		m ? (struct icd_arg_mem){m, m->serial, icd_svm_offset(m, v)}
		  : (struct icd_arg_mem){0};
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel k, cl_uint i,
						       const void *v)
{
	icd_lock();
	cl_int rc = icd_valid_kernel(k)
			    ? set_svm(k, i, v)
			    : icd_fail(CL_INVALID_KERNEL, "CL_INVALID_KERNEL",
				       __func__, "%p is not a live kernel",
				       (void *)k);
	icd_fail_deliver(icd_ctx_of(k), rc);
	icd_unlock();
	return rc;
}

static cl_int exec_info(cl_kernel k, cl_kernel_exec_info p, size_t size,
			const void *v)
{
	FAIL_IF(!icd_valid_kernel(k), CL_INVALID_KERNEL,
		"%p is not a live kernel", (void *)k);
	if (p == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM) {
		FAIL_IF(!v || size != sizeof(cl_bool), CL_INVALID_VALUE,
			"CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: %zu bytes "
			"at %p, not a cl_bool",
			size, v);
		FAIL_IF(*(const cl_bool *)v, CL_INVALID_OPERATION,
			"fine-grain system SVM: no device has it "
			"(CL_DEVICE_SVM_CAPABILITIES)");
		return CL_SUCCESS;
	}
	FAIL_IF(p != CL_KERNEL_EXEC_INFO_SVM_PTRS, CL_INVALID_VALUE,
		"no kernel exec info 0x%x", (unsigned)p);
	size_t n = size / sizeof(void *);
	FAIL_IF((size % sizeof(void *)) || (size && !v), CL_INVALID_VALUE,
		"CL_KERNEL_EXEC_INFO_SVM_PTRS: %zu bytes at %p", size, v);
	FAIL_IF(n > ICD_EXEC_SVM_MAX, CL_INVALID_VALUE,
		"CL_KERNEL_EXEC_INFO_SVM_PTRS: %zu pointers (at most %u)", n,
		ICD_EXEC_SVM_MAX);
	struct icd_arg_mem got[ICD_EXEC_SVM_MAX];
	for (size_t i = 0; i < n; i++) {
		const void *ptr = ((const void *const *)v)[i];
		cl_mem m = icd_svm_find(k->prog->ctx, ptr, 0);
		FAIL_IF(!m, CL_INVALID_VALUE,
			"CL_KERNEL_EXEC_INFO_SVM_PTRS[%zu]: %p is in no SVM "
			"allocation of the kernel's context",
			i, ptr);
		got[i] = (struct icd_arg_mem){m, m->serial, 0};
	}
	memcpy(k->exec_svm, got, n * sizeof(got[0]));
	k->num_exec_svm = (unsigned)n;
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel k,
						  cl_kernel_exec_info p,
						  size_t size, const void *v)
{
	icd_lock();
	cl_int rc = exec_info(k, p, size, v);
	icd_fail_deliver(icd_ctx_of(k), rc);
	icd_unlock();
	return rc;
}
