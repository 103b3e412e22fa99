// SPDX-License-Identifier: MIT
/*
 * libhartpool's queues (internal.h): claiming one of the device's queues,
 * publishing packets into its ring by the rules of include/hartpool/mbox.h
 * (a slot is reused only after its completion record says so; body, then
 * header, then write index), the wait lists, and events read from the
 * completion records. Service packets (buffers, INFO, kernel objects) go
 * through the device's service queue here too.
 */
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RING HP_MBOX_RING_SIZE

/* ---- queues ---- */

/* On a shared device the session's queue quota may refuse a queue: the
 * device then completes its packets with HP_OUT_OF_RESOURCES. A marker
 * tells now; a refused queue goes back. */
static int queue_confirm(hp_device *d, hp_queue **out)
{
	hp_event ev;
	hp_event_info info;
	int rc = hp_enqueue_marker(*out, &ev);
	if (!rc)
		rc = hp_event_wait(d, ev, &info);
	if (!rc && !info.status)
		return 0;
	char why[sizeof(info.detail) + 1];
	snprintf(why, sizeof(why), "%s", rc ? hp_last_error() : info.detail);
	int err = rc ? rc : info.status;
	hp_queue_release(*out);
	*out = NULL;
	return hp_fail(err, "a queue: %s", why);
}

int hp_queue_create(hp_device *d, unsigned flags, hp_queue **out)
{
	*out = NULL;
	if (d->sess < 0)
		return hp_fail(HP_INVALID_VALUE, "the handle has no session");
	/* A queue of a dead host's session comes free once the device has
	 * ended that session (hp_sessions_reap): a second pass after it. */
	uint64_t t0 = hp_now_ns();
	for (unsigned pass = 0;; pass++) {
		for (unsigned k = 0; k < HP_MBOX_QUEUES; k++) {
			hp_mbox_queue mq;
			uint64_t qa = d->hdr.queues + k * sizeof(mq);
			int rc = hp_dev_read(d, qa, &mq, sizeof(mq));
			if (rc)
				return rc;
			if (mq.owner != 0 ||
			    !hp_dev_claim(d,
					  qa + offsetof(hp_mbox_queue, owner)))
				continue;
			hp_queue *q = calloc(1, sizeof(*q));
			if (!q)
				return hp_fail(
					HP_OUT_OF_RESOURCES,
					"out of host memory (%zu bytes for "
					"a queue)",
					sizeof(*q));
			q->d = d;
			q->id = k;
			q->flags = flags;
			q->qaddr = qa;
			q->ring = mq.ring;
			q->kernarg = mq.kernarg;
			q->comp = mq.completion;
			/* Go on from where the last owner stopped. */
			q->next = mq.write_index;
			d->queues[k] = q;
			*out = q;
			return d->hdr.shared ? queue_confirm(d, out) : 0;
		}
		unsigned ended = 0;
		int rc = hp_sessions_reap(d, &ended);
		if (rc)
			return rc;
		if ((!ended && pass > 0 && hp_now_ns() - t0 > 2000000000ull) ||
		    hp_now_ns() - t0 > (uint64_t)d->timeout_ms * 1000000u)
			return hp_fail(HP_OUT_OF_RESOURCES,
				       "all %u device queues are in use by "
				       "running processes",
				       HP_MBOX_QUEUES);
		unsigned n = pass;
		hp_backoff(&n);
	}
}

unsigned hp_queue_id(const hp_queue *q)
{
	return q->id;
}

void hp_queue_set_timeout(hp_queue *q, uint64_t timeout_us)
{
	q->timeout_us = timeout_us;
}

void hp_queue_forget(hp_queue *q)
{
	hp_device *d = q->d;
	d->queues[q->id] = NULL;
	if (d->service == q)
		d->service = NULL;
	free(q);
}

int hp_queue_release(hp_queue *q)
{
	hp_device *d = q->d;
	int rc = hp_queue_finish(q);
	uint64_t zero = 0;
	hp_dev_write(d, q->qaddr + offsetof(hp_mbox_queue, owner), &zero,
		     sizeof(zero));
	d->queues[q->id] = NULL;
	if (d->service == q)
		d->service = NULL;
	free(q);
	return rc;
}

/* ---- events ---- */

static uint64_t comp_addr(hp_device *d, unsigned qn, uint64_t idx)
{
	hp_queue *q = d->queues[qn];
	uint64_t base;
	if (q) {
		base = q->comp;
	} else {
		hp_mbox_queue mq;
		if (hp_dev_read(d, d->hdr.queues + qn * sizeof(mq), &mq,
				sizeof(mq)))
			return 0;
		base = mq.completion;
	}
	return base + (idx % RING) * sizeof(hp_completion);
}

static double ticks_us(const hp_device *d, uint64_t t)
{
	return (double)t * 1e6 / (double)d->hdr.info.timer_hz;
}

int hp_event_query(hp_device *d, hp_event ev, hp_event_info *info)
{
	unsigned qn = HP_EVENT_QUEUE(ev);
	uint64_t idx = HP_EVENT_INDEX(ev);
	if (qn >= HP_MBOX_QUEUES)
		return hp_fail(HP_INVALID_VALUE, "event names no queue");
	uint64_t a = comp_addr(d, qn, idx), done;
	if (!a)
		return HP_INVALID_VALUE;
	int rc = hp_dev_read64(d, a, &done);
	if (rc)
		return rc;
	if (done < idx + 1)
		return 1;
	if (done > idx + 1)
		return hp_fail(
			HP_INVALID_EVENT_WAIT_LIST,
			"event %u:%llu is too old: its completion record "
			"was reused",
			qn, (unsigned long long)idx);
	hp_completion r;
	if ((rc = hp_dev_read(d, a, &r, sizeof(r))))
		return rc;
	if (r.done != idx + 1)
		return 1;
	if (info) {
		memset(info, 0, sizeof(*info));
		info->status = r.status;
		memcpy(info->detail, r.detail, sizeof(info->detail));
		info->detail[sizeof(info->detail) - 1] = 0;
		info->queued_us = ticks_us(d, r.t_queued);
		info->submit_us = ticks_us(d, r.t_submit);
		info->start_us = ticks_us(d, r.t_start);
		info->end_us = ticks_us(d, r.t_end);
		info->groups = r.groups;
		memcpy(info->local, r.local, sizeof(info->local));
		info->hart = r.hart;
		info->result = r.result;
		info->result2 = r.result2;
		info->fault_pc = r.fault_pc;
		info->fault_addr = r.fault_addr;
		info->fault_cause = r.fault_cause;
		info->fault_hart = r.fault_hart;
		memcpy(info->fault_group, r.fault_group,
		       sizeof(info->fault_group));
	}
	return 0;
}

/* How long a wait polls without pausing before it backs off (yields, then
 * sleeps): like libgomp's and CUDA's spin-then-block, a short command's
 * completion is seen without a sleep's wake-up latency, and the spin is
 * bounded so a long wait leaves the host's cores to QEMU. */
#define HP_WAIT_SPIN_NS 200000u
/* Where the device rings this host's bell (wait_sleeps), a wait backs off
 * this long before it sleeps on the bell: waking a device that slept
 * takes the device longer than the spin, and the bell's interrupt adds
 * more than the back-off's short sleeps (docs/benchmarks.md). */
#define HP_WAIT_POLL_NS 2000000u

static inline void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

/* On a transport that waits on the device (serial), wait there for the
 * event's record, HP_DEV_WAIT_MS at a time: the record then comes with
 * the answer, instead of one trip over the link per poll. On one whose
 * wait sleeps until the device's bell (devmem beside the firmware), the
 * spin and HP_WAIT_POLL_NS of back-off come first and the bell replaces
 * the longer sleeps: a wake-up through the interrupt costs more than a
 * short command takes. */
static int wait_on_device(hp_device *d, hp_event ev)
{
	unsigned qn = HP_EVENT_QUEUE(ev);
	uint64_t a;
	if (!d->t->ops->wait || qn >= HP_MBOX_QUEUES ||
	    !(a = comp_addr(d, qn, HP_EVENT_INDEX(ev))))
		return 0;
	return hp_dev_wait(d, a, HP_EVENT_INDEX(ev) + 1, sizeof(hp_completion));
}

int hp_event_wait(hp_device *d, hp_event ev, hp_event_info *info)
{
	uint64_t t0 = hp_now_ns();
	bool spin = true; /* first HP_WAIT_SPIN_NS: pause only, no sleep */
	bool sleeps = d->t->wait_sleeps;
	uint64_t waited = 0;
	for (unsigned n = 0;;) {
		bool bell = sleeps && waited > HP_WAIT_POLL_NS;
		int rc = !sleeps || bell ? wait_on_device(d, ev) : 0;
		if (rc)
			return rc;
		rc = hp_event_query(d, ev, info);
		if (rc != 1)
			return rc;
		waited = hp_now_ns() - t0;
		if (spin && waited <= HP_WAIT_SPIN_NS) {
			cpu_pause();
			continue;
		}
		spin = false;
		if ((n & 63) == 63 && (rc = hp_dev_serving(d)))
			return rc;
		hp_sessions_reap_due(d);
		if (waited > (uint64_t)d->timeout_ms * 1000000u)
			return hp_fail(HP_TIMEOUT,
				       "event %u:%llu not complete after %u ms",
				       HP_EVENT_QUEUE(ev),
				       (unsigned long long)HP_EVENT_INDEX(ev),
				       d->timeout_ms);
		if (bell)
			n++; /* the wait slept */
		else
			hp_backoff(&n);
	}
}

int hp_queue_finish(hp_queue *q)
{
	if (q->next == 0)
		return 0;
	/* Every packet's slot is reused only after completion, so waiting
	 * for the last ring's worth is waiting for all. */
	uint64_t first = q->next > RING ? q->next - RING : 0;
	for (uint64_t i = first; i < q->next; i++) {
		int rc = hp_event_wait(q->d, HP_EVENT(q->id, i), NULL);
		if (rc && rc != HP_INVALID_EVENT_WAIT_LIST)
			return rc;
	}
	return 0;
}

/* ---- enqueueing ---- */

/* Wait until the record of packet `idx` of q says it (or a later packet of
 * its slot) is complete; with `nowait`, fail at once instead. */
static int wait_record(hp_queue *q, uint64_t idx, bool nowait)
{
	hp_device *d = q->d;
	uint64_t a = q->comp + (idx % RING) * sizeof(hp_completion);
	uint64_t t0 = hp_now_ns();
	for (unsigned n = 0;; hp_backoff(&n)) {
		uint64_t done;
		int rc = nowait ? 0 : hp_dev_wait(d, a, idx + 1, sizeof(done));
		if (!rc)
			rc = hp_dev_read64(d, a, &done);
		if (rc)
			return rc;
		if (done >= idx + 1)
			return 0;
		if (nowait)
			return hp_fail(
				HP_OUT_OF_RESOURCES,
				"queue %u is full: %u commands in flight",
				q->id, RING);
		if ((n & 63) == 63 && (rc = hp_dev_serving(d)))
			return rc;
		hp_sessions_reap_due(d);
		if (hp_now_ns() - t0 > (uint64_t)d->timeout_ms * 1000000u)
			return hp_fail(HP_TIMEOUT,
				       "queue %u still full after %u ms", q->id,
				       d->timeout_ms);
	}
}

/* Wait until the slot for packet q->next is free (rule 1 of mbox.h). */
static int slot_free(hp_queue *q)
{
	if (q->next < RING)
		return 0;
	uint64_t old = q->next - RING;
	bool nowait = (q->flags & HP_QUEUE_NO_WAIT) != 0;
	int rc = wait_record(q, old, true);
	if (rc == 0 || nowait)
		return rc;
	/* Full: first wait until a quarter of the ring is done, so the next
	 * packets go in as a batch the dispatcher reads in one wake-up
	 * rather than one per wake-up; then for our own slot (on an
	 * out-of-order queue the later ones may finish first). */
	if ((rc = wait_record(q, old + RING / 4 - 1, false)))
		return rc;
	return wait_record(q, old, false);
}

/* Copy the wait list, leaving out events already complete without error
 * (the device only keeps a ring's worth of events per queue). */
static int prune_wait(hp_device *d, const hp_event *wait, unsigned n,
		      uint64_t *out, unsigned *m)
{
	*m = 0;
	if (n > HP_MBOX_MAX_WAIT)
		return hp_fail(HP_INVALID_EVENT_WAIT_LIST,
			       "at most %u events to wait for, not %u",
			       HP_MBOX_MAX_WAIT, n);
	if (n && !wait)
		return hp_fail(HP_INVALID_EVENT_WAIT_LIST,
			       "no wait list given");
	for (unsigned i = 0; i < n; i++) {
		hp_event_info info;
		int rc = hp_event_query(d, wait[i], &info);
		if (rc == 0 && info.status == 0)
			continue;
		out[(*m)++] = wait[i];
	}
	return 0;
}

/* Publish packet `p` (+ kernarg bytes) at q->next. */
static int submit(hp_queue *q, const hp_packet *p, const hp_kernarg *ka,
		  size_t ka_bytes, hp_event *ev)
{
	hp_device *d = q->d;
	int rc = slot_free(q);
	if (rc)
		return rc;
	unsigned s = (unsigned)(q->next % RING);
	uint16_t header = p->header;
	if (q->flags & HP_QUEUE_IN_ORDER)
		header |= HP_PKT_BARRIER;
	if (ka && ka_bytes &&
	    (rc = hp_dev_write(d, q->kernarg + s * sizeof(hp_kernarg), ka,
			       ka_bytes)))
		return rc;
	uint64_t pa = q->ring + s * sizeof(hp_packet);
	if ((rc = hp_dev_write(d, pa + 2, p->bytes + 2, sizeof(*p) - 2)) ||
	    (rc = hp_dev_write(d, pa, &header, sizeof(header))))
		return rc;
	uint64_t w = q->next + 1;
	if ((rc = hp_dev_write(d,
			       q->qaddr + offsetof(hp_mbox_queue, write_index),
			       &w, sizeof(w))))
		return rc;
	if (ev)
		*ev = HP_EVENT(q->id, q->next);
	q->next = w;
	hp_dev_ring(d);
	return 0;
}

int hp_enqueue_raw(hp_queue *q, const hp_packet *p, const hp_kernarg *ka,
		   hp_event *ev)
{
	return submit(q, p, ka, ka ? sizeof(*ka) : 0, ev);
}

static uint16_t sat16(uint64_t v)
{
	return v > 0xffff ? 0xffff : (uint16_t)v;
}

/* A kernarg block's header (no arguments yet) with the wait list. */
static int kernarg_init(hp_queue *q, const hp_event *wait, unsigned num_wait,
			hp_kernarg *ka)
{
	memset(ka, 0, offsetof(hp_kernarg, args));
	unsigned m;
	int rc = prune_wait(q->d, wait, num_wait, ka->wait, &m);
	ka->num_wait = (uint16_t)m;
	return rc;
}

int hp_enqueue_kernel(hp_queue *q, uint32_t kernel, const hp_ndrange *r,
		      const void *args, uint32_t args_size,
		      const hp_event *wait, unsigned num_wait, hp_event *ev)
{
	if (args_size > HP_MBOX_ARGS_MAX)
		return hp_fail(HP_INVALID_KERNEL_ARGS,
			       "argument block of %u bytes (at most %u)",
			       args_size, HP_MBOX_ARGS_MAX);
	if (r->work_dim > 7)
		return hp_fail(HP_INVALID_WORK_DIMENSION,
			       "work_dim %u is not 1, 2 or 3", r->work_dim);
	hp_kernarg ka;
	int rc = kernarg_init(q, wait, num_wait, &ka);
	if (rc)
		return rc;
	ka.args_size = args_size;
	ka.sub_group_size = sat16(r->sub_group_size);
	ka.team_size = r->team_size;
	ka.timeout_us = r->timeout_us ? r->timeout_us : q->timeout_us;
	memcpy(ka.reqd, r->reqd, sizeof(ka.reqd));
	ka.printf_buf = r->printf_size ? r->printf_buf : 0;
	ka.printf_size = r->printf_buf ? r->printf_size : 0;
	ka.local_mem_bytes = r->local_mem_bytes;
	if (args_size)
		memcpy(ka.args, args, args_size);
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.dispatch.header = HP_PKT_KERNEL_DISPATCH;
	p.dispatch.setup =
		(uint16_t)(r->work_dim | (r->local_given ? HP_SETUP_LOCAL : 0) |
			   (r->uniform ? HP_SETUP_UNIFORM : 0));
	p.dispatch.kernel = kernel;
	for (unsigned k = 0; k < 3; k++) {
		p.dispatch.local[k] = sat16(r->local[k]);
		p.dispatch.global[k] = r->global[k];
		p.dispatch.offset[k] = r->offset[k];
	}
	return submit(q, &p, &ka, offsetof(hp_kernarg, args) + args_size, ev);
}

int hp_enqueue_barrier_and(hp_queue *q, const hp_event *deps, unsigned n,
			   hp_event *ev)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	if (n > HP_MBOX_BARRIER_DEPS)
		return hp_fail(
			HP_INVALID_EVENT_WAIT_LIST,
			"a barrier-AND packet waits for at most %u events",
			HP_MBOX_BARRIER_DEPS);
	uint64_t kept[HP_MBOX_MAX_WAIT];
	unsigned m;
	int rc = prune_wait(q->d, deps, n, kept, &m);
	if (rc)
		return rc;
	p.barrier.header = HP_PKT_BARRIER_AND;
	p.barrier.num_deps = (uint16_t)m;
	memcpy(p.barrier.deps, kept, m * sizeof(uint64_t));
	return submit(q, &p, NULL, 0, ev);
}

int hp_enqueue_marker(hp_queue *q, hp_event *ev)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.header = HP_PKT_MARKER;
	return submit(q, &p, NULL, 0, ev);
}

static int mem_packet(hp_queue *q, hp_packet *p, const hp_event *wait,
		      unsigned num_wait, hp_event *ev)
{
	hp_kernarg ka;
	int rc = kernarg_init(q, wait, num_wait, &ka);
	return rc ? rc : submit(q, p, &ka, offsetof(hp_kernarg, args), ev);
}

int hp_enqueue_copy(hp_queue *q, hp_buffer dst, hp_buffer src, uint64_t size,
		    const hp_event *wait, unsigned num_wait, hp_event *ev)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_COPY;
	p.mem.dst = dst;
	p.mem.src = src;
	p.mem.size = size;
	return mem_packet(q, &p, wait, num_wait, ev);
}

int hp_enqueue_fill(hp_queue *q, hp_buffer dst, uint64_t size, uint64_t pattern,
		    unsigned pattern_size, const hp_event *wait,
		    unsigned num_wait, hp_event *ev)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_FILL;
	p.mem.dst = dst;
	p.mem.size = size;
	p.mem.pattern = pattern;
	p.mem.pattern_size = (uint16_t)pattern_size;
	return mem_packet(q, &p, wait, num_wait, ev);
}

/* ---- service packets ---- */

int hp_service(hp_device *d, uint16_t type, uint64_t dst, uint64_t src,
	       uint64_t size, hp_event_info *info)
{
	if (!d->service)
		return hp_fail(HP_INVALID_VALUE, "device is closing");
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = type;
	p.mem.dst = dst;
	p.mem.src = src;
	p.mem.size = size;
	hp_event ev;
	int rc = type == HP_PKT_FREE ? mem_packet(d->service, &p, NULL, 0, &ev)
				     : submit(d->service, &p, NULL, 0, &ev);
	if (!rc)
		rc = hp_event_wait(d, ev, info);
	if (!rc && info->status)
		rc = hp_fail(info->status, "%s: %s",
			     hp_error_name(info->status), info->detail);
	return rc;
}
