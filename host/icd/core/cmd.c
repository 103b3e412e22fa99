// SPDX-License-Identifier: MIT
/* Commands: what each kind does when it runs. Device commands (kernels,
 * copies, fills with patterns of 1-8 bytes, markers and barriers) are
 * enqueued on the queue's hp_queue with their dependencies; host-side ones
 * (reads, writes, rectangles, maps, unmaps, fills with larger patterns)
 * wait for their dependencies and, on an in-order queue, the queue's
 * earlier commands, then transfer synchronously. Their arguments were
 * checked by the API files; every transfer still stays inside its
 * buffer. */
#include "core.h"
#include <stdlib.h>
#include <string.h>

struct icd_cmd *icd_cmd_new(enum icd_cmd_kind kind)
{
	struct icd_cmd *c = calloc(1, sizeof(*c));
	if (c)
		c->kind = kind;
	return c;
}

struct icd_cmd *icd_cmd_on(enum icd_cmd_kind kind, cl_mem a, cl_mem b)
{
	struct icd_cmd *c = icd_cmd_new(kind);
	if (c && ((a && icd_cmd_use(c, a)) || (b && icd_cmd_use(c, b)))) {
		icd_cmd_free(c);
		return NULL;
	}
	return c;
}

cl_int icd_cmd_use(struct icd_cmd *c, void *o)
{
	return icd_hold_add(&c->hold, o);
}

void icd_cmd_free(struct icd_cmd *c)
{
	if (c->kind == CMD_SVM_FREE)
		free(c->u.svm_free.ptrs);
	for (cl_uint i = 0; i < c->num_wait; i++)
		icd_drop(c->wait[i]);
	free(c->wait);
	icd_hold_drop(&c->hold);
	if (c->ev)
		icd_drop(c->ev);
	free(c);
}

size_t icd_rect_row(const struct icd_rect *r, int s, size_t y, size_t z)
{
	return (r->o[s][2] + z) * r->sp[s] + (r->o[s][1] + y) * r->rp[s] +
	       r->o[s][0];
}

/* @p n bytes at @p off of @p m on @p d, only ever inside the buffer (the
 * library checks the device's heap, not the buffer). */
static cl_int mem_io(cl_device_id d, cl_mem m, size_t off, void *p, size_t n,
		     bool read)
{
	if (off > m->size || n > m->size - off)
		return CL_INVALID_VALUE;
	if (!n)
		return CL_SUCCESS;
	hp_buffer a;
	cl_int e = icd_mem_addr(m, d, &a);
	if (e)
		return e;
	int rc = read ? hp_buffer_read(d->hp, a, off, p, n)
		      : hp_buffer_write(d->hp, a, off, p, n);
	return rc ? icd_err(rc) : CL_SUCCESS;
}

/* Does @p c (may) write @p m: a kernel every buffer it may write, the
 * others their destination. */
static bool cmd_writes(const struct icd_cmd *c, cl_mem m)
{
	switch (c->kind) {
	case CMD_NDRANGE:
		return !(m->flags & CL_MEM_READ_ONLY);
	case CMD_WRITE:
		return c->u.rw.mem == m;
	case CMD_WRITE_RECT:
		return c->u.rect.mem == m;
	case CMD_COPY:
		return c->u.copy.dst == m;
	case CMD_COPY_RECT:
		return c->u.copy_rect.dst == m;
	case CMD_FILL:
		return true;
	case CMD_UNMAP:
		return c->u.map.io;
	default:
		return false;
	}
}

/* Make every buffer @p c holds current on its device. */
static cl_int move_all(struct icd_cmd *c, size_t *moved)
{
	cl_device_id d = c->ev->queue->dev;
	bool undefined = c->kind == CMD_MIGRATE && c->u.migrate.undefined;
	for (unsigned i = 0; i < c->hold.num; i++) {
		cl_mem m = (cl_mem)c->hold.objs[i];
		cl_int rc =
			m->magic != MAGIC_MEM
				? CL_SUCCESS
				: icd_mem_move(m, d,
					       undefined || cmd_writes(c, m),
					       !undefined, moved);
		if (rc)
			return rc;
	}
	return CL_SUCCESS;
}

cl_int icd_cmd_move(struct icd_cmd *c, size_t *moved)
{
	*moved = 0;
	/* a migration moves when it runs, after its wait list */
	return c->kind == CMD_MIGRATE ? CL_SUCCESS : move_all(c, moved);
}

/* clEnqueueMigrateMemObjects: to the host, a hint (nothing to do). */
static cl_int run_migrate(struct icd_cmd *c)
{
	if (c->u.migrate.host)
		return CL_SUCCESS;
	return move_all(c, &c->ev->moved_bytes);
}

/* ---- device commands ---- */

static cl_int on_device(struct icd_cmd *c, int rc)
{
	if (rc)
		return icd_err(rc);
	c->ev->on_device = true;
	return CL_SUCCESS;
}

static cl_int run_ndrange(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	struct icd_cmd_ndrange *k = &c->u.ndrange;
	cl_command_queue q = c->ev->queue;
	/* a printf buffer only for a kernel that may print: getting one
	 * while the others are in flight is an allocation on the device */
	const hp_cl_kmeta *m = k->kernel->meta;
	hp_buffer pb = !m || m->prints ? icd_printf_get(q) : 0;
	hp_ndrange r = k->range;
	r.printf_buf = pb;
	r.printf_size = pb ? ICD_PRINTF_SIZE : 0;
	int rc = hp_enqueue_kernel(q->hq, k->kernel->id[q->dev->index], &r,
				   k->args, k->args_size, deps, n, &c->ev->dev);
	if (rc) {
		if (pb)
			hp_buffer_free(q->dev->hp, pb);
		return icd_err(rc);
	}
	c->ev->printf_buf = pb;
	return on_device(c, 0);
}

static cl_int run_copy(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	const struct icd_cmd_copy *x = &c->u.copy;
	cl_device_id d = c->ev->queue->dev;
	hp_buffer s, t;
	cl_int rc = icd_mem_addr(x->src, d, &s);
	if (!rc)
		rc = icd_mem_addr(x->dst, d, &t);
	if (rc)
		return rc;
	return on_device(c, hp_enqueue_copy(c->ev->queue->hq, t + x->dst_off,
					    s + x->src_off, x->size, deps, n,
					    &c->ev->dev));
}

static cl_int run_fill(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	const struct icd_cmd_fill *f = &c->u.fill;
	uint64_t pattern = 0;
	memcpy(&pattern, f->pattern, f->pattern_size);
	hp_buffer a;
	cl_int rc = icd_mem_addr(f->mem, c->ev->queue->dev, &a);
	if (rc)
		return rc;
	return on_device(c, hp_enqueue_fill(c->ev->queue->hq, a + f->off,
					    f->size, pattern, f->pattern_size,
					    deps, n, &c->ev->dev));
}

static cl_int run_marker(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	hp_queue *hq = c->ev->queue->hq;
	/* no dependencies (cmd_run gives an all_earlier marker none): after
	 * every earlier packet of the queue */
	return on_device(c, n ? hp_enqueue_barrier_and(hq, deps, n, &c->ev->dev)
			      : hp_enqueue_marker(hq, &c->ev->dev));
}

/* ---- host-side commands ---- */

/* Host-side commands start once their dependencies and (in-order) the
 * queue's earlier commands are complete. */
static cl_int host_start(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_command_queue q = c->ev->queue;
	cl_int rc = icd_wait_deps(q->dev, deps, n);
	if (!rc && q->in_order)
		rc = icd_queue_drain(q);
	c->ev->t_start = icd_now_ns();
	return rc;
}

/* read rect: buffer -> host; write rect: host -> buffer */
static cl_int run_rect(struct icd_cmd *c, bool read)
{
	cl_device_id d = c->ev->queue->dev;
	const struct icd_cmd_rect *x = &c->u.rect;
	const struct icd_rect *r = &x->r;
	cl_int rc = CL_SUCCESS;
	for (size_t z = 0; !rc && z < r->reg[2]; z++)
		for (size_t y = 0; !rc && y < r->reg[1]; y++)
			rc = mem_io(d, x->mem, icd_rect_row(r, 0, y, z),
				    (char *)x->ptr + icd_rect_row(r, 1, y, z),
				    r->reg[0], read);
	return rc;
}

/* Copy rect: through host memory, row by row. */
static cl_int run_copy_rect(struct icd_cmd *c)
{
	cl_device_id d = c->ev->queue->dev;
	const struct icd_cmd_copy_rect *x = &c->u.copy_rect;
	const struct icd_rect *r = &x->r;
	char *row = malloc(r->reg[0]);
	cl_int rc = row ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
	for (size_t z = 0; !rc && z < r->reg[2]; z++)
		for (size_t y = 0; !rc && y < r->reg[1]; y++) {
			rc = mem_io(d, x->src, icd_rect_row(r, 0, y, z), row,
				    r->reg[0], true);
			if (!rc)
				rc = mem_io(d, x->dst, icd_rect_row(r, 1, y, z),
					    row, r->reg[0], false);
		}
	free(row);
	return rc;
}

/* Patterns over 8 bytes (and empty fills): written from the host. */
static cl_int run_fill_host(struct icd_cmd *c)
{
	const struct icd_cmd_fill *f = &c->u.fill;
	size_t chunk = f->size < 65536 ? f->size : 65536;
	char *b = malloc(chunk ? chunk : 1);
	if (!b)
		return CL_OUT_OF_HOST_MEMORY;
	for (size_t i = 0; i < chunk; i += f->pattern_size)
		memcpy(b + i, f->pattern, f->pattern_size);
	cl_int rc = CL_SUCCESS;
	for (size_t o = 0; !rc && o < f->size; o += chunk) {
		size_t l = f->size - o < chunk ? f->size - o : chunk;
		rc = mem_io(c->ev->queue->dev, f->mem, f->off + o, b, l, false);
	}
	free(b);
	return rc;
}

static cl_int run_host(struct icd_cmd *c)
{
	cl_device_id d = c->ev->queue->dev;
	switch (c->kind) {
	case CMD_READ:
	case CMD_WRITE:
		return mem_io(d, c->u.rw.mem, c->u.rw.off, c->u.rw.ptr,
			      c->u.rw.size, c->kind == CMD_READ);
	case CMD_READ_RECT:
	case CMD_WRITE_RECT:
		return run_rect(c, c->kind == CMD_READ_RECT);
	case CMD_COPY_RECT:
		return run_copy_rect(c);
	case CMD_FILL:
		return run_fill_host(c);
	case CMD_MAP:
	case CMD_UNMAP:
		if (!c->u.map.io)
			return CL_SUCCESS;
		return mem_io(d, c->u.map.mem, c->u.map.off, c->u.map.ptr,
			      c->u.map.size, c->kind == CMD_MAP);
	case CMD_MIGRATE:
		return run_migrate(c);
	case CMD_HOST_COPY:
		memmove(c->u.host_copy.dst, c->u.host_copy.src,
			c->u.host_copy.size);
		return CL_SUCCESS;
	case CMD_SVM_FREE:
		return icd_svm_free_run(c);
	default:
		return CL_SUCCESS;
	}
}

cl_int icd_cmd_start(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	switch (c->kind) {
	case CMD_NDRANGE:
		return run_ndrange(c, deps, n);
	case CMD_COPY:
		return run_copy(c, deps, n);
	case CMD_MARKER:
		return run_marker(c, deps, n);
	case CMD_FILL:
		if (c->u.fill.pattern_size <= 8 && c->u.fill.size)
			return run_fill(c, deps, n);
		break;
	default:
		break;
	}
	cl_int rc = host_start(c, deps, n);
	return rc ? rc : run_host(c);
}
