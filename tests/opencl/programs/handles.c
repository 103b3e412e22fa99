// SPDX-License-Identifier: MIT
/* Handles and lifetimes: values that are no buffer handle as __global
 * arguments, a second release (and use) of every kind of object, a kernel
 * launched after its buffer argument was released, buffers released while
 * a command that uses them waits for a user event (the command keeps them:
 * their memory is not handed to a new buffer before it ran), and the same
 * for a built-in kernel's raw arguments. */
#include "common.h"
#include <stdint.h>

static const char *src =
	"__kernel void copy(__global const int *in, __global int *out)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	out[i] = in[i];\n"
	"}\n"
	"__kernel void set(__global int *p, int v)\n"
	"{\n"
	"	p[get_global_id(0)] = v;\n"
	"}\n";

#define N 1024 /* ints */

#define EXPECT(expr, want)                                                     \
	do {                                                                   \
		cl_int e_ = (expr);                                            \
		CHECK(e_ == (want), "%s = %d, want %s (%d)", #expr, e_, #want, \
		      (int)(want));                                            \
	} while (0)

static int destroyed;
static void CL_CALLBACK on_destroy(cl_mem m, void *data)
{
	(void)m, (void)data;
	destroyed++;
}

static cl_mem filled(ocl_env *o, int v)
{
	static int host[N];
	for (int i = 0; i < N; i++)
		host[i] = v;
	cl_int err;
	cl_mem m = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, sizeof(host),
				  host, &err);
	CL_OK(err);
	return m;
}

static void expect_all(ocl_env *o, cl_mem m, int v, const char *what)
{
	static int host[N];
	CL_OK(clEnqueueReadBuffer(o->q, m, CL_TRUE, 0, sizeof(host), host, 0,
				  NULL, NULL));
	for (int i = 0; i < N; i++)
		CHECK(host[i] == v, "%s: [%d] = %#x, want %#x", what, i,
		      host[i], v);
}

/* Values that are no buffer handle: the ICD must look them up, not
 * dereference them. */
static void not_handles(ocl_env *o, cl_kernel k, cl_program p)
{
	static int host_array[64];
	for (int i = 0; i < 64; i++)
		host_array[i] = 0x68706c31 + i; /* looks like a magic word */
	cl_mem junk[] = {
		(cl_mem)(uintptr_t)0x10,	   /* unmapped */
		(cl_mem)(uintptr_t)0xdead0000beef, /* unmapped, not canonical */
		(cl_mem)(void *)host_array,	   /* host memory */
		(cl_mem)(void *)((char *)host_array + 3), /* misaligned */
		(cl_mem)(void *)k,			  /* another kind */
		(cl_mem)(void *)p,
		(cl_mem)(void *)o->q,
		(cl_mem)(void *)o->ctx,
	};
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		EXPECT(clSetKernelArg(k, 0, sizeof(cl_mem), &junk[i]),
		       CL_INVALID_MEM_OBJECT);
	/* ... nor where a list of handles is taken (the loader dispatches
	 * through the first one only) */
	cl_int err;
	cl_event ue = clCreateUserEvent(o->ctx, &err);
	CL_OK(err);
	CL_OK(clSetUserEventStatus(ue, CL_COMPLETE));
	cl_event evs[2] = {ue, (cl_event)(void *)host_array};
	EXPECT(clWaitForEvents(2, evs), CL_INVALID_EVENT);
	cl_mem b = filled(o, 0);
	EXPECT(clEnqueueWriteBuffer(o->q, b, CL_TRUE, 0, 4, host_array, 2, evs,
				    NULL),
	       CL_INVALID_EVENT_WAIT_LIST);
	cl_mem mems[2] = {b, junk[2]};
	EXPECT(clEnqueueMigrateMemObjects(o->q, 2, mems, 0, 0, NULL, NULL),
	       CL_INVALID_MEM_OBJECT);
	CL_OK(clReleaseMemObject(b));
	CL_OK(clReleaseEvent(ue));
}

/* Every kind of object: the second release is an error, so are retains
 * and queries of the released handle. */
static void double_release(ocl_env *o)
{
	cl_int err;
	cl_context ctx = clCreateContext(NULL, 1, &o->dev, NULL, NULL, &err);
	CL_OK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, o->dev, 0, &err);
	CL_OK(err);
	cl_mem m = clCreateBuffer(ctx, 0, 512, NULL, &err);
	CL_OK(err);
	cl_buffer_region r = {128, 64}; /* CL_DEVICE_MEM_BASE_ADDR_ALIGN */
	cl_mem sub =
		clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CL_OK(err);
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	CL_OK(err);
	CL_OK(clBuildProgram(p, 1, &o->dev, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(p, "set", &err);
	CL_OK(err);
	cl_event ue = clCreateUserEvent(ctx, &err);
	CL_OK(err);
	cl_event ev;
	int v = 5;
	CL_OK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof(v), &v, 0, NULL,
				   &ev));
	CL_OK(clFinish(q));

	CL_OK(clReleaseEvent(ev));
	EXPECT(clReleaseEvent(ev), CL_INVALID_EVENT);
	EXPECT(clRetainEvent(ev), CL_INVALID_EVENT);
	cl_int st;
	EXPECT(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st),
			      &st, NULL),
	       CL_INVALID_EVENT);
	CL_OK(clSetUserEventStatus(ue, CL_COMPLETE));
	CL_OK(clReleaseEvent(ue));
	EXPECT(clReleaseEvent(ue), CL_INVALID_EVENT);
	EXPECT(clSetUserEventStatus(ue, CL_COMPLETE), CL_INVALID_EVENT);

	CL_OK(clReleaseKernel(k));
	EXPECT(clReleaseKernel(k), CL_INVALID_KERNEL);
	EXPECT(clSetKernelArg(k, 1, sizeof(v), &v), CL_INVALID_KERNEL);
	CL_OK(clReleaseProgram(p));
	EXPECT(clReleaseProgram(p), CL_INVALID_PROGRAM);
	EXPECT(clRetainProgram(p), CL_INVALID_PROGRAM);
	CHECK(!clCreateKernel(p, "set", &err) && err == CL_INVALID_PROGRAM,
	      "kernel of a released program: %d", err);

	CL_OK(clReleaseMemObject(sub));
	EXPECT(clReleaseMemObject(sub), CL_INVALID_MEM_OBJECT);
	CL_OK(clReleaseMemObject(m));
	EXPECT(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
	EXPECT(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
	size_t sz;
	EXPECT(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(sz), &sz, NULL),
	       CL_INVALID_MEM_OBJECT);

	CL_OK(clReleaseCommandQueue(q));
	EXPECT(clReleaseCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
	EXPECT(clFinish(q), CL_INVALID_COMMAND_QUEUE);
	CL_OK(clReleaseContext(ctx));
	EXPECT(clReleaseContext(ctx), CL_INVALID_CONTEXT);
	EXPECT(clRetainContext(ctx), CL_INVALID_CONTEXT);
	CHECK(!clCreateBuffer(ctx, 0, 64, NULL, &err) &&
		      err == CL_INVALID_CONTEXT,
	      "buffer in a released context: %d", err);
}

/* A kernel launched after its buffer argument was released: an error at
 * enqueue, and the memory (by now another buffer's) untouched. */
static void released_argument(ocl_env *o, cl_kernel set)
{
	cl_mem b = filled(o, 0);
	int v = 0x0bad;
	CL_OK(clSetKernelArg(set, 0, sizeof(cl_mem), &b));
	CL_OK(clSetKernelArg(set, 1, sizeof(v), &v));
	CL_OK(clReleaseMemObject(b));
	cl_mem canary = filled(o, 0x5a5a);
	size_t g = N;
	EXPECT(clEnqueueNDRangeKernel(o->q, set, 1, NULL, &g, NULL, 0, NULL,
				      NULL),
	       CL_INVALID_KERNEL_ARGS);
	CL_OK(clFinish(o->q));
	expect_all(o, canary, 0x5a5a, "buffer allocated after the release");
	/* setting the argument again makes the kernel launchable */
	CL_OK(clSetKernelArg(set, 0, sizeof(cl_mem), &canary));
	CL_OK(clEnqueueNDRangeKernel(o->q, set, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	expect_all(o, canary, 0x0bad, "kernel after setting it again");
	CL_OK(clReleaseMemObject(canary));
}

/* Buffers released while a command that uses them waits for a user
 * event: the command keeps them (their destructors run after it), so a
 * buffer allocated meanwhile does not get their memory. */
static void released_while_pending(ocl_env *o, cl_kernel copy)
{
	cl_int err;
	cl_mem in = filled(o, 0x1234), out = filled(o, 0);
	destroyed = 0;
	CL_OK(clSetMemObjectDestructorCallback(in, on_destroy, NULL));
	CL_OK(clSetKernelArg(copy, 0, sizeof(cl_mem), &in));
	CL_OK(clSetKernelArg(copy, 1, sizeof(cl_mem), &out));
	cl_event ue = clCreateUserEvent(o->ctx, &err);
	CL_OK(err);
	size_t g = N;
	cl_event kev;
	CL_OK(clEnqueueNDRangeKernel(o->q, copy, 1, NULL, &g, NULL, 1, &ue,
				     &kev));
	CL_OK(clReleaseMemObject(in));
	CHECK(destroyed == 0, "buffer destroyed while a command needs it");
	cl_mem canary = filled(o, 0x5a5a);
	CL_OK(clSetUserEventStatus(ue, CL_COMPLETE));
	CL_OK(clWaitForEvents(1, &kev));
	CL_OK(clFinish(o->q));
	expect_all(o, out, 0x1234, "copy of a buffer released before it ran");
	expect_all(o, canary, 0x5a5a, "buffer allocated meanwhile");
	CHECK(destroyed == 1, "destructor ran %d times after completion",
	      destroyed);
	CL_OK(clReleaseEvent(kev));
	CL_OK(clReleaseEvent(ue));
	CL_OK(clReleaseMemObject(out));
	CL_OK(clReleaseMemObject(canary));
}

/* A built-in kernel's 8-byte argument that named a buffer since released */
static void released_raw_argument(ocl_env *o)
{
	cl_int err;
	cl_program p = clCreateProgramWithBuiltInKernels(o->ctx, 1, &o->dev,
							 "vadd", &err);
	CL_OK(err);
	cl_kernel k = clCreateKernel(p, "vadd", &err);
	CL_OK(err);
	cl_mem a = filled(o, 1), b = filled(o, 2), c = filled(o, 0);
	cl_ulong n = N;
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &a));
	CL_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &b));
	CL_OK(clSetKernelArg(k, 2, sizeof(cl_mem), &c));
	CL_OK(clSetKernelArg(k, 3, sizeof(n), &n));
	CL_OK(clReleaseMemObject(c));
	cl_mem canary = filled(o, 0x5a5a);
	size_t g = N;
	EXPECT(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				      NULL),
	       CL_INVALID_KERNEL_ARGS);
	CL_OK(clFinish(o->q));
	expect_all(o, canary, 0x5a5a, "built-in kernel's released argument");
	CL_OK(clReleaseMemObject(a));
	CL_OK(clReleaseMemObject(b));
	CL_OK(clReleaseMemObject(canary));
	CL_OK(clReleaseKernel(k));
	CL_OK(clReleaseProgram(p));
}

/* A released buffer's handle becomes a new buffer's once more than the
 * ICD's quarantine of released buffers went by: a kernel argument set to
 * the old buffer is still refused (the argument remembers which buffer it
 * was), and the new buffer works. */
static void reused_handle(ocl_env *o, cl_kernel set)
{
	cl_mem old = filled(o, 0);
	int v = 0x0bad;
	CL_OK(clSetKernelArg(set, 0, sizeof(cl_mem), &old));
	CL_OK(clSetKernelArg(set, 1, sizeof(v), &v));
	CL_OK(clReleaseMemObject(old));
	cl_int err;
	cl_mem same = NULL;
	unsigned n = 0;
	for (; n < 5000 && !same; n++) {
		cl_mem x = clCreateBuffer(o->ctx, 0, 64, NULL, &err);
		CL_OK(err);
		if (x == old)
			same = x;
		else
			CL_OK(clReleaseMemObject(x));
	}
	CHECK(same, "the handle was not reused in %u buffers", n);
	size_t g = 16;
	EXPECT(clEnqueueNDRangeKernel(o->q, set, 1, NULL, &g, NULL, 0, NULL,
				      NULL),
	       CL_INVALID_KERNEL_ARGS);
	CL_OK(clSetKernelArg(set, 0, sizeof(cl_mem), &same));
	CL_OK(clEnqueueNDRangeKernel(o->q, set, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	int out[16];
	CL_OK(clEnqueueReadBuffer(o->q, same, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < 16; i++)
		CHECK(out[i] == 0x0bad, "reused handle's buffer [%d] = %#x", i,
		      out[i]);
	CL_OK(clReleaseMemObject(same));
	printf("handles: a released handle came back after %u buffers\n", n);
}

/* tests/opencl/programs/handles [CASE]: every case, or the one named */
int main(int argc, char **argv)
{
	ocl_env o;
	ocl_setup(&o, 0);
	cl_program p = ocl_build(&o, src, NULL);
	cl_int err;
	cl_kernel copy = clCreateKernel(p, "copy", &err);
	CL_OK(err);
	cl_kernel set = clCreateKernel(p, "set", &err);
	CL_OK(err);

	if (ocl_case(argc, argv, "not_handles")) {
		not_handles(&o, set, p);
		puts("handles: values that are no handle refused");
	}
	if (ocl_case(argc, argv, "double_release")) {
		double_release(&o);
		puts("handles: second releases refused");
	}
	if (ocl_case(argc, argv, "released_argument")) {
		released_argument(&o, set);
		puts("handles: a released argument refused at enqueue");
	}
	if (ocl_case(argc, argv, "released_while_pending")) {
		released_while_pending(&o, copy);
		puts("handles: buffers kept by a pending command");
	}
	if (ocl_case(argc, argv, "released_raw_argument")) {
		released_raw_argument(&o);
		puts("handles: a built-in kernel's released argument refused");
	}
	if (ocl_case(argc, argv, "reused_handle"))
		reused_handle(&o, set);

	CL_OK(clReleaseKernel(copy));
	CL_OK(clReleaseKernel(set));
	CL_OK(clReleaseProgram(p));
	ocl_teardown(&o);
	puts("handles: OK");
	return 0;
}
