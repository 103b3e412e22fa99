// SPDX-License-Identifier: MIT
/* A command may wait for an event of a queue that has been released
 * since: clReleaseCommandQueue flushes and finishes the queue, so the
 * event is complete and the waiting command runs (the Khronos CTS's
 * multi_queue_flush_on_release; the device used to refuse the wait as
 * "an event of another session's queue" once the queue had no owner).
 * Both orders: the waiting command enqueued before the release and
 * after it.
 *
 *   released_dep [ROUNDS]   (default 20) */
#include "common.h"
#include <stdbool.h>

static const char *src = "__kernel void put(__global int *out, int v)\n"
			 "{ out[get_global_id(0)] = v; }\n";

static void round_trip(ocl_env *o, cl_kernel k, cl_mem b, int v, bool after)
{
	cl_int err;
	cl_command_queue a = clCreateCommandQueue(o->ctx, o->dev, 0, &err);
	CL_OK(err);
	size_t g = 256;
	cl_event ea, eb;
	CL_OK(clSetKernelArg(k, 1, sizeof(int), &v));
	CL_OK(clEnqueueNDRangeKernel(a, k, 1, NULL, &g, NULL, 0, NULL, &ea));
	if (after)
		CL_OK(clReleaseCommandQueue(a));
	int w = v + 1;
	CL_OK(clSetKernelArg(k, 1, sizeof(int), &w));
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 1, &ea, &eb));
	if (!after)
		CL_OK(clReleaseCommandQueue(a));
	CL_OK(clFlush(o->q));
	CL_OK(clWaitForEvents(1, &eb));
	cl_int st;
	CL_OK(clGetEventInfo(eb, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st),
			     &st, NULL));
	CHECK(st == CL_COMPLETE, "the waiting command ended with %d", st);
	int out[256];
	CL_OK(clEnqueueReadBuffer(o->q, b, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < 256; i++)
		CHECK(out[i] == w, "item %d: %d, expected %d", i, out[i], w);
	clReleaseEvent(ea);
	clReleaseEvent(eb);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	ocl_env o;
	ocl_setup(&o, 0);
	cl_program p = ocl_build(&o, src, NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(p, "put", &err);
	CL_OK(err);
	cl_mem b = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE, 256 * sizeof(int),
				  NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &b));
	for (int r = 0; r < rounds; r++)
		round_trip(&o, k, b, 10 * r, r & 1);
	printf("released_dep: %d rounds OK\n", rounds);
	return 0;
}
