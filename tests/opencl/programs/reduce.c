// SPDX-License-Identifier: MIT
/* A work-group sum reduction in a __local kernel argument with barriers,
 * then the partial sums added on the host; CL_KERNEL_LOCAL_MEM_SIZE counts
 * the argument. */
#include "common.h"

#define N (64 * 1024)
#define WG 64

static const char *src =
	"__kernel void reduce(__global const int *in, __global int *out,\n"
	"                     __local int *tmp)\n"
	"{\n"
	"	size_t l = get_local_id(0), n = get_local_size(0);\n"
	"	tmp[l] = in[get_global_id(0)];\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (size_t s = n / 2; s > 0; s /= 2) {\n"
	"		if (l < s)\n"
	"			tmp[l] += tmp[l + s];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	if (l == 0)\n"
	"		out[get_group_id(0)] = tmp[0];\n"
	"}\n";

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	cl_program p = ocl_build(&o, src, NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(p, "reduce", &err);
	CL_OK(err);
	static int in[N], out[N / WG];
	long long want = 0;
	for (int i = 0; i < N; i++) {
		in[i] = (i * 7919) % 1000 - 500;
		want += in[i];
	}
	cl_mem bi =
		clCreateBuffer(o.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			       sizeof(in), in, &err);
	CL_OK(err);
	cl_mem bo = clCreateBuffer(o.ctx, CL_MEM_WRITE_ONLY, sizeof(out), NULL,
				   &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bi));
	CL_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bo));
	CHECK(clSetKernelArg(k, 2, WG * sizeof(int), &err) ==
		      CL_INVALID_ARG_VALUE,
	      "__local argument with a value");
	CL_OK(clSetKernelArg(k, 2, WG * sizeof(int), NULL));
	cl_ulong lm;
	CL_OK(clGetKernelWorkGroupInfo(k, o.dev, CL_KERNEL_LOCAL_MEM_SIZE,
				       sizeof(lm), &lm, NULL));
	CHECK(lm >= WG * sizeof(int), "local mem size %llu",
	      (unsigned long long)lm);
	size_t g = N, l = WG;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	CL_OK(clEnqueueReadBuffer(o.q, bo, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	long long got = 0;
	for (int i = 0; i < N / WG; i++)
		got += out[i];
	CHECK(got == want, "sum %lld, want %lld", got, want);
	clReleaseMemObject(bi);
	clReleaseMemObject(bo);
	clReleaseKernel(k);
	clReleaseProgram(p);
	ocl_teardown(&o);
	puts("reduce: OK");
	return 0;
}
