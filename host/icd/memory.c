// SPDX-License-Identifier: MIT
/* Buffers and sub-buffers, and the commands on them: reads and writes
 * (host-side, synchronous once their wait list is met), copies and fills
 * (device commands), maps (a read into a host copy) and unmaps (a write
 * back when mapped for writing). */
#include "icd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool icd_valid_mem(cl_mem m)
{
	return icd_obj_valid(m, MAGIC_MEM);
}

/* Every command that uses a buffer holds it until it completes (struct
 * icd_hold), a sub-buffer holds its buffer: the buffer goes when the last
 * of those and of the application's references does. */
static void mem_destroy(cl_mem m)
{
	icd_destructors_run(m->destructors, m);
	for (struct icd_map *p = m->maps, *nx; p; p = nx) {
		nx = p->next;
		free(p);
	}
	if (m->parent)
		icd_mem_drop(m->parent);
	else
		hp_buffer_free(icd_device.hp, m->addr);
	free(m->shadow);
	cl_context c = m->ctx;
	icd_obj_free(m, sizeof(*m));
	icd_ctx_drop(c);
}

void icd_mem_retain(cl_mem m)
{
	m->refs++;
}

void icd_mem_release(cl_mem m)
{
	if (icd_obj_unref(m))
		mem_destroy(m);
}

void icd_mem_hold(cl_mem m)
{
	m->holds++;
}

void icd_mem_drop(cl_mem m)
{
	if (icd_obj_unhold(m))
		mem_destroy(m);
}

static uint64_t next_serial = 1;

cl_int icd_hold_mem(struct icd_hold *h, cl_mem m)
{
	cl_mem *n = realloc(h->mems, (h->num_mems + 1) * sizeof(*n));
	if (!n)
		return CL_OUT_OF_HOST_MEMORY;
	h->mems = n;
	icd_mem_hold(m);
	h->mems[h->num_mems++] = m;
	return CL_SUCCESS;
}

void icd_hold_drop(struct icd_hold *h)
{
	/* copy first: a release may run callbacks that enqueue */
	struct icd_hold x = *h;
	memset(h, 0, sizeof(*h));
	for (unsigned i = 0; i < x.num_mems; i++)
		icd_mem_drop(x.mems[i]);
	free(x.mems);
	if (x.kernel)
		icd_kernel_drop(x.kernel);
}

static const cl_mem_flags ACCESS =
	CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags HOST_ACCESS =
	CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

static bool one_bit(cl_mem_flags f)
{
	return !(f & (f - 1));
}

static cl_mem create_buffer(cl_context c, cl_mem_flags flags, size_t size,
			    void *host, const cl_mem_properties *props,
			    cl_int *err)
{
	size_t np = 0;
	if (props) {
		if (props[0]) {
			*err = CL_INVALID_PROPERTY;
			return NULL;
		}
		np = 1;
	}
	if (!icd_valid_ctx(c)) {
		*err = CL_INVALID_CONTEXT;
		return NULL;
	}
	const cl_mem_flags known = ACCESS | HOST_ACCESS | CL_MEM_USE_HOST_PTR |
				   CL_MEM_ALLOC_HOST_PTR |
				   CL_MEM_COPY_HOST_PTR |
				   CL_MEM_KERNEL_READ_AND_WRITE;
	bool use = flags & CL_MEM_USE_HOST_PTR;
	bool copy = flags & CL_MEM_COPY_HOST_PTR;
	if ((flags & ~known) || (flags & CL_MEM_KERNEL_READ_AND_WRITE) ||
	    !one_bit(flags & ACCESS) || !one_bit(flags & HOST_ACCESS) ||
	    (use && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))) {
		*err = CL_INVALID_VALUE;
		return NULL;
	}
	if (!size || size > icd_max_alloc()) {
		*err = CL_INVALID_BUFFER_SIZE;
		return NULL;
	}
	if ((use || copy) != (host != NULL)) {
		*err = CL_INVALID_HOST_PTR;
		return NULL;
	}
	cl_mem m = icd_obj_new(MAGIC_MEM, sizeof(*m));
	if (!m) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	int rc = hp_buffer_alloc(icd_device.hp, size, &m->addr);
	if (!rc && host)
		rc = hp_buffer_write(icd_device.hp, m->addr, 0, host, size);
	if (rc) {
		if (m->addr)
			hp_buffer_free(icd_device.hp, m->addr);
		icd_obj_free(m, sizeof(*m));
		*err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
		return NULL;
	}
	if (!(flags & ACCESS))
		flags |= CL_MEM_READ_WRITE;
	m->serial = next_serial++;
	m->ctx = c;
	m->flags = flags;
	m->size = size;
	m->host_ptr = use ? host : NULL;
	if (np)
		m->props[0] = 0;
	m->num_props = np;
	icd_ctx_hold(c);
	*err = CL_SUCCESS;
	return m;
}

ICD_EXPORT cl_mem CL_API_CALL clCreateBuffer(cl_context c, cl_mem_flags flags,
					     size_t size, void *host,
					     cl_int *errp)
{
	cl_int err;
	icd_lock();
	cl_mem m = create_buffer(c, flags, size, host, NULL, &err);
	icd_unlock();
	if (errp)
		*errp = err;
	return m;
}

ICD_EXPORT cl_mem CL_API_CALL clCreateBufferWithProperties(
	cl_context c, const cl_mem_properties *props, cl_mem_flags flags,
	size_t size, void *host, cl_int *errp)
{
	cl_int err;
	icd_lock();
	cl_mem m = create_buffer(c, flags, size, host, props, &err);
	icd_unlock();
	if (errp)
		*errp = err;
	return m;
}

ICD_EXPORT cl_mem CL_API_CALL clCreateSubBuffer(cl_mem p, cl_mem_flags flags,
						cl_buffer_create_type type,
						const void *info, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	cl_mem m = NULL;
	icd_lock();
	const cl_buffer_region *r = info;
	if (!icd_valid_mem(p) || p->parent) {
		err = CL_INVALID_MEM_OBJECT;
		goto out;
	}
	if (type != CL_BUFFER_CREATE_TYPE_REGION || !r) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	const cl_mem_flags known = ACCESS | HOST_ACCESS;
	if ((flags & ~known) || !one_bit(flags & ACCESS) ||
	    !one_bit(flags & HOST_ACCESS) ||
	    ((p->flags & CL_MEM_WRITE_ONLY) &&
	     (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
	    ((p->flags & CL_MEM_READ_ONLY) &&
	     (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
	    ((p->flags & CL_MEM_HOST_WRITE_ONLY) &&
	     (flags & CL_MEM_HOST_READ_ONLY)) ||
	    ((p->flags & CL_MEM_HOST_READ_ONLY) &&
	     (flags & CL_MEM_HOST_WRITE_ONLY)) ||
	    ((p->flags & CL_MEM_HOST_NO_ACCESS) &&
	     (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	if (!r->size) {
		err = CL_INVALID_BUFFER_SIZE;
		goto out;
	}
	if (r->origin > p->size || r->size > p->size - r->origin) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	if (r->origin % HP_MBOX_BUFFER_ALIGN) {
		err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
		goto out;
	}
	m = icd_obj_new(MAGIC_MEM, sizeof(*m));
	if (!m) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	m->serial = next_serial++;
	m->ctx = p->ctx;
	m->flags = (flags & ACCESS ? flags & ACCESS : p->flags & ACCESS) |
		   (flags & HOST_ACCESS ? flags & HOST_ACCESS
					: p->flags & HOST_ACCESS) |
		   (p->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
				CL_MEM_COPY_HOST_PTR));
	m->size = r->size;
	m->addr = p->addr + r->origin;
	m->parent = p;
	m->origin = r->origin;
	m->host_ptr = p->host_ptr ? (char *)p->host_ptr + r->origin : NULL;
	icd_mem_hold(p);
	icd_ctx_hold(m->ctx);
out:
	icd_unlock();
	if (errp)
		*errp = err;
	return m;
}

ICD_REFCOUNT_CALL(clRetainMemObject, cl_mem, icd_valid_mem, icd_mem_retain,
		  CL_INVALID_MEM_OBJECT)

ICD_REFCOUNT_CALL(clReleaseMemObject, cl_mem, icd_valid_mem, icd_mem_release,
		  CL_INVALID_MEM_OBJECT)

ICD_EXPORT cl_int CL_API_CALL clSetMemObjectDestructorCallback(
	cl_mem m, void(CL_CALLBACK *fn)(cl_mem, void *), void *data)
{
	icd_lock();
	cl_int rc = CL_INVALID_MEM_OBJECT;
	if (icd_valid_mem(m)) {
		rc = icd_destructor_push(
			&m->destructors,
			(void(CL_CALLBACK *)(void *, void *))(void *)fn, data);
	}
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info param,
						 size_t size, void *value,
						 size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_MEM_OBJECT;
	if (!icd_valid_mem(m))
		goto out;
	switch (param) {
	case CL_MEM_TYPE: {
		cl_mem_object_type t = CL_MEM_OBJECT_BUFFER;
		rc = icd_info(&t, sizeof(t), size, value, ret);
		break;
	}
	case CL_MEM_FLAGS:
		rc = icd_info(&m->flags, sizeof(m->flags), size, value, ret);
		break;
	case CL_MEM_SIZE:
		rc = icd_info(&m->size, sizeof(m->size), size, value, ret);
		break;
	case CL_MEM_HOST_PTR:
		rc = icd_info(&m->host_ptr, sizeof(void *), size, value, ret);
		break;
	case CL_MEM_MAP_COUNT:
		rc = icd_info(&m->map_count, sizeof(cl_uint), size, value, ret);
		break;
	case CL_MEM_REFERENCE_COUNT:
		rc = icd_info(&m->refs, sizeof(cl_uint), size, value, ret);
		break;
	case CL_MEM_CONTEXT:
		rc = icd_info(&m->ctx, sizeof(m->ctx), size, value, ret);
		break;
	case CL_MEM_ASSOCIATED_MEMOBJECT:
		rc = icd_info(&m->parent, sizeof(m->parent), size, value, ret);
		break;
	case CL_MEM_OFFSET:
		rc = icd_info(&m->origin, sizeof(m->origin), size, value, ret);
		break;
	case CL_MEM_USES_SVM_POINTER: {
		cl_bool f = CL_FALSE;
		rc = icd_info(&f, sizeof(f), size, value, ret);
		break;
	}
	case CL_MEM_PROPERTIES:
		rc = icd_info(m->props, m->num_props * sizeof(m->props[0]),
			      size, value, ret);
		break;
	default:
		rc = CL_INVALID_VALUE;
	}
out:
	icd_unlock();
	return rc;
}

/* ---- commands ---- */

/* The common checks of a command on @p m: queue, object, context, wait
 * list. */
static cl_int check_cmd(cl_command_queue q, cl_mem m, cl_uint nw,
			const cl_event *w)
{
	if (!icd_valid_queue(q))
		return CL_INVALID_COMMAND_QUEUE;
	if (!icd_valid_mem(m))
		return CL_INVALID_MEM_OBJECT;
	if (m->ctx != q->ctx)
		return CL_INVALID_CONTEXT;
	return icd_check_wait(q->ctx, nw, w);
}

static bool range_ok(cl_mem m, size_t off, size_t size)
{
	return off <= m->size && size <= m->size - off;
}

/* A command on @p m (may be NULL), which it holds until it completes. */
static struct icd_cmd *cmd_new(icd_cmd_fn run, cl_mem m)
{
	struct icd_cmd *c = calloc(1, sizeof(*c));
	if (c) {
		c->run = run;
		if (m && icd_hold_mem(&c->hold, m)) {
			free(c);
			return NULL;
		}
		c->mem = m;
	}
	return c;
}

/* A second buffer for @p c (copies): NULL, with @p c freed, if out of
 * memory. */
static struct icd_cmd *cmd_mem2(struct icd_cmd *c, cl_mem m)
{
	if (c && icd_hold_mem(&c->hold, m)) {
		icd_cmd_free(c);
		return NULL;
	}
	if (c)
		c->mem2 = m;
	return c;
}

/* Host-side transfers: @p n bytes at @p off of @p m, only ever inside the
 * buffer (the library checks the device's heap, not the buffer). */
static cl_int mem_io(cl_mem m, size_t off, void *p, size_t n, bool read)
{
	if (!range_ok(m, off, n))
		return CL_INVALID_VALUE;
	if (!n)
		return CL_SUCCESS;
	int rc = read ? hp_buffer_read(icd_device.hp, m->addr, off, p, n)
		      : hp_buffer_write(icd_device.hp, m->addr, off, p, n);
	return rc ? icd_err(rc) : CL_SUCCESS;
}

/* Host-side commands start once their dependencies and (in-order) the
 * queue's earlier commands are complete. */
static cl_int host_start(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_int rc = icd_wait_deps(deps, n);
	cl_command_queue q = c->ev->queue;
	if (!rc && q->in_order)
		rc = icd_queue_drain(q);
	c->ev->t_start = icd_now_ns();
	return rc;
}

static cl_int run_read(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_int rc = host_start(c, deps, n);
	return rc ? rc : mem_io(c->mem, c->off, c->ptr, c->size, true);
}

static cl_int run_write(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_int rc = host_start(c, deps, n);
	return rc ? rc : mem_io(c->mem, c->off, c->ptr, c->size, false);
}

/* Submit, and for a blocking command wait: CL_SUCCESS, the submission's
 * error, or CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. */
static cl_int submit(cl_command_queue q, struct icd_cmd *c, cl_uint nw,
		     const cl_event *w, cl_command_type type, cl_bool block,
		     cl_event *ev)
{
	if (!c)
		return CL_OUT_OF_HOST_MEMORY;
	cl_event e = NULL;
	cl_int rc = icd_submit(q, c, nw, w, type, &e);
	if (rc)
		return rc;
	if (block) {
		rc = icd_event_wait(e);
		if (!rc && e->status < 0)
			rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
		icd_queue_reap(q);
	}
	if (ev)
		*ev = e;
	else
		icd_event_release(e);
	return rc;
}

static cl_int rw(cl_command_queue q, cl_mem m, cl_bool block, size_t off,
		 size_t size, void *ptr, cl_uint nw, const cl_event *w,
		 cl_event *ev, bool read)
{
	icd_lock();
	cl_int rc = check_cmd(q, m, nw, w);
	if (rc)
		goto out;
	rc = CL_INVALID_VALUE;
	if (!ptr || !range_ok(m, off, size))
		goto out;
	rc = CL_INVALID_OPERATION;
	if (m->flags & (read ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
			     : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
		goto out;
	struct icd_cmd *c = cmd_new(read ? run_read : run_write, m);
	if (c) {
		c->off = off;
		c->size = size;
		c->ptr = ptr;
	}
	rc = submit(q, c, nw, w,
		    read ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER,
		    block, ev);
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m,
						  cl_bool block, size_t off,
						  size_t size, void *ptr,
						  cl_uint nw, const cl_event *w,
						  cl_event *ev)
{
	return rw(q, m, block, off, size, ptr, nw, w, ev, true);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueWriteBuffer(
	cl_command_queue q, cl_mem m, cl_bool block, size_t off, size_t size,
	const void *ptr, cl_uint nw, const cl_event *w, cl_event *ev)
{
	return rw(q, m, block, off, size, (void *)ptr, nw, w, ev, false);
}

/* ---- rectangles (host-side, row by row) ---- */

/* Two sides of a rectangle copy: [0] the buffer (the source of a copy),
 * [1] the host memory (the destination buffer of a copy). Pitches are
 * filled in from their defaults by rect_norm. */
struct rect {
	size_t reg[3];
	size_t o[2][3];
	size_t rp[2], sp[2];
};

/* The byte after the last of side @p s: (o2 + r2 - 1) * sp + (o1 + r1 - 1)
 * * rp + o0 + r0, or false if that overflows a size_t. Every row's offset
 * is below it, so run_rect's plain arithmetic cannot wrap then. */
static bool rect_end(const struct rect *r, int s, size_t *end)
{
	const size_t *o = r->o[s];
	size_t z, y, x, a, b;
	return !__builtin_add_overflow(o[2], r->reg[2] - 1, &z) &&
	       !__builtin_add_overflow(o[1], r->reg[1] - 1, &y) &&
	       !__builtin_add_overflow(o[0], r->reg[0], &x) &&
	       !__builtin_mul_overflow(z, r->sp[s], &a) &&
	       !__builtin_mul_overflow(y, r->rp[s], &b) &&
	       !__builtin_add_overflow(a, b, &a) &&
	       !__builtin_add_overflow(a, x, end);
}

/* The offset of row (y, z) of side @p s (below its end: no overflow). */
static size_t rect_row(const struct rect *r, int s, size_t y, size_t z)
{
	return (r->o[s][2] + z) * r->sp[s] + (r->o[s][1] + y) * r->rp[s] +
	       r->o[s][0];
}

/* Check and normalise a rectangle (OpenCL 3.0, clEnqueueReadBufferRect):
 * CL_INVALID_VALUE for a 0 in the region, pitches smaller than a row or a
 * slice or not a multiple of the row pitch, and (overflow-checked) ends. */
static cl_int rect_norm(struct rect *r, const size_t *o0, const size_t *o1,
			const size_t *reg, const size_t rp[2],
			const size_t sp[2], size_t end[2])
{
	if (!o0 || !o1 || !reg || !reg[0] || !reg[1] || !reg[2])
		return CL_INVALID_VALUE;
	for (int i = 0; i < 3; i++) {
		r->reg[i] = reg[i];
		r->o[0][i] = o0[i];
		r->o[1][i] = o1[i];
	}
	for (int s = 0; s < 2; s++) {
		r->rp[s] = rp[s] ? rp[s] : reg[0];
		size_t slice;
		if (r->rp[s] < reg[0] ||
		    __builtin_mul_overflow(reg[1], r->rp[s], &slice))
			return CL_INVALID_VALUE;
		r->sp[s] = sp[s] ? sp[s] : slice;
		if (r->sp[s] < slice || (sp[s] && sp[s] % r->rp[s]) ||
		    !rect_end(r, s, &end[s]))
			return CL_INVALID_VALUE;
	}
	return CL_SUCCESS;
}

/* read: buffer -> host; write: host -> buffer (c->pattern: read) */
static cl_int run_rect(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_int rc = host_start(c, deps, n);
	const struct rect *r = (const struct rect *)c->args;
	for (size_t z = 0; !rc && z < r->reg[2]; z++)
		for (size_t y = 0; !rc && y < r->reg[1]; y++)
			rc = mem_io(c->mem, rect_row(r, 0, y, z),
				    (char *)c->ptr + rect_row(r, 1, y, z),
				    r->reg[0], c->pattern);
	return rc;
}

/* A command with a copy of @p r in its args; NULL (@p c freed) if out of
 * memory. */
static struct icd_cmd *cmd_rect(struct icd_cmd *c, const struct rect *r)
{
	if (c && !(c->args = malloc(sizeof(*r)))) {
		icd_cmd_free(c);
		return NULL;
	}
	if (c)
		memcpy(c->args, r, sizeof(*r));
	return c;
}

static cl_int rw_rect(cl_command_queue q, cl_mem m, cl_bool block,
		      const size_t *bo, const size_t *ho, const size_t *reg,
		      size_t brp, size_t bsp, size_t hrp, size_t hsp, void *ptr,
		      cl_uint nw, const cl_event *w, cl_event *ev, bool read)
{
	icd_lock();
	struct rect r;
	size_t end[2], rp[2] = {brp, hrp}, sp[2] = {bsp, hsp};
	cl_int rc = check_cmd(q, m, nw, w);
	if (rc || (rc = rect_norm(&r, bo, ho, reg, rp, sp, end)))
		goto out;
	/* the buffer side inside the buffer, the host side inside the
	 * address space */
	rc = CL_INVALID_VALUE;
	if (!ptr || end[0] > m->size || end[1] > UINTPTR_MAX - (uintptr_t)ptr)
		goto out;
	rc = CL_INVALID_OPERATION;
	if (m->flags & (read ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
			     : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
		goto out;
	struct icd_cmd *c = cmd_rect(cmd_new(run_rect, m), &r);
	if (c) {
		c->ptr = ptr;
		c->pattern = read;
	}
	rc = submit(q, c, nw, w,
		    read ? CL_COMMAND_READ_BUFFER_RECT
			 : CL_COMMAND_WRITE_BUFFER_RECT,
		    block, ev);
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueReadBufferRect(
	cl_command_queue q, cl_mem m, cl_bool block, const size_t *bo,
	const size_t *ho, const size_t *reg, size_t brp, size_t bsp, size_t hrp,
	size_t hsp, void *ptr, cl_uint nw, const cl_event *w, cl_event *ev)
{
	return rw_rect(q, m, block, bo, ho, reg, brp, bsp, hrp, hsp, ptr, nw, w,
		       ev, true);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueWriteBufferRect(
	cl_command_queue q, cl_mem m, cl_bool block, const size_t *bo,
	const size_t *ho, const size_t *reg, size_t brp, size_t bsp, size_t hrp,
	size_t hsp, const void *ptr, cl_uint nw, const cl_event *w,
	cl_event *ev)
{
	return rw_rect(q, m, block, bo, ho, reg, brp, bsp, hrp, hsp,
		       (void *)ptr, nw, w, ev, false);
}

/* Copy rect: through host memory, row by row. */
static cl_int run_copy_rect(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_int rc = host_start(c, deps, n);
	const struct rect *r = (const struct rect *)c->args;
	char *row = rc ? NULL : malloc(r->reg[0]);
	if (!rc && !row)
		rc = CL_OUT_OF_HOST_MEMORY;
	for (size_t z = 0; !rc && z < r->reg[2]; z++)
		for (size_t y = 0; !rc && y < r->reg[1]; y++) {
			rc = mem_io(c->mem, rect_row(r, 0, y, z), row,
				    r->reg[0], true);
			if (!rc)
				rc = mem_io(c->mem2, rect_row(r, 1, y, z), row,
					    r->reg[0], false);
		}
	free(row);
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueCopyBufferRect(
	cl_command_queue q, cl_mem src, cl_mem dst, const size_t *so,
	const size_t *dof, const size_t *reg, size_t srp, size_t ssp,
	size_t drp, size_t dsp, cl_uint nw, const cl_event *w, cl_event *ev)
{
	icd_lock();
	struct rect r;
	size_t end[2], rp[2] = {srp, drp}, sp[2] = {ssp, dsp};
	cl_int rc = check_cmd(q, src, nw, w);
	if (!rc)
		rc = check_cmd(q, dst, 0, NULL);
	if (rc || (rc = rect_norm(&r, so, dof, reg, rp, sp, end)))
		goto out;
	rc = CL_INVALID_VALUE;
	if (end[0] > src->size || end[1] > dst->size)
		goto out;
	if (src == dst && (r.rp[0] != r.rp[1] || r.sp[0] != r.sp[1]))
		goto out;
	if (src == dst) {
		size_t s0 = rect_row(&r, 0, 0, 0), d0 = rect_row(&r, 1, 0, 0);
		if (s0 < end[1] && d0 < end[0]) {
			rc = CL_MEM_COPY_OVERLAP;
			goto out;
		}
	}
	struct icd_cmd *c =
		cmd_rect(cmd_mem2(cmd_new(run_copy_rect, src), dst), &r);
	rc = submit(q, c, nw, w, CL_COMMAND_COPY_BUFFER_RECT, CL_FALSE, ev);
out:
	icd_unlock();
	return rc;
}

/* ---- copy and fill (device commands) ---- */

static cl_int run_copy(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_command_queue q = c->ev->queue;
	int rc = hp_enqueue_copy(q->hq, c->mem2->addr + c->off2,
				 c->mem->addr + c->off, c->size, deps, n,
				 &c->ev->dev);
	if (rc)
		return icd_err(rc);
	c->ev->on_device = true;
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueCopyBuffer(
	cl_command_queue q, cl_mem src, cl_mem dst, size_t so, size_t dof,
	size_t size, cl_uint nw, const cl_event *w, cl_event *ev)
{
	icd_lock();
	cl_int rc = check_cmd(q, src, nw, w);
	if (!rc)
		rc = check_cmd(q, dst, 0, NULL);
	if (rc)
		goto out;
	rc = CL_INVALID_VALUE;
	if (!size || !range_ok(src, so, size) || !range_ok(dst, dof, size))
		goto out;
	hp_buffer s = src->addr + so, d = dst->addr + dof;
	if (s < d + size && d < s + size) {
		rc = CL_MEM_COPY_OVERLAP;
		goto out;
	}
	struct icd_cmd *c = cmd_mem2(cmd_new(run_copy, src), dst);
	if (c) {
		c->off = so;
		c->off2 = dof;
		c->size = size;
	}
	rc = submit(q, c, nw, w, CL_COMMAND_COPY_BUFFER, CL_FALSE, ev);
out:
	icd_unlock();
	return rc;
}

static cl_int run_fill(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_command_queue q = c->ev->queue;
	int rc = hp_enqueue_fill(q->hq, c->mem->addr + c->off, c->size,
				 c->pattern, c->pattern_size, deps, n,
				 &c->ev->dev);
	if (rc)
		return icd_err(rc);
	c->ev->on_device = true;
	return CL_SUCCESS;
}

/* Patterns over 8 bytes: written from the host. */
static cl_int run_fill_host(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_int rc = host_start(c, deps, n);
	if (rc)
		return rc;
	size_t chunk = c->size < 65536 ? c->size : 65536;
	char *b = malloc(chunk ? chunk : 1);
	if (!b)
		return CL_OUT_OF_HOST_MEMORY;
	for (size_t i = 0; i < chunk; i += c->pattern_size)
		memcpy(b + i, c->args, c->pattern_size);
	for (size_t o = 0; !rc && o < c->size; o += chunk) {
		size_t l = c->size - o < chunk ? c->size - o : chunk;
		rc = mem_io(c->mem, c->off + o, b, l, false);
	}
	free(b);
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem m,
						  const void *pat, size_t ps,
						  size_t off, size_t size,
						  cl_uint nw, const cl_event *w,
						  cl_event *ev)
{
	icd_lock();
	cl_int rc = check_cmd(q, m, nw, w);
	if (rc)
		goto out;
	rc = CL_INVALID_VALUE;
	if (!pat || !ps || ps > 128 || (ps & (ps - 1)) || off % ps ||
	    size % ps || !range_ok(m, off, size))
		goto out;
	struct icd_cmd *c = cmd_new(ps <= 8 ? run_fill : run_fill_host, m);
	if (c) {
		c->off = off;
		c->size = size;
		c->pattern_size = (unsigned)ps;
		if (ps <= 8)
			memcpy(&c->pattern, pat, ps);
		else if ((c->args = malloc(ps)))
			memcpy(c->args, pat, ps);
		else {
			icd_cmd_free(c);
			c = NULL;
		}
	}
	if (c && !size) {
		c->run = run_fill_host; /* nothing to write */
	}
	rc = submit(q, c, nw, w, CL_COMMAND_FILL_BUFFER, CL_FALSE, ev);
out:
	icd_unlock();
	return rc;
}

/* ---- map / unmap ---- */

static cl_int run_map(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_int rc = host_start(c, deps, n);
	if (!rc && c->pattern)
		rc = mem_io(c->mem, c->off, c->ptr, c->size, true);
	return rc;
}

ICD_EXPORT void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m,
						cl_bool block,
						cl_map_flags flags, size_t off,
						size_t size, cl_uint nw,
						const cl_event *w, cl_event *ev,
						cl_int *errp)
{
	icd_lock();
	void *ptr = NULL;
	cl_int rc = check_cmd(q, m, nw, w);
	if (rc)
		goto out;
	rc = CL_INVALID_VALUE;
	const cl_map_flags known =
		CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
	if (!size || !range_ok(m, off, size) || (flags & ~known) ||
	    ((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
	     (flags & (CL_MAP_READ | CL_MAP_WRITE))))
		goto out;
	rc = CL_INVALID_OPERATION;
	if ((m->flags & CL_MEM_HOST_NO_ACCESS) ||
	    ((m->flags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MAP_READ)) ||
	    ((m->flags & CL_MEM_HOST_READ_ONLY) &&
	     (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))))
		goto out;
	char *base = m->host_ptr;
	if (!base) {
		if (!m->shadow && !(m->shadow = malloc(m->size))) {
			rc = CL_MAP_FAILURE;
			goto out;
		}
		base = m->shadow;
	}
	struct icd_map *mp = calloc(1, sizeof(*mp));
	struct icd_cmd *c = mp ? cmd_new(run_map, m) : NULL;
	if (!c) {
		free(mp);
		rc = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	c->off = off;
	c->size = size;
	c->ptr = base + off;
	c->pattern = !(flags & CL_MAP_WRITE_INVALIDATE_REGION);
	rc = submit(q, c, nw, w, CL_COMMAND_MAP_BUFFER, block, ev);
	if (rc) {
		free(mp);
		goto out;
	}
	mp->ptr = base + off;
	mp->off = off;
	mp->size = size;
	mp->write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
	mp->next = m->maps;
	m->maps = mp;
	m->map_count++;
	ptr = base + off;
out:
	icd_unlock();
	if (errp)
		*errp = rc;
	return ptr;
}

static cl_int run_unmap(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_int rc = host_start(c, deps, n);
	if (!rc && c->pattern)
		rc = mem_io(c->mem, c->off, c->ptr, c->size, false);
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q,
						      cl_mem m, void *ptr,
						      cl_uint nw,
						      const cl_event *w,
						      cl_event *ev)
{
	icd_lock();
	cl_int rc = check_cmd(q, m, nw, w);
	if (rc)
		goto out;
	struct icd_map **pp = &m->maps;
	while (*pp && (*pp)->ptr != ptr)
		pp = &(*pp)->next;
	rc = CL_INVALID_VALUE;
	if (!*pp)
		goto out;
	struct icd_map *mp = *pp;
	struct icd_cmd *c = cmd_new(run_unmap, m);
	if (!c) {
		rc = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	c->off = mp->off;
	c->size = mp->size;
	c->ptr = mp->ptr;
	c->pattern = mp->write;
	*pp = mp->next;
	free(mp);
	m->map_count--;
	rc = submit(q, c, nw, w, CL_COMMAND_UNMAP_MEM_OBJECT, CL_FALSE, ev);
out:
	icd_unlock();
	return rc;
}

static cl_int run_nop(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	return host_start(c, deps, n);
}

ICD_EXPORT cl_int CL_API_CALL
clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n, const cl_mem *ms,
			   cl_mem_migration_flags flags, cl_uint nw,
			   const cl_event *w, cl_event *ev)
{
	icd_lock();
	cl_int rc = CL_INVALID_VALUE;
	if (!n || !ms ||
	    (flags &
	     ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST |
				       CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
		rc = icd_valid_queue(q) ? CL_INVALID_VALUE
					: CL_INVALID_COMMAND_QUEUE;
	else {
		rc = CL_SUCCESS;
		for (cl_uint i = 0; i < n && !rc; i++)
			rc = check_cmd(q, ms[i], nw, w);
		if (!rc)
			rc = submit(q, cmd_new(run_nop, NULL), nw, w,
				    CL_COMMAND_MIGRATE_MEM_OBJECTS, CL_FALSE,
				    ev);
	}
	icd_unlock();
	return rc;
}
