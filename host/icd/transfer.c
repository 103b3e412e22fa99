// SPDX-License-Identifier: MIT
/* The commands on buffers: reads and writes (host-side, synchronous once
 * their wait list is met), rectangles, copies and fills (device commands;
 * fills with patterns over 8 bytes from the host), maps (a read into a host
 * copy) and unmaps (a write back when mapped for writing), migrations. Each
 * checks its arguments, makes its command (core/cmd.c) and enqueues it. */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

/* The common checks of a command on @p m: queue, object, context, wait
 * list. */
static cl_int check_cmd(cl_command_queue q, cl_mem m, cl_uint nw,
			const cl_event *w)
{
	FAIL_IF(!icd_valid_queue(q), CL_INVALID_COMMAND_QUEUE,
		"%p is not a live command queue", (void *)q);
	FAIL_IF(!icd_valid_mem(m), CL_INVALID_MEM_OBJECT,
		"%p is not a live buffer", (void *)m);
	FAIL_IF(m->ctx != q->ctx, CL_INVALID_CONTEXT,
		"the buffer's context %p is not the queue's %p", (void *)m->ctx,
		(void *)q->ctx);
	return icd_check_wait(q->ctx, nw, w);
}

static cl_int check_range(cl_mem m, size_t off, size_t size)
{
	FAIL_IF(off > m->size || size > m->size - off, CL_INVALID_VALUE,
		"%zu bytes at %zu are outside the buffer's %zu", size, off,
		m->size);
	return CL_SUCCESS;
}

static cl_int check_host_access(cl_mem m, bool read)
{
	cl_mem_flags no = read ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
			       : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
	FAIL_IF(m->flags & no, CL_INVALID_OPERATION,
		"the buffer's flags 0x%llx forbid the host to %s it",
		(unsigned long long)m->flags, read ? "read" : "write");
	return CL_SUCCESS;
}

/* Enqueue (the queue valid) and hand a failure to the queue's context. */
static cl_int done(cl_command_queue q, cl_int rc)
{
	return icd_fail_deliver(icd_ctx_of(q), rc);
}

static cl_int rw(cl_command_queue q, cl_mem m, cl_bool block, size_t off,
		 size_t size, void *ptr, cl_uint nw, const cl_event *w,
		 cl_event *ev, bool read)
{
	icd_lock();
	cl_int rc = check_cmd(q, m, nw, w);
	if (!rc && !ptr)
		rc = icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE",
			      read ? "clEnqueueReadBuffer"
				   : "clEnqueueWriteBuffer",
			      "ptr is NULL");
	if (!rc && !(rc = check_range(m, off, size)) &&
	    !(rc = check_host_access(m, read))) {
		struct icd_cmd *c =
			icd_cmd_on(read ? CMD_READ : CMD_WRITE, m, NULL);
		if (c)
			c->u.rw = (struct icd_cmd_rw){m, off, size, ptr};
		rc = icd_enqueue(q, c, nw, w,
				 read ? CL_COMMAND_READ_BUFFER
				      : CL_COMMAND_WRITE_BUFFER,
				 block, ev);
	}
	done(q, rc);
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

/* The byte after the last of side @p s: (o2 + r2 - 1) * sp + (o1 + r1 - 1)
 * * rp + o0 + r0, or false if that overflows a size_t. Every row's offset
 * is below it, so the rows' plain arithmetic cannot wrap then. */
static bool rect_end(const struct icd_rect *r, int s, size_t *end)
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

/* Check and normalise a rectangle (OpenCL 3.0, clEnqueueReadBufferRect):
 * CL_INVALID_VALUE for a 0 in the region, pitches smaller than a row or a
 * slice or not a multiple of the row pitch, and (overflow-checked) ends. */
static cl_int rect_norm(struct icd_rect *r, const size_t *o0, const size_t *o1,
			const size_t *reg, const size_t rp[2],
			const size_t sp[2], size_t end[2])
{
	FAIL_IF(!o0 || !o1 || !reg, CL_INVALID_VALUE,
		"an origin or the region is NULL");
	FAIL_IF(!reg[0] || !reg[1] || !reg[2], CL_INVALID_VALUE,
		"region %zu x %zu x %zu has a 0", reg[0], reg[1], reg[2]);
	for (int i = 0; i < 3; i++) {
		r->reg[i] = reg[i];
		r->o[0][i] = o0[i];
		r->o[1][i] = o1[i];
	}
	for (int s = 0; s < 2; s++) {
		r->rp[s] = rp[s] ? rp[s] : reg[0];
		size_t slice;
		FAIL_IF(r->rp[s] < reg[0] || __builtin_mul_overflow(
						     reg[1], r->rp[s], &slice),
			CL_INVALID_VALUE,
			"row pitch %zu is below the row's %zu bytes", r->rp[s],
			reg[0]);
		r->sp[s] = sp[s] ? sp[s] : slice;
		FAIL_IF(r->sp[s] < slice || (sp[s] && sp[s] % r->rp[s]),
			CL_INVALID_VALUE,
			"slice pitch %zu is below %zu or not a multiple of the "
			"row pitch %zu",
			r->sp[s], slice, r->rp[s]);
		FAIL_IF(!rect_end(r, s, &end[s]), CL_INVALID_VALUE,
			"the rectangle's end overflows a size_t");
	}
	return CL_SUCCESS;
}

static cl_int check_rw_rect(cl_mem m, const void *ptr, const size_t end[2])
{
	/* the buffer side inside the buffer, the host side inside the
	 * address space */
	FAIL_IF(!ptr, CL_INVALID_VALUE, "ptr is NULL");
	FAIL_IF(end[0] > m->size, CL_INVALID_VALUE,
		"the rectangle ends at %zu, past the buffer's %zu bytes",
		end[0], m->size);
	FAIL_IF(end[1] > UINTPTR_MAX - (uintptr_t)ptr, CL_INVALID_VALUE,
		"the host side ends past the address space");
	return CL_SUCCESS;
}

static cl_int rw_rect(cl_command_queue q, cl_mem m, cl_bool block,
		      const size_t *bo, const size_t *ho, const size_t *reg,
		      size_t brp, size_t bsp, size_t hrp, size_t hsp, void *ptr,
		      cl_uint nw, const cl_event *w, cl_event *ev, bool read)
{
	icd_lock();
	struct icd_rect r;
	size_t end[2], rp[2] = {brp, hrp}, sp[2] = {bsp, hsp};
	cl_int rc = check_cmd(q, m, nw, w);
	if (!rc && !(rc = rect_norm(&r, bo, ho, reg, rp, sp, end)) &&
	    !(rc = check_rw_rect(m, ptr, end)) &&
	    !(rc = check_host_access(m, read))) {
		struct icd_cmd *c = icd_cmd_on(
			read ? CMD_READ_RECT : CMD_WRITE_RECT, m, NULL);
		if (c)
			c->u.rect = (struct icd_cmd_rect){m, ptr, r};
		rc = icd_enqueue(q, c, nw, w,
				 read ? CL_COMMAND_READ_BUFFER_RECT
				      : CL_COMMAND_WRITE_BUFFER_RECT,
				 block, ev);
	}
	done(q, rc);
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

/* Whether the source and destination boxes of @p r (one buffer, the same
 * pitches) overlap, by the rule of OpenCL's "checking for memory copy
 * overlap": the boxes intersect in all three coordinates; or a row runs
 * past the row pitch by more than the other box's x origin (or, with more
 * than one slice, a slice past the slice's rows by more than the other's
 * y origin) and the two spans of bytes from first to last intersect. The
 * pitches are the application's as given (@p rp, @p sp; a 0 stays 0), as
 * the CTS applies the rule. */
static bool rect_overlap(const struct icd_rect *r, size_t rp, size_t sp)
{
	const size_t *so = r->o[0], *d = r->o[1], *g = r->reg;
	bool boxes = true;
	for (int i = 0; i < 3; i++)
		boxes = boxes && so[i] < d[i] + g[i] && d[i] < so[i] + g[i];
	if (boxes)
		return true;
	size_t extent = g[2] * sp + g[1] * rp + g[0];
	size_t s0 = so[2] * sp + so[1] * rp + so[0];
	size_t d0 = d[2] * sp + d[1] * rp + d[0];
	bool spans = (s0 <= d0 && d0 < s0 + extent) ||
		     (d0 <= s0 && s0 < d0 + extent);
	size_t sx = so[0] + g[0] > rp ? so[0] + g[0] - rp : 0;
	size_t dx = d[0] + g[0] > rp ? d[0] + g[0] - rp : 0;
	if (((sx && sx > d[0]) || (dx && dx > so[0])) && spans)
		return true;
	if (g[2] > 1 && rp) {
		size_t h = sp / rp;
		size_t sy = so[1] + g[1] > h ? so[1] + g[1] - h : 0;
		size_t dy = d[1] + g[1] > h ? d[1] + g[1] - h : 0;
		if (((sy && sy > d[1]) || (dy && dy > so[1])) && spans)
			return true;
	}
	return false;
}

static cl_int check_copy_rect(cl_mem src, cl_mem dst, const struct icd_rect *r,
			      const size_t end[2], size_t rp, size_t sp)
{
	FAIL_IF(end[0] > src->size, CL_INVALID_VALUE,
		"the source rectangle ends at %zu, past the buffer's %zu",
		end[0], src->size);
	FAIL_IF(end[1] > dst->size, CL_INVALID_VALUE,
		"the destination rectangle ends at %zu, past the buffer's %zu",
		end[1], dst->size);
	if (src != dst)
		return CL_SUCCESS;
	FAIL_IF(r->rp[0] != r->rp[1] || r->sp[0] != r->sp[1], CL_INVALID_VALUE,
		"a copy within one buffer with different pitches");
	size_t s0 = icd_rect_row(r, 0, 0, 0), d0 = icd_rect_row(r, 1, 0, 0);
	FAIL_IF(s0 < end[1] && d0 < end[0] && rect_overlap(r, rp, sp),
		CL_MEM_COPY_OVERLAP,
		"source %zu..%zu and destination %zu..%zu overlap", s0, end[0],
		d0, end[1]);
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueCopyBufferRect(
	cl_command_queue q, cl_mem src, cl_mem dst, const size_t *so,
	const size_t *dof, const size_t *reg, size_t srp, size_t ssp,
	size_t drp, size_t dsp, cl_uint nw, const cl_event *w, cl_event *ev)
{
	icd_lock();
	struct icd_rect r;
	size_t end[2], rp[2] = {srp, drp}, sp[2] = {ssp, dsp};
	cl_int rc = check_cmd(q, src, nw, w);
	if (!rc)
		rc = check_cmd(q, dst, 0, NULL);
	if (!rc && !(rc = rect_norm(&r, so, dof, reg, rp, sp, end)) &&
	    !(rc = check_copy_rect(src, dst, &r, end, srp, ssp))) {
		struct icd_cmd *c = icd_cmd_on(CMD_COPY_RECT, src, dst);
		if (c)
			c->u.copy_rect =
				(struct icd_cmd_copy_rect){src, dst, r};
		rc = icd_enqueue(q, c, nw, w, CL_COMMAND_COPY_BUFFER_RECT,
				 false, ev);
	}
	done(q, rc);
	icd_unlock();
	return rc;
}

/* ---- copy and fill ---- */

static cl_int check_copy(cl_mem src, cl_mem dst, size_t so, size_t dof,
			 size_t size)
{
	FAIL_IF(!size, CL_INVALID_VALUE, "size 0");
	cl_int rc = check_range(src, so, size);
	if (!rc)
		rc = check_range(dst, dof, size);
	if (rc)
		return rc;
	/* the same buffer (or two sub-buffers of it), overlapping */
	size_t s = so + (src->parent ? src->origin : 0),
	       d = dof + (dst->parent ? dst->origin : 0);
	FAIL_IF(icd_mem_root(src) == icd_mem_root(dst) && s < d + size &&
			d < s + size,
		CL_MEM_COPY_OVERLAP, "%zu bytes from %zu to %zu overlap", size,
		so, dof);
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
	if (!rc && !(rc = check_copy(src, dst, so, dof, size))) {
		struct icd_cmd *c = icd_cmd_on(CMD_COPY, src, dst);
		if (c)
			c->u.copy =
				(struct icd_cmd_copy){src, dst, so, dof, size};
		rc = icd_enqueue(q, c, nw, w, CL_COMMAND_COPY_BUFFER, false,
				 ev);
	}
	done(q, rc);
	icd_unlock();
	return rc;
}

static cl_int check_fill(cl_mem m, const void *pat, size_t ps, size_t off,
			 size_t size)
{
	FAIL_IF(!pat || !ps || ps > 128 || (ps & (ps - 1)), CL_INVALID_VALUE,
		"pattern %p of %zu bytes (1, 2, 4, ... 128)", pat, ps);
	FAIL_IF(off % ps || size % ps, CL_INVALID_VALUE,
		"offset %zu or size %zu not a multiple of the pattern's %zu",
		off, size, ps);
	return check_range(m, off, size);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem m,
						  const void *pat, size_t ps,
						  size_t off, size_t size,
						  cl_uint nw, const cl_event *w,
						  cl_event *ev)
{
	icd_lock();
	cl_int rc = check_cmd(q, m, nw, w);
	if (!rc && !(rc = check_fill(m, pat, ps, off, size))) {
		struct icd_cmd *c = icd_cmd_on(CMD_FILL, m, NULL);
		if (c) {
			struct icd_cmd_fill *f = &c->u.fill;
			f->mem = m;
			f->off = off;
			f->size = size;
			f->pattern_size = (unsigned)ps;
			memcpy(f->pattern, pat, ps);
		}
		rc = icd_enqueue(q, c, nw, w, CL_COMMAND_FILL_BUFFER, false,
				 ev);
	}
	done(q, rc);
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL
clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint n, const cl_mem *ms,
			   cl_mem_migration_flags flags, cl_uint nw,
			   const cl_event *w, cl_event *ev)
{
	icd_lock();
	const cl_mem_migration_flags known =
		CL_MIGRATE_MEM_OBJECT_HOST |
		CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
	cl_int rc = CL_SUCCESS;
	if (!n || !ms || (flags & ~known))
		rc = icd_valid_queue(q)
			     ? icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE",
					__func__,
					"%u buffers at %p, flags 0x%llx", n,
					(const void *)ms,
					(unsigned long long)flags)
			     : CL_INVALID_COMMAND_QUEUE;
	for (cl_uint i = 0; i < n && ms && !rc; i++)
		rc = check_cmd(q, ms[i], nw, w);
	struct icd_cmd *c = rc ? NULL : icd_cmd_new(CMD_MIGRATE);
	for (cl_uint i = 0; c && i < n; i++)
		if (icd_cmd_use(c, ms[i])) {
			icd_cmd_free(c);
			c = NULL;
		}
	if (c)
		c->u.migrate = (struct icd_cmd_migrate){
			.host = flags & CL_MIGRATE_MEM_OBJECT_HOST,
			.undefined = flags &
				     CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED};
	if (!rc)
		rc = icd_enqueue(q, c, nw, w, CL_COMMAND_MIGRATE_MEM_OBJECTS,
				 false, ev);
	done(q, rc);
	icd_unlock();
	return rc;
}

/* ---- map / unmap ---- */

static cl_int check_map(cl_mem m, cl_map_flags flags, size_t off, size_t size)
{
	const cl_map_flags known =
		CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
	FAIL_IF(!size, CL_INVALID_VALUE, "size 0");
	cl_int rc = check_range(m, off, size);
	if (rc)
		return rc;
	FAIL_IF((flags & ~known) || ((flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
				     (flags & (CL_MAP_READ | CL_MAP_WRITE))),
		CL_INVALID_VALUE, "map flags 0x%llx",
		(unsigned long long)flags);
	FAIL_IF((m->flags & CL_MEM_HOST_NO_ACCESS) ||
			((m->flags & CL_MEM_HOST_WRITE_ONLY) &&
			 (flags & CL_MAP_READ)) ||
			((m->flags & CL_MEM_HOST_READ_ONLY) &&
			 (flags &
			  (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))),
		CL_INVALID_OPERATION,
		"map flags 0x%llx against the buffer's flags 0x%llx",
		(unsigned long long)flags, (unsigned long long)m->flags);
	return CL_SUCCESS;
}

cl_int icd_mem_map(cl_command_queue q, cl_mem m, cl_bool block,
		   cl_map_flags flags, size_t off, size_t size, cl_uint nw,
		   const cl_event *w, cl_event *ev, cl_command_type type,
		   void **ptr)
{
	char *base = m->host_ptr;
	if (!base) {
		if (!m->shadow && !(m->shadow = malloc(m->size)))
			return CL_MAP_FAILURE;
		base = m->shadow;
	}
	struct icd_map *mp = calloc(1, sizeof(*mp));
	struct icd_cmd *c = mp ? icd_cmd_on(CMD_MAP, m, NULL) : NULL;
	if (!c) {
		free(mp);
		return CL_OUT_OF_HOST_MEMORY;
	}
	c->u.map =
		(struct icd_cmd_map){m, off, size, base + off,
				     !(flags & CL_MAP_WRITE_INVALIDATE_REGION)};
	cl_int rc = icd_enqueue(q, c, nw, w, type, block, ev);
	if (rc) {
		free(mp);
		return rc;
	}
	mp->ptr = base + off;
	mp->off = off;
	mp->size = size;
	mp->write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
	mp->next = m->maps;
	m->maps = mp;
	m->map_count++;
	*ptr = base + off;
	return CL_SUCCESS;
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
	if (!rc && !(rc = check_map(m, flags, off, size)))
		rc = icd_mem_map(q, m, block, flags, off, size, nw, w, ev,
				 CL_COMMAND_MAP_BUFFER, &ptr);
	done(q, rc);
	icd_unlock();
	if (errp)
		*errp = rc;
	return ptr;
}

struct icd_map **icd_mem_map_of(cl_mem m, const void *ptr)
{
	struct icd_map **pp = &m->maps;
	while (*pp && (*pp)->ptr != ptr)
		pp = &(*pp)->next;
	return *pp ? pp : NULL;
}

static cl_int find_map(cl_mem m, const void *ptr, struct icd_map ***at)
{
	*at = icd_mem_map_of(m, ptr);
	FAIL_IF(!*at, CL_INVALID_VALUE, "%p is no mapping of the buffer", ptr);
	return CL_SUCCESS;
}

cl_int icd_mem_unmap(cl_command_queue q, cl_mem m, struct icd_map **pp,
		     cl_uint nw, const cl_event *w, cl_event *ev,
		     cl_command_type type)
{
	struct icd_map *mp = *pp;
	struct icd_cmd *c = icd_cmd_on(CMD_UNMAP, m, NULL);
	if (!c)
		return CL_OUT_OF_HOST_MEMORY;
	c->u.map =
		(struct icd_cmd_map){m, mp->off, mp->size, mp->ptr, mp->write};
	*pp = mp->next;
	free(mp);
	m->map_count--;
	return icd_enqueue(q, c, nw, w, type, false, ev);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q,
						      cl_mem m, void *ptr,
						      cl_uint nw,
						      const cl_event *w,
						      cl_event *ev)
{
	icd_lock();
	struct icd_map **pp = NULL;
	cl_int rc = check_cmd(q, m, nw, w);
	if (!rc && !(rc = find_map(m, ptr, &pp)))
		rc = icd_mem_unmap(q, m, pp, nw, w, ev,
				   CL_COMMAND_UNMAP_MEM_OBJECT);
	done(q, rc);
	icd_unlock();
	return rc;
}
