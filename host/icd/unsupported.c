// SPDX-License-Identifier: MIT
/* The optional features the device does not have: images, samplers,
 * pipes. Each entry point checks its handle and fails with the error a
 * device without the feature gives. */
#include "icd.h"

#define UNUSED(x) (void)(x)

static void *fail_null(cl_int *errp, cl_int err)
{
	if (errp)
		*errp = err;
	return NULL;
}

static cl_int ctx_err(cl_context c, cl_int err)
{
	return icd_check(c, MAGIC_CONTEXT, err, CL_INVALID_CONTEXT);
}

static cl_int queue_err(cl_command_queue q, cl_int err)
{
	return icd_check(q, MAGIC_QUEUE, err, CL_INVALID_COMMAND_QUEUE);
}

/* ---- images (CL_DEVICE_IMAGE_SUPPORT is false) ---- */

ICD_EXPORT cl_mem CL_API_CALL clCreateImage(cl_context c, cl_mem_flags f,
					    const cl_image_format *fmt,
					    const cl_image_desc *desc,
					    void *host, cl_int *errp)
{
	UNUSED(f), UNUSED(fmt), UNUSED(desc), UNUSED(host);
	return fail_null(errp, ctx_err(c, CL_INVALID_OPERATION));
}

ICD_EXPORT cl_mem CL_API_CALL
clCreateImageWithProperties(cl_context c, const cl_mem_properties *p,
			    cl_mem_flags f, const cl_image_format *fmt,
			    const cl_image_desc *desc, void *host, cl_int *errp)
{
	UNUSED(p);
	return clCreateImage(c, f, fmt, desc, host, errp);
}

ICD_EXPORT cl_mem CL_API_CALL clCreateImage2D(cl_context c, cl_mem_flags f,
					      const cl_image_format *fmt,
					      size_t w, size_t h, size_t rp,
					      void *host, cl_int *errp)
{
	UNUSED(f), UNUSED(fmt), UNUSED(w), UNUSED(h), UNUSED(rp);
	UNUSED(host);
	return fail_null(errp, ctx_err(c, CL_INVALID_OPERATION));
}

ICD_EXPORT cl_mem CL_API_CALL clCreateImage3D(cl_context c, cl_mem_flags f,
					      const cl_image_format *fmt,
					      size_t w, size_t h, size_t d,
					      size_t rp, size_t sp, void *host,
					      cl_int *errp)
{
	UNUSED(f), UNUSED(fmt), UNUSED(w), UNUSED(h), UNUSED(d), UNUSED(rp);
	UNUSED(sp), UNUSED(host);
	return fail_null(errp, ctx_err(c, CL_INVALID_OPERATION));
}

/* No formats: an empty list (a device without images answers so). */
ICD_EXPORT cl_int CL_API_CALL
clGetSupportedImageFormats(cl_context c, cl_mem_flags f, cl_mem_object_type t,
			   cl_uint n, cl_image_format *fmts, cl_uint *num)
{
	UNUSED(f), UNUSED(t), UNUSED(fmts);
	cl_int rc = ctx_err(c, CL_SUCCESS);
	if (!rc && !n && fmts)
		rc = CL_INVALID_VALUE;
	if (!rc && num)
		*num = 0;
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info p,
					     size_t s, void *v, size_t *r)
{
	UNUSED(m), UNUSED(p), UNUSED(s), UNUSED(v), UNUSED(r);
	return CL_INVALID_MEM_OBJECT; /* no image exists */
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem m,
						 cl_bool b, const size_t *o,
						 const size_t *r, size_t rp,
						 size_t sp, void *p, cl_uint nw,
						 const cl_event *w, cl_event *e)
{
	UNUSED(m), UNUSED(b), UNUSED(o), UNUSED(r), UNUSED(rp), UNUSED(sp);
	UNUSED(p), UNUSED(nw), UNUSED(w), UNUSED(e);
	return queue_err(q, CL_INVALID_MEM_OBJECT);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem m,
						  cl_bool b, const size_t *o,
						  const size_t *r, size_t rp,
						  size_t sp, const void *p,
						  cl_uint nw, const cl_event *w,
						  cl_event *e)
{
	UNUSED(m), UNUSED(b), UNUSED(o), UNUSED(r), UNUSED(rp), UNUSED(sp);
	UNUSED(p), UNUSED(nw), UNUSED(w), UNUSED(e);
	return queue_err(q, CL_INVALID_MEM_OBJECT);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem s,
						 cl_mem d, const size_t *so,
						 const size_t *dof,
						 const size_t *r, cl_uint nw,
						 const cl_event *w, cl_event *e)
{
	UNUSED(s), UNUSED(d), UNUSED(so), UNUSED(dof), UNUSED(r);
	UNUSED(nw), UNUSED(w), UNUSED(e);
	return queue_err(q, CL_INVALID_MEM_OBJECT);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem m,
						 const void *c, const size_t *o,
						 const size_t *r, cl_uint nw,
						 const cl_event *w, cl_event *e)
{
	UNUSED(m), UNUSED(c), UNUSED(o), UNUSED(r), UNUSED(nw), UNUSED(w);
	UNUSED(e);
	return queue_err(q, CL_INVALID_MEM_OBJECT);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
	cl_command_queue q, cl_mem s, cl_mem d, const size_t *so,
	const size_t *r, size_t dof, cl_uint nw, const cl_event *w, cl_event *e)
{
	UNUSED(s), UNUSED(d), UNUSED(so), UNUSED(r), UNUSED(dof);
	UNUSED(nw), UNUSED(w), UNUSED(e);
	return queue_err(q, CL_INVALID_MEM_OBJECT);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueCopyBufferToImage(
	cl_command_queue q, cl_mem s, cl_mem d, size_t so, const size_t *dof,
	const size_t *r, cl_uint nw, const cl_event *w, cl_event *e)
{
	UNUSED(s), UNUSED(d), UNUSED(so), UNUSED(r), UNUSED(dof);
	UNUSED(nw), UNUSED(w), UNUSED(e);
	return queue_err(q, CL_INVALID_MEM_OBJECT);
}

ICD_EXPORT void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem m,
					       cl_bool b, cl_map_flags f,
					       const size_t *o, const size_t *r,
					       size_t *rp, size_t *sp,
					       cl_uint nw, const cl_event *w,
					       cl_event *e, cl_int *errp)
{
	UNUSED(m), UNUSED(b), UNUSED(f), UNUSED(o), UNUSED(r), UNUSED(rp);
	UNUSED(sp), UNUSED(nw), UNUSED(w), UNUSED(e);
	return fail_null(errp, queue_err(q, CL_INVALID_MEM_OBJECT));
}

/* ---- samplers (no images: CL_DEVICE_IMAGE_SUPPORT false) ---- */

ICD_EXPORT cl_sampler CL_API_CALL clCreateSampler(cl_context c, cl_bool n,
						  cl_addressing_mode a,
						  cl_filter_mode f,
						  cl_int *errp)
{
	UNUSED(n), UNUSED(a), UNUSED(f);
	return fail_null(errp, ctx_err(c, CL_INVALID_OPERATION));
}

ICD_EXPORT cl_sampler CL_API_CALL clCreateSamplerWithProperties(
	cl_context c, const cl_sampler_properties *p, cl_int *errp)
{
	UNUSED(p);
	return fail_null(errp, ctx_err(c, CL_INVALID_OPERATION));
}

ICD_EXPORT cl_int CL_API_CALL clRetainSampler(cl_sampler s)
{
	UNUSED(s);
	return CL_INVALID_SAMPLER;
}

ICD_EXPORT cl_int CL_API_CALL clReleaseSampler(cl_sampler s)
{
	UNUSED(s);
	return CL_INVALID_SAMPLER;
}

ICD_EXPORT cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info p,
					       size_t n, void *v, size_t *r)
{
	UNUSED(s), UNUSED(p), UNUSED(n), UNUSED(v), UNUSED(r);
	return CL_INVALID_SAMPLER;
}

/* ---- pipes ---- */

ICD_EXPORT cl_mem CL_API_CALL clCreatePipe(cl_context c, cl_mem_flags f,
					   cl_uint ps, cl_uint mp,
					   const cl_pipe_properties *p,
					   cl_int *errp)
{
	UNUSED(f), UNUSED(ps), UNUSED(mp), UNUSED(p);
	return fail_null(errp, ctx_err(c, CL_INVALID_OPERATION));
}

ICD_EXPORT cl_int CL_API_CALL clGetPipeInfo(cl_mem m, cl_pipe_info p, size_t s,
					    void *v, size_t *r)
{
	UNUSED(p), UNUSED(s), UNUSED(v), UNUSED(r);
	(void)m; /* no pipes: no handle is one */
	return CL_INVALID_MEM_OBJECT;
}
