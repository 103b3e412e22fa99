// SPDX-License-Identifier: MIT
/* The firmware's built-in kernels through the ICD: vadd and saxpy with raw
 * arguments (clCreateProgramWithBuiltInKernels), buffers, copy, fill, map /
 * unmap, sub-buffers, events with profiling, a user event holding a
 * command back, an out-of-order queue with wait lists, markers. */
#include "common.h"

#define N 4096

static int cb_calls;
static void CL_CALLBACK on_done(cl_event e, cl_int st, void *data)
{
	(void)e, (void)data;
	if (st == CL_COMPLETE)
		cb_calls++;
}

int main(void)
{
	ocl_env o;
	ocl_setup(&o, CL_QUEUE_PROFILING_ENABLE);
	cl_int err;
	char names[4096];
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_BUILT_IN_KERNELS, sizeof(names),
			      names, NULL));
	CHECK(strstr(names, "vadd") && strstr(names, "saxpy"), "%s", names);
	cl_program p = clCreateProgramWithBuiltInKernels(o.ctx, 1, &o.dev,
							 "vadd;saxpy", &err);
	CL_OK(err);
	cl_program bad = clCreateProgramWithBuiltInKernels(o.ctx, 1, &o.dev,
							   "nosuch", &err);
	CHECK(!bad && err == CL_INVALID_VALUE, "unknown built-in: %d", err);
	size_t nk;
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(nk), &nk,
			       NULL));
	CHECK(nk == 2, "NUM_KERNELS %zu", nk);
	cl_kernel vadd = clCreateKernel(p, "vadd", &err);
	CL_OK(err);

	static float a[N], b[N], c[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * (float)i + 1.0f;
	}
	cl_mem ba =
		clCreateBuffer(o.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			       sizeof(a), a, &err);
	CL_OK(err);
	cl_mem bb =
		clCreateBuffer(o.ctx, CL_MEM_READ_ONLY, sizeof(b), NULL, &err);
	CL_OK(err);
	cl_mem bc =
		clCreateBuffer(o.ctx, CL_MEM_WRITE_ONLY, sizeof(c), NULL, &err);
	CL_OK(err);
	CL_OK(clEnqueueWriteBuffer(o.q, bb, CL_TRUE, 0, sizeof(b), b, 0, NULL,
				   NULL));
	/* hp_vadd_args: a, b, c (device addresses), n */
	cl_ulong n = N;
	CL_OK(clSetKernelArg(vadd, 0, sizeof(cl_mem), &ba));
	CL_OK(clSetKernelArg(vadd, 1, sizeof(cl_mem), &bb));
	CL_OK(clSetKernelArg(vadd, 2, sizeof(cl_mem), &bc));
	CL_OK(clSetKernelArg(vadd, 3, sizeof(n), &n));
	size_t g = N, l = 64;
	cl_event ev;
	CL_OK(clEnqueueNDRangeKernel(o.q, vadd, 1, NULL, &g, &l, 0, NULL, &ev));
	CL_OK(clSetEventCallback(ev, CL_COMPLETE, on_done, NULL));
	CL_OK(clEnqueueReadBuffer(o.q, bc, CL_TRUE, 0, sizeof(c), c, 0, NULL,
				  NULL));
	for (int i = 0; i < N; i++)
		CHECK(c[i] == a[i] + b[i], "vadd c[%d] = %f", i, c[i]);
	CL_OK(clWaitForEvents(1, &ev));
	CHECK(cb_calls == 1, "callback ran %d times", cb_calls);
	cl_int st;
	CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st),
			     &st, NULL));
	CHECK(st == CL_COMPLETE, "status %d", st);
	cl_ulong t[4];
	CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED,
				      sizeof(cl_ulong), &t[0], NULL));
	CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT,
				      sizeof(cl_ulong), &t[1], NULL));
	CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START,
				      sizeof(cl_ulong), &t[2], NULL));
	CL_OK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END,
				      sizeof(cl_ulong), &t[3], NULL));
	CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] > t[0],
	      "profiling %llu %llu %llu %llu", (unsigned long long)t[0],
	      (unsigned long long)t[1], (unsigned long long)t[2],
	      (unsigned long long)t[3]);
	printf("vadd: %.1f us on the device\n", (double)(t[3] - t[2]) / 1e3);
	CL_OK(clReleaseEvent(ev));

	/* a user event holds the kernel back until it is set */
	cl_event user = clCreateUserEvent(o.ctx, &err), k2;
	CL_OK(err);
	CL_OK(clEnqueueFillBuffer(o.q, bc, &(float){0.0f}, sizeof(float), 0,
				  sizeof(c), 0, NULL, NULL));
	CL_OK(clEnqueueNDRangeKernel(o.q, vadd, 1, NULL, &g, NULL, 1, &user,
				     &k2));
	CL_OK(clFlush(o.q));
	CL_OK(clGetEventInfo(k2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st),
			     &st, NULL));
	CHECK(st == CL_QUEUED, "held kernel status %d", st);
	CL_OK(clSetUserEventStatus(user, CL_COMPLETE));
	CHECK(clSetUserEventStatus(user, CL_COMPLETE) == CL_INVALID_OPERATION,
	      "user event set twice");
	CL_OK(clWaitForEvents(1, &k2));
	CL_OK(clGetEventInfo(k2, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st),
			     &st, NULL));
	CHECK(st == CL_COMPLETE, "kernel after user event: %d", st);

	/* map: the results; unmap after writing a pattern into it */
	float *m =
		clEnqueueMapBuffer(o.q, bc, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
				   0, sizeof(c), 0, NULL, NULL, &err);
	CL_OK(err);
	for (int i = 0; i < N; i++)
		CHECK(m[i] == a[i] + b[i], "mapped c[%d] = %f", i, m[i]);
	cl_uint mc;
	CL_OK(clGetMemObjectInfo(bc, CL_MEM_MAP_COUNT, sizeof(mc), &mc, NULL));
	CHECK(mc == 1, "map count %u", mc);
	for (int i = 0; i < N; i++)
		m[i] = -1.0f;
	CL_OK(clEnqueueUnmapMemObject(o.q, bc, m, 0, NULL, NULL));
	CL_OK(clEnqueueReadBuffer(o.q, bc, CL_TRUE, 0, sizeof(c), c, 0, NULL,
				  NULL));
	CHECK(c[0] == -1.0f && c[N - 1] == -1.0f, "unmap wrote back");

	/* copy and a sub-buffer */
	CL_OK(clEnqueueCopyBuffer(o.q, ba, bc, 0, 0, sizeof(a), 0, NULL, NULL));
	cl_buffer_region r = {1024, 1024};
	cl_mem sub = clCreateSubBuffer(bc, 0, CL_BUFFER_CREATE_TYPE_REGION, &r,
				       &err);
	CL_OK(err);
	float s[256];
	CL_OK(clEnqueueReadBuffer(o.q, sub, CL_TRUE, 0, sizeof(s), s, 0, NULL,
				  NULL));
	for (int i = 0; i < 256; i++)
		CHECK(s[i] == a[256 + i], "sub-buffer [%d] = %f", i, s[i]);
	r.origin = 4;
	CHECK(!clCreateSubBuffer(bc, 0, CL_BUFFER_CREATE_TYPE_REGION, &r,
				 &err) &&
		      err == CL_MISALIGNED_SUB_BUFFER_OFFSET,
	      "misaligned sub-buffer: %d", err);
	CHECK(clEnqueueCopyBuffer(o.q, bc, bc, 0, 16, 64, 0, NULL, NULL) ==
		      CL_MEM_COPY_OVERLAP,
	      "overlap");

	/* out-of-order queue: saxpy waits for two writes by event */
	cl_command_queue ooo = clCreateCommandQueue(
		o.ctx, o.dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
	CL_OK(err);
	cl_kernel saxpy = clCreateKernel(p, "saxpy", &err);
	CL_OK(err);
	cl_event w[2], ks;
	CL_OK(clEnqueueWriteBuffer(ooo, ba, CL_FALSE, 0, sizeof(a), a, 0, NULL,
				   &w[0]));
	CL_OK(clEnqueueWriteBuffer(ooo, bb, CL_FALSE, 0, sizeof(b), b, 0, NULL,
				   &w[1]));
	/* hp_saxpy_args: x, y, n, float a, reserved */
	float alpha = 3.0f;
	cl_uint zero = 0;
	CL_OK(clSetKernelArg(saxpy, 0, sizeof(cl_mem), &ba));
	CL_OK(clSetKernelArg(saxpy, 1, sizeof(cl_mem), &bb));
	CL_OK(clSetKernelArg(saxpy, 2, sizeof(n), &n));
	CL_OK(clSetKernelArg(saxpy, 3, sizeof(alpha), &alpha));
	CL_OK(clSetKernelArg(saxpy, 4, sizeof(zero), &zero));
	CL_OK(clEnqueueNDRangeKernel(ooo, saxpy, 1, NULL, &g, NULL, 2, w, &ks));
	cl_event mk;
	CL_OK(clEnqueueMarkerWithWaitList(ooo, 1, &ks, &mk));
	CL_OK(clEnqueueReadBuffer(ooo, bb, CL_TRUE, 0, sizeof(c), c, 1, &mk,
				  NULL));
	for (int i = 0; i < N; i++)
		CHECK(c[i] == alpha * a[i] + b[i], "saxpy y[%d] = %f", i, c[i]);
	CL_OK(clFinish(ooo));
	clReleaseEvent(w[0]);
	clReleaseEvent(w[1]);
	clReleaseEvent(ks);
	clReleaseEvent(mk);
	clReleaseEvent(k2);
	clReleaseEvent(user);
	CL_OK(clReleaseCommandQueue(ooo));
	CL_OK(clReleaseKernel(saxpy));
	CL_OK(clReleaseKernel(vadd));
	CL_OK(clReleaseProgram(p));
	CL_OK(clReleaseMemObject(sub));
	CL_OK(clReleaseMemObject(ba));
	CL_OK(clReleaseMemObject(bb));
	CL_OK(clReleaseMemObject(bc));
	ocl_teardown(&o);
	puts("builtin: OK");
	return 0;
}
