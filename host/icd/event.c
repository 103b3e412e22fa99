// SPDX-License-Identifier: MIT
/* The event API: markers and barriers, waiting, event queries, user events
 * and callbacks (the events themselves and the queue pipeline: core/). */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

cl_int icd_check_wait(cl_context ctx, cl_uint n, const cl_event *w)
{
	FAIL_IF((n && !w) || (!n && w), CL_INVALID_EVENT_WAIT_LIST,
		"%u events in the wait list, its pointer %p", n, (void *)w);
	for (cl_uint i = 0; i < n; i++) {
		FAIL_IF(!icd_valid_event(w[i]), CL_INVALID_EVENT_WAIT_LIST,
			"wait list entry %u (%p) is not a live event", i,
			(void *)w[i]);
		FAIL_IF(ctx && w[i]->ctx != ctx, CL_INVALID_CONTEXT,
			"wait list entry %u is an event of context %p, the "
			"queue's is %p",
			i, (void *)w[i]->ctx, (void *)ctx);
	}
	return CL_SUCCESS;
}

static cl_int check_queue(cl_command_queue q)
{
	FAIL_IF(!icd_valid_queue(q), CL_INVALID_COMMAND_QUEUE,
		"%p is not a live command queue", (void *)q);
	return CL_SUCCESS;
}

/* ---- markers and barriers ---- */

static cl_int enqueue_marker(cl_command_queue q, cl_uint nw, const cl_event *w,
			     cl_event *ev, cl_command_type type)
{
	icd_lock();
	cl_int rc = check_queue(q);
	if (!rc)
		rc = icd_check_wait(q->ctx, nw, w);
	if (!rc)
		rc = icd_enqueue(q, icd_cmd_new(CMD_MARKER), nw, w, type, false,
				 ev);
	icd_fail_deliver(icd_ctx_of(q), rc);
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
 * it wait for it (the pipeline adds it to their wait lists). */
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

/* ---- waiting and queries ---- */

static cl_int check_events(cl_uint n, const cl_event *w)
{
	FAIL_IF(!n || !w, CL_INVALID_VALUE, "%u events at %p", n, (void *)w);
	for (cl_uint i = 0; i < n; i++) {
		FAIL_IF(!icd_valid_event(w[i]), CL_INVALID_EVENT,
			"entry %u (%p) is not a live event", i, (void *)w[i]);
		FAIL_IF(w[i]->ctx != w[0]->ctx, CL_INVALID_CONTEXT,
			"entry %u is an event of context %p, entry 0 of %p", i,
			(void *)w[i]->ctx, (void *)w[0]->ctx);
	}
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *w)
{
	icd_lock();
	cl_int rc = check_events(n, w);
	icd_fail_deliver(rc && n && w ? icd_ctx_of(w[0]) : NULL, rc);
	for (cl_uint i = 0; i < n && !rc; i++) {
		rc = icd_event_wait(w[i]);
		if (!rc && w[i]->status < 0)
			rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	}
	icd_reap_all();
	icd_unlock();
	return rc;
}

static cl_int event_info(cl_event e, cl_event_info param, size_t size,
			 void *value, size_t *ret)
{
	FAIL_IF(!icd_valid_event(e), CL_INVALID_EVENT, "%p is not a live event",
		(void *)e);
	switch (param) {
	case CL_EVENT_COMMAND_QUEUE:
		return icd_info(&e->queue, sizeof(e->queue), size, value, ret);
	case CL_EVENT_CONTEXT:
		return icd_info(&e->ctx, sizeof(e->ctx), size, value, ret);
	case CL_EVENT_COMMAND_TYPE:
		return icd_info(&e->type, sizeof(e->type), size, value, ret);
	case CL_EVENT_REFERENCE_COUNT:
		return icd_info(&e->refs, sizeof(e->refs), size, value, ret);
	case CL_EVENT_COMMAND_EXECUTION_STATUS: {
		icd_progress();
		cl_int st = icd_event_poll(e);
		return icd_info(&st, sizeof(st), size, value, ret);
	}
	default:
		FAIL(CL_INVALID_VALUE, "no event info 0x%x", (unsigned)param);
	}
}

ICD_EXPORT cl_int CL_API_CALL clGetEventInfo(cl_event e, cl_event_info param,
					     size_t size, void *value,
					     size_t *ret)
{
	icd_lock();
	cl_int rc = event_info(e, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(e), rc);
	icd_unlock();
	return rc;
}

static cl_int profiling_info(cl_event e, cl_profiling_info param, size_t size,
			     void *value, size_t *ret)
{
	FAIL_IF(!icd_valid_event(e), CL_INVALID_EVENT, "%p is not a live event",
		(void *)e);
	FAIL_IF(!e->queue || !(e->queue->props & CL_QUEUE_PROFILING_ENABLE),
		CL_PROFILING_INFO_NOT_AVAILABLE,
		"the event's queue does not profile");
	FAIL_IF(icd_event_poll(e) != CL_COMPLETE,
		CL_PROFILING_INFO_NOT_AVAILABLE,
		"the command is not complete (status %d)", e->status);
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
		FAIL(CL_INVALID_VALUE, "no profiling info 0x%x",
		     (unsigned)param);
	}
	return icd_info(&t, sizeof(t), size, value, ret);
}

ICD_EXPORT cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e,
						      cl_profiling_info param,
						      size_t size, void *value,
						      size_t *ret)
{
	icd_lock();
	cl_int rc = profiling_info(e, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(e), rc);
	icd_unlock();
	return rc;
}

ICD_REFCOUNT_CALL(clRetainEvent, cl_event, MAGIC_EVENT, icd_retain,
		  CL_INVALID_EVENT)

ICD_REFCOUNT_CALL(clReleaseEvent, cl_event, MAGIC_EVENT, icd_release,
		  CL_INVALID_EVENT)

/* ---- user events and callbacks ---- */

ICD_EXPORT cl_event CL_API_CALL clCreateUserEvent(cl_context c, cl_int *errp)
{
	icd_lock();
	cl_event e = NULL;
	cl_int err = CL_INVALID_CONTEXT;
	if (!icd_valid_ctx(c))
		icd_fail(err, "CL_INVALID_CONTEXT", __func__,
			 "%p is not a live context", (void *)c);
	else {
		e = icd_event_new(c, NULL, CL_COMMAND_USER);
		err = e ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
	}
	icd_unlock();
	if (errp)
		*errp = err;
	return e;
}

static cl_int check_user_status(cl_event e, cl_int st)
{
	FAIL_IF(!icd_valid_event(e) || e->queue, CL_INVALID_EVENT,
		"%p is not a live user event", (void *)e);
	FAIL_IF(st > CL_COMPLETE, CL_INVALID_VALUE,
		"status %d is neither CL_COMPLETE nor an error", st);
	FAIL_IF(e->status <= CL_COMPLETE, CL_INVALID_OPERATION,
		"the user event's status was set already (%d)", e->status);
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clSetUserEventStatus(cl_event e, cl_int st)
{
	icd_lock();
	cl_int rc = check_user_status(e, st);
	if (!rc) {
		icd_event_complete(e, st);
		icd_progress();
	}
	icd_fail_deliver(icd_ctx_of(e), rc);
	icd_unlock();
	return rc;
}

static cl_int check_callback(cl_event e, cl_int type, bool fn)
{
	FAIL_IF(!icd_valid_event(e), CL_INVALID_EVENT, "%p is not a live event",
		(void *)e);
	FAIL_IF(!fn, CL_INVALID_VALUE, "no callback function");
	FAIL_IF(type != CL_COMPLETE && type != CL_SUBMITTED &&
			type != CL_RUNNING,
		CL_INVALID_VALUE,
		"callback type %d is not CL_SUBMITTED, CL_RUNNING or "
		"CL_COMPLETE",
		type);
	return CL_SUCCESS;
}

/* Callbacks run on the thread that notices the state: clWaitForEvents,
 * clFinish, clFlush, status queries, enqueues (docs/icd.md). */
ICD_EXPORT cl_int CL_API_CALL
clSetEventCallback(cl_event e, cl_int type,
		   void(CL_CALLBACK *fn)(cl_event, cl_int, void *), void *data)
{
	icd_lock();
	cl_int rc = check_callback(e, type, fn != NULL);
	if (!rc)
		rc = icd_event_callback(e, type, fn, data);
	icd_fail_deliver(icd_ctx_of(e), rc);
	icd_unlock();
	return rc;
}
