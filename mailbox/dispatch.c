// SPDX-License-Identifier: MIT
/*
 * The mailbox dispatcher (DESIGN §1, include/hartpool/mbox.h). One hart
 * reads packets; every packet becomes an executor command held in the
 * firmware's copy of its slot, so packets of all queues share the
 * executor's dependency tracking and work-pool. A packet is validated
 * completely (fields, kernel, NDRange, buffers, dependencies) before
 * anything changes; an invalid one completes at once with its HP_ error.
 * Completion records are written by whichever hart completes the command
 * (exec_cmd.on_complete).
 *
 * Nothing the host writes is read twice: the packet and the kernel
 * arguments are copied out of shared memory before they are checked.
 */
#include "dispatch.h"
#include <hartpool/kernels/diag.h>
#include <executor/exec.h>
#include "loader.h"
#include <hal/atomic.h>
#include <hal/hart.h>
#include <hal/heap.h>
#include <hal/lock.h>
#include <hal/timer.h>
#include <hartpool/api.h>
#include <hartpool/mbox.h>
#include <stdio.h>
#include <string.h>

#define FIRMWARE_NAME "hartpool mbox v4"

/* Doorbell checks: every DISPATCH_FAST_US while packets keep arriving
 * (within DISPATCH_BUSY_WINDOW_US of the last one), else every poll_us. */
#define DISPATCH_FAST_US 10u
#define DISPATCH_BUSY_WINDOW_US 5000u
/* Longest time limit a packet may ask for (one hour). */
#define DISPATCH_MAX_TIMEOUT_US 3600000000ull

/* Mailbox layout (offsets from the mailbox base). */
#define OFF_QUEUES 4096u
#define OFF_KERNELS 8192u
#define OFF_RINGS 16384u
#define QUEUE_BYTES                                                            \
	(HP_MBOX_RING_SIZE *                                                   \
	 (sizeof(hp_packet) + sizeof(hp_kernarg) + sizeof(hp_completion)))

/* The firmware's side of a slot: the command and private copies of what
 * the host sent. */
typedef struct dslot {
	exec_cmd cmd;
	uint64_t index; /* packet index; valid while `used` */
	bool used;
	uint8_t type;
	uint64_t result;    /* ALLOC: the address; LOAD: the handle */
	uint64_t result2;   /* LOAD: the load address */
	uint64_t free_addr; /* FREE: the buffer it marked (0: none) */
	struct dobj *obj;   /* the loaded object of its kernel, or NULL */
	const char *detail; /* dispatcher's own error detail */
	struct dqueue *q;
	exec_cmd *wait[HP_MBOX_MAX_WAIT + 1];
	uint64_t args[HP_MBOX_ARGS_MAX / 8];
} dslot;

typedef struct dqueue {
	hp_mbox_queue *shm;
	hp_packet *ring;
	hp_kernarg *kernarg;
	hp_completion *comp;
	exec_queue xq;
	uint64_t consumed;
	bool busy; /* being read (dependency cycles) */
	dslot *slots;
} dqueue;

/* A kernel object (HP_PKT_LOAD). Its code memory stays taken while
 * commands of its kernels that were accepted are not complete (refs), even
 * after UNLOAD took its kernels out of the table. */
enum { OBJ_FREE, OBJ_LOADED, OBJ_UNLOADING };

typedef struct dobj {
	unsigned state;
	unsigned refs; /* accepted commands not complete (atomic) */
	uint16_t gen;
	uintptr_t base;
	size_t size;
	unsigned num_kernels;
	uint8_t rows[HPK_KERNELS_MAX];
	hpk_kernel *k; /* HPK_KERNELS_MAX, firmware-private */
} dobj;

typedef struct dbuf {
	uint64_t addr, size;
	bool freeing; /* a FREE for it is on its way */
} dbuf;

static struct {
	dispatch_config cfg;
	hp_mbox_header *hdr;
	dqueue q[HP_MBOX_QUEUES];
	const hp_kernel *kernels[HP_MBOX_KERNELS_MAX]; /* NULL: free row */
	dobj *kobj[HP_MBOX_KERNELS_MAX]; /* the row's object, or NULL */
	hp_mbox_kernel *ktab;		 /* the shared kernel table */
	unsigned num_kernels;		 /* rows up to the last used one */
	unsigned num_builtin;
	dobj obj[HP_MBOX_OBJECTS_MAX];
	uint16_t obj_gen;
	/* Detail of the packet being rejected, when it has numbers in it (a
	 * rejected packet completes, and its detail is copied, before the
	 * next one is read). */
	char why[sizeof(((hp_completion *)0)->detail)];
	hal_lock buf_lock;
	dbuf bufs[HP_MBOX_BUFFERS_MAX]; /* sorted by address */
	unsigned num_bufs;
	uint64_t packets, bad;
} D = {.buf_lock = HAL_LOCK_INIT};

/* ---- 64-bit shared words on any XLEN ---- */

static uint64_t ld64(const uint64_t *p)
{
#if __SIZEOF_POINTER__ >= 8
	return hal_load_acquire(p);
#else
	/* Two halves; the high word read twice detects a carry between. */
	const uint32_t *w = (const uint32_t *)p;
	for (;;) {
		uint32_t hi = hal_load_acquire(&w[1]);
		uint32_t lo = hal_load_acquire(&w[0]);
		if (hal_load_acquire(&w[1]) == hi)
			return (uint64_t)hi << 32 | lo;
	}
#endif
}

static void st64(uint64_t *p, uint64_t v)
{
#if __SIZEOF_POINTER__ >= 8
	hal_store_release(p, v);
#else
	/* Low word first: a reader between the halves sees a smaller value,
	 * which only delays it (the counters only grow). */
	uint32_t *w = (uint32_t *)p;
	hal_store_release(&w[0], (uint32_t)v);
	hal_store_release(&w[1], (uint32_t)(v >> 32));
#endif
}

static void *ptr(uint64_t addr)
{
	return (void *)(uintptr_t)addr;
}

/* ---- buffers ---- */

/* The buffer containing [addr, addr + len) (len may be 0), or NULL. Lock
 * held. */
static dbuf *buf_find(uint64_t addr, uint64_t len)
{
	unsigned lo = 0, hi = D.num_bufs;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (D.bufs[mid].addr + D.bufs[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == D.num_bufs)
		return NULL;
	dbuf *b = &D.bufs[lo];
	if (addr < b->addr || len > b->size - (addr - b->addr))
		return NULL;
	if (len == 0 && addr == b->addr + b->size)
		return NULL;
	return b;
}

static uint64_t align_up(uint64_t v)
{
	return (v + HP_MBOX_BUFFER_ALIGN - 1) &
	       ~(uint64_t)(HP_MBOX_BUFFER_ALIGN - 1);
}

/* A buffer of `size` bytes: its address, or 0 with the reason (and the
 * numbers) in D.why. First fit over the gaps between the buffers. */
static uint64_t buf_alloc(uint64_t size)
{
	unsigned long long ask = size;
	if (size == 0) {
		snprintf(D.why, sizeof(D.why), "a buffer of 0 bytes");
		return 0;
	}
	uint64_t need = size > D.cfg.buf_size ? UINT64_MAX : align_up(size);
	uint64_t addr = 0, largest = 0, used = 0;
	hal_lock_acquire(&D.buf_lock);
	unsigned nb = D.num_bufs, i = 0;
	for (uint64_t at = D.cfg.buf_base;; i++) {
		uint64_t end = i < nb ? D.bufs[i].addr
				      : D.cfg.buf_base + D.cfg.buf_size;
		if (end - at >= need && nb < HP_MBOX_BUFFERS_MAX) {
			addr = at;
			break;
		}
		if (end - at > largest)
			largest = end - at;
		if (i == nb)
			break;
		used += D.bufs[i].size;
		at = align_up(D.bufs[i].addr + D.bufs[i].size);
	}
	if (addr) {
		memmove(&D.bufs[i + 1], &D.bufs[i], (nb - i) * sizeof(dbuf));
		D.bufs[i] = (dbuf){addr, size, false};
		D.num_bufs++;
	}
	hal_lock_release(&D.buf_lock);
	if (!addr && nb >= HP_MBOX_BUFFERS_MAX)
		snprintf(D.why, sizeof(D.why),
			 "a buffer of %llu bytes: all %u buffers in use", ask,
			 HP_MBOX_BUFFERS_MAX);
	else if (!addr)
		snprintf(D.why, sizeof(D.why),
			 "a buffer of %llu bytes: largest free block %llu of "
			 "%llu (%llu in use)",
			 ask, (unsigned long long)largest,
			 (unsigned long long)D.cfg.buf_size,
			 (unsigned long long)used);
	return addr;
}

/* A FREE that could not be read yet gives its mark back. */
static void buf_free_undo(uint64_t addr)
{
	hal_lock_acquire(&D.buf_lock);
	dbuf *b = buf_find(addr, 0);
	if (b && b->addr == addr)
		b->freeing = false;
	hal_lock_release(&D.buf_lock);
}

static void buf_free(uint64_t addr)
{
	hal_lock_acquire(&D.buf_lock);
	dbuf *b = buf_find(addr, 0);
	if (b && b->addr == addr) {
		unsigned i = (unsigned)(b - D.bufs);
		memmove(b, b + 1, (D.num_bufs - i - 1) * sizeof(dbuf));
		D.num_bufs--;
	}
	hal_lock_release(&D.buf_lock);
}

/* Elements a buffer argument spans, or UINT64_MAX if it overflows. */
static uint64_t extent(const hp_arg_buffer *b, const uint64_t *args,
		       uint32_t args_size, const hp_launch *l)
{
	uint64_t n;
	switch (b->extent) {
	case HP_EXTENT_ITEMS:
		n = exec_ndrange_items(l);
		break;
	case HP_EXTENT_GROUPS:
		n = l->total_groups;
		break;
	case HP_EXTENT_FIXED:
		n = b->param;
		break;
	case HP_EXTENT_ARG:
	case HP_EXTENT_ITEMS_PLUS_ARG:
		if (b->param % 8 || b->param + 8 > args_size)
			return UINT64_MAX;
		n = args[b->param / 8];
		if (b->extent == HP_EXTENT_ITEMS_PLUS_ARG) {
			uint64_t items = exec_ndrange_items(l);
			if (n > UINT64_MAX - items)
				return UINT64_MAX;
			n += items;
		}
		break;
	default:
		return UINT64_MAX;
	}
	if (b->elem_size && n > UINT64_MAX / b->elem_size)
		return UINT64_MAX;
	return n * b->elem_size;
}

/* Every buffer argument of k lies in one allocated buffer, aligned. */
static const char *check_buffers(const hp_kernel *k, const uint64_t *args,
				 uint32_t args_size, const hp_launch *l)
{
	const char *why = NULL;
	unsigned i = 0;
	uint64_t addr = 0, len = 0;
	hal_lock_acquire(&D.buf_lock);
	for (; i < k->num_buffers && !why; i++) {
		const hp_arg_buffer *b = &k->buffers[i];
		if (b->offset % 8 || b->offset + 8u > args_size) {
			why = "buffer argument outside the arguments";
			break;
		}
		addr = args[b->offset / 8];
		len = extent(b, args, args_size, l);
		if (len == UINT64_MAX)
			why = "buffer extent overflows";
		else if (b->align > 1 && addr % b->align)
			why = "buffer argument misaligned";
		else if (len && !buf_find(addr, len))
			why = D.why;
	}
	hal_lock_release(&D.buf_lock);
	if (why == D.why)
		snprintf(D.why, sizeof(D.why),
			 "buffer argument %u: %llu bytes at 0x%llx outside "
			 "allocated buffers",
			 i - 1, (unsigned long long)len,
			 (unsigned long long)addr);
	return why;
}

/* The printf buffer of a dispatch: inside one allocated buffer, aligned,
 * big enough; its header reset (records are only read up to `used`). */
static const char *printf_setup(const hp_kernarg *ka, exec_cmd *c)
{
	uint64_t at = ld64(&ka->printf_buf);
	uint32_t size = hal_load_relaxed(&ka->printf_size);
	c->printf_buf = NULL;
	c->printf_size = 0;
	if (!at && !size)
		return NULL;
	if (at % 8 || size % 8 || size < HP_PRINTF_MIN_SIZE)
		return "printf buffer misaligned or below 64 bytes";
	hal_lock_acquire(&D.buf_lock);
	bool ok = buf_find(at, size) != NULL;
	hal_lock_release(&D.buf_lock);
	if (!ok)
		return "printf buffer outside allocated buffers";
	hp_printf_header *h = ptr(at);
	h->used = 0;
	h->dropped = 0;
	h->size = size - (uint32_t)sizeof(*h);
	h->reserved = 0;
	c->printf_buf = h;
	c->printf_size = size;
	return NULL;
}

/* ---- completion ---- */

static void copy_detail(char *dst, const char *s)
{
	size_t i = 0;
	for (; s && s[i] && i < sizeof(((hp_completion *)0)->detail) - 1; i++)
		dst[i] = s[i];
	dst[i] = 0;
}

/* exec_cmd.on_complete of every mailbox command: the completion record
 * (done last). Runs on the completing hart with the command lock held. */
static void cmd_done(exec_cmd *c, int status)
{
	dslot *s = c->user;
	dqueue *q = s->q;
	if (s->obj)
		hal_fetch_add(&s->obj->refs, ~0u); /* its code may go now */
	/* A FREE that failed (its wait list, a failed dependency) leaves the
	 * buffer allocated and freeable. */
	if (s->type == HP_PKT_FREE && s->free_addr) {
		if (status == 0)
			buf_free(s->free_addr);
		else
			buf_free_undo(s->free_addr);
	}
	hp_completion *r = &q->comp[s->index % HP_MBOX_RING_SIZE];
	r->status = status;
	r->hart = hal_hart_idx();
	r->t_queued = c->t_queued;
	r->t_submit = c->t_submit;
	r->t_start = c->t_start;
	r->t_end = c->t_end;
	r->result = s->result;
	r->result2 = s->result2;
	r->groups = c->kernel ? c->launch.total_groups : 0;
	for (unsigned d = 0; d < 3; d++)
		r->local[d] = c->kernel ? (uint32_t)c->launch.local_size[d] : 0;
	r->fault_pc = c->fault.pc;
	r->fault_addr = c->fault.addr;
	r->fault_cause = (uint32_t)(c->fault.cause >> (8 * sizeof(long) - 1)
					    ? c->fault.cause | 0x80000000u
					    : c->fault.cause);
	r->fault_hart = c->fault.hart;
	for (unsigned d = 0; d < 3; d++)
		r->fault_group[d] = c->fault.group[d];
	copy_detail(r->detail,
		    status ? (s->detail		? s->detail
			      : c->error_detail ? c->error_detail
						: hp_error_text(status))
			   : "");
	st64(&r->done, s->index + 1);
}

/* ---- reading packets ---- */

enum { READ_OK, READ_NOT_YET };

static int consume_upto(dqueue *q, uint64_t end);

/* Resolve event `ev` named by packet `self_index` of `self`. Returns
 * READ_OK with *out set (or a detail in *why), or READ_NOT_YET when the
 * packet it names cannot be read yet. */
static int resolve(dqueue *self, uint64_t self_index, uint64_t ev,
		   exec_cmd **out, const char **why)
{
	unsigned qn = HP_EVENT_QUEUE(ev);
	uint64_t idx = HP_EVENT_INDEX(ev);
	*out = NULL;
	if (qn >= HP_MBOX_QUEUES) {
		*why = "event names no queue";
		return READ_OK;
	}
	dqueue *dq = &D.q[qn];
	if (dq == self && idx >= self_index) {
		*why = "waits for itself or a later packet";
		return READ_OK;
	}
	if (idx >= dq->consumed) {
		if (idx >= ld64(&dq->shm->write_index)) {
			*why = "event not submitted";
			return READ_OK;
		}
		if (dq->busy) {
			*why = "circular dependency between queues";
			return READ_OK;
		}
		consume_upto(dq, idx + 1);
		if (idx >= dq->consumed)
			return READ_NOT_YET;
	}
	dslot *s = &dq->slots[idx % HP_MBOX_RING_SIZE];
	if (!s->used || s->index != idx) {
		*why = "event too old (slot reused)";
		return READ_OK;
	}
	*out = &s->cmd;
	return READ_OK;
}

/* Resolve n events into s->wait[]; returns READ_NOT_YET, or READ_OK with
 * *why set on an invalid event. */
static int resolve_all(dqueue *q, uint64_t index, const uint64_t *ev,
		       unsigned n, dslot *s, unsigned *num, const char **why)
{
	*num = 0;
	for (unsigned i = 0; i < n; i++) {
		exec_cmd *c;
		if (resolve(q, index, ev[i], &c, why) == READ_NOT_YET)
			return READ_NOT_YET;
		if (*why)
			return READ_OK;
		s->wait[(*num)++] = c;
	}
	return READ_OK;
}

static void dev_info(hp_device_info *info)
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
	info->global_mem_size = D.cfg.buf_size;
	info->max_mem_alloc_size = D.cfg.buf_size;
	info->dram_size = D.cfg.dram_size;
	info->timer_hz = hal_timer_freq();
	strncpy(info->board, D.cfg.board ? D.cfg.board : "?",
		sizeof(info->board) - 1);
	strncpy(info->firmware, FIRMWARE_NAME, sizeof(info->firmware) - 1);
}

static const hp_kernel *kernel_named(const char *name)
{
	for (unsigned i = 0; i < D.num_builtin; i++)
		if (strcmp(D.kernels[i]->name, name) == 0)
			return D.kernels[i];
	return NULL;
}

/* ---- the kernel table and kernel objects ---- */

/* Publish kernel k in row `row` (flags: HP_KFLAG_LOADED etc.). */
static void row_set(unsigned row, const hp_kernel *k, dobj *o, uint32_t flags)
{
	hp_mbox_kernel *r = &D.ktab[row];
	memset(r, 0, sizeof(*r));
	strncpy(r->name, k->name, sizeof(r->name) - 1);
	for (unsigned d = 0; d < 3; d++)
		r->reqd_work_group_size[d] = k->reqd_work_group_size[d];
	r->max_work_group_size = k->max_work_group_size;
	unsigned s = k->sub_group_size ? k->sub_group_size
				       : exec_dev.default_sub_group_size;
	r->work_group_size = exec_kernel_max_group(&exec_dev, k, s, 1, NULL);
	r->sub_group_size = (uint16_t)k->sub_group_size;
	r->local_mem_bytes = k->local_mem_bytes;
	r->args_size = (uint16_t)k->args_size;
	r->flags = flags | (k->uses_barriers ? HP_KFLAG_BARRIERS : 0);
	D.kernels[row] = k;
	D.kobj[row] = o;
}

/* Rows up to the last used one, published (after the rows: release). */
static void rows_publish(void)
{
	unsigned n = HP_MBOX_KERNELS_MAX;
	while (n && !D.kernels[n - 1])
		n--;
	D.num_kernels = n;
	hal_store_release(&D.hdr->num_kernels, (uint32_t)n);
}

/* Gap of `size` bytes in the code memory, 64-byte aligned, outside every
 * object whose memory is taken; 0 if none. */
static uintptr_t code_alloc(size_t size)
{
	uintptr_t at = (uintptr_t)D.cfg.code_base;
	uintptr_t end = at + (uintptr_t)D.cfg.code_size;
	for (;;) {
		at = (at + HPK_IMAGE_ALIGN - 1) &
		     ~(uintptr_t)(HPK_IMAGE_ALIGN - 1);
		if (at > end || size > end - at)
			return 0;
		bool moved = false;
		for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX; i++) {
			const dobj *o = &D.obj[i];
			if (o->state == OBJ_FREE)
				continue;
			if (at < o->base + o->size && o->base < at + size) {
				at = o->base + o->size;
				moved = true;
			}
		}
		if (!moved)
			return at;
	}
}

/* An unloaded object whose last command completed is free again. */
static void obj_reap(void)
{
	for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX; i++) {
		dobj *o = &D.obj[i];
		if (o->state == OBJ_UNLOADING && !hal_load_acquire(&o->refs))
			o->state = OBJ_FREE;
	}
}

static hpk_target load_target(void)
{
	hpk_target t = {
		.xlen = 8 * sizeof(void *),
#if defined(__riscv) && defined(__riscv_float_abi_soft)
		.float_abi = HPK_FLOAT_SOFT,
#elif defined(__riscv) && defined(__riscv_float_abi_single)
		.float_abi = HPK_FLOAT_SINGLE,
#else
		.float_abi = HPK_FLOAT_DOUBLE,
#endif
		.api_count = exec_api.count,
		.max_work_group_size = exec_dev.max_work_group_size,
		.local_mem_size = exec_dev.local_mem_size,
		.sub_group_sizes = exec_dev.sub_group_sizes,
	};
	return t;
}

/* LOAD: check, place, relocate, register. Nothing changes unless it all
 * succeeds. */
static int obj_load(uint64_t src, uint64_t size, dslot *s, const char **why)
{
	hal_lock_acquire(&D.buf_lock);
	bool ok = size && buf_find(src, size) != NULL;
	hal_lock_release(&D.buf_lock);
	if (!ok) {
		*why = "object outside allocated buffers";
		return HP_INVALID_VALUE;
	}
	*why = D.why;
	hpk_target t = load_target();
	hpk_header h;
	const void *file = ptr(src);
	int err = hpk_check(file, (size_t)size, &t, &h, D.why, sizeof(D.why));
	if (err)
		return err;
	obj_reap();
	dobj *o = NULL;
	for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX && !o; i++)
		if (D.obj[i].state == OBJ_FREE)
			o = &D.obj[i];
	if (!o) {
		snprintf(D.why, sizeof(D.why),
			 "kernel objects: all %u loaded already",
			 HP_MBOX_OBJECTS_MAX);
		return HP_OUT_OF_RESOURCES;
	}
	unsigned nk = hpk_kernel_count(&h), free_rows = 0;
	for (unsigned r = D.num_builtin; r < HP_MBOX_KERNELS_MAX; r++)
		free_rows += D.kernels[r] == NULL;
	if (nk > free_rows) {
		snprintf(D.why, sizeof(D.why),
			 "kernel table: %u kernels, %u of %u rows free", nk,
			 free_rows, HP_MBOX_KERNELS_MAX);
		return HP_OUT_OF_RESOURCES;
	}
	if (!o->k)
		o->k = hal_heap_alloc_private(
			HPK_KERNELS_MAX * sizeof(hpk_kernel), 8);
	uintptr_t base = code_alloc(h.image_size);
	if (!o->k) {
		*why = "firmware memory for kernel descriptors exhausted";
		return HP_OUT_OF_RESOURCES;
	}
	if (!base) {
		snprintf(D.why, sizeof(D.why),
			 "code memory: %llu bytes asked, no gap that large in "
			 "%llu",
			 (unsigned long long)h.image_size,
			 (unsigned long long)D.cfg.code_size);
		return HP_OUT_OF_RESOURCES;
	}
	err = hpk_place(&h, file, ptr(base), &exec_api, D.why, sizeof(D.why));
	for (unsigned i = 0; i < nk && !err; i++) {
		err = hpk_kernel_read(&h, ptr(base), i, &t, &o->k[i], D.why,
				      sizeof(D.why));
		for (unsigned j = 0; j < i && !err; j++)
			if (!strcmp(o->k[j].name, o->k[i].name)) {
				snprintf(D.why, sizeof(D.why),
					 "two kernels named %s", o->k[i].name);
				err = HP_INVALID_BINARY;
			}
	}
	if (err)
		return err;

	/* Commit. */
	if (!++D.obj_gen)
		D.obj_gen = 1;
	o->gen = D.obj_gen;
	o->base = base;
	o->size = h.image_size;
	o->refs = 0;
	o->num_kernels = nk;
	o->state = OBJ_LOADED;
	unsigned slot = (unsigned)(o - D.obj), row = D.num_builtin;
	for (unsigned i = 0; i < nk; i++, row++) {
		while (D.kernels[row])
			row++;
		o->rows[i] = (uint8_t)row;
		row_set(row, &o->k[i].k, o,
			HP_KFLAG_LOADED | slot << 8 | (uint32_t)o->gen << 16);
	}
	rows_publish();
	exec_code_changed();
	s->result = HP_KERNEL_ID(slot, o->gen);
	s->result2 = base;
	*why = NULL;
	return 0;
}

/* UNLOAD: its kernels leave the table now; its memory once no accepted
 * command needs it. */
static int obj_unload(uint64_t handle, const char **why)
{
	uint64_t slot = handle & 0xffffu, gen = handle >> 16;
	dobj *o = slot < HP_MBOX_OBJECTS_MAX ? &D.obj[slot] : NULL;
	if (!o || o->state != OBJ_LOADED || gen != o->gen) {
		*why = "no kernel object loaded with this handle";
		return HP_INVALID_PROGRAM;
	}
	for (unsigned i = 0; i < o->num_kernels; i++) {
		unsigned row = o->rows[i];
		memset(&D.ktab[row], 0, sizeof(D.ktab[row]));
		D.kernels[row] = NULL;
		D.kobj[row] = NULL;
	}
	rows_publish();
	o->state = OBJ_UNLOADING;
	obj_reap();
	return 0;
}

/* Fill s->cmd for a memory packet (COPY, FILL) run by a kernel. */
static int mem_cmd(const hp_packet_mem *p, dslot *s, const char **why)
{
	exec_cmd *c = &s->cmd;
	uint64_t size = p->size;
	if (p->header >> 9 || p->reserved || p->reserved2[0] ||
	    p->reserved2[1] || p->reserved2[2]) {
		*why = "reserved fields not zero";
		return HP_INVALID_VALUE;
	}
	if (HP_PKT_TYPE(p->header) == HP_PKT_COPY) {
		if (p->pattern || p->pattern_size) {
			*why = "reserved fields not zero";
			return HP_INVALID_VALUE;
		}
		if (size && p->dst < p->src + size && p->src < p->dst + size) {
			*why = "source and destination overlap";
			return HP_INVALID_VALUE;
		}
		c->kernel = kernel_named("copy");
		s->args[0] = p->dst, s->args[1] = p->src, s->args[2] = size;
		c->args_size = sizeof(uint64_t) * 3;
	} else {
		unsigned ps = p->pattern_size;
		if (ps != 1 && ps != 2 && ps != 4 && ps != 8) {
			*why = "pattern size must be 1, 2, 4 or 8";
			return HP_INVALID_VALUE;
		}
		if (p->dst % ps || size % ps) {
			*why = "fill not aligned to the pattern size";
			return HP_INVALID_VALUE;
		}
		c->kernel = kernel_named("fill");
		s->args[0] = p->dst, s->args[1] = size;
		s->args[2] = p->pattern, s->args[3] = ps;
		c->args_size = sizeof(uint64_t) * 4;
	}
	if (!c->kernel) {
		*why = "memory kernels not built in";
		return HP_INVALID_KERNEL;
	}
	c->range.work_dim = 1;
	c->range.global[0] = size / HP_MEM_CHUNK + (size % HP_MEM_CHUNK != 0);
	return 0;
}

/*
 * Read packet `i` of q (the next one). READ_NOT_YET: it cannot be read
 * now (not written yet, its slot's previous command still running, or a
 * dependency not readable yet); nothing changed.
 */
static int consume_one(dqueue *q, uint64_t i)
{
	unsigned slot = (unsigned)(i % HP_MBOX_RING_SIZE);
	hp_packet *shp = &q->ring[slot];
	uint16_t header = hal_load_acquire(&shp->header);
	if (HP_PKT_TYPE(header) == HP_PKT_INVALID)
		return READ_NOT_YET;
	dslot *s = &q->slots[slot];
	/* A host that wrote over a slot whose command still runs broke rule
	 * 1 of mbox.h; the packet waits, nothing is overwritten. */
	if (s->used && exec_status(&s->cmd) > 0)
		return READ_NOT_YET;

	hp_packet p;
	memcpy(&p, shp, sizeof(p));
	p.header = header;
	unsigned type = HP_PKT_TYPE(header);
	exec_cmd *c = &s->cmd;
	const hp_kernarg *ka = &q->kernarg[slot];
	const char *why = NULL;
	int err = 0;
	unsigned nwait = 0;
	uint64_t ev[HP_MBOX_MAX_WAIT];

	/* The slot is being refilled: the packet it held (i - ring size)
	 * is complete, and from now on too old to wait for. */
	s->used = false;
	memset(c, 0, sizeof(*c));
	s->type = (uint8_t)type;
	s->result = 0;
	s->result2 = 0;
	s->free_addr = 0;
	s->obj = NULL;
	s->detail = NULL;
	c->args = s->args;
	c->barrier = (header & HP_PKT_BARRIER) != 0;

	/* Dependencies listed in the kernarg block (all but barrier-AND,
	 * marker and info packets). */
	bool kernarg_deps = type == HP_PKT_KERNEL_DISPATCH ||
			    type == HP_PKT_COPY || type == HP_PKT_FILL ||
			    type == HP_PKT_FREE;
	if (kernarg_deps) {
		nwait = hal_load_relaxed(&ka->num_wait);
		if (nwait > HP_MBOX_MAX_WAIT) {
			err = HP_INVALID_EVENT_WAIT_LIST;
			why = "more than 8 events to wait for";
			nwait = 0;
		}
		memcpy(ev, ka->wait, nwait * sizeof(uint64_t));
	}

	if (err) {
		/* reported below */
	} else if (header >> 9 || type >= HP_PKT_TYPES) {
		err = HP_INVALID_VALUE;
		why = "unknown packet type or header bits";
	} else if (type == HP_PKT_KERNEL_DISPATCH) {
		const hp_packet_dispatch *d = &p.dispatch;
		unsigned row = HP_KERNEL_ROW(d->kernel);
		uint32_t asz = hal_load_relaxed(&ka->args_size);
		uint64_t tmo = ld64(&ka->timeout_us);
		if (d->setup & ~0x1fu || d->reserved) {
			err = HP_INVALID_VALUE;
			why = "reserved fields not zero";
		} else if (row >= D.num_kernels || !D.kernels[row]) {
			err = HP_INVALID_KERNEL;
			why = "no such kernel (or its object was unloaded)";
		} else if (HP_KERNEL_GEN(d->kernel) !=
			   (D.kobj[row] ? D.kobj[row]->gen : 0u)) {
			err = HP_INVALID_KERNEL;
			why = "kernel of an unloaded object";
		} else if (asz > HP_MBOX_ARGS_MAX) {
			err = HP_INVALID_KERNEL_ARGS;
			why = "argument block too large";
		} else if (tmo > DISPATCH_MAX_TIMEOUT_US) {
			err = HP_INVALID_VALUE;
			why = "time limit above one hour";
		} else if ((why = printf_setup(ka, c))) {
			err = HP_INVALID_VALUE;
		} else {
			c->timeout_us = tmo;
			c->kernel = D.kernels[row];
			s->obj = D.kobj[row];
			c->args_size = asz;
			memcpy(s->args, ka->args, asz);
			exec_range *r = &c->range;
			r->work_dim = HP_SETUP_DIM(d->setup);
			r->local_given = (d->setup & HP_SETUP_LOCAL) != 0;
			r->uniform = (d->setup & HP_SETUP_UNIFORM) != 0;
			for (unsigned k = 0; k < 3; k++) {
				r->global[k] = d->global[k];
				r->offset[k] = d->offset[k];
				r->local[k] = d->local[k];
				r->reqd[k] = ka->reqd[k];
			}
			r->sub_group_size = ka->sub_group_size;
			r->team_size = ka->team_size;
		}
	} else if (type == HP_PKT_COPY || type == HP_PKT_FILL) {
		err = mem_cmd(&p.mem, s, &why);
	} else if (type == HP_PKT_BARRIER_AND) {
		const hp_packet_barrier *b = &p.barrier;
		if (b->num_deps > HP_MBOX_BARRIER_DEPS || b->reserved) {
			err = HP_INVALID_EVENT_WAIT_LIST;
			why = "more than 7 dependencies";
		} else {
			nwait = b->num_deps;
			memcpy(ev, b->deps, nwait * sizeof(uint64_t));
			c->marker = true;
		}
	} else if (type == HP_PKT_MARKER) {
		c->marker = true;
		c->barrier = true;
	} else if (type == HP_PKT_INFO) {
		hal_lock_acquire(&D.buf_lock);
		bool ok = buf_find(p.mem.dst, sizeof(hp_device_info)) != NULL;
		hal_lock_release(&D.buf_lock);
		if (p.mem.dst % 8) {
			/* hp_device_info has 64-bit fields: a misaligned
			 * store may trap on the device (found by fuzzing). */
			err = HP_INVALID_VALUE;
			why = "info destination not 8-byte aligned";
		} else if (!ok) {
			err = HP_INVALID_VALUE;
			why = "info destination outside allocated buffers";
		} else {
			dev_info(ptr(p.mem.dst));
			c->marker = true;
		}
	} else if (type == HP_PKT_ALLOC) {
		c->marker = true;
		s->result = buf_alloc(p.mem.size);
		if (!s->result) {
			err = p.mem.size ? HP_OUT_OF_RESOURCES
					 : HP_INVALID_VALUE;
			why = D.why;
		}
	} else if (type == HP_PKT_LOAD || type == HP_PKT_UNLOAD) {
		const hp_packet_mem *m = &p.mem;
		c->marker = true;
		bool load = type == HP_PKT_LOAD;
		if (m->header >> 9 || m->pattern_size || m->reserved ||
		    m->pattern || m->reserved2[0] || m->reserved2[1] ||
		    m->reserved2[2] || (load ? m->dst : m->src || m->size)) {
			err = HP_INVALID_VALUE;
			why = "reserved fields not zero";
		} else if (load) {
			err = obj_load(m->src, m->size, s, &why);
		} else {
			err = obj_unload(m->dst, &why);
		}
	} else if (type == HP_PKT_FREE) {
		hal_lock_acquire(&D.buf_lock);
		dbuf *b = buf_find(p.mem.dst, 0);
		if (!b || b->addr != p.mem.dst || b->freeing) {
			err = HP_INVALID_VALUE;
			why = "not an allocated buffer";
		} else {
			b->freeing = true;
			s->free_addr = p.mem.dst;
		}
		hal_lock_release(&D.buf_lock);
		c->marker = true;
	}

	/* The kernel's arguments and NDRange, checked before enqueueing so
	 * buffer extents can use the validated launch. */
	if (!err && c->kernel) {
		err = exec_ndrange_setup(&exec_dev, c->kernel, &c->range,
					 &c->launch, D.why, sizeof(D.why));
		if (err)
			why = D.why;
		if (!err && c->kernel->args_size &&
		    c->args_size != c->kernel->args_size) {
			err = HP_INVALID_KERNEL_ARGS;
			why = "argument block size differs from the kernel's";
		}
		if (!err && (why = check_buffers(c->kernel, s->args,
						 c->args_size, &c->launch)))
			err = HP_INVALID_KERNEL_ARGS;
	}
	if (!err) {
		q->busy = true;
		int rd = resolve_all(q, i, ev, nwait, s, &c->num_wait, &why);
		q->busy = false;
		if (rd == READ_NOT_YET) {
			if (s->free_addr)
				buf_free_undo(s->free_addr);
			if (s->type == HP_PKT_ALLOC && s->result)
				buf_free(s->result);
			return READ_NOT_YET;
		}
		if (why)
			err = HP_INVALID_EVENT_WAIT_LIST;
		c->wait_list = s->wait;
	}

	/* Commit: the slot now holds packet i. */
	if (s->obj)
		hal_fetch_add(&s->obj->refs, 1u);
	s->used = true;
	s->index = i;
	s->q = q;
	c->on_complete = cmd_done;
	c->user = s;
	hal_store_relaxed(&shp->header, (uint16_t)HP_PKT_INVALID);
	q->consumed = i + 1;
	st64(&q->shm->read_index, q->consumed);
	/* Counters before the record: a host that sees the record sees
	 * them. */
	st64(&D.hdr->packets, ++D.packets);
	if (err)
		st64(&D.hdr->bad_packets, ++D.bad);
	if (err) {
		if (s->type == HP_PKT_ALLOC && s->result)
			buf_free(s->result), s->result = 0;
		s->detail = why;
		exec_user_event_init(c);
		c->on_complete = cmd_done;
		c->user = s;
		exec_user_event_set(c, err);
	} else {
		exec_enqueue(&q->xq, c);
	}
	return READ_OK;
}

/* Read packets of q up to (not including) `end`; returns how many. */
static int consume_upto(dqueue *q, uint64_t end)
{
	int n = 0;
	while (q->consumed < end && consume_one(q, q->consumed) == READ_OK)
		n++;
	return n;
}

bool dispatch_poll(void)
{
	bool any = false;
	st64(&D.hdr->heartbeat, hal_timer_now());
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++) {
		dqueue *q = &D.q[k];
		uint64_t w = ld64(&q->shm->write_index);
		/* At most one ring's worth per visit, so one busy queue cannot
		 * starve the others. */
		if (w > q->consumed + HP_MBOX_RING_SIZE)
			w = q->consumed + HP_MBOX_RING_SIZE;
		if (w > q->consumed && consume_upto(q, w))
			any = true;
	}
	return any;
}

static bool all_complete(void)
{
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++)
		for (unsigned j = 0; j < HP_MBOX_RING_SIZE; j++) {
			dslot *s = &D.q[k].slots[j];
			if (s->used && exec_status(&s->cmd) > 0)
				return false;
		}
	return true;
}

void dispatch_serve(bool (*idle_hook)(void))
{
	uint64_t us = hal_timer_freq() / 1000000u;
	uint64_t slow = D.cfg.poll_us * us;
	uint64_t fast = (D.cfg.poll_us < DISPATCH_FAST_US ? D.cfg.poll_us
							  : DISPATCH_FAST_US) *
			us;
	uint64_t last = 0; /* when a packet last arrived */
	for (;;) {
		bool did = idle_hook && idle_hook();
		did |= dispatch_poll();
		uint64_t now = hal_timer_now();
		if (did)
			last = now;
		/* With one hart the dispatcher is a worker too: one chunk
		 * between polls (with more, exec_pool_work finds nothing). */
		if (exec_pool_work() || did)
			continue;
		if (hal_load_acquire(&D.hdr->stop_request) && all_complete())
			return;
		/* Check often while packets are coming, rarely when idle: a
		 * sleeping dispatcher still looks poll_us after a quiet
		 * spell, and a UART byte or an IPI wakes it at once. */
		bool busy = now - last < DISPATCH_BUSY_WINDOW_US * us;
		exec_idle_until(now + (busy ? fast : slow));
	}
}

void dispatch_stopped(void)
{
	hal_store_release(&D.hdr->state, (uint32_t)HP_DEV_STOPPED);
}

uint64_t dispatch_mbox_addr(void)
{
	return D.cfg.mbox_addr;
}

/* [addr, addr + len) inside [base, base + size)? */
static bool inside(uint64_t addr, uint64_t len, uint64_t base, uint64_t size)
{
	return addr >= base && addr - base <= size &&
	       len <= size - (addr - base);
}

bool dispatch_access_ok(uint64_t addr, uint64_t len, bool write)
{
	if (inside(addr, len, D.cfg.buf_base, D.cfg.buf_size))
		return true;
	if (!write)
		return inside(addr, len, D.cfg.mbox_addr, D.cfg.mbox_size);
	uint64_t h = D.cfg.mbox_addr;
	if (inside(addr, len, h + offsetof(hp_mbox_header, stop_request),
		   sizeof(hp_mbox_header) -
			   offsetof(hp_mbox_header, stop_request)))
		return true;
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++) {
		const dqueue *q = &D.q[k];
		if (inside(addr, len, (uintptr_t)q->shm,
			   offsetof(hp_mbox_queue, read_index)) ||
		    inside(addr, len, (uintptr_t)q->ring,
			   HP_MBOX_RING_SIZE * sizeof(hp_packet)) ||
		    inside(addr, len, (uintptr_t)q->kernarg,
			   HP_MBOX_RING_SIZE * sizeof(hp_kernarg)))
			return true;
	}
	return false;
}

int dispatch_init(const dispatch_config *cfg)
{
	if (cfg->mbox_size < OFF_RINGS + HP_MBOX_QUEUES * QUEUE_BYTES)
		return HP_OUT_OF_RESOURCES;
	D.cfg = *cfg;
	/* Whole aligned blocks: the largest buffer is then the heap. */
	uint64_t b0 = align_up(cfg->buf_base);
	D.cfg.buf_size = cfg->buf_size > b0 - cfg->buf_base
				 ? (cfg->buf_size - (b0 - cfg->buf_base)) &
					   ~(uint64_t)(HP_MBOX_BUFFER_ALIGN - 1)
				 : 0;
	D.cfg.buf_base = b0;
	if (!D.cfg.poll_us)
		D.cfg.poll_us = 1000;
	/* Kernels reach the device buffers, never the rings (with isolation
	 * on, those are out of their reach: a touch faults). */
	exec_isolation_allow((uintptr_t)D.cfg.buf_base,
			     (uintptr_t)D.cfg.buf_size);
	uint8_t *base = ptr(cfg->mbox_addr);
	memset(base, 0, OFF_RINGS + HP_MBOX_QUEUES * QUEUE_BYTES);
	D.hdr = (hp_mbox_header *)base;
	D.num_bufs = 0;
	D.packets = D.bad = 0;

	hp_mbox_kernel *kt = (hp_mbox_kernel *)(base + OFF_KERNELS);
	D.ktab = kt;
	memset(D.kernels, 0, sizeof(D.kernels));
	memset(D.kobj, 0, sizeof(D.kobj));
	for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX; i++) {
		D.obj[i].state = OBJ_FREE;
		D.obj[i].refs = 0;
	}
	D.num_builtin = 0;
	for (unsigned i = 0; cfg->kernels[i] && i < HP_MBOX_KERNELS_MAX; i++)
		row_set(D.num_builtin++, cfg->kernels[i], NULL, 0);
	D.num_kernels = D.num_builtin;

	hp_mbox_queue *qt = (hp_mbox_queue *)(base + OFF_QUEUES);
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++) {
		dqueue *q = &D.q[k];
		uint8_t *qb = base + OFF_RINGS + k * QUEUE_BYTES;
		q->shm = &qt[k];
		q->ring = (hp_packet *)qb;
		q->kernarg = (hp_kernarg *)(qb + HP_MBOX_RING_SIZE *
							 sizeof(hp_packet));
		q->comp = (hp_completion *)(qb + HP_MBOX_RING_SIZE *
							 (sizeof(hp_packet) +
							  sizeof(hp_kernarg)));
		q->consumed = 0;
		q->busy = false;
		q->xq = (exec_queue){0};
		if (!q->slots)
			q->slots = hal_heap_alloc_private(
				HP_MBOX_RING_SIZE * sizeof(dslot), 64);
		if (!q->slots)
			return HP_OUT_OF_RESOURCES;
		memset(q->slots, 0, HP_MBOX_RING_SIZE * sizeof(dslot));
		q->shm->ring = (uintptr_t)q->ring;
		q->shm->kernarg = (uintptr_t)q->kernarg;
		q->shm->completion = (uintptr_t)q->comp;
	}

	hp_mbox_header *h = D.hdr;
	h->version = HP_MBOX_VERSION;
	h->state = HP_DEV_READY;
	h->boot_id = hal_timer_now() ^ (uintptr_t)h;
	h->heartbeat = hal_timer_now();
	h->dram_base = cfg->dram_base;
	h->queues = (uintptr_t)qt;
	h->kernels = (uintptr_t)kt;
	h->buf_base = D.cfg.buf_base;
	h->buf_size = D.cfg.buf_size;
	h->num_queues = HP_MBOX_QUEUES;
	h->ring_size = HP_MBOX_RING_SIZE;
	h->num_kernels = D.num_kernels;
	h->poll_us = D.cfg.poll_us;
	dev_info(&h->info);
	st64(&h->magic, HP_MBOX_MAGIC);
	return 0;
}
