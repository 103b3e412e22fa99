// SPDX-License-Identifier: MIT
/* An OpenCL program that would keep every hart for good (docs/sessions.md,
 * "Time slices"): four kernels of 512 work-items, each looping until a
 * flag that is never set, with no time limit (run it with
 * HARTPOOL_TIMEOUT=0). Prints "spinning" once they are flushed to the
 * device and waits to be killed.
 *
 *   spinner */
#include "common.h"
#include <unistd.h>

static const char *src =
	"__kernel void spin(__global volatile uint *flag, __global uint *out)\n"
	"{\n"
	"	uint n = 0;\n"
	"	while (!flag[0])\n"
	"		n++;\n"
	"	out[get_global_id(0)] = n;\n"
	"}\n";

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	cl_program p = ocl_build(&o, src, "");
	cl_int err;
	cl_kernel k = clCreateKernel(p, "spin", &err);
	CL_OK(err);
	cl_uint zero = 0;
	cl_mem flag =
		clCreateBuffer(o.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			       sizeof(zero), &zero, &err);
	CL_OK(err);
	cl_mem out =
		clCreateBuffer(o.ctx, CL_MEM_READ_WRITE, 512 * 4, NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(flag), &flag));
	CL_OK(clSetKernelArg(k, 1, sizeof(out), &out));
	size_t global = 512, local = 1;
	for (int i = 0; i < 4; i++)
		CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &global, &local,
					     0, NULL, NULL));
	CL_OK(clFlush(o.q));
	printf("spinning\n");
	fflush(stdout);
	for (;;)
		pause();
}
