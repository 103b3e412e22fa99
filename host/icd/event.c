// SPDX-License-Identifier: MIT
/* Events, commands held on the host, markers and barriers, waiting, user
 * events, callbacks and printf output (docs/icd.md: "Commands and events").
 *
 * A command whose wait list names only complete events or events already
 * on the device runs at once: a device command is enqueued with those
 * device events as dependencies; a host-side one (buffer reads, writes,
 * maps) waits for them and the queue's earlier commands, then runs. Other
 * commands (waiting for a user event, or for a held command) are held on
 * the host in their queue's list and go once their wait list allows:
 * whenever the library notices progress (clSetUserEventStatus, waits,
 * flushes, event queries, any later enqueue). */
#include "icd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool icd_valid_event(cl_event e)
{
	return icd_obj_valid(e, MAGIC_EVENT);
}

cl_event icd_event_new(cl_context ctx, cl_command_queue q, cl_command_type type)
{
	cl_event e = icd_obj_new(MAGIC_EVENT, sizeof(*e));
	if (!e)
		return NULL;
	e->ctx = ctx;
	e->queue = q;
	e->type = type;
	e->status = q ? CL_QUEUED : CL_SUBMITTED;
	e->t_queued = icd_now_ns();
	icd_ctx_hold(ctx);
	if (q) {
		/* the command's, not the application's (yet) */
		e->refs = 0;
		e->holds = 1;
		icd_queue_hold(q);
	}
	return e;
}

static void printf_put(cl_command_queue q, hp_buffer b);

static void event_destroy(cl_event e)
{
	for (struct icd_callback *c = e->callbacks, *nx; c; c = nx) {
		nx = c->next;
		free(c);
	}
	if (e->printf_buf && e->queue)
		printf_put(e->queue, e->printf_buf);
	e->printf_buf = 0;
	icd_hold_drop(&e->hold);
	cl_command_queue q = e->queue;
	cl_context ctx = e->ctx;
	icd_obj_free(e, sizeof(*e));
	if (q)
		icd_queue_drop(q);
	icd_ctx_drop(ctx);
}

void icd_event_retain(cl_event e)
{
	e->refs++;
}

void icd_event_release(cl_event e)
{
	if (icd_obj_unref(e))
		event_destroy(e);
}

void icd_event_hold(cl_event e)
{
	e->holds++;
}

void icd_event_drop(cl_event e)
{
	if (icd_obj_unhold(e))
		event_destroy(e);
}

/* Set the status and call the callbacks it reaches (a callback for state
 * S runs once the status is S or later, or an error). */
static void set_status(cl_event e, cl_int st)
{
	e->status = st;
	struct icd_callback **pp = &e->callbacks;
	while (*pp) {
		struct icd_callback *c = *pp;
		if (st < 0 || c->type >= st) {
			*pp = c->next;
			c->fn(e, st < 0 ? st : c->type, c->data);
			free(c);
		} else
			pp = &c->next;
	}
}

void icd_event_complete(cl_event e, cl_int status)
{
	if (e->status <= CL_COMPLETE)
		return;
	cl_ulong now = icd_now_ns();
	if (!e->t_submit)
		e->t_submit = now;
	if (!e->t_start)
		e->t_start = now;
	if (!e->t_end)
		e->t_end = now;
	icd_event_hold(e);
	set_status(e, status);
	/* what the command used may go now */
	icd_hold_drop(&e->hold);
	icd_event_drop(e);
}

/* ---- printf ---- */

hp_buffer icd_printf_get(cl_command_queue q)
{
	if (q->num_printf_free)
		return q->printf_free[--q->num_printf_free];
	hp_buffer b = 0;
	if (hp_buffer_alloc(icd_device.hp, ICD_PRINTF_SIZE, &b))
		return 0;
	return b;
}

static void printf_put(cl_command_queue q, hp_buffer b)
{
	/* a released queue's, or more idle ones than a queue keeps (the
	 * heap is for the program's buffers) */
	if (!q->hq || q->num_printf_free >= ICD_PRINTF_IDLE_MAX) {
		hp_buffer_free(icd_device.hp, b);
		return;
	}
	if (q->num_printf_free == q->cap_printf_free) {
		size_t nc = q->cap_printf_free ? q->cap_printf_free * 2 : 4;
		hp_buffer *n = realloc(q->printf_free, nc * sizeof(*n));
		if (!n) {
			hp_buffer_free(icd_device.hp, b);
			return;
		}
		q->printf_free = n;
		q->cap_printf_free = nc;
	}
	q->printf_free[q->num_printf_free++] = b;
}

static void print_line(void *ctx, const uint64_t gid[3], const char *text,
		       size_t n)
{
	(void)ctx, (void)gid;
	fwrite(text, 1, n, stdout);
}

/* ---- device completion ---- */

static cl_ulong us_ns(double us)
{
	return us > 0 ? (cl_ulong)(us * 1e3) : 0;
}

static void finish_device(cl_event e, const hp_event_info *i)
{
	if (i) {
		e->t_queued = us_ns(i->queued_us);
		e->t_submit = us_ns(i->submit_us);
		e->t_start = us_ns(i->start_us);
		e->t_end = us_ns(i->end_us);
	}
	if (e->printf_buf) {
		uint32_t dropped = 0;
		if (i && !hp_printf_read(icd_device.hp, e->printf_buf,
					 ICD_PRINTF_SIZE, print_line, NULL,
					 &dropped)) {
			if (dropped)
				printf("hartpool-icd: printf buffer full: %u "
				       "printf() calls dropped\n",
				       dropped);
			fflush(stdout);
		}
		printf_put(e->queue, e->printf_buf);
		e->printf_buf = 0;
	}
	cl_int st =
		i ? (i->status ? (cl_int)i->status : CL_COMPLETE) : CL_COMPLETE;
	icd_event_complete(e, st);
}

cl_int icd_event_poll(cl_event e)
{
	if (e->status <= CL_COMPLETE || !e->on_device)
		return e->status;
	hp_event_info i;
	int rc = hp_event_query(icd_device.hp, e->dev, &i);
	if (rc == 1) {
		if (e->status > CL_SUBMITTED)
			set_status(e, CL_SUBMITTED);
		return e->status;
	}
	if (rc == HP_DEVICE_NOT_AVAILABLE) {
		finish_device(e, NULL);
		e->status = CL_DEVICE_NOT_AVAILABLE;
		return e->status;
	}
	/* rc != 0: the record was reused, so the command is long complete
	 * (its status and times are lost; the queues are reaped on every
	 * enqueue to make that rare). */
	finish_device(e, rc ? NULL : &i);
	return e->status;
}

/* hp_event_wait until the command is complete: the library gives up
 * after its own limit (hp_open_options.timeout_ms) while the device still
 * serves; a kernel's time limit is the device's (icd_device.timeout_us). */
static int dev_wait(hp_event ev, hp_event_info *i)
{
	int rc;
	while ((rc = hp_event_wait(icd_device.hp, ev, i)) == HP_TIMEOUT)
		;
	return rc;
}

cl_int icd_event_wait(cl_event e)
{
	for (;;) {
		cl_int st = icd_event_poll(e);
		if (st <= CL_COMPLETE)
			return CL_SUCCESS;
		if (e->on_device) {
			hp_event_info i;
			int rc = dev_wait(e->dev, &i);
			if (rc == 0)
				finish_device(e, &i);
			else if (rc == HP_DEVICE_NOT_AVAILABLE) {
				icd_event_complete(e, icd_err(rc));
				return icd_err(rc);
			} else
				finish_device(e, NULL);
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

cl_int icd_check_wait(cl_context ctx, cl_uint n, const cl_event *w)
{
	if ((n && !w) || (!n && w))
		return CL_INVALID_EVENT_WAIT_LIST;
	for (cl_uint i = 0; i < n; i++) {
		if (!icd_valid_event(w[i]))
			return CL_INVALID_EVENT_WAIT_LIST;
		if (ctx && w[i]->ctx != ctx)
			return CL_INVALID_CONTEXT;
	}
	return CL_SUCCESS;
}

/* ---- commands ---- */

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
	icd_event_hold(e);
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
	size_t j = 0;
	for (size_t i = 0; i < q->num_pending; i++) {
		cl_event e = q->pending[i];
		if (icd_event_poll(e) <= CL_COMPLETE)
			icd_event_drop(e);
		else
			q->pending[j++] = e;
	}
	q->num_pending = j;
	q->reaping = false;
}

void icd_cmd_free(struct icd_cmd *c)
{
	if (c->free)
		c->free(c);
	for (cl_uint i = 0; i < c->num_wait; i++)
		icd_event_drop(c->wait[i]);
	free(c->wait);
	free(c->args);
	icd_hold_drop(&c->hold);
	if (c->ev)
		icd_event_drop(c->ev);
	free(c);
}

static bool cmd_ready(const struct icd_cmd *c)
{
	for (cl_uint i = 0; i < c->num_wait; i++) {
		cl_event w = c->wait[i];
		if (w->status > CL_COMPLETE && !w->on_device &&
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
		else if (st > CL_COMPLETE)
			deps[n++] = w->dev;
	}
	c->ev->t_submit = icd_now_ns();
	if (!rc)
		rc = deps_reduce(q, deps, &n, HP_MBOX_MAX_WAIT);
	if (!rc)
		rc = c->run(c, deps, n);
	free(deps);
	if (!rc && c->ev->on_device) {
		/* the event keeps what the command uses until complete */
		c->ev->hold = c->hold;
		memset(&c->hold, 0, sizeof(c->hold));
		if (c->ev->status > CL_SUBMITTED)
			set_status(c->ev, CL_SUBMITTED);
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
				if (!cmd_ready(c)) {
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

cl_int icd_submit(cl_command_queue q, struct icd_cmd *c, cl_uint nw,
		  const cl_event *w, cl_command_type type, cl_event *out)
{
	icd_queue_reap(q);
	cl_event e = icd_event_new(q->ctx, q, type);
	cl_uint extra = 0;
	/* an out-of-order queue's marker/barrier without a wait list also
	 * waits for the queue's held commands */
	if (!q->in_order && !nw && c->barrier)
		for (struct icd_cmd *h = q->held; h; h = h->next)
			extra++;
	c->wait = calloc(nw + extra + 2, sizeof(cl_event));
	if (!e || !c->wait) {
		if (e)
			icd_event_drop(e);
		c->ev = NULL;
		icd_cmd_free(c);
		return CL_OUT_OF_HOST_MEMORY;
	}
	c->ev = e;
	for (cl_uint i = 0; i < nw; i++) {
		icd_event_hold(w[i]);
		c->wait[c->num_wait++] = w[i];
	}
	if (!q->in_order && q->barrier_ev) {
		icd_event_hold(q->barrier_ev);
		c->wait[c->num_wait++] = q->barrier_ev;
	}
	if (extra)
		for (struct icd_cmd *h = q->held; h; h = h->next) {
			icd_event_hold(h->ev);
			c->wait[c->num_wait++] = h->ev;
		}
	bool hold = (q->in_order && q->held) || !cmd_ready(c);
	if (!hold) {
		/* a failed dependency is the command's status, not an error
		 * of the enqueue (blocking calls then return it) */
		cl_int rc = cmd_run(q, c);
		if (rc && rc != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
			icd_cmd_free(c);
			return rc;
		}
	}
	icd_event_hold(e);
	if (q->last)
		icd_event_drop(q->last);
	q->last = e;
	if (c->barrier && type == CL_COMMAND_BARRIER && !q->in_order) {
		icd_event_hold(e);
		if (q->barrier_ev)
			icd_event_drop(q->barrier_ev);
		q->barrier_ev = e;
	}
	if (out) {
		icd_event_retain(e);
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

cl_int icd_wait_deps(const hp_event *deps, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		hp_event_info info;
		int rc = dev_wait(deps[i], &info);
		if (rc == HP_DEVICE_NOT_AVAILABLE)
			return icd_err(rc);
		if (!rc && info.status)
			return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	}
	return CL_SUCCESS;
}

cl_int icd_queue_drain(cl_command_queue q)
{
	int rc;
	while ((rc = hp_queue_finish(q->hq)) == HP_TIMEOUT)
		;
	return rc == HP_DEVICE_NOT_AVAILABLE ? CL_DEVICE_NOT_AVAILABLE
					     : CL_SUCCESS;
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
		cl_event e = q->pending[0];
		cl_int r = icd_event_wait(e);
		if (r && !rc)
			rc = r;
		icd_queue_reap(q);
		if (q->num_pending && q->pending[0] == e) {
			/* could not complete it (device gone) */
			icd_event_drop(e);
			memmove(q->pending, q->pending + 1,
				(--q->num_pending) * sizeof(cl_event));
		}
	}
	return rc;
}

/* ---- markers and barriers ---- */

static cl_int run_marker(struct icd_cmd *c, const hp_event *deps, unsigned n)
{
	cl_command_queue q = c->ev->queue;
	int rc = n ? hp_enqueue_barrier_and(q->hq, deps, n, &c->ev->dev)
		   : hp_enqueue_marker(q->hq, &c->ev->dev);
	if (rc)
		return icd_err(rc);
	c->ev->on_device = true;
	return CL_SUCCESS;
}

static cl_int enqueue_marker(cl_command_queue q, cl_uint nw, const cl_event *w,
			     cl_event *ev, cl_command_type type)
{
	icd_lock();
	cl_int rc = CL_INVALID_COMMAND_QUEUE;
	if (!icd_valid_queue(q))
		goto out;
	if ((rc = icd_check_wait(q->ctx, nw, w)))
		goto out;
	struct icd_cmd *c = calloc(1, sizeof(*c));
	if (!c) {
		rc = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	c->run = run_marker;
	c->barrier = true;
	rc = icd_submit(q, c, nw, w, type, ev);
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q,
							  cl_uint nw,
							  const cl_event *w,
							  cl_event *ev)
{
	return enqueue_marker(q, nw, w, ev, CL_COMMAND_MARKER);
}

/* A barrier orders the queue: on an in-order queue every command already
 * waits for the earlier ones; on an out-of-order one, the commands after
 * it wait for it (icd_submit adds it to their wait lists). */
ICD_EXPORT cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q,
							   cl_uint nw,
							   const cl_event *w,
							   cl_event *ev)
{
	return enqueue_marker(q, nw, w, ev, CL_COMMAND_BARRIER);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *ev)
{
	if (!ev)
		return icd_check(q, MAGIC_QUEUE, CL_INVALID_VALUE,
				 CL_INVALID_COMMAND_QUEUE);
	return enqueue_marker(q, 0, NULL, ev, CL_COMMAND_MARKER);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q)
{
	return clEnqueueBarrierWithWaitList(q, 0, NULL, NULL);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q,
						     cl_uint n,
						     const cl_event *w)
{
	if (!n || !w)
		return icd_check(q, MAGIC_QUEUE, CL_INVALID_VALUE,
				 CL_INVALID_COMMAND_QUEUE);
	return enqueue_marker(q, n, w, NULL, CL_COMMAND_BARRIER);
}

/* ---- the event API ---- */

ICD_EXPORT cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *w)
{
	if (!n || !w)
		return CL_INVALID_VALUE;
	icd_lock();
	cl_int rc = CL_SUCCESS;
	for (cl_uint i = 0; i < n && !rc; i++) {
		if (!icd_valid_event(w[i]))
			rc = CL_INVALID_EVENT;
		else if (w[i]->ctx != w[0]->ctx)
			rc = CL_INVALID_CONTEXT;
	}
	for (cl_uint i = 0; i < n && !rc; i++) {
		rc = icd_event_wait(w[i]);
		if (!rc && w[i]->status < 0)
			rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	}
	for (size_t i = 0; i < icd_num_queues; i++)
		icd_queue_reap(icd_queues[i]);
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetEventInfo(cl_event e, cl_event_info param,
					     size_t size, void *value,
					     size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_EVENT;
	if (!icd_valid_event(e))
		goto out;
	switch (param) {
	case CL_EVENT_COMMAND_QUEUE:
		rc = icd_info(&e->queue, sizeof(e->queue), size, value, ret);
		break;
	case CL_EVENT_CONTEXT:
		rc = icd_info(&e->ctx, sizeof(e->ctx), size, value, ret);
		break;
	case CL_EVENT_COMMAND_TYPE:
		rc = icd_info(&e->type, sizeof(e->type), size, value, ret);
		break;
	case CL_EVENT_REFERENCE_COUNT:
		rc = icd_info(&e->refs, sizeof(e->refs), size, value, ret);
		break;
	case CL_EVENT_COMMAND_EXECUTION_STATUS: {
		icd_progress();
		cl_int st = icd_event_poll(e);
		rc = icd_info(&st, sizeof(st), size, value, ret);
		break;
	}
	default:
		rc = CL_INVALID_VALUE;
	}
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e,
						      cl_profiling_info param,
						      size_t size, void *value,
						      size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_EVENT;
	if (!icd_valid_event(e))
		goto out;
	rc = CL_PROFILING_INFO_NOT_AVAILABLE;
	if (!e->queue || !(e->queue->props & CL_QUEUE_PROFILING_ENABLE) ||
	    icd_event_poll(e) != CL_COMPLETE)
		goto out;
	cl_ulong t;
	switch (param) {
	case CL_PROFILING_COMMAND_QUEUED:
		t = e->t_queued;
		break;
	case CL_PROFILING_COMMAND_SUBMIT:
		t = e->t_submit;
		break;
	case CL_PROFILING_COMMAND_START:
		t = e->t_start;
		break;
	case CL_PROFILING_COMMAND_END:
	case CL_PROFILING_COMMAND_COMPLETE:
		t = e->t_end;
		break;
	default:
		rc = CL_INVALID_VALUE;
		goto out;
	}
	rc = icd_info(&t, sizeof(t), size, value, ret);
out:
	icd_unlock();
	return rc;
}

ICD_REFCOUNT_CALL(clRetainEvent, cl_event, icd_valid_event, icd_event_retain,
		  CL_INVALID_EVENT)

ICD_REFCOUNT_CALL(clReleaseEvent, cl_event, icd_valid_event, icd_event_release,
		  CL_INVALID_EVENT)

ICD_EXPORT cl_event CL_API_CALL clCreateUserEvent(cl_context c, cl_int *errp)
{
	icd_lock();
	cl_event e = NULL;
	cl_int err = CL_INVALID_CONTEXT;
	if (icd_valid_ctx(c)) {
		e = icd_event_new(c, NULL, CL_COMMAND_USER);
		err = e ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
	}
	icd_unlock();
	if (errp)
		*errp = err;
	return e;
}

ICD_EXPORT cl_int CL_API_CALL clSetUserEventStatus(cl_event e, cl_int st)
{
	icd_lock();
	cl_int rc = CL_INVALID_EVENT;
	if (!icd_valid_event(e) || e->queue)
		goto out;
	rc = CL_INVALID_VALUE;
	if (st > CL_COMPLETE)
		goto out;
	rc = CL_INVALID_OPERATION;
	if (e->status <= CL_COMPLETE)
		goto out;
	icd_event_complete(e, st);
	icd_progress();
	rc = CL_SUCCESS;
out:
	icd_unlock();
	return rc;
}

/* Callbacks run on the thread that notices the state: clWaitForEvents,
 * clFinish, clFlush, status queries, enqueues (docs/icd.md). */
ICD_EXPORT cl_int CL_API_CALL
clSetEventCallback(cl_event e, cl_int type,
		   void(CL_CALLBACK *fn)(cl_event, cl_int, void *), void *data)
{
	icd_lock();
	cl_int rc = CL_INVALID_EVENT;
	if (!icd_valid_event(e))
		goto out;
	rc = CL_INVALID_VALUE;
	if (!fn ||
	    (type != CL_COMPLETE && type != CL_SUBMITTED && type != CL_RUNNING))
		goto out;
	struct icd_callback *c = calloc(1, sizeof(*c));
	rc = CL_OUT_OF_HOST_MEMORY;
	if (!c)
		goto out;
	c->type = type;
	c->fn = fn;
	c->data = data;
	c->next = e->callbacks;
	e->callbacks = c;
	rc = CL_SUCCESS;
	if (e->status <= type) {
		icd_event_hold(e);
		set_status(e, e->status);
		icd_event_drop(e);
	}
out:
	icd_unlock();
	return rc;
}
