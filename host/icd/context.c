// SPDX-License-Identifier: MIT
/* Contexts and command queues. */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

cl_command_queue *icd_queues;
size_t icd_num_queues;
static size_t cap_queues;

bool icd_valid_ctx(cl_context c)
{
	return icd_obj_valid(c, MAGIC_CONTEXT);
}
bool icd_valid_queue(cl_command_queue q)
{
	return icd_obj_valid(q, MAGIC_QUEUE);
}

/* The context goes once it is released and no object of it is left
 * (OpenCL 3.0, clReleaseContext). */
static void ctx_destroy(cl_context c)
{
	icd_destructors_run(c->destructors, c);
	icd_device.contexts--;
	icd_obj_free(c, sizeof(*c));
}

void icd_ctx_retain(cl_context c)
{
	c->refs++;
}

void icd_ctx_release(cl_context c)
{
	if (icd_obj_unref(c))
		ctx_destroy(c);
}

void icd_ctx_hold(cl_context c)
{
	c->holds++;
}

void icd_ctx_drop(cl_context c)
{
	if (icd_obj_unhold(c))
		ctx_destroy(c);
}

static cl_int check_props(const cl_context_properties *p, size_t *n)
{
	*n = 0;
	if (!p)
		return CL_SUCCESS;
	bool seen_plat = false, seen_sync = false;
	size_t i = 0;
	for (; p[i]; i += 2) {
		if (i >= 6)
			return CL_INVALID_PROPERTY;
		switch (p[i]) {
		case CL_CONTEXT_PLATFORM:
			if (seen_plat)
				return CL_INVALID_PROPERTY;
			seen_plat = true;
			if ((cl_platform_id)p[i + 1] != &icd_platform)
				return CL_INVALID_PLATFORM;
			break;
		case CL_CONTEXT_INTEROP_USER_SYNC:
			if (seen_sync)
				return CL_INVALID_PROPERTY;
			seen_sync = true;
			break;
		default:
			return CL_INVALID_PROPERTY;
		}
	}
	*n = i + 1;
	return CL_SUCCESS;
}

static cl_context ctx_new(const cl_context_properties *props, size_t np,
			  void(CL_CALLBACK *notify)(const char *, const void *,
						    size_t, void *),
			  void *data, cl_int *err)
{
	cl_int rc = icd_device_open();
	if (rc) {
		*err = rc;
		return NULL;
	}
	cl_context c = icd_obj_new(MAGIC_CONTEXT, sizeof(*c));
	if (!c) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	if (np)
		memcpy(c->props, props, np * sizeof(*props));
	c->num_props = np;
	c->notify = notify;
	c->notify_data = data;
	icd_device.contexts++;
	*err = CL_SUCCESS;
	return c;
}

ICD_EXPORT cl_context CL_API_CALL clCreateContext(
	const cl_context_properties *props, cl_uint n, const cl_device_id *devs,
	void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
	void *data, cl_int *errp)
{
	cl_int err;
	cl_context c = NULL;
	size_t np;
	if (!n || !devs || (!notify && data))
		err = CL_INVALID_VALUE;
	else if ((err = check_props(props, &np)) == CL_SUCCESS) {
		for (cl_uint i = 0; i < n; i++)
			if (!icd_valid_device(devs[i]))
				err = CL_INVALID_DEVICE;
		if (!err) {
			icd_lock();
			c = ctx_new(props, np, notify, data, &err);
			icd_unlock();
		}
	}
	if (errp)
		*errp = err;
	return c;
}

ICD_EXPORT cl_context CL_API_CALL clCreateContextFromType(
	const cl_context_properties *props, cl_device_type type,
	void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
	void *data, cl_int *errp)
{
	cl_device_id d;
	cl_int err;
	cl_context c = NULL;
	size_t np;
	if (!notify && data)
		err = CL_INVALID_VALUE;
	else if ((err = check_props(props, &np)) == CL_SUCCESS &&
		 (err = clGetDeviceIDs(&icd_platform, type, 1, &d, NULL)) ==
			 CL_SUCCESS) {
		icd_lock();
		c = ctx_new(props, np, notify, data, &err);
		icd_unlock();
	}
	if (errp)
		*errp = err;
	return c;
}

ICD_REFCOUNT_CALL(clRetainContext, cl_context, icd_valid_ctx, icd_ctx_retain,
		  CL_INVALID_CONTEXT)

ICD_REFCOUNT_CALL(clReleaseContext, cl_context, icd_valid_ctx, icd_ctx_release,
		  CL_INVALID_CONTEXT)

ICD_EXPORT cl_int CL_API_CALL clGetContextInfo(cl_context c,
					       cl_context_info param,
					       size_t size, void *value,
					       size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_CONTEXT;
	if (!icd_valid_ctx(c))
		goto out;
	cl_device_id d = &icd_device;
	switch (param) {
	case CL_CONTEXT_REFERENCE_COUNT:
		rc = icd_info(&c->refs, sizeof(cl_uint), size, value, ret);
		break;
	case CL_CONTEXT_NUM_DEVICES: {
		cl_uint one = 1;
		rc = icd_info(&one, sizeof(one), size, value, ret);
		break;
	}
	case CL_CONTEXT_DEVICES:
		rc = icd_info(&d, sizeof(d), size, value, ret);
		break;
	case CL_CONTEXT_PROPERTIES:
		rc = icd_info(c->props, c->num_props * sizeof(c->props[0]),
			      size, value, ret);
		break;
	default:
		rc = CL_INVALID_VALUE;
	}
out:
	icd_unlock();
	return rc;
}

cl_int icd_destructor_push(struct icd_destructor **list,
			   void(CL_CALLBACK *fn)(void *, void *), void *data)
{
	struct icd_destructor *d;
	if (!fn)
		return CL_INVALID_VALUE;
	if (!(d = calloc(1, sizeof(*d))))
		return CL_OUT_OF_HOST_MEMORY;
	d->fn = fn;
	d->data = data;
	d->next = *list;
	*list = d;
	return CL_SUCCESS;
}

void icd_destructors_run(struct icd_destructor *d, void *obj)
{
	for (struct icd_destructor *nx; d; d = nx) {
		nx = d->next;
		d->fn(obj, d->data);
		free(d);
	}
}

ICD_EXPORT cl_int CL_API_CALL clSetContextDestructorCallback(
	cl_context c, void(CL_CALLBACK *fn)(cl_context, void *), void *data)
{
	icd_lock();
	cl_int rc = CL_INVALID_CONTEXT;
	if (icd_valid_ctx(c)) {
		rc = icd_destructor_push(
			&c->destructors,
			(void(CL_CALLBACK *)(void *, void *))(void *)fn, data);
	}
	icd_unlock();
	return rc;
}

/* ---- command queues ---- */

static cl_command_queue queue_new(cl_context c, cl_device_id d,
				  cl_command_queue_properties props,
				  const cl_queue_properties *qp, size_t nqp,
				  cl_int *err)
{
	if (!icd_valid_ctx(c)) {
		*err = CL_INVALID_CONTEXT;
		return NULL;
	}
	if (!icd_valid_device(d)) {
		*err = CL_INVALID_DEVICE;
		return NULL;
	}
	if (props &
	    ~(cl_command_queue_properties)(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
					   CL_QUEUE_PROFILING_ENABLE |
					   CL_QUEUE_ON_DEVICE |
					   CL_QUEUE_ON_DEVICE_DEFAULT)) {
		*err = CL_INVALID_VALUE;
		return NULL;
	}
	if (props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) {
		*err = CL_INVALID_QUEUE_PROPERTIES;
		return NULL;
	}
	cl_command_queue q = icd_obj_new(MAGIC_QUEUE, sizeof(*q));
	if (!q) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	q->in_order = !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	int rc = hp_queue_create(icd_device.hp,
				 q->in_order ? HP_QUEUE_IN_ORDER : 0, &q->hq);
	if (rc) {
		icd_obj_free(q, sizeof(*q));
		*err = CL_OUT_OF_RESOURCES;
		return NULL;
	}
	hp_queue_set_timeout(q->hq, icd_device.timeout_us);
	if (icd_num_queues == cap_queues) {
		size_t nc = cap_queues ? cap_queues * 2 : 16;
		cl_command_queue *nq = realloc(icd_queues, nc * sizeof(*nq));
		if (!nq) {
			hp_queue_release(q->hq);
			icd_obj_free(q, sizeof(*q));
			*err = CL_OUT_OF_HOST_MEMORY;
			return NULL;
		}
		icd_queues = nq;
		cap_queues = nc;
	}
	icd_queues[icd_num_queues++] = q;
	q->ctx = c;
	q->props = props;
	if (nqp)
		memcpy(q->qprops, qp, nqp * sizeof(*qp));
	q->num_qprops = nqp;
	icd_ctx_hold(c);
	*err = CL_SUCCESS;
	return q;
}

ICD_EXPORT cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context c, cl_device_id d,
		     cl_command_queue_properties props, cl_int *errp)
{
	cl_int err;
	icd_lock();
	cl_command_queue q = queue_new(c, d, props, NULL, 0, &err);
	icd_unlock();
	if (errp)
		*errp = err;
	return q;
}

ICD_EXPORT cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context c, cl_device_id d,
				   const cl_queue_properties *p, cl_int *errp)
{
	cl_int err = CL_SUCCESS;
	cl_command_queue q = NULL;
	cl_command_queue_properties props = 0;
	size_t i = 0;
	if (p) {
		for (; p[i]; i += 2) {
			if (i >= 6) {
				err = CL_INVALID_VALUE;
				break;
			}
			if (p[i] == CL_QUEUE_PROPERTIES)
				props = p[i + 1];
			else if (p[i] == CL_QUEUE_SIZE)
				err = CL_INVALID_QUEUE_PROPERTIES;
			else
				err = CL_INVALID_VALUE;
		}
		i++;
	}
	if (!err) {
		icd_lock();
		q = queue_new(c, d, props, p, p ? i : 0, &err);
		icd_unlock();
	}
	if (errp)
		*errp = err;
	return q;
}

static void queue_destroy(cl_command_queue q)
{
	cl_context c = q->ctx;
	icd_obj_free(q, sizeof(*q));
	icd_ctx_drop(c);
}

void icd_queue_hold(cl_command_queue q)
{
	q->holds++;
}

void icd_queue_drop(cl_command_queue q)
{
	if (icd_obj_unhold(q))
		queue_destroy(q);
}

static void queue_retain(cl_command_queue q)
{
	q->refs++;
}

/* The application's last reference: finish its commands, give the device
 * queue back; the object goes with the last of its events. */
static void queue_release(cl_command_queue q)
{
	if (q->refs > 1) {
		q->refs--;
		return;
	}
	icd_queue_hold(q); /* while it drops its own events */
	icd_queue_finish(q);
	for (size_t i = 0; i < q->num_printf_free; i++)
		hp_buffer_free(icd_device.hp, q->printf_free[i]);
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
	icd_obj_unref(q); /* no longer a valid handle */
	if (q->last)
		icd_event_drop(q->last);
	if (q->barrier_ev)
		icd_event_drop(q->barrier_ev);
	q->last = q->barrier_ev = NULL;
	icd_queue_drop(q);
}

ICD_REFCOUNT_CALL(clRetainCommandQueue, cl_command_queue, icd_valid_queue,
		  queue_retain, CL_INVALID_COMMAND_QUEUE)

ICD_REFCOUNT_CALL(clReleaseCommandQueue, cl_command_queue, icd_valid_queue,
		  queue_release, CL_INVALID_COMMAND_QUEUE)

ICD_EXPORT cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q,
						    cl_command_queue_info param,
						    size_t size, void *value,
						    size_t *ret)
{
	icd_lock();
	cl_int rc = CL_INVALID_COMMAND_QUEUE;
	if (!icd_valid_queue(q))
		goto out;
	cl_device_id d = &icd_device;
	switch (param) {
	case CL_QUEUE_CONTEXT:
		rc = icd_info(&q->ctx, sizeof(q->ctx), size, value, ret);
		break;
	case CL_QUEUE_DEVICE:
		rc = icd_info(&d, sizeof(d), size, value, ret);
		break;
	case CL_QUEUE_REFERENCE_COUNT:
		rc = icd_info(&q->refs, sizeof(q->refs), size, value, ret);
		break;
	case CL_QUEUE_PROPERTIES:
		rc = icd_info(&q->props, sizeof(q->props), size, value, ret);
		break;
	case CL_QUEUE_PROPERTIES_ARRAY:
		rc = icd_info(q->qprops, q->num_qprops * sizeof(q->qprops[0]),
			      size, value, ret);
		break;
	case CL_QUEUE_SIZE:
		rc = CL_INVALID_COMMAND_QUEUE; /* not a device queue */
		break;
	case CL_QUEUE_DEVICE_DEFAULT: {
		cl_command_queue none = NULL;
		rc = icd_info(&none, sizeof(none), size, value, ret);
		break;
	}
	default:
		rc = CL_INVALID_VALUE;
	}
out:
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue q, cl_command_queue_properties p,
			  cl_bool enable, cl_command_queue_properties *old)
{
	(void)p, (void)enable, (void)old;
	return icd_check(q, MAGIC_QUEUE, CL_INVALID_OPERATION,
			 CL_INVALID_COMMAND_QUEUE);
}

ICD_EXPORT cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context c,
							     cl_device_id d,
							     cl_command_queue q)
{
	(void)d, (void)q;
	return icd_check(c, MAGIC_CONTEXT, CL_INVALID_OPERATION,
			 CL_INVALID_CONTEXT);
}

ICD_EXPORT cl_int CL_API_CALL clFlush(cl_command_queue q)
{
	icd_lock();
	cl_int rc = CL_INVALID_COMMAND_QUEUE;
	if (icd_valid_queue(q)) {
		icd_progress();
		icd_queue_reap(q);
		rc = CL_SUCCESS;
	}
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clFinish(cl_command_queue q)
{
	icd_lock();
	cl_int rc = CL_INVALID_COMMAND_QUEUE;
	if (icd_valid_queue(q))
		rc = icd_queue_finish(q);
	icd_unlock();
	return rc;
}
