// SPDX-License-Identifier: MIT
/* The queue pipeline: queues on the device, submitting commands, holding
 * the ones that cannot go yet, progress, completion and finishing
 * (docs/icd.md: "Commands and events").
 *
 * A command whose wait list names only complete events or events already
 * on the device runs at once: a device command is enqueued with those
 * device events as dependencies; a host-side one (buffer reads, writes,
 * maps) waits for them and the queue's earlier commands, then runs. Other
 * commands (waiting for a user event, or for a held command) are held on
 * the host in their queue's list and go once their wait list allows:
 * whenever the library notices progress (clSetUserEventStatus, waits,
 * flushes, event queries, any later enqueue). */
#include "core.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

cl_command_queue *icd_queues;
size_t icd_num_queues;
static size_t cap_queues;

/* The application's last reference: finish its commands, give the device
 * queue back; the object goes with the last of its events. */
static void queue_close(struct icd_object *o)
{
	cl_command_queue q = (cl_command_queue)o;
	icd_queue_finish(q);
	for (size_t i = 0; i < q->num_printf_free; i++)
		hp_buffer_free(q->dev->hp, q->printf_free[i]);
	free(q->printf_free);
	q->printf_free = NULL;
	q->num_printf_free = q->cap_printf_free = 0;
	free(q->pending);
	q->pending = NULL;
	hp_queue_release(q->hq);
	q->hq = NULL;
	for (size_t i = 0; i < icd_num_queues; i++)
		if (icd_queues[i] == q) {
			icd_queues[i] = icd_queues[--icd_num_queues];
			break;
		}
	if (q->last)
		icd_drop(q->last);
	if (q->barrier_ev)
		icd_drop(q->barrier_ev);
	q->last = q->barrier_ev = NULL;
}

const struct icd_kind icd_kind_queue = {
	.magic = MAGIC_QUEUE,
	.size = sizeof(struct _cl_command_queue),
	.close = queue_close,
};

cl_int icd_queue_new(cl_context c, cl_device_id d,
		     cl_command_queue_properties props,
		     const cl_queue_properties *qp, size_t nqp,
		     cl_command_queue *out)
{
	*out = NULL;
	if (icd_num_queues == cap_queues) {
		size_t nc = cap_queues ? cap_queues * 2 : 16;
		cl_command_queue *nq = realloc(icd_queues, nc * sizeof(*nq));
		if (!nq)
			return CL_OUT_OF_HOST_MEMORY;
		icd_queues = nq;
		cap_queues = nc;
	}
	cl_command_queue q = icd_obj_new(&icd_kind_queue);
	if (!q)
		return CL_OUT_OF_HOST_MEMORY;
	q->in_order = !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	if (hp_queue_create(d->hp, q->in_order ? HP_QUEUE_IN_ORDER : 0,
			    &q->hq)) {
		icd_obj_discard(q);
		return CL_OUT_OF_RESOURCES;
	}
	hp_queue_set_timeout(q->hq, d->timeout_us);
	q->dev = d;
	icd_queues[icd_num_queues++] = q;
	q->ctx = c;
	q->props = props;
	if (nqp)
		memcpy(q->qprops, qp, nqp * sizeof(*qp));
	q->num_qprops = nqp;
	icd_obj_parent(q, c);
	*out = q;
	return CL_SUCCESS;
}

/* ---- device commands in flight ---- */

static void pending_add(cl_command_queue q, cl_event e)
{
	if (q->num_pending == q->cap_pending) {
		size_t nc = q->cap_pending ? q->cap_pending * 2 : 32;
		cl_event *n = realloc(q->pending, nc * sizeof(*n));
		if (!n)
			return; /* not tracked: noticed when waited for */
		q->pending = n;
		q->cap_pending = nc;
	}
	icd_hold(e);
	q->pending[q->num_pending++] = e;
}

/* Completion runs callbacks and drops what commands held (destructor
 * callbacks): one that enqueues on @p q does not reap it again meanwhile;
 * what it adds is looked at in this pass. */
void icd_queue_reap(cl_command_queue q)
{
	if (q->reaping)
		return;
	q->reaping = true;
	q->reaps++;
	size_t j = 0, i = 0;
	for (; i < q->num_pending; i++) {
		cl_event e = q->pending[i];
		if (icd_event_poll(e) <= CL_COMPLETE) {
			icd_drop(e);
			continue;
		}
		/* An in-order queue's commands complete in order: the rest
		 * are not done either (a scan of every pending event per
		 * enqueue cost 10 us with the ring full). An out-of-order
		 * queue's mostly do too: every 16th reap looks at all. */
		if (q->in_order || (q->reaps & 15))
			break;
		q->pending[j++] = e;
	}
	if (i < q->num_pending && i > j)
		memmove(q->pending + j, q->pending + i,
			(q->num_pending - i) * sizeof(cl_event));
	q->num_pending = j + (q->num_pending - i);
	q->reaping = false;
}

void icd_reap_all(void)
{
	for (size_t i = 0; i < icd_num_queues; i++)
		icd_queue_reap(icd_queues[i]);
}

/* ---- running commands ---- */

/* Every event of the wait list is complete, or a command of @p q's device
 * (which orders it on the device). Another device's command is waited
 * for on the host. */
static bool cmd_ready(cl_command_queue q, const struct icd_cmd *c)
{
	for (cl_uint i = 0; i < c->num_wait; i++) {
		cl_event w = c->wait[i];
		bool here = w->on_device && w->queue->dev == q->dev;
		if (w->status > CL_COMPLETE && !here &&
		    icd_event_poll(w) > CL_COMPLETE)
			return false;
	}
	return true;
}

/* Fold dependencies into barrier-AND packets until at most @p max remain. */
static cl_int deps_reduce(cl_command_queue q, hp_event *deps, unsigned *n,
			  unsigned max)
{
	while (*n > max) {
		unsigned k = *n - max + 1;
		if (k > HP_MBOX_BARRIER_DEPS)
			k = HP_MBOX_BARRIER_DEPS;
		hp_event b;
		int rc = hp_enqueue_barrier_and(q->hq, deps + *n - k, k, &b);
		if (rc)
			return icd_err(rc);
		*n -= k;
		deps[(*n)++] = b;
	}
	return CL_SUCCESS;
}

/* Run a ready command: CL_SUCCESS, or the error it failed with (its event
 * is then complete with that status). */
static cl_int cmd_run(cl_command_queue q, struct icd_cmd *c)
{
	hp_event *deps = malloc((c->num_wait + 1) * sizeof(*deps));
	unsigned n = 0;
	cl_int rc = CL_SUCCESS;
	if (!deps)
		rc = CL_OUT_OF_HOST_MEMORY;
	for (cl_uint i = 0; !rc && i < c->num_wait; i++) {
		cl_event w = c->wait[i];
		cl_int st = icd_event_poll(w);
		if (st < 0)
			rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
		else if (st > CL_COMPLETE && !c->all_earlier)
			deps[n++] = w->dev;
	}
	c->ev->t_submit = icd_now_ns();
	if (!rc)
		rc = deps_reduce(q, deps, &n, HP_MBOX_MAX_WAIT);
	if (!rc)
		rc = icd_cmd_move(c, &c->ev->moved_bytes);
	if (c->ev->moved_bytes)
		c->ev->moved_ns = icd_now_ns() - c->ev->t_submit;
	if (!rc)
		rc = icd_cmd_start(c, deps, n);
	free(deps);
	if (!rc && c->ev->on_device) {
		/* the event keeps what the command uses until complete */
		c->ev->hold = c->hold;
		memset(&c->hold, 0, sizeof(c->hold));
		if (c->ev->status > CL_SUBMITTED)
			icd_event_set_status(c->ev, CL_SUBMITTED);
		pending_add(q, c->ev);
	} else if (!rc)
		icd_event_complete(c->ev, CL_COMPLETE);
	else
		icd_event_complete(c->ev, rc);
	return rc;
}

void icd_progress(void)
{
	bool again = true;
	while (again) {
		again = false;
		for (size_t i = 0; i < icd_num_queues; i++) {
			cl_command_queue q = icd_queues[i];
			struct icd_cmd **pp = &q->held;
			while (*pp) {
				struct icd_cmd *c = *pp;
				if (!cmd_ready(q, c)) {
					if (q->in_order)
						break;
					pp = &c->next;
					continue;
				}
				*pp = c->next;
				cmd_run(q, c);
				icd_cmd_free(c);
				again = true;
			}
		}
	}
}

/* ---- submitting ---- */

/* The command's wait list: the application's, an out-of-order queue's
 * latest barrier, and for an out-of-order queue's marker or barrier
 * without a wait list its held commands. Such a marker covers every
 * earlier command of the queue, not only the previous barrier: it goes to
 * the device once the held ones have, as a marker after all of the
 * queue's earlier packets (all_earlier). */
static cl_int wait_list(cl_command_queue q, struct icd_cmd *c, cl_uint nw,
			const cl_event *w)
{
	cl_uint extra = 0;
	bool held_too = !q->in_order && !nw && c->kind == CMD_MARKER;
	c->all_earlier = held_too;
	if (held_too)
		for (struct icd_cmd *h = q->held; h; h = h->next)
			extra++;
	c->wait = calloc(nw + extra + 2, sizeof(cl_event));
	if (!c->wait)
		return CL_OUT_OF_HOST_MEMORY;
	for (cl_uint i = 0; i < nw; i++) {
		icd_hold(w[i]);
		c->wait[c->num_wait++] = w[i];
	}
	if (!q->in_order && q->barrier_ev) {
		icd_hold(q->barrier_ev);
		c->wait[c->num_wait++] = q->barrier_ev;
	}
	if (held_too)
		for (struct icd_cmd *h = q->held; h; h = h->next) {
			icd_hold(h->ev);
			c->wait[c->num_wait++] = h->ev;
		}
	return CL_SUCCESS;
}

/* The queue's latest command (and barrier) is now @p e. */
static void queue_track(cl_command_queue q, struct icd_cmd *c, cl_event e,
			cl_command_type type)
{
	icd_hold(e);
	if (q->last)
		icd_drop(q->last);
	q->last = e;
	if (c->kind == CMD_MARKER && type == CL_COMMAND_BARRIER &&
	    !q->in_order) {
		icd_hold(e);
		if (q->barrier_ev)
			icd_drop(q->barrier_ev);
		q->barrier_ev = e;
	}
}

static cl_int submit(cl_command_queue q, struct icd_cmd *c, cl_uint nw,
		     const cl_event *w, cl_command_type type, cl_event *out)
{
	icd_queue_reap(q);
	cl_event e = icd_event_new(q->ctx, q, type);
	if (!e) {
		icd_cmd_free(c);
		return CL_OUT_OF_HOST_MEMORY;
	}
	c->ev = e;
	if (wait_list(q, c, nw, w)) {
		icd_cmd_free(c);
		return CL_OUT_OF_HOST_MEMORY;
	}
	bool hold = (q->in_order && q->held) || !cmd_ready(q, c);
	if (!hold) {
		/* a failed dependency is the command's status, not an error
		 * of the enqueue (blocking calls then return it) */
		cl_int rc = cmd_run(q, c);
		if (rc && rc != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
			icd_cmd_free(c);
			return rc;
		}
	}
	queue_track(q, c, e, type);
	if (out) {
		icd_retain(e);
		*out = e;
	}
	if (hold) {
		struct icd_cmd **pp = &q->held;
		while (*pp)
			pp = &(*pp)->next;
		*pp = c;
	} else
		icd_cmd_free(c);
	return CL_SUCCESS;
}

cl_int icd_enqueue(cl_command_queue q, struct icd_cmd *c, cl_uint nw,
		   const cl_event *w, cl_command_type type, bool block,
		   cl_event *out)
{
	if (!c)
		return CL_OUT_OF_HOST_MEMORY;
	if (!block)
		return submit(q, c, nw, w, type, out);
	cl_event e = NULL;
	cl_int rc = submit(q, c, nw, w, type, &e);
	if (rc)
		return rc;
	rc = icd_event_wait(e);
	if (!rc && e->status < 0)
		rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	icd_queue_reap(q);
	if (out)
		*out = e;
	else
		icd_release(e);
	return rc;
}

/* ---- waiting ---- */

cl_int icd_event_wait(cl_event e)
{
	for (;;) {
		cl_int st = icd_event_poll(e);
		if (st <= CL_COMPLETE)
			return CL_SUCCESS;
		if (e->on_device) {
			hp_event_info i;
			int rc = icd_dev_wait(e->queue->dev, e->dev, &i);
			if (rc == 0)
				icd_event_finish_device(e, &i);
			else if (rc == HP_DEVICE_NOT_AVAILABLE) {
				icd_event_complete(e, icd_err(rc));
				return icd_err(rc);
			} else
				icd_event_finish_device(e, NULL);
			continue;
		}
		icd_progress();
		if (e->on_device || e->status <= CL_COMPLETE)
			continue;
		/* held on the host (a user event): let other threads in */
		icd_unlock();
		usleep(500);
		icd_lock();
	}
}

cl_int icd_queue_finish(cl_command_queue q)
{
	while (q->held) {
		icd_progress();
		if (!q->held)
			break;
		icd_unlock();
		usleep(500);
		icd_lock();
	}
	cl_int rc = CL_SUCCESS;
	while (q->num_pending) {
		/* the newest first: on an in-order queue the others are then
		 * complete too, so clFinish waits once */
		size_t last = q->num_pending - 1;
		cl_event e = q->pending[last];
		cl_int r = icd_event_wait(e);
		if (r && !rc)
			rc = r;
		icd_queue_reap(q);
		if (q->num_pending > last && q->pending[last] == e) {
			/* could not complete it (device gone) */
			icd_drop(e);
			q->num_pending--;
		}
	}
	return rc;
}
