// SPDX-License-Identifier: MIT
/* The context and command queue API (queues on the device, their pipeline:
 * core/queue.c). */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

/* The context goes once it is released and no object of it is left
 * (OpenCL 3.0, clReleaseContext). */
static void ctx_destroy(struct icd_object *o)
{
	cl_context c = (cl_context)o;
	icd_svm_release_all(c);
	for (cl_uint i = 0; i < c->num_devs; i++)
		c->devs[i]->contexts--;
}

const struct icd_kind icd_kind_context = {
	.magic = MAGIC_CONTEXT,
	.size = sizeof(struct _cl_context),
	.destroy = ctx_destroy,
};

static cl_int check_props(const cl_context_properties *p, size_t *n)
{
	*n = 0;
	if (!p)
		return CL_SUCCESS;
	bool seen_plat = false, seen_sync = false;
	size_t i = 0;
	for (; p[i]; i += 2) {
		FAIL_IF(i >= 6, CL_INVALID_PROPERTY,
			"more than 3 context properties");
		switch (p[i]) {
		case CL_CONTEXT_PLATFORM:
			FAIL_IF(seen_plat, CL_INVALID_PROPERTY,
				"CL_CONTEXT_PLATFORM given twice");
			seen_plat = true;
			FAIL_IF((cl_platform_id)p[i + 1] != &icd_platform,
				CL_INVALID_PLATFORM,
				"CL_CONTEXT_PLATFORM %p is not hartpool's %p",
				(void *)p[i + 1], (void *)&icd_platform);
			break;
		case CL_CONTEXT_INTEROP_USER_SYNC:
			FAIL_IF(seen_sync, CL_INVALID_PROPERTY,
				"CL_CONTEXT_INTEROP_USER_SYNC given twice");
			seen_sync = true;
			FAIL_IF(p[i + 1] != CL_TRUE && p[i + 1] != CL_FALSE,
				CL_INVALID_PROPERTY,
				"CL_CONTEXT_INTEROP_USER_SYNC %ld is neither "
				"CL_TRUE nor CL_FALSE",
				(long)p[i + 1]);
			break;
		default:
			FAIL(CL_INVALID_PROPERTY,
			     "context property 0x%lx is not one",
			     (unsigned long)p[i]);
		}
	}
	*n = i + 1;
	return CL_SUCCESS;
}

/* A context over @p devs (checked; a device named twice counts once). */
static cl_context ctx_new(const cl_context_properties *props, size_t np,
			  cl_uint n, const cl_device_id *devs,
			  void(CL_CALLBACK *notify)(const char *, const void *,
						    size_t, void *),
			  void *data, cl_int *err)
{
	cl_context c = NULL;
	if (!(c = icd_obj_new(&icd_kind_context)))
		*err = CL_OUT_OF_HOST_MEMORY;
	if (!c)
		return NULL;
	if (np)
		memcpy(c->props, props, np * sizeof(*props));
	c->num_props = np;
	c->notify = notify;
	c->notify_data = data;
	for (cl_uint i = 0; i < n; i++) {
		uint32_t bit = 1u << devs[i]->index;
		if (c->dev_mask & bit)
			continue;
		c->dev_mask |= bit;
		c->devs[c->num_devs++] = devs[i];
		devs[i]->contexts++;
	}
	return c;
}

static cl_int check_context(const cl_context_properties *props, cl_uint n,
			    const cl_device_id *devs, bool notify, void *data,
			    size_t *np)
{
	FAIL_IF(!n || !devs, CL_INVALID_VALUE, "%u devices at %p", n,
		(void *)devs);
	FAIL_IF(!notify && data, CL_INVALID_VALUE,
		"user data %p without a pfn_notify", data);
	cl_int rc = check_props(props, np);
	if (rc)
		return rc;
	FAIL_IF(icd_device_open(), CL_INVALID_DEVICE,
		"no hartpool device opened");
	for (cl_uint i = 0; i < n; i++)
		FAIL_IF(!icd_valid_device(devs[i]), CL_INVALID_DEVICE,
			"device %u (%p) is not a hartpool device", i,
			(void *)devs[i]);
	return CL_SUCCESS;
}

ICD_EXPORT cl_context CL_API_CALL clCreateContext(
	const cl_context_properties *props, cl_uint n, const cl_device_id *devs,
	void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
	void *data, cl_int *errp)
{
	size_t np;
	cl_context c = NULL;
	icd_lock();
	cl_int err = check_context(props, n, devs, notify != NULL, data, &np);
	if (!err)
		c = ctx_new(props, np, n, devs, notify, data, &err);
	icd_unlock();
	if (errp)
		*errp = err;
	return c;
}

ICD_EXPORT cl_context CL_API_CALL clCreateContextFromType(
	const cl_context_properties *props, cl_device_type type,
	void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
	void *data, cl_int *errp)
{
	cl_device_id d[ICD_DEVICES_MAX];
	cl_uint n = 0;
	cl_context c = NULL;
	size_t np;
	cl_int err = CL_SUCCESS;
	if (!notify && data)
		err = icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE", __func__,
			       "user data %p without a pfn_notify", data);
	icd_lock();
	if (!err && !(err = check_props(props, &np)) &&
	    !(err = clGetDeviceIDs(&icd_platform, type, ICD_DEVICES_MAX, d,
				   &n)))
		c = ctx_new(props, np, n, d, notify, data, &err);
	icd_unlock();
	if (errp)
		*errp = err;
	return c;
}

ICD_REFCOUNT_CALL(clRetainContext, cl_context, MAGIC_CONTEXT, icd_retain,
		  CL_INVALID_CONTEXT)

ICD_REFCOUNT_CALL(clReleaseContext, cl_context, MAGIC_CONTEXT, icd_release,
		  CL_INVALID_CONTEXT)

static cl_int context_info(cl_context c, cl_context_info param, size_t size,
			   void *value, size_t *ret)
{
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	switch (param) {
	case CL_CONTEXT_REFERENCE_COUNT:
		return icd_info(&c->refs, sizeof(cl_uint), size, value, ret);
	case CL_CONTEXT_NUM_DEVICES:
		return icd_info(&c->num_devs, sizeof(c->num_devs), size, value,
				ret);
	case CL_CONTEXT_DEVICES:
		return icd_info(c->devs, c->num_devs * sizeof(c->devs[0]), size,
				value, ret);
	case CL_CONTEXT_PROPERTIES:
		return icd_info(c->props, c->num_props * sizeof(c->props[0]),
				size, value, ret);
	default:
		FAIL(CL_INVALID_VALUE, "no context info 0x%x", (unsigned)param);
	}
}

ICD_EXPORT cl_int CL_API_CALL clGetContextInfo(cl_context c,
					       cl_context_info param,
					       size_t size, void *value,
					       size_t *ret)
{
	icd_lock();
	cl_int rc = context_info(c, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(c), rc);
	icd_unlock();
	return rc;
}

static cl_int check_destructor(const void *o, uint32_t magic, bool fn)
{
	FAIL_IF(!icd_obj_valid(o, magic),
		magic == MAGIC_CONTEXT ? CL_INVALID_CONTEXT
				       : CL_INVALID_MEM_OBJECT,
		"%p is not a live %s", o,
		magic == MAGIC_CONTEXT ? "context" : "buffer");
	FAIL_IF(!fn, CL_INVALID_VALUE, "no callback function");
	return CL_SUCCESS;
}

/* clSetContextDestructorCallback, clSetMemObjectDestructorCallback */
cl_int icd_set_destructor(void *o, uint32_t magic,
			  void(CL_CALLBACK *fn)(void *, void *), void *data)
{
	icd_lock();
	cl_int rc = check_destructor(o, magic, fn != NULL);
	if (!rc)
		rc = icd_destructor_push(o, fn, data);
	icd_fail_deliver(icd_ctx_of(o), rc);
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clSetContextDestructorCallback(
	cl_context c, void(CL_CALLBACK *fn)(cl_context, void *), void *data)
{
	return icd_set_destructor(
		c, MAGIC_CONTEXT,
		(void(CL_CALLBACK *)(void *, void *))(void *)fn, data);
}

cl_int icd_devs_in(uint32_t of, const char *what, cl_uint n,
		   const cl_device_id *devs, uint32_t *mask)
{
	uint32_t m = 0;
	for (cl_uint i = 0; i < n; i++) {
		FAIL_IF(!icd_valid_device(devs[i]) ||
				!(of & (1u << devs[i]->index)),
			CL_INVALID_DEVICE,
			"device %u (%p) is not one of the %s", i,
			(void *)devs[i], what);
		m |= 1u << devs[i]->index;
	}
	if (mask)
		*mask = m;
	return CL_SUCCESS;
}

/* ---- command queues ---- */

static cl_int check_queue_new(cl_context c, cl_device_id d,
			      cl_command_queue_properties props)
{
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	cl_int rc = icd_devs_in(c->dev_mask, "context's", 1, &d, NULL);
	if (rc)
		return rc;
	const cl_command_queue_properties known =
		CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
		CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
		CL_QUEUE_ON_DEVICE_DEFAULT;
	FAIL_IF(props & ~known, CL_INVALID_VALUE,
		"queue properties 0x%llx has unknown bits 0x%llx",
		(unsigned long long)props,
		(unsigned long long)(props & ~known));
	FAIL_IF(props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT),
		CL_INVALID_QUEUE_PROPERTIES,
		"device-side queues are not supported (properties 0x%llx)",
		(unsigned long long)props);
	return CL_SUCCESS;
}

static cl_command_queue queue_new(cl_context c, cl_device_id d,
				  cl_command_queue_properties props,
				  const cl_queue_properties *qp, size_t nqp,
				  cl_int *err)
{
	cl_command_queue q = NULL;
	icd_lock();
	*err = check_queue_new(c, d, props);
	if (!*err)
		*err = icd_queue_new(c, d, props, qp, nqp, &q);
	icd_fail_deliver(icd_ctx_of(c), *err);
	icd_unlock();
	return q;
}

ICD_EXPORT cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context c, cl_device_id d,
		     cl_command_queue_properties props, cl_int *errp)
{
	cl_int err;
	cl_command_queue q = queue_new(c, d, props, NULL, 0, &err);
	if (errp)
		*errp = err;
	return q;
}

static cl_int queue_props(const cl_queue_properties *p,
			  cl_command_queue_properties *props, size_t *n)
{
	size_t i = 0;
	*props = 0;
	*n = 0;
	if (!p)
		return CL_SUCCESS;
	for (; p[i]; i += 2) {
		FAIL_IF(i >= 6, CL_INVALID_VALUE,
			"more than 3 queue properties");
		FAIL_IF(p[i] == CL_QUEUE_SIZE, CL_INVALID_QUEUE_PROPERTIES,
			"CL_QUEUE_SIZE is for device-side queues");
		FAIL_IF(p[i] != CL_QUEUE_PROPERTIES, CL_INVALID_VALUE,
			"queue property 0x%llx is not one",
			(unsigned long long)p[i]);
		*props = p[i + 1];
	}
	*n = i + 1;
	return CL_SUCCESS;
}

ICD_EXPORT cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context c, cl_device_id d,
				   const cl_queue_properties *p, cl_int *errp)
{
	cl_command_queue_properties props;
	size_t n;
	cl_command_queue q = NULL;
	icd_lock();
	cl_int err = queue_props(p, &props, &n);
	icd_fail_deliver(icd_ctx_of(c), err);
	icd_unlock();
	if (!err)
		q = queue_new(c, d, props, p, n, &err);
	if (errp)
		*errp = err;
	return q;
}

ICD_REFCOUNT_CALL(clRetainCommandQueue, cl_command_queue, MAGIC_QUEUE,
		  icd_retain, CL_INVALID_COMMAND_QUEUE)

ICD_REFCOUNT_CALL(clReleaseCommandQueue, cl_command_queue, MAGIC_QUEUE,
		  icd_release, CL_INVALID_COMMAND_QUEUE)

static cl_int queue_info(cl_command_queue q, cl_command_queue_info param,
			 size_t size, void *value, size_t *ret)
{
	FAIL_IF(!icd_valid_queue(q), CL_INVALID_COMMAND_QUEUE,
		"%p is not a live command queue", (void *)q);
	cl_command_queue none = NULL;
	switch (param) {
	case CL_QUEUE_CONTEXT:
		return icd_info(&q->ctx, sizeof(q->ctx), size, value, ret);
	case CL_QUEUE_DEVICE:
		return icd_info(&q->dev, sizeof(q->dev), size, value, ret);
	case CL_QUEUE_REFERENCE_COUNT:
		return icd_info(&q->refs, sizeof(q->refs), size, value, ret);
	case CL_QUEUE_PROPERTIES:
		return icd_info(&q->props, sizeof(q->props), size, value, ret);
	case CL_QUEUE_PROPERTIES_ARRAY:
		return icd_info(q->qprops, q->num_qprops * sizeof(q->qprops[0]),
				size, value, ret);
	case CL_QUEUE_SIZE:
		FAIL(CL_INVALID_COMMAND_QUEUE,
		     "CL_QUEUE_SIZE: not a device-side queue");
	case CL_QUEUE_DEVICE_DEFAULT:
		return icd_info(&none, sizeof(none), size, value, ret);
	default:
		FAIL(CL_INVALID_VALUE, "no queue info 0x%x", (unsigned)param);
	}
}

ICD_EXPORT cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q,
						    cl_command_queue_info param,
						    size_t size, void *value,
						    size_t *ret)
{
	icd_lock();
	cl_int rc = queue_info(q, param, size, value, ret);
	icd_fail_deliver(icd_ctx_of(q), rc);
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

static cl_int check_queue(cl_command_queue q)
{
	FAIL_IF(!icd_valid_queue(q), CL_INVALID_COMMAND_QUEUE,
		"%p is not a live command queue", (void *)q);
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clFlush(cl_command_queue q)
{
	icd_lock();
	cl_int rc = check_queue(q);
	if (!rc) {
		icd_progress();
		icd_queue_reap(q);
	}
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clFinish(cl_command_queue q)
{
	icd_lock();
	cl_int rc = check_queue(q);
	if (!rc)
		rc = icd_queue_finish(q);
	icd_unlock();
	return rc;
}
