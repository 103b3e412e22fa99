// SPDX-License-Identifier: MIT
/*
 * The host queues (queue.h). Each packet becomes an executor command held
 * in the firmware's copy of its slot, so packets of all queues share the
 * executor's dependency tracking and work-pool. A packet is read once:
 * copied out of the ring, decoded and validated (packets.c), its events
 * resolved, then committed: the slot holds it, `read_index` moves on, and
 * the command is enqueued, or completed at once with its HP_ error.
 *
 * An event may name a packet of another queue that has not been read yet:
 * resolving it reads that queue up to it first (consume_upto from
 * resolve), so reading is recursive across queues; `busy` stops a cycle.
 */
#include "queue.h"
#include "complete.h"
#include "internal.h"
#include "kobj.h"
#include "packets.h"
#include "session.h"
#include "words.h"
#include <executor/trace.h>
#include <hal/atomic.h>
#include <hal/heap.h>
#include <hartpool/error.h>
#include <stddef.h>
#include <string.h>

enum { READ_OK, READ_NOT_YET };

static struct {
	hp_mbox_header *hdr;
	mbox_queue q[HP_MBOX_QUEUES];
	uint64_t packets, bad;
	/* Detail of the packet being rejected, when it has numbers in it (a
	 * rejected packet completes, and its detail is copied, before the
	 * next one is read). */
	char why[MBOX_DETAIL_SIZE];
} Q;

int mbox_queue_init(hp_mbox_header *hdr, hp_mbox_queue *table, uint8_t *rings)
{
	Q.hdr = hdr;
	Q.packets = Q.bad = 0;
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++) {
		mbox_queue *q = &Q.q[k];
		uint8_t *qb = rings + k * MBOX_QUEUE_BYTES;
		q->shm = &table[k];
		q->ring = (hp_packet *)qb;
		q->kernarg = (hp_kernarg *)(qb + HP_MBOX_RING_SIZE *
							 sizeof(hp_packet));
		q->comp = (hp_completion *)(qb + HP_MBOX_RING_SIZE *
							 (sizeof(hp_packet) +
							  sizeof(hp_kernarg)));
		q->consumed = 0;
		q->busy = false;
		q->sess = MBOX_NO_SESSION;
		q->owner_seen = 0;
		q->xq = (exec_queue){0};
		if (!q->slots)
			q->slots = hal_heap_alloc_private(
				HP_MBOX_RING_SIZE * sizeof(mbox_slot), 64);
		if (!q->slots)
			return HP_OUT_OF_RESOURCES;
		memset(q->slots, 0, HP_MBOX_RING_SIZE * sizeof(mbox_slot));
		for (unsigned j = 0; j < HP_MBOX_RING_SIZE; j++)
			q->slots[j].q = q;
		q->shm->ring = (uintptr_t)q->ring;
		q->shm->kernarg = (uintptr_t)q->kernarg;
		q->shm->completion = (uintptr_t)q->comp;
	}
	return 0;
}

static int consume_upto(mbox_queue *q, uint64_t end);

/* The session q's owner token names, looked at again when the token
 * changed (a host claimed or gave back the queue). */
static void queue_bind(mbox_queue *q)
{
	uint64_t owner = mbox_ld64(&q->shm->owner);
	if (owner == q->owner_seen)
		return;
	if (q->sess != MBOX_NO_SESSION)
		mbox_session_queue_bound((unsigned)q->sess, -1);
	q->sess = mbox_session_find(owner);
	q->refused = false;
	if (q->sess != MBOX_NO_SESSION &&
	    mbox_session_quota((unsigned)q->sess, HP_QUOTA_QUEUES, 1,
			       q->refused_why, sizeof(q->refused_why))) {
		q->sess = MBOX_NO_SESSION;
		q->refused = true;
	}
	if (q->sess != MBOX_NO_SESSION)
		mbox_session_queue_bound((unsigned)q->sess, 1);
	q->owner_seen = owner;
}

/* Resolve event `ev` named by packet `self_index` of `self`. Returns
 * READ_OK with *out set (or a detail in *why), or READ_NOT_YET when the
 * packet it names cannot be read yet. */
static int resolve(mbox_queue *self, uint64_t self_index, uint64_t ev,
		   exec_cmd **out, const char **why)
{
	unsigned qn = HP_EVENT_QUEUE(ev);
	uint64_t idx = HP_EVENT_INDEX(ev);
	*out = NULL;
	if (qn >= HP_MBOX_QUEUES) {
		*why = "event names no queue";
		return READ_OK;
	}
	mbox_queue *dq = &Q.q[qn];
	queue_bind(dq);
	/* A queue with no owner was released by its host, which finishes a
	 * queue before it lets it go: its packets are complete. One still in
	 * its slot is waited for as it is, if it is of this session; one no
	 * longer there is complete (nothing of anyone's to wait for). */
	bool released =
		dq->sess == MBOX_NO_SESSION && self->sess != MBOX_NO_SESSION;
	if (dq->sess != self->sess && !released) {
		*why = "event of another session's queue";
		return READ_OK;
	}
	if (dq == self && idx >= self_index) {
		*why = "waits for itself or a later packet";
		return READ_OK;
	}
	if (idx >= dq->consumed && !released) {
		if (idx >= mbox_ld64(&dq->shm->write_index)) {
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
	mbox_slot *s = &dq->slots[idx % HP_MBOX_RING_SIZE];
	if (!s->used || s->index != idx) {
		if (!released)
			*why = "event too old (slot reused)";
		return READ_OK; /* released: complete, nothing to wait for */
	}
	if (released && s->sess != self->sess) {
		*why = "event of another session's queue";
		return READ_OK;
	}
	*out = &s->cmd;
	return READ_OK;
}

/* Resolve n events into s->wait[]; returns READ_NOT_YET, or READ_OK with
 * *why set on an invalid event. */
static int resolve_all(mbox_queue *q, uint64_t index, const uint64_t *ev,
		       unsigned n, mbox_slot *s, unsigned *num,
		       const char **why)
{
	*num = 0;
	for (unsigned i = 0; i < n; i++) {
		exec_cmd *c;
		if (resolve(q, index, ev[i], &c, why) == READ_NOT_YET)
			return READ_NOT_YET;
		if (*why)
			return READ_OK;
		if (c) /* NULL: a released queue's, complete */
			s->wait[(*num)++] = c;
	}
	return READ_OK;
}

/* The slot is being refilled: the packet it held (ring size earlier) is
 * complete, and from now on too old to wait for. */
static void slot_reset(mbox_slot *s, uint16_t header)
{
	exec_cmd *c = &s->cmd;
	s->used = false;
	memset(c, 0, sizeof(*c));
	s->result = 0;
	s->result2 = 0;
	s->free_addr = 0;
	s->obj = NULL;
	s->detail = NULL;
	s->sess = MBOX_NO_SESSION;
	c->args = s->args;
	c->barrier = (header & HP_PKT_BARRIER) != 0;
}

/*
 * Read packet `i` of q (the next one). READ_NOT_YET: it cannot be read
 * now (not written yet, its slot's previous command still running, or a
 * dependency not readable yet); nothing changed.
 */
static int consume_one(mbox_queue *q, uint64_t i)
{
	unsigned slot = (unsigned)(i % HP_MBOX_RING_SIZE);
	hp_packet *shp = &q->ring[slot];
	uint16_t header = hal_load_acquire(&shp->header);
	if (HP_PKT_TYPE(header) == HP_PKT_INVALID)
		return READ_NOT_YET;
	mbox_slot *s = &q->slots[slot];
	/* A host that wrote over a slot whose command still runs broke rule
	 * 1 of mbox.h; the packet waits, nothing is overwritten. */
	if (s->used && exec_status(&s->cmd) > 0)
		return READ_NOT_YET;

	hp_packet p;
	memcpy(&p, shp, sizeof(p));
	p.header = header;
	slot_reset(s, header);
	exec_cmd *c = &s->cmd;
	c->trace_id = HP_EVENT(q - Q.q, i) + 1;
	/* Fields, not an initializer: that would zero ev[] on every packet;
	 * mbox_pkt_decode sets nwait and why itself. */
	mbox_pkt x;
	x.p = &p;
	x.ka = &q->kernarg[slot];
	x.s = s;
	x.buf = Q.why;
	x.buf_size = sizeof(Q.why);
	x.sess = q->sess;
	int err;
	const char *why;
	if (q->sess == MBOX_NO_SESSION) {
		/* Nothing of a session is touched for it. */
		err = q->refused ? HP_OUT_OF_RESOURCES : HP_INVALID_VALUE;
		why = q->refused ? q->refused_why
				 : "the queue's owner has no open session";
		x.nwait = 0;
	} else {
		err = mbox_pkt_decode(&x);
		why = err ? x.why : NULL;
	}
	if (!err) {
		q->busy = true;
		int rd =
			resolve_all(q, i, x.ev, x.nwait, s, &c->num_wait, &why);
		q->busy = false;
		if (rd == READ_NOT_YET) {
			mbox_pkt_undo(&x);
			return READ_NOT_YET;
		}
		if (why)
			err = HP_INVALID_EVENT_WAIT_LIST;
		c->wait_list = s->wait;
	}
	if (!err) {
		err = mbox_pkt_commit(&x);
		why = err ? x.why : NULL;
	}

	/* Commit: the slot now holds packet i, a command of its session
	 * until it completes. */
	if (s->obj)
		mbox_kobj_get(s->obj);
	s->sess = q->sess;
	if (s->sess != MBOX_NO_SESSION)
		mbox_session_cmd_start((unsigned)s->sess);
	s->used = true;
	s->index = i;
	c->on_complete = mbox_complete;
	c->user = s;
	hal_store_relaxed(&shp->header, (uint16_t)HP_PKT_INVALID);
	q->consumed = i + 1;
	mbox_st64(&q->shm->read_index, q->consumed);
	/* Counters before the record: a host that sees the record sees
	 * them. */
	mbox_st64(&Q.hdr->packets, ++Q.packets);
	EXEC_TRACE_INSTANT(HP_TRACE_PACKET, c,
			   HP_PKT_TYPE(header) == HP_PKT_KERNEL_DISPATCH
				   ? p.dispatch.kernel
				   : 0,
			   (uint32_t)err, HP_PKT_TYPE(header));
	if (err) {
		mbox_st64(&Q.hdr->bad_packets, ++Q.bad);
		s->detail = why;
		exec_user_event_init(c); /* keeps on_complete and user */
		exec_user_event_set(c, err);
	} else {
		exec_enqueue(&q->xq, c);
	}
	return READ_OK;
}

/* Read packets of q up to (not including) `end`; returns how many. */
static int consume_upto(mbox_queue *q, uint64_t end)
{
	int n = 0;
	queue_bind(q);
	/* An ending session's queues are not read: what is left in them
	 * is dropped when the session is reclaimed. */
	if (q->sess != MBOX_NO_SESSION &&
	    mbox_session_ending((unsigned)q->sess))
		return 0;
	/* Over its commands-in-flight quota, the session's packets wait
	 * (nothing accepted is lost; docs/sessions.md, "Quotas"). */
	while (q->consumed < end &&
	       (q->sess == MBOX_NO_SESSION ||
		mbox_session_may_read((unsigned)q->sess)) &&
	       consume_one(q, q->consumed) == READ_OK)
		n++;
	return n;
}

bool mbox_queue_poll(void)
{
	bool any = false;
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++) {
		mbox_queue *q = &Q.q[k];
		/* A queue given back or claimed counts for its session's queue
		 * quota now, not at its next packet. */
		queue_bind(q);
		uint64_t w = mbox_ld64(&q->shm->write_index);
		/* At most one ring's worth per visit, so one busy queue cannot
		 * starve the others. */
		if (w > q->consumed + HP_MBOX_RING_SIZE)
			w = q->consumed + HP_MBOX_RING_SIZE;
		if (w > q->consumed && consume_upto(q, w))
			any = true;
	}
	return any;
}

unsigned mbox_queue_cancel_session(unsigned sess)
{
	unsigned n = 0;
	/* Waiting commands first, so none of them launches while the running
	 * ones are stopped; then the running ones. */
	for (int pass = 0; pass < 2; pass++)
		for (unsigned k = 0; k < HP_MBOX_QUEUES; k++)
			for (unsigned j = 0; j < HP_MBOX_RING_SIZE; j++) {
				mbox_slot *s = &Q.q[k].slots[j];
				if (!s->used || s->sess != (int)sess)
					continue;
				int st = exec_status(&s->cmd);
				if (st <= 0 ||
				    (pass == 0) == (st == EXEC_RUNNING))
					continue;
				n += exec_cancel(&s->cmd, HP_ABORTED,
						 "its session ended");
			}
	return n;
}

/* Packets of q never read (the ending session's) complete as aborted, so
 * the queue's next owner finds every slot free (rule 1 of mbox.h). */
static void drop_unread(mbox_queue *q)
{
	uint64_t w = mbox_ld64(&q->shm->write_index);
	uint64_t from = q->consumed;
	if (w < from)
		w = from; /* a host that moved it back: nothing to drop */
	if (w - from > HP_MBOX_RING_SIZE)
		from = w - HP_MBOX_RING_SIZE;
	for (uint64_t i = from; i < w; i++) {
		unsigned slot = (unsigned)(i % HP_MBOX_RING_SIZE);
		hp_completion *r = &q->comp[slot];
		memset(r, 0, sizeof(*r));
		r->status = HP_ABORTED;
		strcpy(r->detail, "its session ended before it was read");
		hal_store_relaxed(&q->ring[slot].header,
				  (uint16_t)HP_PKT_INVALID);
		mbox_st64(&r->done, i + 1);
	}
	q->consumed = w;
	mbox_st64(&q->shm->read_index, w);
}

void mbox_queue_release_session(uint64_t token)
{
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++) {
		mbox_queue *q = &Q.q[k];
		/* By its owner word: a queue claimed but never read from is
		 * the session's too. */
		if (!token || mbox_ld64(&q->shm->owner) != token)
			continue;
		drop_unread(q);
		q->xq = (exec_queue){0};
		if (q->sess != MBOX_NO_SESSION)
			mbox_session_queue_bound((unsigned)q->sess, -1);
		q->sess = MBOX_NO_SESSION;
		q->owner_seen = 0;
		mbox_st64(&q->shm->owner, 0);
	}
}

bool mbox_queue_all_complete(void)
{
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++)
		for (unsigned j = 0; j < HP_MBOX_RING_SIZE; j++) {
			const mbox_slot *s = &Q.q[k].slots[j];
			if (s->used && exec_status(&s->cmd) > 0)
				return false;
		}
	return true;
}

int mbox_queue_at(uint64_t addr, uint64_t len, uint64_t *owner)
{
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++) {
		const mbox_queue *q = &Q.q[k];
		if (mbox_inside(addr, len, (uintptr_t)q->shm,
				offsetof(hp_mbox_queue, read_index)) ||
		    mbox_inside(addr, len, (uintptr_t)q->ring,
				HP_MBOX_RING_SIZE * sizeof(hp_packet)) ||
		    mbox_inside(addr, len, (uintptr_t)q->kernarg,
				HP_MBOX_RING_SIZE * sizeof(hp_kernarg))) {
			if (owner)
				*owner = mbox_ld64(&q->shm->owner);
			return (int)k;
		}
	}
	return -1;
}
