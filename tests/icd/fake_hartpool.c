// SPDX-License-Identifier: MIT
/*
 * A libhartpool without a device, for the ICD's unit tests (docs/icd.md,
 * "Unit tests without a device"): the hp_* functions libhartpool-icd calls
 * (host/include/hartpool.h, hartpool_cl.h), implemented on the host.
 *
 * - Buffers are host memory at made-up device addresses (FAKE_HEAP_BASE
 *   upwards, HP_MBOX_BUFFER_ALIGN apart); reads, writes, fills and copies
 *   check their ranges and move the bytes.
 * - Queues record their commands in one list in enqueue order. Commands
 *   complete at once, or, after fake_hp_hold(true), when the test says so
 *   (fake_hp_run) or when the host waits for them (hp_event_wait,
 *   hp_queue_finish: every command up to the one waited for). A kernel
 *   does nothing; a kernel called "fake_fault" completes with
 *   HP_KERNEL_FAULT.
 * - The "compiler" (hp_cl_build) reads the kernels' signatures from the
 *   source (`kernel void name(global float *a, int n, ...)`, with an
 *   optional reqd_work_group_size attribute) and writes them to a text
 *   object that hp_cl_program_parse and hp_object_load read back; a line
 *   "#error" fails the build with a log.
 */
#include "fake_hartpool.h"
#include <ctype.h>
#include <hartpool.h>
#include <hartpool/mbox.h>
#include <hartpool/ndrange_check.h>
#include <hartpool_cl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_HEAP_BASE 0x80000000ull
#define FAKE_HEAP_SIZE (64ull << 20)
#define FAKE_BUFFERS 4096u
#define FAKE_QUEUES 8u
#define FAKE_ROWS 64u
#define FAKE_OBJECTS 16u
#define FAKE_MAGIC "HPKFAKE1\n"

struct fake_buf {
	uint64_t addr, size;
	uint8_t *mem;
};

struct fake_cmd {
	struct fake_cmd *next;
	hp_event ev;
	int status; /* when done */
	bool done;
	uint64_t seq;
};

struct hp_queue {
	hp_device *d;
	unsigned id;
	bool used;
	uint64_t next_index;
	uint64_t timeout_us;
};

struct hp_device {
	hp_device_info info;
	struct fake_buf bufs[FAKE_BUFFERS];
	uint64_t heap_next;
	struct hp_queue queues[FAKE_QUEUES];
	struct fake_cmd *cmds, **tail; /* every command, enqueue order */
	uint64_t seq;
	hp_mbox_kernel rows[FAKE_ROWS];
	unsigned num_rows;
	struct {
		bool used;
		uint32_t gen;
	} objs[FAKE_OBJECTS];
	uint32_t gen;
};

/* The open devices (HARTPOOL_DEVICES in a test: several); each device's
 * heap starts FAKE_DEV_STRIDE above the one before, so an address names
 * one device's buffer. */
#define FAKE_DEVICES 4u
#define FAKE_DEV_STRIDE 0x40000000ull
static hp_device *devs[FAKE_DEVICES];
#define EACH_DEV(d)                                                            \
	for (unsigned di_ = 0; di_ < FAKE_DEVICES; di_++)                      \
		for (hp_device *d = devs[di_]; d; d = NULL)
static bool hold_mode;
static struct fake_hp_stats stats;
static __thread char last_error[256];
/* The fake is called under the ICD's lock, except by tests that read
 * its statistics from other threads: this keeps TSan content. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static int fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return code;
}

const char *hp_last_error(void)
{
	return last_error;
}

/* ---- test controls ---- */

void fake_hp_hold(bool on)
{
	pthread_mutex_lock(&mu);
	hold_mode = on;
	pthread_mutex_unlock(&mu);
}

static void complete(struct fake_cmd *c)
{
	if (!c->done) {
		c->done = true;
		stats.completed++;
	}
}

unsigned fake_hp_run(unsigned n)
{
	unsigned ran = 0;
	pthread_mutex_lock(&mu);
	EACH_DEV(d)
	for (struct fake_cmd *c = d->cmds; c && ran < n; c = c->next)
		if (!c->done) {
			complete(c);
			ran++;
		}
	pthread_mutex_unlock(&mu);
	return ran;
}

unsigned fake_hp_pending(void)
{
	unsigned n = 0;
	pthread_mutex_lock(&mu);
	EACH_DEV(d)
	for (struct fake_cmd *c = d->cmds; c; c = c->next)
		n += !c->done;
	pthread_mutex_unlock(&mu);
	return n;
}

struct fake_hp_stats fake_hp_stats(void)
{
	pthread_mutex_lock(&mu);
	struct fake_hp_stats s = stats;
	unsigned live = 0;
	EACH_DEV(d)
	for (unsigned i = 0; i < FAKE_BUFFERS; i++)
		live += d->bufs[i].mem != NULL;
	s.buffers_live = live;
	pthread_mutex_unlock(&mu);
	return s;
}

void *fake_hp_buffer_mem(hp_buffer b, uint64_t *size)
{
	pthread_mutex_lock(&mu);
	void *p = NULL;
	EACH_DEV(d)
	for (unsigned i = 0; !p && i < FAKE_BUFFERS; i++) {
		struct fake_buf *f = &d->bufs[i];
		if (f->mem && b >= f->addr && b < f->addr + f->size) {
			p = f->mem + (b - f->addr);
			if (size)
				*size = f->size - (b - f->addr);
		}
	}
	pthread_mutex_unlock(&mu);
	return p;
}

/* ---- the device ---- */

static unsigned add_row(hp_device *d, const char *name, const uint32_t reqd[3],
			uint32_t flags)
{
	unsigned r = d->num_rows;
	for (unsigned i = 0; i < d->num_rows; i++)
		if (!d->rows[i].name[0]) {
			r = i;
			break;
		}
	if (r >= FAKE_ROWS)
		return ~0u;
	if (r == d->num_rows)
		d->num_rows++;
	hp_mbox_kernel *k = &d->rows[r];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	uint64_t group = d->info.max_work_group_size;
	for (int i = 0; i < 3; i++)
		k->reqd_work_group_size[i] = reqd ? reqd[i] : 0;
	if (reqd && reqd[0] && reqd[1] && reqd[2] &&
	    (uint64_t)reqd[0] * reqd[1] * reqd[2] < group)
		group = (uint64_t)reqd[0] * reqd[1] * reqd[2];
	k->work_group_size = (uint32_t)group;
	k->args_size = 64;
	k->flags = flags;
	return r;
}

int hp_open(const hp_open_options *o, hp_device **out)
{
	if (!o || !out)
		return fail(HP_INVALID_VALUE, "no options");
	pthread_mutex_lock(&mu);
	unsigned slot = 0;
	while (slot < FAKE_DEVICES && devs[slot])
		slot++;
	if (slot == FAKE_DEVICES) {
		pthread_mutex_unlock(&mu);
		return fail(HP_OUT_OF_RESOURCES, "the fake has %u devices",
			    FAKE_DEVICES);
	}
	hp_device *d = calloc(1, sizeof(*d));
	if (!d) {
		pthread_mutex_unlock(&mu);
		return fail(HP_OUT_OF_RESOURCES, "out of memory");
	}
	hp_device_info *i = &d->info;
	i->harts = 8;
	i->address_bits = 64;
	i->max_work_dim = 3;
	i->max_work_group_size = 256;
	i->max_work_item_sizes[0] = 256;
	i->max_work_item_sizes[1] = 256;
	i->max_work_item_sizes[2] = 64;
	i->local_mem_size = 64 * 1024;
	i->sub_group_sizes = 0x7f;
	i->default_sub_group_size = 8;
	i->max_args_size = HP_MBOX_ARGS_MAX;
	i->global_mem_size = FAKE_HEAP_SIZE;
	i->max_mem_alloc_size = FAKE_HEAP_SIZE;
	i->dram_size = 128ull << 20;
	i->timer_hz = 10000000;
	snprintf(i->board, sizeof(i->board), "fake");
	snprintf(i->firmware, sizeof(i->firmware), "fake_hartpool");
	snprintf(i->privilege, sizeof(i->privilege), "M");
	d->heap_next = FAKE_HEAP_BASE + slot * FAKE_DEV_STRIDE;
	d->tail = &d->cmds;
	add_row(d, "fake_noop", NULL, 0);
	add_row(d, "fake_fault", NULL, 0);
	uint32_t r8[3] = {8, 1, 1};
	add_row(d, "fake_reqd8", r8, 0);
	devs[slot] = d;
	stats.opens++;
	pthread_mutex_unlock(&mu);
	*out = d;
	return 0;
}

int hp_close(hp_device *d)
{
	if (!d)
		return fail(HP_INVALID_VALUE, "no device");
	pthread_mutex_lock(&mu);
	for (struct fake_cmd *c = d->cmds, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	for (unsigned i = 0; i < FAKE_BUFFERS; i++)
		free(d->bufs[i].mem);
	for (unsigned i = 0; i < FAKE_DEVICES; i++)
		if (devs[i] == d)
			devs[i] = NULL;
	free(d);
	pthread_mutex_unlock(&mu);
	return 0;
}

const hp_device_info *hp_info(const hp_device *d)
{
	return &d->info;
}

unsigned hp_kernel_count(const hp_device *d)
{
	return d->num_rows;
}

const hp_mbox_kernel *hp_kernel_at(const hp_device *d, unsigned id)
{
	unsigned row = id & 0xffffu;
	if (row >= d->num_rows || !d->rows[row].name[0])
		return NULL;
	const hp_mbox_kernel *k = &d->rows[row];
	if ((k->flags & HP_KFLAG_LOADED) &&
	    (id >> 16) != HP_KFLAG_GEN(k->flags))
		return NULL;
	return k;
}

static uint32_t row_id(const hp_device *d, unsigned row)
{
	const hp_mbox_kernel *k = &d->rows[row];
	return row |
	       ((k->flags & HP_KFLAG_LOADED) ? HP_KFLAG_GEN(k->flags) << 16
					     : 0);
}

int hp_kernel_find(hp_device *d, const char *name, uint32_t *id)
{
	for (unsigned i = 0; name && i < d->num_rows; i++)
		if (d->rows[i].name[0] && !strcmp(d->rows[i].name, name)) {
			*id = row_id(d, i);
			return 0;
		}
	return fail(HP_INVALID_KERNEL, "no kernel '%s'", name ? name : "");
}

int hp_kernel_work_group_size(hp_device *d, uint32_t kernel, uint32_t *out)
{
	const hp_mbox_kernel *k = hp_kernel_at(d, kernel);
	if (!k)
		return fail(HP_INVALID_KERNEL, "no kernel %u", kernel);
	*out = k->work_group_size;
	return 0;
}

/* ---- buffers ---- */

static struct fake_buf *buf_at(hp_device *d, uint64_t addr, uint64_t len)
{
	for (unsigned i = 0; i < FAKE_BUFFERS; i++) {
		struct fake_buf *f = &d->bufs[i];
		if (f->mem && addr >= f->addr && addr < f->addr + f->size &&
		    len <= f->addr + f->size - addr)
			return f;
	}
	return NULL;
}

int hp_buffer_alloc(hp_device *d, uint64_t size, hp_buffer *out)
{
	return hp_buffer_alloc_at(d, 0, size, out);
}

/* [addr, addr + size) overlaps a buffer of @p d? */
static bool taken(const hp_device *d, uint64_t addr, uint64_t size)
{
	for (unsigned i = 0; i < FAKE_BUFFERS; i++) {
		const struct fake_buf *f = &d->bufs[i];
		if (f->mem && f->addr < addr + size && addr < f->addr + f->size)
			return true;
	}
	return false;
}

/* addr 0: the next address of the device's heap */
int hp_buffer_alloc_at(hp_device *d, uint64_t addr, uint64_t size,
		       hp_buffer *out)
{
	if (!size || addr % HP_MBOX_BUFFER_ALIGN)
		return fail(HP_INVALID_VALUE, "%llu bytes at 0x%llx",
			    (unsigned long long)size, (unsigned long long)addr);
	uint64_t used = 0;
	for (unsigned i = 0; i < FAKE_BUFFERS; i++)
		if (d->bufs[i].mem)
			used += d->bufs[i].size;
	if (size > FAKE_HEAP_SIZE - used)
		return fail(HP_OUT_OF_RESOURCES,
			    "%llu bytes: %llu of the heap's %llu are free",
			    (unsigned long long)size,
			    (unsigned long long)(FAKE_HEAP_SIZE - used),
			    (unsigned long long)FAKE_HEAP_SIZE);
	if (addr && taken(d, addr, size))
		return fail(HP_OUT_OF_RESOURCES,
			    "0x%llx: another buffer is there",
			    (unsigned long long)addr);
	for (unsigned i = 0; i < FAKE_BUFFERS; i++) {
		struct fake_buf *f = &d->bufs[i];
		if (f->mem)
			continue;
		if (!(f->mem = calloc(1, size)))
			return fail(HP_OUT_OF_RESOURCES, "out of host memory");
		pthread_mutex_lock(&mu);
		f->size = size;
		f->addr = addr ? addr : d->heap_next;
		/* addresses are never reused: a stale one is noticed */
		if (!addr)
			d->heap_next += (size + HP_MBOX_BUFFER_ALIGN - 1) &
					~(uint64_t)(HP_MBOX_BUFFER_ALIGN - 1);
		stats.allocs++;
		pthread_mutex_unlock(&mu);
		*out = f->addr;
		return 0;
	}
	return fail(HP_OUT_OF_RESOURCES, "all %u buffers in use", FAKE_BUFFERS);
}

/* No fake device's memory is mapped at its addresses. */
void *hp_buffer_host_ptr(hp_device *d, hp_buffer b)
{
	(void)d, (void)b;
	return NULL;
}

bool hp_device_shares_addresses(hp_device *d)
{
	(void)d;
	return false;
}

int hp_buffer_free(hp_device *d, hp_buffer b)
{
	for (unsigned i = 0; i < FAKE_BUFFERS; i++) {
		struct fake_buf *f = &d->bufs[i];
		if (f->mem && f->addr == b) {
			pthread_mutex_lock(&mu);
			free(f->mem);
			f->mem = NULL;
			stats.frees++;
			pthread_mutex_unlock(&mu);
			return 0;
		}
	}
	return fail(HP_INVALID_VALUE, "0x%llx is no buffer",
		    (unsigned long long)b);
}

int hp_buffer_write(hp_device *d, hp_buffer b, uint64_t offset, const void *src,
		    size_t len)
{
	struct fake_buf *f = buf_at(d, b + offset, len);
	if (!f)
		return fail(HP_INVALID_VALUE, "write outside a buffer");
	memcpy(f->mem + (b + offset - f->addr), src, len);
	return 0;
}

int hp_buffer_read(hp_device *d, hp_buffer b, uint64_t offset, void *dst,
		   size_t len)
{
	struct fake_buf *f = buf_at(d, b + offset, len);
	if (!f)
		return fail(HP_INVALID_VALUE, "read outside a buffer");
	memcpy(dst, f->mem + (b + offset - f->addr), len);
	return 0;
}

/* ---- queues and commands ---- */

int hp_queue_create(hp_device *d, unsigned flags, hp_queue **out)
{
	(void)flags;
	for (unsigned i = 0; i < FAKE_QUEUES; i++)
		if (!d->queues[i].used) {
			hp_queue *q = &d->queues[i];
			memset(q, 0, sizeof(*q));
			q->d = d;
			q->id = i;
			q->used = true;
			*out = q;
			return 0;
		}
	return fail(HP_OUT_OF_RESOURCES, "all %u queues in use", FAKE_QUEUES);
}

void hp_queue_set_timeout(hp_queue *q, uint64_t timeout_us)
{
	q->timeout_us = timeout_us;
}

static struct fake_cmd *cmd_of(hp_device *d, hp_event ev)
{
	for (struct fake_cmd *c = d->cmds; c; c = c->next)
		if (c->ev == ev)
			return c;
	return NULL;
}

/* Complete every command up to @p last (enqueue order). */
static void run_to(hp_device *d, const struct fake_cmd *last)
{
	pthread_mutex_lock(&mu);
	for (struct fake_cmd *c = d->cmds; c; c = c->next) {
		complete(c);
		if (c == last)
			break;
	}
	pthread_mutex_unlock(&mu);
}

int hp_queue_finish(hp_queue *q)
{
	struct fake_cmd *last = NULL;
	for (struct fake_cmd *c = q->d->cmds; c; c = c->next)
		if (HP_EVENT_QUEUE(c->ev) == q->id)
			last = c;
	if (last)
		run_to(q->d, last);
	return 0;
}

int hp_queue_release(hp_queue *q)
{
	hp_queue_finish(q);
	/* the queue's records go (their events are too old to query) */
	for (struct fake_cmd **pp = &q->d->cmds; *pp;) {
		struct fake_cmd *c = *pp;
		if (HP_EVENT_QUEUE(c->ev) == q->id) {
			*pp = c->next;
			free(c);
		} else
			pp = &c->next;
	}
	q->d->tail = &q->d->cmds;
	while (*q->d->tail)
		q->d->tail = &(*q->d->tail)->next;
	q->used = false;
	return 0;
}

static int check_deps(hp_queue *q, const hp_event *wait, unsigned n)
{
	if (n && !wait)
		return fail(HP_INVALID_VALUE, "%u dependencies, no list", n);
	for (unsigned i = 0; i < n; i++)
		if (!cmd_of(q->d, wait[i]))
			return fail(HP_INVALID_VALUE,
				    "dependency %u names no command", i);
	return 0;
}

static int add_cmd(hp_queue *q, int status, hp_event *ev)
{
	struct fake_cmd *c = calloc(1, sizeof(*c));
	if (!c)
		return fail(HP_OUT_OF_RESOURCES, "out of host memory");
	pthread_mutex_lock(&mu);
	c->ev = HP_EVENT(q->id, q->next_index++);
	c->status = status;
	c->seq = q->d->seq++;
	*q->d->tail = c;
	q->d->tail = &c->next;
	stats.commands++;
	if (!hold_mode)
		complete(c);
	pthread_mutex_unlock(&mu);
	if (ev)
		*ev = c->ev;
	return 0;
}

static uint8_t last_args[HP_MBOX_ARGS_MAX];

const void *fake_hp_last_args(void)
{
	return last_args;
}

int hp_enqueue_kernel(hp_queue *q, uint32_t kernel, const hp_ndrange *r,
		      const void *args, uint32_t args_size,
		      const hp_event *wait, unsigned num_wait, hp_event *ev)
{
	int rc = check_deps(q, wait, num_wait);
	if (rc)
		return rc;
	const hp_mbox_kernel *k = hp_kernel_at(q->d, kernel);
	if (args_size > HP_MBOX_ARGS_MAX || (args_size && !args))
		return fail(HP_INVALID_VALUE, "argument block of %u bytes",
			    args_size);
	memset(last_args, 0, sizeof(last_args));
	if (args_size)
		memcpy(last_args, args, args_size);
	/* The device's verdict on the range travels in the event, as on a
	 * device: the same validator the firmware uses. */
	int status = k ? 0 : HP_INVALID_KERNEL;
	if (k && r) {
		hp_nd_limits lim = {
			.max_work_dim = q->d->info.max_work_dim,
			.address_bits = q->d->info.address_bits,
			.max_item = q->d->info.max_work_item_sizes,
			.max_group = k->work_group_size,
		};
		char why[112];
		status = hp_nd_check_global(&lim, r->work_dim, r->global,
					    r->offset, NULL, NULL, why,
					    sizeof(why));
		if (!status && r->local_given) {
			uint64_t e[3] = {1, 1, 1}, g[3] = {1, 1, 1};
			for (unsigned i = 0; i < r->work_dim; i++)
				e[i] = r->local[i], g[i] = r->global[i];
			status =
				hp_nd_check_local(&lim, r->work_dim, g, e,
						  k->reqd_work_group_size,
						  r->uniform, why, sizeof(why));
		}
	}
	if (k && !strcmp(k->name, "fake_fault"))
		status = HP_KERNEL_FAULT;
	pthread_mutex_lock(&mu);
	stats.kernels++;
	pthread_mutex_unlock(&mu);
	return add_cmd(q, status, ev);
}

int hp_enqueue_barrier_and(hp_queue *q, const hp_event *deps, unsigned n,
			   hp_event *ev)
{
	if (n > HP_MBOX_BARRIER_DEPS)
		return fail(HP_INVALID_VALUE, "%u dependencies, at most %u", n,
			    (unsigned)HP_MBOX_BARRIER_DEPS);
	int rc = check_deps(q, deps, n);
	return rc ? rc : add_cmd(q, 0, ev);
}

int hp_enqueue_marker(hp_queue *q, hp_event *ev)
{
	return add_cmd(q, 0, ev);
}

int hp_enqueue_copy(hp_queue *q, hp_buffer dst, hp_buffer src, uint64_t size,
		    const hp_event *wait, unsigned num_wait, hp_event *ev)
{
	int rc = check_deps(q, wait, num_wait);
	if (rc)
		return rc;
	struct fake_buf *fd = buf_at(q->d, dst, size),
			*fs = buf_at(q->d, src, size);
	if (!fd || !fs)
		return fail(HP_INVALID_VALUE, "copy outside a buffer");
	/* the bytes move at enqueue: the ICD orders commands itself */
	memmove(fd->mem + (dst - fd->addr), fs->mem + (src - fs->addr), size);
	return add_cmd(q, 0, ev);
}

int hp_enqueue_fill(hp_queue *q, hp_buffer dst, uint64_t size, uint64_t pattern,
		    unsigned pattern_size, const hp_event *wait,
		    unsigned num_wait, hp_event *ev)
{
	int rc = check_deps(q, wait, num_wait);
	if (rc)
		return rc;
	if (!pattern_size || pattern_size > 8 || size % pattern_size)
		return fail(HP_INVALID_VALUE, "pattern of %u bytes over %llu",
			    pattern_size, (unsigned long long)size);
	struct fake_buf *f = buf_at(q->d, dst, size);
	if (!f)
		return fail(HP_INVALID_VALUE, "fill outside a buffer");
	uint8_t *p = f->mem + (dst - f->addr);
	for (uint64_t i = 0; i < size; i += pattern_size)
		memcpy(p + i, &pattern, pattern_size);
	return add_cmd(q, 0, ev);
}

int hp_event_query(hp_device *d, hp_event ev, hp_event_info *info)
{
	pthread_mutex_lock(&mu);
	struct fake_cmd *c = cmd_of(d, ev);
	int rc = !c ? HP_INVALID_VALUE : c->done ? 0 : 1;
	if (!rc && info) {
		memset(info, 0, sizeof(*info));
		info->status = c->status;
		info->queued_us = (double)c->seq;
		info->submit_us = info->queued_us + 1;
		info->start_us = info->queued_us + 2;
		info->end_us = info->queued_us + 3;
		info->groups = 1;
		if (c->status)
			snprintf(info->detail, sizeof(info->detail), "%s",
				 "fake_hartpool: the command failed");
	}
	pthread_mutex_unlock(&mu);
	if (rc < 0)
		return fail(rc, "event 0x%llx names no command",
			    (unsigned long long)ev);
	return rc;
}

int hp_event_wait(hp_device *d, hp_event ev, hp_event_info *info)
{
	struct fake_cmd *c = cmd_of(d, ev);
	if (!c)
		return fail(HP_INVALID_VALUE, "event 0x%llx names no command",
			    (unsigned long long)ev);
	run_to(d, c);
	return hp_event_query(d, ev, info);
}

int hp_printf_read(hp_device *d, hp_buffer buf, uint32_t size, hp_printf_fn fn,
		   void *ctx, uint32_t *dropped)
{
	(void)fn, (void)ctx;
	if (!buf_at(d, buf, size))
		return fail(HP_INVALID_VALUE, "printf buffer outside a buffer");
	if (dropped)
		*dropped = 0;
	return 0; /* kernels of the fake print nothing */
}

/* ---- the OpenCL C "compiler" and kernel objects ---- */

const char *hp_cl_compiler(void)
{
	return "fake_hartpool";
}

/* Append printf output to a malloc'd string. */
static bool put(char **s, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool put(char **s, size_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int l = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *t = realloc(*s, *n + (size_t)l + 1);
	if (!t)
		return false;
	va_start(ap, fmt);
	vsnprintf(t + *n, (size_t)l + 1, fmt, ap);
	va_end(ap);
	*s = t;
	*n += (size_t)l;
	return true;
}

static const char *skip_ws(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

static bool word_at(const char *s, const char *w)
{
	size_t l = strlen(w);
	return !strncmp(s, w, l) && !isalnum((unsigned char)s[l]) &&
	       s[l] != '_';
}

/* One parameter "global const float *a" into "space size name type". */
static bool param(const char *p, size_t len, char *out, size_t n)
{
	char buf[256], type[64] = "", name[64] = "";
	if (len >= sizeof(buf))
		return false;
	memcpy(buf, p, len);
	buf[len] = 0;
	unsigned space = HP_CL_PRIVATE;
	bool ptr = strchr(buf, '*') != NULL;
	for (char *t = strtok(buf, " \t\n*"); t; t = strtok(NULL, " \t\n*")) {
		if (!strcmp(t, "global") || !strcmp(t, "__global"))
			space = HP_CL_GLOBAL;
		else if (!strcmp(t, "constant") || !strcmp(t, "__constant"))
			space = HP_CL_CONSTANT;
		else if (!strcmp(t, "local") || !strcmp(t, "__local"))
			space = HP_CL_LOCAL;
		else if (!strcmp(t, "const") || !strcmp(t, "restrict") ||
			 !strcmp(t, "volatile"))
			;
		else if (!type[0])
			snprintf(type, sizeof(type), "%s", t);
		else
			snprintf(name, sizeof(name), "%s", t);
	}
	if (!type[0] || !name[0])
		return false;
	unsigned size = 8;
	if (!ptr) {
		if (!strcmp(type, "char") || !strcmp(type, "uchar"))
			size = 1;
		else if (!strcmp(type, "short") || !strcmp(type, "ushort"))
			size = 2;
		else if (!strcmp(type, "int") || !strcmp(type, "uint") ||
			 !strcmp(type, "float"))
			size = 4;
		else if (strcmp(type, "long") && strcmp(type, "ulong") &&
			 strcmp(type, "double"))
			return false;
	}
	snprintf(out, n, "%u %u %s %s%s", ptr ? space : HP_CL_PRIVATE, size,
		 name, type, ptr ? "*" : "");
	return true;
}

/* The fake's objects have no program-scope variables. */
int hp_cl_globals_prepare(hp_device *d, const void *hpk, size_t n,
			  const hp_cl_program *p, void **patched,
			  hp_buffer *buf)
{
	(void)d, (void)hpk, (void)n, (void)p;
	*patched = NULL;
	*buf = 0;
	return 0;
}

/* The fake's builds make kernel objects of its own only: no compiled
 * object or library is ever one. */
unsigned hp_cl_object_kind(const void *b, size_t n, char *board)
{
	(void)b, (void)n, (void)board;
	return 0;
}

int hp_cl_build(const hp_cl_build_options *o, void **hpk, size_t *size,
		char **log)
{
	char *obj = NULL, *lg = NULL;
	size_t on = 0, ln = 0;
	*hpk = NULL;
	*size = 0;
	if (log)
		*log = NULL;
	const char *opts = o->options ? o->options : "";
	char ob[512];
	snprintf(ob, sizeof(ob), "%s", opts);
	for (char *t = strtok(ob, " "); t; t = strtok(NULL, " "))
		if (strncmp(t, "-D", 2) && strncmp(t, "-I", 2) &&
		    strncmp(t, "-cl-", 4) && strcmp(t, "-w") &&
		    strcmp(t, "-Werror")) {
			put(&lg, &ln, "error: unknown option '%s'\n", t);
			if (log)
				*log = lg;
			else
				free(lg);
			return fail(HP_INVALID_BUILD_OPTIONS,
				    "unknown build option '%s'", t);
		}
	put(&obj, &on, "%soptions %s\n", FAKE_MAGIC, opts);
	put(&lg, &ln, "%s", "");
	int rc = 0;
	for (unsigned i = 0; i < o->count; i++) {
		const char *src = o->sources[i];
		size_t len = o->lengths && o->lengths[i] ? o->lengths[i]
							 : strlen(src);
		char *s = strndup(src, len);
		if (!s) {
			rc = HP_OUT_OF_RESOURCES;
			break;
		}
		unsigned line = 1;
		for (const char *p = s; *p; p++) {
			if (*p == '\n')
				line++;
			if ((p == s || p[-1] == '\n') &&
			    !strncmp(skip_ws(p), "#error", 6)) {
				put(&lg, &ln, "program.cl:%u: error: %s\n",
				    line, "#error");
				rc = HP_BUILD_PROGRAM_FAILURE;
			}
			bool kw =
				word_at(p, "kernel") || word_at(p, "__kernel");
			if (!kw || (p > s && (isalnum((unsigned char)p[-1]) ||
					      p[-1] == '_')))
				continue;
			const char *q = skip_ws(p + (*p == '_' ? 8 : 6));
			uint32_t reqd[3] = {0, 0, 0};
			if (!strncmp(q, "__attribute__", 13)) {
				/* to the parenthesis that closes it */
				const char *end = strchr(q, '(');
				for (int depth = 0; end && *end; end++) {
					depth += (*end == '(') - (*end == ')');
					if (!depth)
						break;
				}
				if (!end || !*end)
					break;
				const char *r =
					strstr(q, "reqd_work_group_size(");
				if (r && r < end)
					sscanf(r + 21, "%u , %u , %u", &reqd[0],
					       &reqd[1], &reqd[2]);
				q = skip_ws(end + 1);
			}
			if (!word_at(q, "void"))
				continue;
			q = skip_ws(q + 4);
			const char *nm = q;
			while (isalnum((unsigned char)*q) || *q == '_')
				q++;
			size_t nl = (size_t)(q - nm);
			q = skip_ws(q);
			const char *close = *q == '(' ? strchr(q, ')') : NULL;
			if (!nl || !close || nl > HP_CL_NAME_MAX) {
				put(&lg, &ln,
				    "program.cl:%u: error: a kernel without a "
				    "name or parameter list\n",
				    line);
				rc = HP_BUILD_PROGRAM_FAILURE;
				continue;
			}
			static __thread char args[HP_CL_ARGS_MAX][160];
			unsigned na = 0;
			for (const char *a = q + 1;
			     a < close && na < HP_CL_ARGS_MAX;) {
				const char *c =
					memchr(a, ',', (size_t)(close - a));
				const char *e = c ? c : close;
				if (skip_ws(a) < e &&
				    !param(a, (size_t)(e - a), args[na++],
					   sizeof(args[0]))) {
					put(&lg, &ln,
					    "program.cl:%u: error: a parameter "
					    "of '%.*s' the fake compiler does "
					    "not know\n",
					    line, (int)nl, nm);
					rc = HP_BUILD_PROGRAM_FAILURE;
				}
				a = e + 1;
			}
			put(&obj, &on, "kernel %.*s %u %u %u %u\n", (int)nl, nm,
			    reqd[0], reqd[1], reqd[2], na);
			for (unsigned k = 0; k < na; k++)
				put(&obj, &on, "arg %s\n", args[k]);
		}
		free(s);
	}
	if (log)
		*log = lg;
	else
		free(lg);
	if (rc) {
		free(obj);
		return fail(rc, "the build failed");
	}
	*hpk = obj;
	*size = on;
	return 0;
}

void hp_cl_program_free(hp_cl_program *p)
{
	if (p) {
		free(p->kernels);
		free(p);
	}
}

int hp_cl_program_parse(const void *hpk, size_t size, hp_cl_program **out)
{
	size_t ml = strlen(FAKE_MAGIC);
	if (!hpk || size < ml || memcmp(hpk, FAKE_MAGIC, ml))
		return fail(HP_INVALID_BINARY, "not a kernel object");
	char *s = strndup(hpk, size);
	hp_cl_program *p = calloc(1, sizeof(*p));
	if (!s || !p) {
		free(s);
		free(p);
		return fail(HP_OUT_OF_RESOURCES, "out of host memory");
	}
	int rc = 0;
	hp_cl_kmeta *k = NULL;
	char *save = NULL;
	for (char *l = strtok_r(s + ml, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "options ", 8)) {
			snprintf(p->build_options, sizeof(p->build_options),
				 "%s", l + 8);
		} else if (!strncmp(l, "kernel ", 7)) {
			hp_cl_kmeta *n = realloc(
				p->kernels, (p->num_kernels + 1) * sizeof(*n));
			if (!n) {
				rc = HP_OUT_OF_RESOURCES;
				break;
			}
			p->kernels = n;
			k = &n[p->num_kernels++];
			memset(k, 0, sizeof(*k));
			unsigned na;
			if (sscanf(l + 7, "%127s %u %u %u %u", k->name,
				   &k->reqd[0], &k->reqd[1], &k->reqd[2],
				   &na) != 5) {
				rc = HP_INVALID_BINARY;
				break;
			}
			snprintf(k->device_name, sizeof(k->device_name),
				 "%.31s", k->name);
		} else if (!strncmp(l, "arg ", 4) && k &&
			   k->num_args < HP_CL_ARGS_MAX) {
			hp_cl_arg *a = &k->args[k->num_args];
			if (sscanf(l + 4, "%u %u %63s %63s", &a->addr_space,
				   &a->size, a->name, a->type_name) != 4) {
				rc = HP_INVALID_BINARY;
				break;
			}
			a->align = a->size;
			a->offset =
				(k->args_size + a->align - 1) & ~(a->align - 1);
			k->args_size = a->offset + a->size;
			k->num_args++;
		} else {
			rc = HP_INVALID_BINARY;
			break;
		}
	}
	free(s);
	if (rc) {
		hp_cl_program_free(p);
		return fail(rc, "a malformed kernel object");
	}
	*out = p;
	return 0;
}

int hp_object_load(hp_device *d, const void *data, size_t size, hp_object *out,
		   uint64_t *load_addr)
{
	hp_cl_program *p;
	int rc = hp_cl_program_parse(data, size, &p);
	if (rc)
		return rc;
	unsigned slot = 0;
	while (slot < FAKE_OBJECTS && d->objs[slot].used)
		slot++;
	if (slot == FAKE_OBJECTS) {
		hp_cl_program_free(p);
		return fail(HP_OUT_OF_RESOURCES, "all %u object slots in use",
			    FAKE_OBJECTS);
	}
	uint32_t gen = ++d->gen & 0xffffu;
	for (unsigned i = 0; i < p->num_kernels; i++)
		if (add_row(d, p->kernels[i].device_name, p->kernels[i].reqd,
			    HP_KFLAG_OBJECT(slot, gen)) == ~0u) {
			for (unsigned r = 0; r < d->num_rows; r++)
				if (d->rows[r].flags ==
				    HP_KFLAG_OBJECT(slot, gen))
					d->rows[r].name[0] = 0;
			hp_cl_program_free(p);
			return fail(HP_OUT_OF_RESOURCES, "kernel table full");
		}
	hp_cl_program_free(p);
	d->objs[slot].used = true;
	d->objs[slot].gen = gen;
	*out = (hp_object)slot << 16 | gen;
	if (load_addr)
		*load_addr = FAKE_HEAP_BASE - 0x100000u * (slot + 1);
	pthread_mutex_lock(&mu);
	stats.objects_loaded++;
	pthread_mutex_unlock(&mu);
	return 0;
}

static bool obj_live(hp_device *d, hp_object obj, unsigned *slot, uint32_t *gen)
{
	*slot = (unsigned)(obj >> 16);
	*gen = (uint32_t)(obj & 0xffffu);
	return *slot < FAKE_OBJECTS && d->objs[*slot].used &&
	       d->objs[*slot].gen == *gen;
}

int hp_object_unload(hp_device *d, hp_object obj)
{
	unsigned slot;
	uint32_t gen;
	if (!obj_live(d, obj, &slot, &gen))
		return fail(HP_INVALID_PROGRAM, "object not loaded");
	for (unsigned r = 0; r < d->num_rows; r++)
		if (d->rows[r].flags == HP_KFLAG_OBJECT(slot, gen))
			d->rows[r].name[0] = 0;
	d->objs[slot].used = false;
	pthread_mutex_lock(&mu);
	stats.objects_unloaded++;
	pthread_mutex_unlock(&mu);
	return 0;
}

int hp_object_kernel(hp_device *d, hp_object obj, const char *name,
		     uint32_t *id)
{
	unsigned slot;
	uint32_t gen;
	if (!obj_live(d, obj, &slot, &gen))
		return fail(HP_INVALID_PROGRAM, "object not loaded");
	for (unsigned r = 0; r < d->num_rows; r++)
		if (d->rows[r].flags == HP_KFLAG_OBJECT(slot, gen) &&
		    !strcmp(d->rows[r].name, name)) {
			*id = row_id(d, r);
			return 0;
		}
	return fail(HP_INVALID_KERNEL, "no kernel '%s' in the object", name);
}
