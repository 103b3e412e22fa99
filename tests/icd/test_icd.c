// SPDX-License-Identifier: MIT
/*
 * The ICD's OpenCL entry points without a device (docs/icd.md, "Unit tests
 * without a device"): the sources of host/icd/ linked with
 * tests/icd/fake_hartpool.c. Argument checks and error codes, reference counts
 * and the order objects go in, callbacks, event states, the NDRange rules. Each
 * function sets up what it needs; the device is opened once (the ICD keeps it
 * for the process).
 */
#include "fake_hartpool.h"
#include "icd.h"
#include "icd_test.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

static cl_platform_id plat;
static cl_device_id dev;

static cl_context ctx_new(void)
{
	cl_int err = 1;
	cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	return c;
}

static cl_command_queue queue_new(cl_context c)
{
	cl_int err = 1;
	cl_command_queue q =
		clCreateCommandQueueWithProperties(c, dev, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	return q;
}

static cl_uint
refcount(void *h, cl_int (*get)(void *, cl_uint, size_t, void *, size_t *),
	 cl_uint param)
{
	cl_uint n = 0xdead;
	CHECK_EQ(get(h, param, sizeof(n), &n, NULL), CL_SUCCESS);
	return n;
}
#define REFS(fn, h, param)                                                     \
	refcount((void *)(h),                                                  \
		 (cl_int(*)(void *, cl_uint, size_t, void *, size_t *))fn,     \
		 param)
#define CTX_REFS(c) REFS(clGetContextInfo, c, CL_CONTEXT_REFERENCE_COUNT)
#define MEM_REFS(m) REFS(clGetMemObjectInfo, m, CL_MEM_REFERENCE_COUNT)
#define Q_REFS(q) REFS(clGetCommandQueueInfo, q, CL_QUEUE_REFERENCE_COUNT)
#define EV_REFS(e) REFS(clGetEventInfo, e, CL_EVENT_REFERENCE_COUNT)
#define PROG_REFS(p) REFS(clGetProgramInfo, p, CL_PROGRAM_REFERENCE_COUNT)
#define K_REFS(k) REFS(clGetKernelInfo, k, CL_KERNEL_REFERENCE_COUNT)

static cl_int ev_status(cl_event e)
{
	cl_int st = 12345;
	CHECK_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS,
				sizeof(st), &st, NULL),
		 CL_SUCCESS);
	return st;
}

/* ---- platform and device ---- */

static void test_platform(void)
{
	cl_uint n = 0;
	CHECK_EQ(clGetPlatformIDs(0, NULL, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetPlatformIDs(0, &plat, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetPlatformIDs(0, NULL, &n), CL_SUCCESS);
	CHECK_EQ(n, 1);
	CHECK_EQ(clGetPlatformIDs(1, &plat, NULL), CL_SUCCESS);
	CHECK(plat != NULL);
	CHECK_EQ(fake_hp_stats().opens, 0); /* no boot for platform IDs */

	char name[64];
	size_t len = 0;
	CHECK_EQ(clGetPlatformInfo(plat, CL_PLATFORM_NAME, 0, NULL, &len),
		 CL_SUCCESS);
	CHECK(len > 1 && len <= sizeof(name));
	CHECK_EQ(clGetPlatformInfo(plat, CL_PLATFORM_NAME, len - 1, name, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetPlatformInfo(plat, CL_PLATFORM_NAME, len, name, NULL),
		 CL_SUCCESS);
	CHECK_EQ(strlen(name) + 1, len);
	CHECK_EQ(clGetPlatformInfo(plat, 0x7fff, sizeof(name), name, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetPlatformInfo((cl_platform_id)&n, CL_PLATFORM_NAME,
				   sizeof(name), name, NULL),
		 CL_INVALID_PLATFORM);

	CHECK_EQ(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 0, &dev, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceIDs(plat, 1u << 20, 1, &dev, NULL),
		 CL_INVALID_DEVICE_TYPE);
	CHECK_EQ(clGetDeviceIDs((cl_platform_id)&n, CL_DEVICE_TYPE_ALL, 1, &dev,
				NULL),
		 CL_INVALID_PLATFORM);
	CHECK_EQ(clGetDeviceIDs(plat, CL_DEVICE_TYPE_GPU, 1, &dev, &n),
		 CL_DEVICE_NOT_FOUND);
	CHECK_EQ(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, &n),
		 CL_SUCCESS);
	CHECK_EQ(n, 1);
	CHECK_EQ(fake_hp_stats().opens, 1);
	CHECK_EQ(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ACCELERATOR, 1, &dev, &n),
		 CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().opens, 1); /* opened once */

	/* what the device reports comes from the fake's hp_device_info */
	cl_uint u = 0;
	size_t s3[3] = {0, 0, 0}, sz = 0;
	cl_ulong ul = 0;
	CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(u),
				 &u, NULL),
		 CL_SUCCESS);
	CHECK_EQ(u, 8);
	CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(sz),
				 &sz, NULL),
		 CL_SUCCESS);
	CHECK_EQ(sz, 256);
	CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(s3),
				 s3, NULL),
		 CL_SUCCESS);
	CHECK_EQ(s3[2], 64);
	CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES,
				 sizeof(s3) - 1, s3, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, 2, &u, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_ADDRESS_BITS, sizeof(u), &u,
				 NULL),
		 CL_SUCCESS);
	CHECK_EQ(u, 64);
	CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(ul),
				 &ul, NULL),
		 CL_SUCCESS);
	CHECK_EQ(ul, icd_max_alloc(&icd_devices[0]));
	CHECK_EQ(ul, (64u << 20) - ICD_HEAP_RESERVE); /* the fake's heap */
	CHECK_EQ(clGetDeviceInfo(dev, 0x7fff, sizeof(u), &u, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceInfo((cl_device_id)plat, CL_DEVICE_ADDRESS_BITS,
				 sizeof(u), &u, NULL),
		 CL_INVALID_DEVICE);
	char builtins[256];
	CHECK_EQ(clGetDeviceInfo(dev, CL_DEVICE_BUILT_IN_KERNELS,
				 sizeof(builtins), builtins, NULL),
		 CL_SUCCESS);
	CHECK(strstr(builtins, "fake_noop") != NULL);
	CHECK(strstr(builtins, "fake_reqd8") != NULL);
	/* a root device: retain and release do nothing and succeed */
	CHECK_EQ(clRetainDevice(dev), CL_SUCCESS);
	CHECK_EQ(clReleaseDevice(dev), CL_SUCCESS);
	CHECK_EQ(clRetainDevice((cl_device_id)&u), CL_INVALID_DEVICE);
}

/* ---- contexts ---- */

static unsigned ctx_dtor_calls;
static cl_context ctx_dtor_ctx;
static void CL_CALLBACK ctx_dtor(cl_context c, void *data)
{
	ctx_dtor_calls++;
	ctx_dtor_ctx = c;
	*(unsigned *)data = ctx_dtor_calls * 10 + *(unsigned *)data;
}

static void test_context(void)
{
	cl_int err = 0;
	CHECK(clCreateContext(NULL, 0, &dev, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateContext(NULL, 1, NULL, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	cl_device_id bad = (cl_device_id)&err;
	CHECK(clCreateContext(NULL, 1, &bad, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_DEVICE);
	int data = 1;
	CHECK(clCreateContext(NULL, 1, &dev, NULL, &data, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	cl_context_properties badprop[] = {0x7fff, 1, 0};
	CHECK(clCreateContext(badprop, 1, &dev, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PROPERTY);
	cl_context_properties badplat[] = {CL_CONTEXT_PLATFORM,
					   (cl_context_properties)&err, 0};
	CHECK(clCreateContext(badplat, 1, &dev, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PLATFORM);
	cl_context_properties twice[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)plat,
		CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
	CHECK(clCreateContext(twice, 1, &dev, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PROPERTY);
	CHECK(clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL, NULL,
				      &err) == NULL);
	CHECK_EQ(err, CL_DEVICE_NOT_FOUND);
	CHECK(clCreateContextFromType(NULL, 1u << 20, NULL, NULL, &err) ==
	      NULL);
	CHECK_EQ(err, CL_INVALID_DEVICE_TYPE);

	cl_context_properties good[] = {CL_CONTEXT_PLATFORM,
					(cl_context_properties)plat, 0};
	cl_context c = clCreateContext(good, 1, &dev, NULL, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK(c != NULL);
	/* the loader calls through the object's first word */
	CHECK(*(struct _cl_icd_dispatch **)c == &icd_dispatch);
	CHECK_EQ(CTX_REFS(c), 1);
	CHECK_EQ(clRetainContext(c), CL_SUCCESS);
	CHECK_EQ(CTX_REFS(c), 2);
	cl_uint nd = 0;
	CHECK_EQ(icd_dispatch.clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES,
					       sizeof(nd), &nd, NULL),
		 CL_SUCCESS);
	CHECK_EQ(nd, 1);
	cl_device_id d = NULL;
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof(d), &d, NULL),
		 CL_SUCCESS);
	CHECK(d == dev);
	size_t psize = 0;
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &psize),
		 CL_SUCCESS);
	CHECK_EQ(psize, sizeof(good));
	cl_context_properties pr[3];
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof(pr) - 1, pr,
				  NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, 1, &nd, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetContextInfo(c, 0x7fff, sizeof(nd), &nd, NULL),
		 CL_INVALID_VALUE);

	/* destructor callbacks: NULL refused, last-in first-out, after the
	 * last release */
	unsigned order = 0;
	CHECK_EQ(clSetContextDestructorCallback(c, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clSetContextDestructorCallback((cl_context)&err, ctx_dtor,
						&order),
		 CL_INVALID_CONTEXT);
	unsigned first = 1, second = 2;
	CHECK_EQ(clSetContextDestructorCallback(c, ctx_dtor, &first),
		 CL_SUCCESS);
	CHECK_EQ(clSetContextDestructorCallback(c, ctx_dtor, &second),
		 CL_SUCCESS);
	ctx_dtor_calls = 0;
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
	CHECK_EQ(ctx_dtor_calls, 0);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
	CHECK_EQ(ctx_dtor_calls, 2);
	CHECK(ctx_dtor_ctx == c);
	CHECK_EQ(second, 12); /* called first */
	CHECK_EQ(first, 21);

	/* a released handle is recognised */
	CHECK_EQ(clReleaseContext(c), CL_INVALID_CONTEXT);
	CHECK_EQ(clRetainContext(c), CL_INVALID_CONTEXT);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof(nd), &nd,
				  NULL),
		 CL_INVALID_CONTEXT);
	CHECK_EQ(clReleaseContext(NULL), CL_INVALID_CONTEXT);
	CHECK_EQ(clRetainContext((cl_context)dev), CL_INVALID_CONTEXT);
}

/* A context outlives its last release while objects hold it. */
static void test_context_lifetime(void)
{
	cl_context c = ctx_new();
	unsigned tag = 0;
	ctx_dtor_calls = 0;
	CHECK_EQ(clSetContextDestructorCallback(c, ctx_dtor, &tag), CL_SUCCESS);
	cl_int err;
	cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 256, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_command_queue q = queue_new(c);
	cl_program p = clCreateProgramWithBuiltInKernels(c, 1, &dev,
							 "fake_noop", &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_kernel k = clCreateKernel(p, "fake_noop", &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(CTX_REFS(c), 1); /* holds are not references */

	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
	CHECK_EQ(ctx_dtor_calls, 0);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(tag),
				  &tag, NULL),
		 CL_INVALID_CONTEXT);
	/* what holds it still works, and names it */
	cl_context mc = NULL;
	CHECK_EQ(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof(mc), &mc, NULL),
		 CL_SUCCESS);
	CHECK(mc == c);
	char buf[256] = {1};
	CHECK_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof(buf), buf, 0,
				      NULL, NULL),
		 CL_SUCCESS);
	size_t one = 1;
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL,
					NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	/* a new buffer in a released context is not possible */
	CHECK(clCreateBuffer(c, 0, 64, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);

	CHECK_EQ(clReleaseMemObject(m), CL_SUCCESS);
	CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(ctx_dtor_calls, 0);
	CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
	CHECK_EQ(ctx_dtor_calls, 1); /* the last holder went */
	CHECK_EQ(tag, 10);
}

/* ---- buffers ---- */

static void test_buffer_args(void)
{
	cl_context c = ctx_new();
	cl_int err = 0;
	char host[64];
	CHECK(clCreateBuffer(c, 0, 0, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_BUFFER_SIZE);
	CHECK(clCreateBuffer(c, 0, icd_max_alloc(&icd_devices[0]) + 1, NULL,
			     &err) == NULL);
	CHECK_EQ(err, CL_INVALID_BUFFER_SIZE);
	CHECK(clCreateBuffer(c, 0, SIZE_MAX, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_BUFFER_SIZE);
	CHECK(clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, NULL,
			     &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateBuffer(c, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, NULL,
			     &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateBuffer(c, CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY,
			     64, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateBuffer(c, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64,
			     host, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateBuffer(c, (cl_mem_flags)1 << 40, 64, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 64, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_HOST_PTR);
	CHECK(clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 64, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_HOST_PTR);
	CHECK(clCreateBuffer(c, 0, 64, host, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_HOST_PTR);
	CHECK(clCreateBuffer((cl_context)&err, 0, 64, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	CHECK(clCreateBuffer(NULL, 0, 64, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	unsigned allocs = fake_hp_stats().allocs;
	CHECK(clCreateBuffer(c, 0, 0, NULL, NULL) == NULL); /* errp NULL */
	CHECK_EQ(fake_hp_stats().allocs, allocs); /* nothing allocated */

	/* COPY_HOST_PTR: the bytes reach the device's buffer */
	for (int i = 0; i < 64; i++)
		host[i] = (char)i;
	cl_mem m = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY,
				  64, host, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().allocs, allocs + 1);
	uint64_t bytes = 0;
	const char *dm = fake_hp_buffer_mem(m->at[0], &bytes);
	CHECK(dm != NULL && bytes == 64 && !memcmp(dm, host, 64));
	size_t sz = 0;
	cl_mem_flags fl = 0;
	CHECK_EQ(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(sz), &sz, NULL),
		 CL_SUCCESS);
	CHECK_EQ(sz, 64);
	CHECK_EQ(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof(fl), &fl, NULL),
		 CL_SUCCESS);
	CHECK_EQ(fl, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY);
	CHECK_EQ(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(sz) - 1, &sz, NULL),
		 CL_INVALID_VALUE);
	cl_mem_object_type ty = 0;
	CHECK_EQ(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof(ty), &ty, NULL),
		 CL_SUCCESS);
	CHECK_EQ(ty, CL_MEM_OBJECT_BUFFER);
	CHECK_EQ(clGetMemObjectInfo(m, 0x7fff, sizeof(ty), &ty, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetMemObjectInfo((cl_mem)c, CL_MEM_SIZE, sizeof(sz), &sz,
				    NULL),
		 CL_INVALID_MEM_OBJECT);

	/* sub-buffers */
	cl_buffer_region r = {64, 8};
	CHECK(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) ==
	      NULL);
	CHECK_EQ(err, CL_INVALID_VALUE); /* past the end */
	r = (cl_buffer_region){8, 8};
	CHECK(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) ==
	      NULL);
	CHECK_EQ(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
	r = (cl_buffer_region){0, 0};
	CHECK(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) ==
	      NULL);
	CHECK_EQ(err, CL_INVALID_BUFFER_SIZE);
	r = (cl_buffer_region){0, 32};
	CHECK(clCreateSubBuffer(m, 0, 0x7fff, &r, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL,
				&err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateSubBuffer(m, CL_MEM_READ_WRITE,
				CL_BUFFER_CREATE_TYPE_REGION, &r,
				&err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE); /* wider than its READ_ONLY parent */
	cl_mem sub =
		clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r,
				&err) == NULL);
	CHECK_EQ(err, CL_INVALID_MEM_OBJECT);
	cl_mem assoc = NULL;
	CHECK_EQ(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT,
				    sizeof(assoc), &assoc, NULL),
		 CL_SUCCESS);
	CHECK(assoc == m);
	/* the sub-buffer holds its buffer: released, the buffer stays */
	CHECK_EQ(MEM_REFS(m), 1);
	unsigned frees = fake_hp_stats().frees;
	CHECK_EQ(clReleaseMemObject(m), CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().frees, frees);
	CHECK_EQ(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(sz), &sz, NULL),
		 CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof(sz), &sz, NULL),
		 CL_SUCCESS);
	CHECK_EQ(sz, 32);
	CHECK_EQ(clReleaseMemObject(sub), CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().frees, frees + 1);
	CHECK_EQ(clReleaseMemObject(sub), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

static int dtor_log[8], dtor_n;
static void CL_CALLBACK mem_dtor(cl_mem m, void *data)
{
	(void)m;
	if (dtor_n < 8)
		dtor_log[dtor_n++] = (int)(intptr_t)data;
}

static void test_mem_destructors(void)
{
	cl_context c = ctx_new();
	cl_int err;
	cl_mem m = clCreateBuffer(c, 0, 128, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clSetMemObjectDestructorCallback(m, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clSetMemObjectDestructorCallback((cl_mem)c, mem_dtor, NULL),
		 CL_INVALID_MEM_OBJECT);
	dtor_n = 0;
	for (intptr_t i = 1; i <= 3; i++)
		CHECK_EQ(clSetMemObjectDestructorCallback(m, mem_dtor,
							  (void *)i),
			 CL_SUCCESS);
	CHECK_EQ(clRetainMemObject(m), CL_SUCCESS);
	CHECK_EQ(MEM_REFS(m), 2);
	CHECK_EQ(clReleaseMemObject(m), CL_SUCCESS);
	CHECK_EQ(dtor_n, 0);
	CHECK_EQ(MEM_REFS(m), 1);
	CHECK_EQ(clReleaseMemObject(m), CL_SUCCESS);
	CHECK_EQ(dtor_n, 3);
	CHECK_EQ(dtor_log[0], 3); /* last in, first out */
	CHECK_EQ(dtor_log[1], 2);
	CHECK_EQ(dtor_log[2], 1);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

/* ---- queues and transfers ---- */

static void test_queue(void)
{
	cl_context c = ctx_new();
	cl_int err;
	CHECK(clCreateCommandQueue((cl_context)dev, dev, 0, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	CHECK(clCreateCommandQueue(c, (cl_device_id)c, 0, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_DEVICE);
	CHECK(clCreateCommandQueue(c, dev, (cl_command_queue_properties)1 << 40,
				   &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	cl_queue_properties bad[] = {0x7fff, 0, 0};
	CHECK(clCreateCommandQueueWithProperties(c, dev, bad, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	cl_command_queue q =
		clCreateCommandQueue(c, dev, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(Q_REFS(q), 1);
	CHECK_EQ(clRetainCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(Q_REFS(q), 2);
	cl_context qc = NULL;
	CHECK_EQ(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(qc), &qc,
				       NULL),
		 CL_SUCCESS);
	CHECK(qc == c);
	cl_command_queue_properties pr = 0;
	CHECK_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(pr), &pr,
				       NULL),
		 CL_SUCCESS);
	CHECK_EQ(pr, CL_QUEUE_PROFILING_ENABLE);
	CHECK_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, 1, &pr, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(clFlush(q), CL_SUCCESS);
	CHECK_EQ(clFinish((cl_command_queue)c), CL_INVALID_COMMAND_QUEUE);

	cl_mem m = clCreateBuffer(c, 0, 256, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	uint8_t in[256], out[256];
	for (int i = 0; i < 256; i++)
		in[i] = (uint8_t)(i * 7);
	/* argument checks of reads and writes */
	CHECK_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 257, in, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, 255, 2, in, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, SIZE_MAX, 2, in, 0, NULL,
				      NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(
		clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 16, NULL, 0, NULL, NULL),
		CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueWriteBuffer(q, (cl_mem)q, CL_TRUE, 0, 16, in, 0, NULL,
				      NULL),
		 CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueWriteBuffer((cl_command_queue)m, m, CL_TRUE, 0, 16,
				      in, 0, NULL, NULL),
		 CL_INVALID_COMMAND_QUEUE);
	cl_event none = NULL;
	CHECK_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 16, in, 1, NULL, NULL),
		 CL_INVALID_EVENT_WAIT_LIST);
	CHECK_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 16, in, 0, &none, NULL),
		 CL_INVALID_EVENT_WAIT_LIST);
	CHECK_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 16, in, 1, &none, NULL),
		 CL_INVALID_EVENT_WAIT_LIST);
	/* a round trip, through the fake's buffer memory */
	cl_event ev = NULL;
	CHECK_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 256, in, 0, NULL, &ev),
		 CL_SUCCESS);
	CHECK_EQ(ev_status(ev), CL_COMPLETE);
	cl_command_type ct = 0;
	CHECK_EQ(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof(ct), &ct,
				NULL),
		 CL_SUCCESS);
	CHECK_EQ(ct, CL_COMMAND_WRITE_BUFFER);
	cl_ulong t0 = 0, t1 = 0;
	CHECK_EQ(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START,
					 sizeof(t0), &t0, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END,
					 sizeof(t1), &t1, NULL),
		 CL_SUCCESS);
	CHECK(t1 >= t0);
	CHECK_EQ(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, 4, &t1,
					 NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clReleaseEvent(ev), CL_SUCCESS);
	CHECK_EQ(clReleaseEvent(ev), CL_INVALID_EVENT);
	CHECK(!memcmp(fake_hp_buffer_mem(m->at[0], NULL), in, 256));
	memset(out, 0, sizeof(out));
	CHECK_EQ(clEnqueueReadBuffer(q, m, CL_TRUE, 16, 32, out, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK(!memcmp(out, in + 16, 32));

	/* fill and copy: the fake moves the bytes */
	cl_mem m2 = clCreateBuffer(c, 0, 256, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	uint32_t pat = 0xa1b2c3d4;
	CHECK_EQ(clEnqueueFillBuffer(q, m2, &pat, 3, 0, 48, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueFillBuffer(q, m2, &pat, 4, 2, 48, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueFillBuffer(q, m2, &pat, 4, 0, 50, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueFillBuffer(q, m2, NULL, 4, 0, 48, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueFillBuffer(q, m2, &pat, 4, 0, 260, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueFillBuffer(q, m2, &pat, 4, 0, 256, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	const uint32_t *w = fake_hp_buffer_mem(m2->at[0], NULL);
	CHECK(w && w[0] == pat && w[63] == pat);
	CHECK_EQ(clEnqueueCopyBuffer(q, m, m, 0, 8, 16, 0, NULL, NULL),
		 CL_MEM_COPY_OVERLAP);
	CHECK_EQ(clEnqueueCopyBuffer(q, m, m2, 250, 0, 16, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueCopyBuffer(q, m, m2, 0, 0, 0, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueCopyBuffer(q, m, m2, 0, 128, 64, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	CHECK(!memcmp((const uint8_t *)fake_hp_buffer_mem(m2->at[0], NULL) +
			      128,
		      in, 64));
	/* rectangles of one buffer (16 x 16 bytes): disjoint ones whose
	 * byte ranges interleave copy; ones sharing a byte do not */
	size_t o0[3] = {0, 0, 0}, o8[3] = {8, 0, 0}, o22[3] = {2, 2, 0};
	size_t o34[3] = {3, 4, 0}, reg[3] = {4, 4, 1};
	CHECK_EQ(clEnqueueCopyBufferRect(q, m, m, o0, o8, reg, 16, 256, 16, 256,
					 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	const uint8_t *mb = fake_hp_buffer_mem(m->at[0], NULL);
	for (int y = 0; y < 4; y++)
		CHECK(!memcmp(mb + y * 16 + 8, in + y * 16, 4));
	CHECK_EQ(clEnqueueCopyBufferRect(q, m, m, o0, o22, reg, 16, 256, 16,
					 256, 0, NULL, NULL),
		 CL_MEM_COPY_OVERLAP);
	CHECK_EQ(clEnqueueCopyBufferRect(q, m, m, o34, o0, reg, 16, 256, 16,
					 256, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueCopyBufferRect(q, m, m, o0, o34, reg, 16, 256, 16,
					 256, 0, NULL, NULL),
		 CL_SUCCESS);
	o34[1] = 3;
	CHECK_EQ(clEnqueueCopyBufferRect(q, m, m, o0, o34, reg, 16, 256, 16,
					 256, 0, NULL, NULL),
		 CL_MEM_COPY_OVERLAP);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	/* a buffer of another context */
	cl_context c2 = ctx_new();
	cl_mem other = clCreateBuffer(c2, 0, 64, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clEnqueueWriteBuffer(q, other, CL_TRUE, 0, 16, in, 0, NULL,
				      NULL),
		 CL_INVALID_CONTEXT);
	CHECK_EQ(clReleaseMemObject(other), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c2), CL_SUCCESS);

	CHECK_EQ(clReleaseMemObject(m), CL_SUCCESS);
	CHECK_EQ(clReleaseMemObject(m2), CL_SUCCESS);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(clReleaseCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

/* ---- programs and kernels ---- */

static const char *src_ok =
	"kernel void add(global float *a, global const float *b, int n)\n"
	"{ }\n"
	"__kernel __attribute__((reqd_work_group_size(4, 2, 1)))\n"
	"void fixed(global int *o, local int *tmp, ulong x) { }\n";

static unsigned build_cb_calls;
static cl_program build_cb_prog;
static void CL_CALLBACK build_cb(cl_program p, void *data)
{
	build_cb_calls++;
	build_cb_prog = p;
	(void)data;
}

static cl_program program_built(cl_context c, const char *src, const char *opts)
{
	cl_int err;
	cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clBuildProgram(p, 1, &dev, opts, NULL, NULL), CL_SUCCESS);
	return p;
}

static void test_program(void)
{
	cl_context c = ctx_new();
	cl_int err;
	const char *null_src = NULL;
	CHECK(clCreateProgramWithSource(c, 0, &src_ok, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateProgramWithSource(c, 1, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateProgramWithSource(c, 1, &null_src, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateProgramWithSource((cl_context)dev, 1, &src_ok, NULL,
					&err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	const unsigned char *junk = (const unsigned char *)"not an object";
	size_t jl = 13;
	cl_int bst = 0;
	CHECK(clCreateProgramWithBinary(c, 1, &dev, &jl, &junk, &bst, &err) ==
	      NULL);
	CHECK_EQ(err, CL_INVALID_BINARY);
	CHECK_EQ(bst, CL_INVALID_BINARY);
	CHECK(clCreateProgramWithBuiltInKernels(c, 1, &dev, "no_such", &err) ==
	      NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);

	cl_program p = clCreateProgramWithSource(c, 1, &src_ok, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(PROG_REFS(p), 1);
	/* a kernel before a build */
	CHECK(clCreateKernel(p, "add", &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
	int data = 0;
	CHECK_EQ(clBuildProgram(p, 1, &dev, NULL, NULL, &data),
		 CL_INVALID_VALUE);
	CHECK_EQ(clBuildProgram(p, 1, NULL, NULL, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clBuildProgram(p, 0, &dev, NULL, NULL, NULL),
		 CL_INVALID_VALUE);
	cl_device_id bad = (cl_device_id)p;
	CHECK_EQ(clBuildProgram(p, 1, &bad, NULL, NULL, NULL),
		 CL_INVALID_DEVICE);
	CHECK_EQ(clBuildProgram((cl_program)c, 0, NULL, NULL, NULL, NULL),
		 CL_INVALID_PROGRAM);
	build_cb_calls = 0;
	CHECK_EQ(clBuildProgram(p, 0, NULL, "-bogus", build_cb, NULL),
		 CL_INVALID_BUILD_OPTIONS);
	CHECK_EQ(build_cb_calls, 1);
	cl_build_status bs = 0;
	CHECK_EQ(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS,
				       sizeof(bs), &bs, NULL),
		 CL_SUCCESS);
	CHECK_EQ(bs, CL_BUILD_ERROR);
	CHECK_EQ(clBuildProgram(p, 0, NULL, "-DX=1", build_cb, &data),
		 CL_SUCCESS);
	CHECK_EQ(build_cb_calls, 2);
	CHECK(build_cb_prog == p);
	CHECK_EQ(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS,
				       sizeof(bs), &bs, NULL),
		 CL_SUCCESS);
	CHECK_EQ(bs, CL_BUILD_SUCCESS);
	CHECK_EQ(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, 1, &bs,
				       NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetProgramBuildInfo(p, (cl_device_id)c,
				       CL_PROGRAM_BUILD_STATUS, sizeof(bs), &bs,
				       NULL),
		 CL_INVALID_DEVICE);
	size_t nk = 0;
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(nk), &nk,
				  NULL),
		 CL_SUCCESS);
	CHECK_EQ(nk, 2);
	char names[64];
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
				  names, NULL),
		 CL_SUCCESS);
	CHECK(!strcmp(names, "add;fixed"));
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 3, names, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(fake_hp_stats().objects_loaded -
			 fake_hp_stats().objects_unloaded,
		 1);

	/* a failing build: the log says why, the callback runs */
	const char *broken = "kernel void k(global int *o) { }\n#error\n";
	cl_program pb = clCreateProgramWithSource(c, 1, &broken, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clBuildProgram(pb, 1, &dev, NULL, build_cb, NULL),
		 CL_BUILD_PROGRAM_FAILURE);
	CHECK_EQ(build_cb_calls, 3);
	CHECK(build_cb_prog == pb);
	char log[256] = "";
	CHECK_EQ(clGetProgramBuildInfo(pb, dev, CL_PROGRAM_BUILD_LOG,
				       sizeof(log), log, NULL),
		 CL_SUCCESS);
	CHECK(strstr(log, "program.cl:2: error") != NULL);
	CHECK(clCreateKernel(pb, "k", &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
	CHECK_EQ(clReleaseProgram(pb), CL_SUCCESS);

	/* kernels */
	CHECK(clCreateKernel(p, "nope", &err) == NULL);
	CHECK_EQ(err, CL_INVALID_KERNEL_NAME);
	CHECK(clCreateKernel(p, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateKernel((cl_program)c, "add", &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PROGRAM);
	cl_kernel k = clCreateKernel(p, "add", &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(K_REFS(k), 1);
	cl_uint na = 0;
	CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(na), &na, NULL),
		 CL_SUCCESS);
	CHECK_EQ(na, 3);
	CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, 2, &na, NULL),
		 CL_INVALID_VALUE);
	char fname[16];
	CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(fname),
				 fname, NULL),
		 CL_SUCCESS);
	CHECK(!strcmp(fname, "add"));
	cl_program kp = NULL;
	CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(kp), &kp, NULL),
		 CL_SUCCESS);
	CHECK(kp == p);
	CHECK_EQ(PROG_REFS(p), 1); /* a kernel holds, no reference */
	/* a program with kernels attached cannot be built again */
	CHECK_EQ(clBuildProgram(p, 0, NULL, NULL, NULL, NULL),
		 CL_INVALID_OPERATION);

	/* argument checks */
	cl_mem m = clCreateBuffer(c, 0, 64, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_int n = 4;
	CHECK_EQ(clSetKernelArg(k, 3, sizeof(n), &n), CL_INVALID_ARG_INDEX);
	CHECK_EQ(clSetKernelArg(k, 2, 8, &n), CL_INVALID_ARG_SIZE);
	CHECK_EQ(clSetKernelArg(k, 2, sizeof(n), NULL), CL_INVALID_ARG_VALUE);
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &c),
		 CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
	CHECK_EQ(clSetKernelArg((cl_kernel)p, 0, sizeof(m), &m),
		 CL_INVALID_KERNEL);
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(m), &m), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k, 1, sizeof(m), NULL), CL_SUCCESS);
	cl_command_queue q = queue_new(c);
	size_t g = 16;
	/* argument 2 not set */
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
		 CL_INVALID_KERNEL_ARGS);
	CHECK_EQ(clSetKernelArg(k, 2, sizeof(n), &n), CL_SUCCESS);
	unsigned kernels = fake_hp_stats().kernels;
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().kernels, kernels + 1);
	/* the launch's argument block carries the buffer's device address */
	uint64_t a0 = 0;
	memcpy(&a0, fake_hp_last_args(), 8);
	CHECK_EQ(a0, m->at[0]);
	/* a buffer released since it was set */
	CHECK_EQ(clReleaseMemObject(m), CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
		 CL_INVALID_KERNEL_ARGS);

	/* __local arguments */
	cl_kernel kf = clCreateKernel(p, "fixed", &err);
	CHECK_EQ(err, CL_SUCCESS);
	int v = 1;
	CHECK_EQ(clSetKernelArg(kf, 1, 0, NULL), CL_INVALID_ARG_SIZE);
	CHECK_EQ(clSetKernelArg(kf, 1, 64, &v), CL_INVALID_ARG_VALUE);
	CHECK_EQ(clSetKernelArg(kf, 1, 64, NULL), CL_SUCCESS);
	size_t rq[3] = {0, 0, 0};
	CHECK_EQ(clGetKernelWorkGroupInfo(kf, dev,
					  CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
					  sizeof(rq), rq, NULL),
		 CL_SUCCESS);
	CHECK(rq[0] == 4 && rq[1] == 2 && rq[2] == 1);
	size_t wgs = 0;
	CHECK_EQ(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(wgs), &wgs, NULL),
		 CL_SUCCESS);
	CHECK_EQ(wgs, 256);
	CHECK_EQ(clGetKernelWorkGroupInfo(kf, dev, CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(wgs), &wgs, NULL),
		 CL_SUCCESS);
	CHECK_EQ(wgs, 8);
	CHECK_EQ(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, 4,
					  &wgs, NULL),
		 CL_INVALID_VALUE);

	/* releasing the program while kernels hold it */
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(nk), &nk,
				  NULL),
		 CL_INVALID_PROGRAM);
	CHECK_EQ(fake_hp_stats().objects_loaded -
			 fake_hp_stats().objects_unloaded,
		 1); /* still loaded */
	CHECK_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(na), &na, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
	CHECK_EQ(clReleaseKernel(k), CL_INVALID_KERNEL);
	CHECK_EQ(clReleaseKernel(kf), CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().objects_loaded -
			 fake_hp_stats().objects_unloaded,
		 0); /* the last kernel took the object with it */
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

/* ---- the NDRange rules (include/hartpool/ndrange_check.h) ---- */

static void test_ndrange(void)
{
	cl_context c = ctx_new();
	cl_command_queue q = queue_new(c);
	cl_int err;
	cl_program p = clCreateProgramWithBuiltInKernels(
		c, 1, &dev, "fake_noop;fake_reqd8", &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_kernel k = clCreateKernel(p, "fake_noop", &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_kernel kr = clCreateKernel(p, "fake_reqd8", &err);
	CHECK_EQ(err, CL_SUCCESS);
	size_t g[3] = {64, 4, 2}, l[3] = {8, 2, 1}, off[3] = {0, 0, 0};
#define ND(dim, o, gg, ll)                                                     \
	clEnqueueNDRangeKernel(q, k, dim, o, gg, ll, 0, NULL, NULL)
	CHECK_EQ(ND(0, NULL, g, NULL), CL_INVALID_WORK_DIMENSION);
	CHECK_EQ(ND(4, NULL, g, NULL), CL_INVALID_WORK_DIMENSION);
	CHECK_EQ(ND(0, NULL, NULL, NULL), CL_INVALID_WORK_DIMENSION);
	CHECK_EQ(ND(1, NULL, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(ND(3, NULL, g, NULL), CL_SUCCESS);
	CHECK_EQ(ND(3, off, g, l), CL_SUCCESS);
	size_t big[2] = {(size_t)1 << 32, (size_t)1 << 32};
	CHECK_EQ(ND(2, NULL, big, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
	size_t two = 2, huge_off = SIZE_MAX;
	CHECK_EQ(ND(1, &huge_off, &two, NULL), CL_INVALID_GLOBAL_OFFSET);
	size_t o1 = SIZE_MAX - 2;
	CHECK_EQ(ND(1, &o1, &two, NULL), CL_SUCCESS);
	size_t zero[3] = {0, 4, 4};
	CHECK_EQ(ND(3, NULL, zero, NULL), CL_SUCCESS); /* an empty launch */
	CHECK_EQ(ND(1, NULL, NULL, NULL), CL_SUCCESS); /* also one */
	size_t l3x[3] = {3, 3, 3}; /* sizes no group needs */
	CHECK_EQ(ND(3, NULL, zero, l3x), CL_SUCCESS);
	CHECK_EQ(ND(4, NULL, NULL, NULL), CL_INVALID_WORK_DIMENSION);
	size_t l0[3] = {0, 1, 1};
	CHECK_EQ(ND(3, NULL, g, l0), CL_INVALID_WORK_GROUP_SIZE);
	size_t lz[3] = {1, 1, 128};
	size_t gz[3] = {1, 1, 128};
	CHECK_EQ(ND(3, NULL, gz, lz), CL_INVALID_WORK_ITEM_SIZE);
	size_t lbig[3] = {64, 4, 2}; /* 512 > 256 */
	CHECK_EQ(ND(3, NULL, g, lbig), CL_INVALID_WORK_GROUP_SIZE);
	size_t g10 = 10, l3 = 3, l5 = 5;
	/* built-in kernels: uniform work-groups not required */
	CHECK_EQ(ND(1, NULL, &g10, &l3), CL_SUCCESS);
	CHECK_EQ(ND(1, NULL, &g10, &l5), CL_SUCCESS);
	/* the required work-group size */
	size_t r8 = 8, r4 = 4;
	CHECK_EQ(clEnqueueNDRangeKernel(q, kr, 1, NULL, g, &r8, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, kr, 1, NULL, g, &r4, 0, NULL, NULL),
		 CL_INVALID_WORK_GROUP_SIZE);
	/* no local size: the required one (OpenCL 2.1 and later) */
	CHECK_EQ(clEnqueueNDRangeKernel(q, kr, 1, NULL, g, NULL, 0, NULL, NULL),
		 CL_SUCCESS);
	size_t r82[2] = {8, 2};
	CHECK_EQ(clEnqueueNDRangeKernel(q, kr, 2, NULL, g, r82, 0, NULL, NULL),
		 CL_INVALID_WORK_GROUP_SIZE);
	CHECK_EQ(clFinish(q), CL_SUCCESS);

	/* OpenCL C: uniform work-groups unless -cl-std=CL2.0 or later */
	cl_program pc = program_built(c, src_ok, NULL);
	cl_kernel ka = clCreateKernel(pc, "add", &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_int n = 1;
	CHECK_EQ(clSetKernelArg(ka, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(ka, 1, sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(ka, 2, sizeof(n), &n), CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, ka, 1, NULL, &g10, &l3, 0, NULL,
					NULL),
		 CL_INVALID_WORK_GROUP_SIZE);
	CHECK_EQ(clEnqueueNDRangeKernel(q, ka, 1, NULL, &g10, &l5, 0, NULL,
					NULL),
		 CL_SUCCESS);
	cl_program p20 = program_built(c, src_ok, "-cl-std=CL2.0");
	cl_kernel k20 = clCreateKernel(p20, "add", &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k20, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k20, 1, sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k20, 2, sizeof(n), &n), CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k20, 1, NULL, &g10, &l3, 0, NULL,
					NULL),
		 CL_SUCCESS);
	/* an OpenCL C kernel's required size from its metadata */
	cl_kernel kf = clCreateKernel(pc, "fixed", &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_ulong x = 0;
	CHECK_EQ(clSetKernelArg(kf, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(kf, 1, 16, NULL), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(kf, 2, sizeof(x), &x), CL_SUCCESS);
	size_t gf[2] = {16, 4}, lf[2] = {4, 2}, lf2[2] = {2, 4};
	CHECK_EQ(clEnqueueNDRangeKernel(q, kf, 2, NULL, gf, lf, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, kf, 2, NULL, gf, lf2, 0, NULL, NULL),
		 CL_INVALID_WORK_GROUP_SIZE);
	CHECK_EQ(clEnqueueTask(q, kf, 0, NULL, NULL),
		 CL_INVALID_WORK_GROUP_SIZE);
	CHECK_EQ(clEnqueueTask(q, ka, 0, NULL, NULL), CL_SUCCESS);
	/* a required size is a 3-tuple: 8,8,1 is no launch of work_dim 1 */
	const char *src88 = "kernel __attribute__((reqd_work_group_size(8, "
			    "8, 1))) void sq(global int *o) { }\n";
	cl_program p88 = program_built(c, src88, NULL);
	cl_kernel k88 = clCreateKernel(p88, "sq", &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k88, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
	size_t g64[2] = {64, 64}, l88[2] = {8, 8};
	CHECK_EQ(clEnqueueNDRangeKernel(q, k88, 1, NULL, g64, l88, 0, NULL,
					NULL),
		 CL_INVALID_WORK_GROUP_SIZE);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k88, 2, NULL, g64, l88, 0, NULL,
					NULL),
		 CL_SUCCESS);
	CHECK_EQ(clReleaseKernel(k88), CL_SUCCESS);
	CHECK_EQ(clReleaseProgram(p88), CL_SUCCESS);

	/* a sweep: whatever the ICD accepts, the fake's device (the same
	 * rules, judged again at the device's end) runs without error */
	static const size_t gs[] = {1, 3, 8, 64, 250, 1024};
	static const size_t ls[] = {0, 1, 2, 4, 8, 16, 64, 128, 300};
	unsigned seed = 12345, accepted = 0, rejected = 0;
	for (int i = 0; i < 300; i++) {
		size_t gg[3], ll[3];
		cl_uint dim = 1 + (seed >> 16) % 3;
		seed = seed * 1103515245u + 12345u;
		bool with_local = (seed >> 16) & 1;
		for (int d = 0; d < 3; d++) {
			seed = seed * 1103515245u + 12345u;
			gg[d] = gs[(seed >> 16) % 6];
			seed = seed * 1103515245u + 12345u;
			ll[d] = ls[(seed >> 16) % 9];
		}
		cl_event e = NULL;
		cl_kernel kk = (seed >> 20) & 1 ? ka : k;
		cl_int rc = clEnqueueNDRangeKernel(q, kk, dim, NULL, gg,
						   with_local ? ll : NULL, 0,
						   NULL, &e);
		if (rc == CL_SUCCESS) {
			accepted++;
			CHECK_EQ(ev_status(e), CL_COMPLETE);
			CHECK_EQ(clReleaseEvent(e), CL_SUCCESS);
		} else {
			rejected++;
			CHECK(rc == CL_INVALID_WORK_GROUP_SIZE ||
			      rc == CL_INVALID_WORK_ITEM_SIZE);
			CHECK(e == NULL);
		}
	}
	CHECK(accepted > 50 && rejected > 50);

	/* every range the ICD let through the fake's device accepted too */
	cl_event ev;
	CHECK_EQ(
		clEnqueueNDRangeKernel(q, ka, 1, NULL, &g10, &l5, 0, NULL, &ev),
		CL_SUCCESS);
	CHECK_EQ(clWaitForEvents(1, &ev), CL_SUCCESS);
	CHECK_EQ(ev_status(ev), CL_COMPLETE);
	CHECK_EQ(clReleaseEvent(ev), CL_SUCCESS);
#undef ND
	CHECK_EQ(clEnqueueNDRangeKernel(q, (cl_kernel)q, 1, NULL, g, NULL, 0,
					NULL, NULL),
		 CL_INVALID_KERNEL);
	cl_context c2 = ctx_new();
	cl_command_queue q2 = queue_new(c2);
	CHECK_EQ(clEnqueueNDRangeKernel(q2, k, 1, NULL, g, NULL, 0, NULL, NULL),
		 CL_INVALID_CONTEXT);
	CHECK_EQ(clReleaseCommandQueue(q2), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c2), CL_SUCCESS);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	cl_kernel ks[] = {k, kr, ka, k20, kf};
	for (unsigned i = 0; i < 5; i++)
		CHECK_EQ(clReleaseKernel(ks[i]), CL_SUCCESS);
	CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
	CHECK_EQ(clReleaseProgram(pc), CL_SUCCESS);
	CHECK_EQ(clReleaseProgram(p20), CL_SUCCESS);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

/* ---- events ---- */

static int cb_log[16], cb_n;
static cl_int cb_status[16];
static void CL_CALLBACK ev_cb(cl_event e, cl_int st, void *data)
{
	(void)e;
	if (cb_n < 16) {
		cb_status[cb_n] = st;
		cb_log[cb_n++] = (int)(intptr_t)data;
	}
}

static void test_events(void)
{
	cl_context c = ctx_new();
	cl_command_queue q = queue_new(c);
	cl_int err;
	cl_program p = clCreateProgramWithBuiltInKernels(
		c, 1, &dev, "fake_noop;fake_fault", &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_kernel k = clCreateKernel(p, "fake_noop", &err);
	CHECK_EQ(err, CL_SUCCESS);
	size_t g = 8;

	/* a device command the fake completes on demand */
	fake_hp_hold(true);
	cl_event ev = NULL;
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &ev),
		 CL_SUCCESS);
	CHECK_EQ(EV_REFS(ev), 1);
	CHECK(ev_status(ev) > CL_COMPLETE);
	CHECK_EQ(clSetEventCallback(ev, CL_QUEUED, ev_cb, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clSetEventCallback(ev, CL_COMPLETE, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clSetEventCallback((cl_event)q, CL_COMPLETE, ev_cb, NULL),
		 CL_INVALID_EVENT);
	cb_n = 0;
	CHECK_EQ(clSetEventCallback(ev, CL_COMPLETE, ev_cb, (void *)1),
		 CL_SUCCESS);
	CHECK_EQ(clSetEventCallback(ev, CL_RUNNING, ev_cb, (void *)2),
		 CL_SUCCESS);
	CHECK_EQ(clSetEventCallback(ev, CL_SUBMITTED, ev_cb, (void *)3),
		 CL_SUCCESS);
	CHECK_EQ(fake_hp_pending(), 1);
	CHECK_EQ(ev_status(ev) > CL_COMPLETE, 1);
	CHECK_EQ(cb_n, 1); /* submitted: on the device */
	CHECK_EQ(cb_log[0], 3);
	CHECK_EQ(cb_status[0], CL_SUBMITTED);
	CHECK_EQ(fake_hp_run(1), 1);
	CHECK_EQ(ev_status(ev), CL_COMPLETE);
	CHECK_EQ(cb_n, 3);
	CHECK(cb_log[1] + cb_log[2] == 3);
	CHECK_EQ(cb_status[2], CL_COMPLETE);
	/* a callback set on a complete event runs at once */
	CHECK_EQ(clSetEventCallback(ev, CL_COMPLETE, ev_cb, (void *)4),
		 CL_SUCCESS);
	CHECK_EQ(cb_n, 4);
	CHECK_EQ(cb_log[3], 4);
	CHECK_EQ(clRetainEvent(ev), CL_SUCCESS);
	CHECK_EQ(EV_REFS(ev), 2);
	CHECK_EQ(clReleaseEvent(ev), CL_SUCCESS);
	CHECK_EQ(clReleaseEvent(ev), CL_SUCCESS);
	CHECK_EQ(clGetEventInfo(ev, CL_EVENT_REFERENCE_COUNT, sizeof(cl_uint),
				&err, NULL),
		 CL_INVALID_EVENT);

	/* a command waiting for a user event is held on the host */
	cl_event u = clCreateUserEvent(c, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK(clCreateUserEvent((cl_context)q, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	CHECK_EQ(ev_status(u), CL_SUBMITTED);
	cl_command_queue uq = (cl_command_queue)1;
	CHECK_EQ(clGetEventInfo(u, CL_EVENT_COMMAND_QUEUE, sizeof(uq), &uq,
				NULL),
		 CL_SUCCESS);
	CHECK(uq == NULL);
	unsigned cmds = fake_hp_stats().commands;
	cl_event after = NULL;
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 1, &u, &after),
		 CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().commands, cmds); /* not on the device */
	CHECK_EQ(ev_status(after), CL_QUEUED);
	CHECK_EQ(clSetUserEventStatus(u, CL_RUNNING), CL_INVALID_VALUE);
	CHECK_EQ(clSetUserEventStatus((cl_event)q, CL_COMPLETE),
		 CL_INVALID_EVENT);
	CHECK_EQ(clSetUserEventStatus(after, CL_COMPLETE), CL_INVALID_EVENT);
	CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
	CHECK_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
	CHECK_EQ(fake_hp_stats().commands, cmds + 1); /* went */
	CHECK(ev_status(after) > CL_COMPLETE);
	CHECK_EQ(clWaitForEvents(1, &after), CL_SUCCESS); /* the fake runs it */
	CHECK_EQ(ev_status(after), CL_COMPLETE);
	CHECK_EQ(clReleaseEvent(after), CL_SUCCESS);
	CHECK_EQ(clReleaseEvent(u), CL_SUCCESS);

	/* a failed user event fails what waits for it */
	u = clCreateUserEvent(c, &err);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 1, &u, &after),
		 CL_SUCCESS);
	cb_n = 0;
	CHECK_EQ(clSetEventCallback(after, CL_COMPLETE, ev_cb, (void *)5),
		 CL_SUCCESS);
	CHECK_EQ(clSetUserEventStatus(u, -42), CL_SUCCESS);
	CHECK_EQ(ev_status(u), -42);
	CHECK(ev_status(after) < 0);
	CHECK_EQ(cb_n, 1);
	CHECK(cb_status[0] < 0);
	CHECK_EQ(clWaitForEvents(1, &after),
		 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK_EQ(clReleaseEvent(after), CL_SUCCESS);
	CHECK_EQ(clReleaseEvent(u), CL_SUCCESS);

	/* a kernel that fails on the device: its status is the error */
	cl_kernel kf = clCreateKernel(p, "fake_fault", &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, kf, 1, NULL, &g, NULL, 0, NULL, &ev),
		 CL_SUCCESS);
	CHECK_EQ(clWaitForEvents(1, &ev),
		 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK_EQ(ev_status(ev), HP_KERNEL_FAULT);
	CHECK_EQ(clReleaseEvent(ev), CL_SUCCESS);

	/* wait lists */
	CHECK_EQ(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
	cl_event bad = (cl_event)q;
	CHECK_EQ(clWaitForEvents(1, &bad), CL_INVALID_EVENT);
	cl_context c2 = ctx_new();
	cl_event u2 = clCreateUserEvent(c2, &err);
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 1, &u2, NULL),
		 CL_INVALID_CONTEXT);
	CHECK_EQ(clSetUserEventStatus(u2, CL_COMPLETE), CL_SUCCESS);
	CHECK_EQ(clReleaseEvent(u2), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c2), CL_SUCCESS);

	/* markers and barriers complete after what came before */
	cl_event k1, mk;
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &k1),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 0, NULL, &mk), CL_SUCCESS);
	CHECK_EQ(clEnqueueBarrierWithWaitList(q, 1, &k1, NULL), CL_SUCCESS);
	CHECK(ev_status(mk) > CL_COMPLETE);
	CHECK_EQ(clWaitForEvents(1, &mk), CL_SUCCESS);
	CHECK_EQ(ev_status(k1), CL_COMPLETE);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	CHECK_EQ(fake_hp_pending(), 0);
	CHECK_EQ(clReleaseEvent(k1), CL_SUCCESS);
	CHECK_EQ(clReleaseEvent(mk), CL_SUCCESS);
	fake_hp_hold(false);

	CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
	CHECK_EQ(clReleaseKernel(kf), CL_SUCCESS);
	CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

/* A command keeps the buffers and the kernel it uses until it completes. */
static void test_command_holds(void)
{
	cl_context c = ctx_new();
	cl_command_queue q = queue_new(c);
	cl_int err;
	cl_program p = program_built(c, src_ok, NULL);
	cl_kernel k = clCreateKernel(p, "add", &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_mem a = clCreateBuffer(c, 0, 64, NULL, &err);
	cl_mem b = clCreateBuffer(c, 0, 64, NULL, &err);
	cl_int n = 16;
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k, 1, sizeof(b), &b), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k, 2, sizeof(n), &n), CL_SUCCESS);
	dtor_n = 0;
	CHECK_EQ(clSetMemObjectDestructorCallback(a, mem_dtor, (void *)10),
		 CL_SUCCESS);
	CHECK_EQ(clSetMemObjectDestructorCallback(b, mem_dtor, (void *)20),
		 CL_SUCCESS);

	fake_hp_hold(true);
	size_t g = 16;
	cl_event ev;
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &ev),
		 CL_SUCCESS);
	struct fake_hp_stats s0 = fake_hp_stats();
	CHECK_EQ(clReleaseMemObject(a), CL_SUCCESS);
	CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
	CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
	CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
	/* released handles are invalid at once ... */
	CHECK_EQ(clRetainMemObject(a), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clRetainKernel(k), CL_INVALID_KERNEL);
	/* ... and the objects stay while the command runs */
	CHECK_EQ(dtor_n, 0);
	CHECK_EQ(fake_hp_stats().frees, s0.frees);
	CHECK_EQ(fake_hp_stats().objects_unloaded, s0.objects_unloaded);
	CHECK_EQ(fake_hp_run(1), 1);
	CHECK_EQ(ev_status(ev), CL_COMPLETE); /* noticed: the holds go */
	CHECK_EQ(dtor_n, 2);
	CHECK_EQ(fake_hp_stats().frees, s0.frees + 2);
	CHECK_EQ(fake_hp_stats().objects_unloaded, s0.objects_unloaded + 1);
	CHECK_EQ(clReleaseEvent(ev), CL_SUCCESS);

	/* the same for a copy, completed by clFinish */
	cl_mem x = clCreateBuffer(c, 0, 64, NULL, &err);
	cl_mem y = clCreateBuffer(c, 0, 64, NULL, &err);
	CHECK_EQ(clEnqueueCopyBuffer(q, x, y, 0, 0, 64, 0, NULL, NULL),
		 CL_SUCCESS);
	unsigned frees = fake_hp_stats().frees;
	CHECK_EQ(clReleaseMemObject(x), CL_SUCCESS);
	CHECK_EQ(clReleaseMemObject(y), CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().frees, frees);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().frees, frees + 2);
	fake_hp_hold(false);

	/* a queue released with commands pending: they finish first */
	fake_hp_hold(true);
	cl_mem z = clCreateBuffer(c, 0, 64, NULL, &err);
	uint32_t pat = 7;
	CHECK_EQ(clEnqueueFillBuffer(q, z, &pat, 4, 0, 64, 0, NULL, &ev),
		 CL_SUCCESS);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(fake_hp_pending(), 0);
	CHECK_EQ(ev_status(ev), CL_COMPLETE);
	cl_command_queue eq = NULL;
	CHECK_EQ(clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof(eq), &eq,
				NULL),
		 CL_SUCCESS);
	CHECK(eq == q); /* the event names its queue, which it holds */
	CHECK_EQ(clReleaseEvent(ev), CL_SUCCESS);
	CHECK_EQ(clReleaseMemObject(z), CL_SUCCESS);
	fake_hp_hold(false);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

/* Handles that are none, of another kind, or released. */
static void test_bad_handles(void)
{
	cl_context c = ctx_new();
	cl_command_queue q = queue_new(c);
	cl_int err;
	cl_mem m = clCreateBuffer(c, 0, 64, NULL, &err);
	int stack_word = 0;
	void *junk[] = {NULL, &stack_word, (void *)(uintptr_t)1, c, q, m,
			dev,  plat};
	for (unsigned i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		void *h = junk[i];
		if (h != c) {
			CHECK_EQ(clRetainContext(h), CL_INVALID_CONTEXT);
			CHECK_EQ(clReleaseContext(h), CL_INVALID_CONTEXT);
		}
		if (h != q) {
			CHECK_EQ(clRetainCommandQueue(h),
				 CL_INVALID_COMMAND_QUEUE);
			CHECK_EQ(clFinish(h), CL_INVALID_COMMAND_QUEUE);
		}
		if (h != m) {
			CHECK_EQ(clRetainMemObject(h), CL_INVALID_MEM_OBJECT);
			CHECK_EQ(clReleaseMemObject(h), CL_INVALID_MEM_OBJECT);
		}
		CHECK_EQ(clRetainEvent(h), CL_INVALID_EVENT);
		CHECK_EQ(clRetainProgram(h), CL_INVALID_PROGRAM);
		CHECK_EQ(clRetainKernel(h), CL_INVALID_KERNEL);
		CHECK_EQ(clReleaseKernel(h), CL_INVALID_KERNEL);
	}
	/* many objects released: the handles stay invalid */
	cl_mem ms[64];
	for (int i = 0; i < 64; i++) {
		ms[i] = clCreateBuffer(c, 0, 64, NULL, &err);
		CHECK_EQ(err, CL_SUCCESS);
	}
	for (int i = 0; i < 64; i++)
		CHECK_EQ(clReleaseMemObject(ms[i]), CL_SUCCESS);
	unsigned bad = 0;
	for (int i = 0; i < 64; i++)
		bad += clRetainMemObject(ms[i]) == CL_INVALID_MEM_OBJECT;
	CHECK_EQ(bad, 64);
	CHECK_EQ(clReleaseMemObject(m), CL_SUCCESS);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().buffers_live, 0);
}

/* A user event set from another thread while this one waits (TSan). */
struct setter {
	cl_event u;
	cl_int rc;
};
static void *set_later(void *arg)
{
	struct setter *s = arg;
	struct timespec ts = {0, 20 * 1000 * 1000};
	nanosleep(&ts, NULL);
	s->rc = clSetUserEventStatus(s->u, CL_COMPLETE);
	return NULL;
}

static void test_threads(void)
{
	cl_context c = ctx_new();
	cl_command_queue q = queue_new(c);
	cl_int err;
	struct setter s = {clCreateUserEvent(c, &err), 1};
	CHECK_EQ(err, CL_SUCCESS);
	cl_mem m = clCreateBuffer(c, 0, 64, NULL, &err);
	uint32_t pat = 0x55aa55aa;
	cl_event fill;
	CHECK_EQ(clEnqueueFillBuffer(q, m, &pat, 4, 0, 64, 1, &s.u, &fill),
		 CL_SUCCESS);
	pthread_t t;
	CHECK_EQ(pthread_create(&t, NULL, set_later, &s), 0);
	CHECK_EQ(clWaitForEvents(1, &fill), CL_SUCCESS);
	pthread_join(t, NULL);
	CHECK_EQ(s.rc, CL_SUCCESS);
	uint32_t back[16] = {0};
	CHECK_EQ(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 64, back, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(back[15], pat);
	CHECK_EQ(clReleaseEvent(fill), CL_SUCCESS);
	CHECK_EQ(clReleaseEvent(s.u), CL_SUCCESS);
	CHECK_EQ(clReleaseMemObject(m), CL_SUCCESS);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

int main(int argc, char **argv)
{
	(void)argc, (void)argv; /* tests/run.sh passes the dtb folder */
	static const struct icd_test tests[] = {
		{"test_platform", test_platform},
		{"test_context", test_context},
		{"test_context_lifetime", test_context_lifetime},
		{"test_buffer_args", test_buffer_args},
		{"test_mem_destructors", test_mem_destructors},
		{"test_queue", test_queue},
		{"test_program", test_program},
		{"test_ndrange", test_ndrange},
		{"test_events", test_events},
		{"test_command_holds", test_command_holds},
		{"test_bad_handles", test_bad_handles},
		{"test_threads", test_threads},
	};
	return icd_test_main("test_icd", tests,
			     sizeof(tests) / sizeof(tests[0]));
}
