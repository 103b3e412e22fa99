// SPDX-License-Identifier: MIT
/*
 * The packet types (packets.h): a table indexed by packet type, one
 * decode (and, where a packet does more than run its command, commit and
 * undo) per type. A decode checks every field before it fills anything the
 * executor reads; the kernarg block is shared memory, so each of its
 * fields is read once.
 */
#include "packets.h"
#include "args.h"
#include "heap.h"
#include "kobj.h"
#include "session.h"
#include "words.h"
#include <hal/atomic.h>
#include <hal/timer.h>
#include <hartpool/error.h>
#include <hartpool/kernels/diag.h>
#include <stdio.h>
#include <string.h>

struct pkt_ops {
	/* Its wait list is the kernarg block's (read before anything else
	 * is checked); others wait for nothing or list their own. */
	bool kernarg_deps;
	int (*decode)(mbox_pkt *x);
	int (*commit)(mbox_pkt *x); /* NULL: nothing */
	void (*undo)(mbox_pkt *x);  /* NULL: nothing */
};

static mbox_dev_desc P;

static int fail(mbox_pkt *x, int err, const char *why)
{
	x->why = why;
	return err;
}

/* ---- device description ---- */

void mbox_pkt_init(const mbox_dev_desc *d)
{
	P = *d;
}

void mbox_pkt_dev_info(hp_device_info *info)
{
	memset(info, 0, sizeof(*info));
	info->harts = exec_dev.harts;
	info->address_bits = exec_dev.address_bits;
	info->max_work_dim = 3;
	info->max_work_group_size = exec_dev.max_work_group_size;
	for (unsigned d = 0; d < 3; d++)
		info->max_work_item_sizes[d] = exec_dev.max_work_item_sizes[d];
	info->local_mem_size = exec_dev.local_mem_size;
	info->sub_group_sizes = exec_dev.sub_group_sizes;
	info->default_sub_group_size = exec_dev.default_sub_group_size;
	info->max_args_size = HP_MBOX_ARGS_MAX;
	info->global_mem_size = mbox_heap_size();
	/* A session's heap quota bounds a buffer too (docs/sessions.md). */
	info->max_mem_alloc_size = mbox_session_quota_max(HP_QUOTA_HEAP);
	info->dram_size = P.dram_size;
	info->timer_hz = hal_timer_freq();
	strncpy(info->board, P.board ? P.board : "?", sizeof(info->board) - 1);
	strncpy(info->privilege, P.privilege ? P.privilege : "?",
		sizeof(info->privilege) - 1);
	info->harts_skipped = P.harts_skipped;
	info->slice_us = P.slice_us;
	info->features = P.features;
	info->vector_bits = 8u * exec_dev.vlenb;
	strncpy(info->skipped, P.skipped_why ? P.skipped_why : "",
		sizeof(info->skipped) - 1);
	snprintf(info->firmware, sizeof(info->firmware), "hartpool mbox v%u",
		 HP_MBOX_VERSION);
}

/* ---- launches (KERNEL_DISPATCH, COPY, FILL) ---- */

/* The kernel's NDRange and arguments, once the command is filled in:
 * checked before enqueueing, so buffer extents can use the launch. */
static int launch_check(mbox_pkt *x)
{
	exec_cmd *c = &x->s->cmd;
	int err = exec_ndrange_setup(&exec_dev, c->kernel, &c->range,
				     &c->launch, x->buf, x->buf_size);
	if (err)
		return fail(x, err, x->buf);
	if (c->kernel->args_size && c->args_size != c->kernel->args_size)
		return fail(x, HP_INVALID_KERNEL_ARGS,
			    "argument block size differs from the kernel's");
	err = exec_kernel_supported(&exec_dev, c->kernel, c->launch.team_size,
				    x->buf, x->buf_size);
	if (err)
		return fail(x, err, x->buf);
	x->why = mbox_args_check_buffers((unsigned)x->sess, c->kernel,
					 x->s->args, c->args_size, &c->launch,
					 x->buf, x->buf_size);
	return x->why ? HP_INVALID_KERNEL_ARGS : 0;
}

static int dispatch_decode(mbox_pkt *x)
{
	const hp_packet_dispatch *d = &x->p->dispatch;
	const hp_kernarg *ka = x->ka;
	mbox_slot *s = x->s;
	exec_cmd *c = &s->cmd;
	uint32_t asz = hal_load_relaxed(&ka->args_size);
	uint64_t tmo = mbox_ld64(&ka->timeout_us);
	const hp_kernel *k;
	struct mbox_obj *o;
	if (d->setup & HP_SETUP_RESERVED || d->reserved)
		return fail(x, HP_INVALID_VALUE, "reserved fields not zero");
	int err =
		mbox_kobj_lookup((unsigned)x->sess, d->kernel, &k, &o, &x->why);
	if (err)
		return err;
	if (asz > HP_MBOX_ARGS_MAX)
		return fail(x, HP_INVALID_KERNEL_ARGS,
			    "argument block too large");
	if (tmo > HP_MBOX_TIMEOUT_MAX_US) {
		snprintf(x->buf, x->buf_size, "time limit above %llu s",
			 (unsigned long long)(HP_MBOX_TIMEOUT_MAX_US /
					      1000000u));
		return fail(x, HP_INVALID_VALUE, x->buf);
	}
	if ((x->why = mbox_args_printf_setup((unsigned)x->sess, ka, c, x->buf,
					     x->buf_size)))
		return HP_INVALID_VALUE;
	c->timeout_us = tmo;
	c->domain = mbox_session_domain((unsigned)x->sess);
	c->kernel = k;
	s->obj = o;
	c->args_size = asz;
	memcpy(s->args, ka->args, asz);
	exec_range *r = &c->range;
	r->work_dim = HP_SETUP_DIM(d->setup);
	r->local_given = (d->setup & HP_SETUP_LOCAL) != 0;
	r->uniform = (d->setup & HP_SETUP_UNIFORM) != 0;
	for (unsigned i = 0; i < 3; i++) {
		r->global[i] = d->global[i];
		r->offset[i] = d->offset[i];
		r->local[i] = d->local[i];
		r->reqd[i] = ka->reqd[i];
	}
	r->sub_group_size = ka->sub_group_size;
	r->team_size = ka->team_size;
	r->local_extra = hal_load_relaxed(&ka->local_mem_bytes);
	return launch_check(x);
}

static bool mem_reserved(const hp_packet_mem *m)
{
	return m->reserved || m->reserved2[0] || m->reserved2[1] ||
	       m->reserved2[2];
}

/* A memory packet runs built-in kernel `name` with the @p args_size bytes
 * at @p args (its hp_copy_args or hp_fill_args), one work-item per
 * HP_MEM_CHUNK bytes. */
static int mem_launch(mbox_pkt *x, const char *name, const void *args,
		      uint32_t args_size)
{
	exec_cmd *c = &x->s->cmd;
	uint64_t size = x->p->mem.size;
	c->kernel = mbox_kobj_builtin(name);
	c->domain = mbox_session_domain((unsigned)x->sess);
	memcpy(x->s->args, args, args_size);
	c->args_size = args_size;
	if (!c->kernel)
		return fail(x, HP_INVALID_KERNEL,
			    "memory kernels not built in");
	c->range.work_dim = 1;
	c->range.global[0] = size / HP_MEM_CHUNK + (size % HP_MEM_CHUNK != 0);
	return launch_check(x);
}

static int copy_decode(mbox_pkt *x)
{
	const hp_packet_mem *p = &x->p->mem;
	uint64_t size = p->size;
	if (mem_reserved(p) || p->pattern || p->pattern_size)
		return fail(x, HP_INVALID_VALUE, "reserved fields not zero");
	if (size && p->dst < p->src + size && p->src < p->dst + size)
		return fail(x, HP_INVALID_VALUE,
			    "source and destination overlap");
	hp_copy_args a = {.dst = p->dst, .src = p->src, .size = size};
	return mem_launch(x, "copy", &a, sizeof(a));
}

static int fill_decode(mbox_pkt *x)
{
	const hp_packet_mem *p = &x->p->mem;
	unsigned ps = p->pattern_size;
	if (mem_reserved(p))
		return fail(x, HP_INVALID_VALUE, "reserved fields not zero");
	if (ps != 1 && ps != 2 && ps != 4 && ps != 8)
		return fail(x, HP_INVALID_VALUE,
			    "pattern size must be 1, 2, 4 or 8");
	if (p->dst % ps || p->size % ps)
		return fail(x, HP_INVALID_VALUE,
			    "fill not aligned to the pattern size");
	hp_fill_args a = {.dst = p->dst,
			  .size = p->size,
			  .pattern = p->pattern,
			  .psize = ps};
	return mem_launch(x, "fill", &a, sizeof(a));
}

/* ---- ordering (BARRIER_AND, MARKER) ---- */

static int barrier_decode(mbox_pkt *x)
{
	const hp_packet_barrier *b = &x->p->barrier;
	if (b->num_deps > HP_MBOX_BARRIER_DEPS || b->reserved) {
		snprintf(x->buf, x->buf_size, "more than %u dependencies",
			 HP_MBOX_BARRIER_DEPS);
		return fail(x, HP_INVALID_EVENT_WAIT_LIST, x->buf);
	}
	x->nwait = b->num_deps;
	memcpy(x->ev, b->deps, x->nwait * sizeof(uint64_t));
	x->s->cmd.marker = true;
	return 0;
}

static int marker_decode(mbox_pkt *x)
{
	x->s->cmd.marker = true;
	x->s->cmd.barrier = true;
	return 0;
}

/* ---- device memory and description (INFO, ALLOC, FREE) ---- */

static int info_decode(mbox_pkt *x)
{
	uint64_t dst = x->p->mem.dst;
	if (dst % HP_INFO_ALIGN) {
		/* hp_device_info has 64-bit fields: a misaligned store may
		 * trap on the device (found by fuzzing). */
		snprintf(x->buf, x->buf_size,
			 "info destination not %u-byte aligned", HP_INFO_ALIGN);
		return fail(x, HP_INVALID_VALUE, x->buf);
	}
	if (!mbox_heap_holds((unsigned)x->sess, dst, sizeof(hp_device_info)))
		return fail(x, HP_INVALID_VALUE,
			    "info destination outside the session's buffers");
	x->s->cmd.marker = true;
	return 0;
}

static int info_commit(mbox_pkt *x)
{
	mbox_pkt_dev_info(mbox_ptr(x->p->mem.dst));
	/* A host that asks sees the mailbox's use figures fresh too. */
	mbox_session_publish();
	return 0;
}

static int alloc_decode(mbox_pkt *x)
{
	x->s->cmd.marker = true;
	return 0;
}

static int alloc_commit(mbox_pkt *x)
{
	uint64_t size = x->p->mem.size;
	x->s->result = mbox_session_alloc((unsigned)x->sess, x->p->mem.dst,
					  size, x->buf, x->buf_size);
	if (!x->s->result)
		return fail(x, size ? HP_OUT_OF_RESOURCES : HP_INVALID_VALUE,
			    x->buf);
	return 0;
}

/* The buffer is marked now (a second FREE of it is refused) and freed
 * when the command completes (complete.c). */
static int free_decode(mbox_pkt *x)
{
	uint64_t dst = x->p->mem.dst;
	x->s->cmd.marker = true;
	if (!mbox_heap_mark_free((unsigned)x->sess, dst))
		return fail(x, HP_INVALID_VALUE,
			    "not a buffer of this session (or being freed)");
	x->s->free_addr = dst;
	return 0;
}

static void free_undo(mbox_pkt *x)
{
	if (x->s->free_addr)
		mbox_heap_unmark(x->s->free_addr);
}

/* ---- kernel objects (LOAD, UNLOAD) ---- */

static bool obj_reserved(const hp_packet_mem *m)
{
	return m->pattern_size || m->pattern || mem_reserved(m);
}

static int load_decode(mbox_pkt *x)
{
	const hp_packet_mem *m = &x->p->mem;
	x->s->cmd.marker = true;
	if (obj_reserved(m) || m->dst)
		return fail(x, HP_INVALID_VALUE, "reserved fields not zero");
	return 0;
}

/* An object's writable data: a buffer of its session. */
static uint64_t obj_data_alloc(unsigned sess, uint64_t size, char *why,
			       size_t n)
{
	return mbox_session_alloc(sess, 0, size, why, n);
}

static int load_commit(mbox_pkt *x)
{
	const hp_packet_mem *m = &x->p->mem;
	int err = mbox_kobj_load((unsigned)x->sess, m->src, m->size,
				 &x->s->result, &x->s->result2,
				 mbox_session_admit_object, obj_data_alloc,
				 x->buf, x->buf_size);
	mbox_session_touch();
	return err ? fail(x, err, x->buf) : 0;
}

static int unload_decode(mbox_pkt *x)
{
	const hp_packet_mem *m = &x->p->mem;
	x->s->cmd.marker = true;
	if (obj_reserved(m) || m->src || m->size)
		return fail(x, HP_INVALID_VALUE, "reserved fields not zero");
	return 0;
}

static int unload_commit(mbox_pkt *x)
{
	mbox_session_touch();
	return mbox_kobj_unload((unsigned)x->sess, x->p->mem.dst, &x->why);
}

/* ---- the table ---- */

static const struct pkt_ops ops[HP_PKT_TYPES] = {
	[HP_PKT_KERNEL_DISPATCH] = {.kernarg_deps = true,
				    .decode = dispatch_decode},
	[HP_PKT_BARRIER_AND] = {.decode = barrier_decode},
	[HP_PKT_MARKER] = {.decode = marker_decode},
	[HP_PKT_COPY] = {.kernarg_deps = true, .decode = copy_decode},
	[HP_PKT_FILL] = {.kernarg_deps = true, .decode = fill_decode},
	[HP_PKT_INFO] = {.decode = info_decode, .commit = info_commit},
	[HP_PKT_ALLOC] = {.decode = alloc_decode, .commit = alloc_commit},
	[HP_PKT_FREE] = {.kernarg_deps = true,
			 .decode = free_decode,
			 .undo = free_undo},
	[HP_PKT_LOAD] = {.decode = load_decode, .commit = load_commit},
	[HP_PKT_UNLOAD] = {.decode = unload_decode, .commit = unload_commit},
};

static const struct pkt_ops *ops_of(const mbox_pkt *x)
{
	unsigned type = HP_PKT_TYPE(x->p->header);
	return type < HP_PKT_TYPES && ops[type].decode ? &ops[type] : NULL;
}

int mbox_pkt_decode(mbox_pkt *x)
{
	const struct pkt_ops *o = ops_of(x);
	x->nwait = 0;
	x->why = NULL;
	if (o && o->kernarg_deps) {
		unsigned n = hal_load_relaxed(&x->ka->num_wait);
		if (n > HP_MBOX_MAX_WAIT) {
			snprintf(x->buf, x->buf_size,
				 "more than %u events to wait for",
				 HP_MBOX_MAX_WAIT);
			return fail(x, HP_INVALID_EVENT_WAIT_LIST, x->buf);
		}
		x->nwait = n;
		memcpy(x->ev, x->ka->wait, n * sizeof(uint64_t));
	}
	if (x->p->header & HP_PKT_RESERVED || !o)
		return fail(x, HP_INVALID_VALUE,
			    "unknown packet type or header bits");
	return o->decode(x);
}

void mbox_pkt_undo(mbox_pkt *x)
{
	const struct pkt_ops *o = ops_of(x);
	if (o && o->undo)
		o->undo(x);
}

int mbox_pkt_commit(mbox_pkt *x)
{
	const struct pkt_ops *o = ops_of(x);
	return o && o->commit ? o->commit(x) : 0;
}
