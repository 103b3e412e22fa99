// SPDX-License-Identifier: MIT
/*
 * The mailbox dispatcher (docs/mailbox.md, include/hartpool/mbox.h;
 * dispatch.h): lays out the mailbox at boot and serves it. One hart reads
 * packets; the work is split by job, each file calling only downward:
 *
 *   dispatch.c  layout, the serve loop, sessions opening and ending, what
 *               the host may touch
 *   queue.c     reading the queues in order, events, commit or reject
 *   packets.c   the packet types: one decode/validate/commit per type
 *   complete.c  completion records
 *   args.c      buffer and printf arguments of a launch
 *   session.c   host sessions: what each holds, its kernels' view
 *   kobj.c      the kernel table and kernel objects (loader.c checks them)
 *   heap.c      the buffer heap, per session
 *   words.h     64-bit shared words on any XLEN
 *
 * A packet is validated completely (fields, kernel, NDRange, buffers,
 * dependencies) before anything changes; an invalid one completes at once
 * with its HP_ error. Nothing the host writes is read twice: the packet
 * and the kernel arguments are copied out of shared memory before they
 * are checked.
 */
#include "dispatch.h"
#include "heap.h"
#include "internal.h"
#include "kobj.h"
#include "packets.h"
#include "queue.h"
#include "session.h"
#include "trace_ctl.h"
#include "words.h"
#include <executor/exec.h>
#include <hal/atomic.h>
#include <hal/timer.h>
#include <hartpool/error.h>
#include <stddef.h>
#include <string.h>

/* Doorbell checks: every DISPATCH_FAST_US while packets keep arriving
 * (within DISPATCH_BUSY_WINDOW_US of the last one), else every poll_us. */
#define DISPATCH_FAST_US 10u
#define DISPATCH_BUSY_WINDOW_US 5000u
/* poll_us when the board gives none; with a doorbell device. */
#define DISPATCH_POLL_US 1000u
#define DISPATCH_DOORBELL_POLL_US 100000u

/* Mailbox layout (offsets from the mailbox base). */
#define OFF_QUEUES 4096u
#define OFF_SESSIONS 8192u
#define OFF_KERNELS 12288u
#define OFF_RINGS 45056u
#define MBOX_BYTES (OFF_RINGS + HP_MBOX_QUEUES * MBOX_QUEUE_BYTES)
_Static_assert(
	OFF_QUEUES + HP_MBOX_QUEUES * sizeof(hp_mbox_queue) <= OFF_SESSIONS &&
		OFF_SESSIONS + HP_MBOX_SESSIONS * sizeof(hp_mbox_session) <=
			OFF_KERNELS &&
		OFF_KERNELS + HP_MBOX_KERNELS_MAX * sizeof(hp_mbox_kernel) <=
			OFF_RINGS,
	"mailbox layout");

static struct {
	uint64_t mbox_addr, mbox_size;
	uint32_t poll_us;
	bool doorbell; /* the host rings a doorbell device */
	bool rung;     /* a ring since the serve loop last looked */
	hp_mbox_header *hdr;
} D;

void dispatch_end_sessions(uint32_t mask)
{
	for (; mask; mask &= mask - 1) {
		unsigned s = (unsigned)__builtin_ctz(mask);
		mbox_session_begin_end(s);
		mbox_session_cancelled(s, mbox_queue_cancel_session(s));
	}
}

/* Sessions the hosts opened or ended since the last look; those that
 * ended and have nothing left running are reclaimed. */
static void sessions_poll(void)
{
	uint32_t open, end;
	mbox_session_requests(&open, &end);
	for (; open; open &= open - 1)
		mbox_session_open((unsigned)__builtin_ctz(open));
	dispatch_end_sessions(end);
	for (uint32_t m = mbox_session_reclaimable(); m; m &= m - 1) {
		unsigned s = (unsigned)__builtin_ctz(m);
		/* A trace into its memory ends first (a hart may still be
		 * writing a record: then at a later poll). */
		if (!mbox_trace_release(s))
			continue;
		mbox_queue_release_session(mbox_session_token(s));
		mbox_session_reclaim(s);
	}
	mbox_session_publish_dirty(true);
	/* A host that asks for current figures gets them now. */
	uint32_t req = hal_load_acquire(&D.hdr->usage_request);
	if (req != D.hdr->usage_ack) {
		mbox_session_publish();
		hal_store_release(&D.hdr->usage_ack, req);
	}
}

bool dispatch_poll(void)
{
	mbox_st64(&D.hdr->heartbeat, hal_timer_now());
	mbox_trace_poll(D.hdr);
	sessions_poll();
	return mbox_queue_poll();
}

void dispatch_serve(bool (*idle_hook)(void))
{
	uint64_t us = hal_timer_freq() / 1000000u;
	uint64_t slow = D.poll_us * us;
	uint64_t fast =
		(D.poll_us < DISPATCH_FAST_US ? D.poll_us : DISPATCH_FAST_US) *
		us;
	uint64_t last = 0; /* when a packet last arrived */
	uint64_t window = DISPATCH_BUSY_WINDOW_US * us;
	uint64_t last_ring = hal_timer_now() - window; /* none yet */
	for (;;) {
		bool did = idle_hook && idle_hook();
		did |= dispatch_poll();
		uint64_t now = hal_timer_now();
		if (did)
			last = now;
		if (D.rung) {
			D.rung = false;
			last_ring = now;
		}
		/* With one hart the dispatcher is a worker too: one chunk
		 * between polls (with more, exec_pool_work finds nothing). */
		if (exec_pool_work() || did)
			continue;
		if (hal_load_acquire(&D.hdr->stop_request) &&
		    mbox_queue_all_complete())
			return;
		/* Sleep until a ring (an interrupt: the doorbell device, or
		 * the UART byte a host that booted the device sends after
		 * each packet), an IPI, or poll_us. Only for packets from a
		 * host that does not ring (none for a whole window while
		 * packets came) check every 10 us meanwhile. */
		bool busy = !D.doorbell && now - last < window &&
			    now - last_ring >= window;
		/* Idle: the use figures a host reads are current. */
		mbox_session_publish_dirty(false);
		/* Freed memory to clear: an idle worker does it (with one
		 * hart, the dispatcher, a step at a time). */
		if (mbox_heap_clear_pending()) {
			if (exec_dev.harts > 1)
				exec_idle_work_wake();
			else if (mbox_heap_clear_step())
				continue;
		}
		exec_idle_until(now + (busy ? fast : slow));
	}
}

void dispatch_doorbell_rang(void)
{
	mbox_st64(&D.hdr->rings, D.hdr->rings + 1);
	D.rung = true;
}

void dispatch_stopped(void)
{
	hal_store_release(&D.hdr->state, (uint32_t)HP_DEV_STOPPED);
}

uint64_t dispatch_mbox_addr(void)
{
	return D.mbox_addr;
}

/* The serial link's host: the tokens it claimed sessions with (the link
 * has one host at a time; a new one ends these sessions). */
static struct {
	uint64_t tokens[HP_MBOX_SESSIONS];
	unsigned n;
} L;

static bool link_token(uint64_t t)
{
	for (unsigned i = 0; t && i < L.n; i++)
		if (L.tokens[i] == t)
			return true;
	return false;
}

bool dispatch_access_ok(uint64_t addr, uint64_t len, bool write)
{
	/* Buffers: the link's own sessions'. */
	if (mbox_inside(addr, len, mbox_heap_base(), mbox_heap_size())) {
		int s = mbox_heap_owner(addr, len);
		return s >= 0 && link_token(mbox_session_token((unsigned)s));
	}
	if (!write)
		return mbox_inside(addr, len, D.mbox_addr, D.mbox_size);
	uint64_t h = D.mbox_addr;
	if (mbox_inside(addr, len, h + offsetof(hp_mbox_header, stop_request),
			sizeof(hp_mbox_header) -
				offsetof(hp_mbox_header, stop_request)))
		return true;
	/* A free session or queue (a claim), or one of the link's own. */
	int s = mbox_session_at(addr, len, NULL);
	if (s >= 0) {
		uint64_t owner = mbox_session_owner((unsigned)s);
		return !owner || link_token(owner);
	}
	uint64_t owner;
	return mbox_queue_at(addr, len, &owner) >= 0 &&
	       (!owner || link_token(owner));
}

/* The owner word [addr, addr + 8) of a session or a queue, or NULL. */
static uint64_t *owner_word(uint64_t addr, uint64_t len)
{
	bool whole;
	if (len != sizeof(uint64_t) || addr % sizeof(uint64_t))
		return NULL;
	if (mbox_session_at(addr, len, &whole) >= 0)
		return whole ? mbox_ptr(addr) : NULL;
	int q = mbox_queue_at(addr, len, NULL);
	uint64_t w = D.hdr->queues + (uint64_t)q * sizeof(hp_mbox_queue) +
		     offsetof(hp_mbox_queue, owner);
	return q >= 0 && addr == w ? mbox_ptr(addr) : NULL;
}

bool dispatch_link_claim(uint64_t addr, const void *src, uint64_t len)
{
#if UINTPTR_MAX > 0xffffffffu
	uint64_t *w = owner_word(addr, len);
	if (!w)
		return false;
	uint64_t want;
	memcpy(&want, src, sizeof(want));
	uint64_t cur = hal_load_acquire(w);
	/* What access_ok allowed; another value came in between: lost. */
	while (!cur || link_token(cur))
		if (hal_cas(w, &cur, want))
			break;
	return true;
#else
	(void)owner_word;
	(void)addr, (void)src, (void)len;
	return false;
#endif
}

void dispatch_link_wrote(uint64_t addr, const void *src, uint64_t len)
{
	bool owner_word;
	int s = mbox_session_at(addr, len, &owner_word);
	if (s < 0 || !owner_word)
		return;
	uint64_t t;
	memcpy(&t, src, sizeof(t));
	if (t && !link_token(t) && L.n < HP_MBOX_SESSIONS)
		L.tokens[L.n++] = t;
}

void dispatch_link_new_host(void)
{
	dispatch_end_sessions(mbox_session_of_tokens(L.tokens, L.n));
	L.n = 0;
}

int dispatch_init(const dispatch_config *cfg)
{
	if (cfg->mbox_size < MBOX_BYTES)
		return HP_OUT_OF_RESOURCES;
	D.mbox_addr = cfg->mbox_addr;
	D.mbox_size = cfg->mbox_size;
	L.n = 0;
	D.poll_us = cfg->poll_us ? cfg->poll_us : DISPATCH_POLL_US;
	D.doorbell = cfg->features & HP_DEV_HAS_DOORBELL;
	/* The bound of a sleep only matters for a host that does not ring. */
	if (D.doorbell && !cfg->poll_us)
		D.poll_us = DISPATCH_DOORBELL_POLL_US;
	/* Sessions' buffers in regions the board's isolation can give
	 * their kernels (hal/isolation.h). */
	unsigned regions = exec_isolation_max_ranges();
	if (exec_dev.isolation && regions == 0)
		return HP_OUT_OF_RESOURCES;
	int herr =
		mbox_heap_init(cfg->buf_base, cfg->buf_size,
			       exec_isolation_granule(), regions ? regions : 1);
	if (herr)
		return herr;
	/* Nothing left over (heap.h): what may not be zero is dirty, and
	 * idle harts clear it. */
	if (!cfg->ram_zeroed)
		mbox_heap_mark_dirty(cfg->buf_base, cfg->buf_size);
	else if (cfg->dirty_size)
		mbox_heap_mark_dirty(cfg->dirty_base, cfg->dirty_size);
	exec_idle_work_set(mbox_heap_clear_step);
	mbox_trace_init();
	mbox_pkt_init(&(mbox_dev_desc){.dram_size = cfg->dram_size,
				       .board = cfg->board,
				       .privilege = cfg->privilege,
				       .harts_skipped = cfg->harts_skipped,
				       .skipped_why = cfg->skipped_why,
				       .slice_us = cfg->slice_us,
				       .features = cfg->features});
	/* Kernels reach their own session's buffers, never the rings (with
	 * isolation on, those are out of their reach: a touch faults). */
	uint8_t *base = mbox_ptr(cfg->mbox_addr);
	memset(base, 0, MBOX_BYTES);
	hp_mbox_header *h = (hp_mbox_header *)base;
	D.hdr = h;

	hp_mbox_kernel *kt = (hp_mbox_kernel *)(base + OFF_KERNELS);
	mbox_kobj_init(kt, &h->num_kernels, cfg->kernels, cfg->code_base,
		       cfg->code_size);
	hp_mbox_session *st = (hp_mbox_session *)(base + OFF_SESSIONS);
	mbox_session_init(st, h);
	mbox_session_host_bell(
		cfg->features & HP_DEV_HAS_HOST_BELL ? cfg->host_bell : NULL);
	mbox_session_quotas(!cfg->unshared, cfg->quota_max, cfg->quota_min);
	hp_mbox_queue *qt = (hp_mbox_queue *)(base + OFF_QUEUES);
	int err = mbox_queue_init(h, qt, base + OFF_RINGS);
	if (err)
		return err;

	h->version = HP_MBOX_VERSION;
	h->state = HP_DEV_READY;
	h->boot_id = hal_timer_now() ^ (uintptr_t)h;
	h->heartbeat = hal_timer_now();
	h->dram_base = cfg->dram_base;
	h->queues = (uintptr_t)qt;
	h->kernels = (uintptr_t)kt;
	h->buf_base = mbox_heap_base();
	h->buf_size = mbox_heap_size();
	h->num_queues = HP_MBOX_QUEUES;
	h->sessions = (uintptr_t)st;
	h->num_sessions = HP_MBOX_SESSIONS;
	h->code_size = cfg->code_size;
	h->ring_size = HP_MBOX_RING_SIZE;
	h->poll_us = D.poll_us;
	mbox_pkt_dev_info(&h->info);
	mbox_session_publish();
	mbox_st64(&h->magic, HP_MBOX_MAGIC);
	return 0;
}
