// SPDX-License-Identifier: MIT
/* Events: their states and callbacks, device completion (times, printf
 * output), waits on device events, and the printf buffer pool of a queue
 * (docs/icd.md: "Commands and events"). */
#include "core.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void event_destroy(struct icd_object *o)
{
	cl_event e = (cl_event)o;
	for (struct icd_callback *c = e->callbacks, *nx; c; c = nx) {
		nx = c->next;
		free(c);
	}
	if (e->printf_buf && e->queue)
		icd_printf_put(e->queue, e->printf_buf);
	e->printf_buf = 0;
	icd_hold_drop(&e->hold);
}

const struct icd_kind icd_kind_event = {
	.magic = MAGIC_EVENT,
	.size = sizeof(struct _cl_event),
	.destroy = event_destroy,
};

cl_event icd_event_new(cl_context ctx, cl_command_queue q, cl_command_type type)
{
	cl_event e = icd_obj_new(&icd_kind_event);
	if (!e)
		return NULL;
	e->ctx = ctx;
	e->queue = q;
	e->type = type;
	e->status = q ? CL_QUEUED : CL_SUBMITTED;
	e->t_queued = icd_now_ns();
	if (q) {
		/* the command's, not the application's (yet) */
		e->refs = 0;
		e->holds = 1;
		icd_obj_parent(e, q);
	}
	icd_obj_parent(e, ctx);
	return e;
}

/* A callback for state S runs once the status is S or later, or an
 * error. */
void icd_event_set_status(cl_event e, cl_int st)
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
	icd_hold(e);
	icd_event_set_status(e, status);
	/* what the command used may go now */
	icd_hold_drop(&e->hold);
	icd_drop(e);
}

cl_int icd_event_callback(cl_event e, cl_int type,
			  void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
			  void *data)
{
	struct icd_callback *c = calloc(1, sizeof(*c));
	if (!c)
		return CL_OUT_OF_HOST_MEMORY;
	c->type = type;
	c->fn = fn;
	c->data = data;
	c->next = e->callbacks;
	e->callbacks = c;
	if (e->status <= type) {
		icd_hold(e);
		icd_event_set_status(e, e->status);
		icd_drop(e);
	}
	return CL_SUCCESS;
}

/* ---- printf ---- */

hp_buffer icd_printf_get(cl_command_queue q)
{
	if (q->num_printf_free)
		return q->printf_free[--q->num_printf_free];
	hp_buffer b = 0;
	if (hp_buffer_alloc(q->dev->hp, ICD_PRINTF_SIZE, &b))
		return 0;
	return b;
}

void icd_printf_put(cl_command_queue q, hp_buffer b)
{
	/* a released queue's, or more idle ones than a queue keeps (the
	 * heap is for the program's buffers) */
	if (!q->hq || q->num_printf_free >= ICD_PRINTF_IDLE_MAX) {
		hp_buffer_free(q->dev->hp, b);
		return;
	}
	if (q->num_printf_free == q->cap_printf_free) {
		size_t nc = q->cap_printf_free ? q->cap_printf_free * 2 : 4;
		hp_buffer *n = realloc(q->printf_free, nc * sizeof(*n));
		if (!n) {
			hp_buffer_free(q->dev->hp, b);
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

void icd_event_finish_device(cl_event e, const hp_event_info *i)
{
	if (i) {
		/* the host's copies of its buffers came before the device
		 * queued it */
		e->t_queued = us_ns(i->queued_us);
		e->t_queued -= e->moved_ns < e->t_queued ? e->moved_ns : 0;
		e->t_submit = us_ns(i->submit_us);
		e->t_start = us_ns(i->start_us);
		e->t_end = us_ns(i->end_us);
	}
	if (e->printf_buf) {
		uint32_t dropped = 0;
		if (i && !hp_printf_read(e->queue->dev->hp, e->printf_buf,
					 ICD_PRINTF_SIZE, print_line, NULL,
					 &dropped)) {
			if (dropped)
				printf("hartpool-icd: printf buffer full: %u "
				       "printf() calls dropped\n",
				       dropped);
			fflush(stdout);
		}
		icd_printf_put(e->queue, e->printf_buf);
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
	int rc = hp_event_query(e->queue->dev->hp, e->dev, &i);
	if (rc == 1) {
		if (e->status > CL_SUBMITTED)
			icd_event_set_status(e, CL_SUBMITTED);
		return e->status;
	}
	if (rc == HP_DEVICE_NOT_AVAILABLE) {
		icd_event_finish_device(e, NULL);
		e->status = CL_DEVICE_NOT_AVAILABLE;
		return e->status;
	}
	/* rc != 0: the record was reused, so the command is long complete
	 * (its status and times are lost; the queues are reaped on every
	 * enqueue to make that rare). */
	icd_event_finish_device(e, rc ? NULL : &i);
	return e->status;
}

/* hp_event_wait until the command is complete: the library gives up
 * after its own limit (hp_open_options.timeout_ms) while the device still
 * serves; a kernel's time limit is the device's (timeout_us). */
int icd_dev_wait(cl_device_id d, hp_event ev, hp_event_info *i)
{
	int rc;
	while ((rc = hp_event_wait(d->hp, ev, i)) == HP_TIMEOUT)
		;
	return rc;
}

cl_int icd_wait_deps(cl_device_id d, const hp_event *deps, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		hp_event_info info;
		int rc = icd_dev_wait(d, deps[i], &info);
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
