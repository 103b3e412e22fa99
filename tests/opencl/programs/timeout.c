// SPDX-License-Identifier: MIT
/* Kernel time limits through the ICD (HARTPOOL_TIMEOUT or `timeout =` in
 * icd.conf; tests/opencl/icd.part.sh sets them): an endless kernel ends
 * with HP_TIMEOUT (-1001) as its event's status, the calls that wait for
 * it return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, a command that
 * waits for it fails too, and the device runs the next kernel.
 *
 *   timeout            the endless kernel must be stopped
 *   timeout none       HARTPOOL_TIMEOUT=0: only a kernel that ends runs */
#include "common.h"
#include <stdbool.h>

#define HP_TIMEOUT (-1001) /* hartpool/error.h */

static const char *src = "__kernel void spin(__global volatile int *p)\n"
			 "{\n"
			 "	while (p[0] == 0)\n"
			 "		p[1]++;\n"
			 "}\n"
			 "__kernel void set(__global int *p, int v)\n"
			 "{\n"
			 "	p[get_global_id(0)] = v;\n"
			 "}\n";

static void run_set(ocl_env *o, cl_kernel set, cl_mem b)
{
	int v = 42, out[4];
	CL_OK(clSetKernelArg(set, 0, sizeof(cl_mem), &b));
	CL_OK(clSetKernelArg(set, 1, sizeof(v), &v));
	size_t g = 4;
	CL_OK(clEnqueueNDRangeKernel(o->q, set, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	CL_OK(clEnqueueReadBuffer(o->q, b, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < 4; i++)
		CHECK(out[i] == 42, "out[%d] = %d", i, out[i]);
}

int main(int argc, char **argv)
{
	bool none = argc > 1 && !strcmp(argv[1], "none");
	ocl_env o;
	ocl_setup(&o, 0);
	cl_program p = ocl_build(&o, src, NULL);
	cl_int err;
	cl_kernel spin = clCreateKernel(p, "spin", &err);
	CL_OK(err);
	cl_kernel set = clCreateKernel(p, "set", &err);
	CL_OK(err);
	int zero[4] = {0};
	cl_mem b = clCreateBuffer(o.ctx, CL_MEM_COPY_HOST_PTR, sizeof(zero),
				  zero, &err);
	CL_OK(err);
	if (none) {
		run_set(&o, set, b);
		puts("timeout: none: a kernel that ends runs");
		goto out;
	}
	CL_OK(clSetKernelArg(spin, 0, sizeof(cl_mem), &b));
	size_t g = 1;
	cl_event ev, after;
	CL_OK(clEnqueueNDRangeKernel(o.q, spin, 1, NULL, &g, NULL, 0, NULL,
				     &ev));
	int host[4];
	CL_OK(clEnqueueReadBuffer(o.q, b, CL_FALSE, 0, sizeof(host), host, 1,
				  &ev, &after));
	cl_int rc = clWaitForEvents(1, &ev);
	CHECK(rc == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
	      "waiting for the endless kernel: %d", rc);
	cl_int st;
	CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st),
			     &st, NULL));
	CHECK(st == HP_TIMEOUT, "endless kernel: status %d, want %d", st,
	      HP_TIMEOUT);
	printf("timeout: endless kernel stopped: status %d\n", (int)st);
	rc = clWaitForEvents(1, &after);
	CHECK(rc == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
	      "a read waiting for it: %d", rc);
	CL_OK(clGetEventInfo(after, CL_EVENT_COMMAND_EXECUTION_STATUS,
			     sizeof(st), &st, NULL));
	CHECK(st == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
	      "the read's status %d", st);
	CL_OK(clReleaseEvent(ev));
	CL_OK(clReleaseEvent(after));
	CL_OK(clFinish(o.q));
	run_set(&o, set, b);
	puts("timeout: the device serves on");
out:
	CL_OK(clReleaseMemObject(b));
	CL_OK(clReleaseKernel(spin));
	CL_OK(clReleaseKernel(set));
	CL_OK(clReleaseProgram(p));
	ocl_teardown(&o);
	puts("timeout: OK");
	return 0;
}
