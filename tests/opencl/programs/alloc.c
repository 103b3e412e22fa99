// SPDX-License-Identifier: MIT
/* CL_DEVICE_MAX_MEM_ALLOC_SIZE can be allocated on a device nothing else
 * uses, after the ICD has taken what it needs itself (printf buffers of
 * kernels in flight, a program's staging buffer), and it is at least what
 * FULL_PROFILE asks: max(min(1 GiB, global memory / 4), 32 MiB). A buffer
 * one byte larger is CL_INVALID_BUFFER_SIZE. */
#include "common.h"

static const char *src =
	"__kernel void last(__global uchar *p, ulong n)\n"
	"{\n"
	"	if (get_global_id(0) == 0)\n"
	"		printf(\"alloc: kernel %d ran\\n\", (int)n);\n"
	"	p[n - 1 - get_global_id(0)] = 0xa5;\n"
	"}\n";

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	cl_ulong max, global;
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max),
			      &max, NULL));
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(global),
			      &global, NULL));
	cl_ulong quarter = global / 4, gib = 1ull << 30, floor = 32ull << 20;
	cl_ulong need = quarter < gib ? quarter : gib;
	if (need < floor)
		need = floor;
	printf("alloc: global %llu, max alloc %llu (%.1f%%), FULL_PROFILE "
	       "minimum %llu\n",
	       (unsigned long long)global, (unsigned long long)max,
	       100.0 * (double)max / (double)global, (unsigned long long)need);
	CHECK(max >= need && max <= global, "max alloc %llu, need %llu..%llu",
	      (unsigned long long)max, (unsigned long long)need,
	      (unsigned long long)global);

	/* what the ICD allocates itself: a program, kernels in flight with
	 * their printf buffers, all of them held back by a user event */
	cl_program p = ocl_build(&o, src, NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(p, "last", &err);
	CL_OK(err);
	cl_mem small = clCreateBuffer(o.ctx, 0, 64, NULL, &err);
	CL_OK(err);
	cl_ulong n = 64;
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &small));
	CL_OK(clSetKernelArg(k, 1, sizeof(n), &n));
	cl_event ue = clCreateUserEvent(o.ctx, &err);
	CL_OK(err);
	size_t g = 1;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 1, &ue, NULL));
	CL_OK(clSetUserEventStatus(ue, CL_COMPLETE));
	CL_OK(clFinish(o.q));
	CL_OK(clReleaseEvent(ue));
	CL_OK(clReleaseMemObject(small));

	/* the largest buffer, used by a kernel (which gets a printf buffer)
	 * and read back at both ends */
	cl_mem big = clCreateBuffer(o.ctx, 0, (size_t)max, NULL, &err);
	CHECK(err == CL_SUCCESS,
	      "a buffer of CL_DEVICE_MAX_MEM_ALLOC_SIZE "
	      "(%llu): %d",
	      (unsigned long long)max, err);
	unsigned char first = 0x5c;
	CL_OK(clEnqueueWriteBuffer(o.q, big, CL_TRUE, 0, 1, &first, 0, NULL,
				   NULL));
	n = max;
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &big));
	CL_OK(clSetKernelArg(k, 1, sizeof(n), &n));
	g = 4;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
	unsigned char ends[5];
	CL_OK(clEnqueueReadBuffer(o.q, big, CL_TRUE, (size_t)max - 4, 4, ends,
				  0, NULL, NULL));
	CL_OK(clEnqueueReadBuffer(o.q, big, CL_TRUE, 0, 1, ends + 4, 0, NULL,
				  NULL));
	for (int i = 0; i < 4; i++)
		CHECK(ends[i] == 0xa5, "last bytes: [%d] = %#x", i, ends[i]);
	CHECK(ends[4] == 0x5c, "first byte %#x", ends[4]);
	CL_OK(clReleaseMemObject(big));

	CHECK(!clCreateBuffer(o.ctx, 0, (size_t)max + 1, NULL, &err) &&
		      err == CL_INVALID_BUFFER_SIZE,
	      "one byte more: %d", err);
	CL_OK(clReleaseKernel(k));
	CL_OK(clReleaseProgram(p));
	ocl_teardown(&o);
	puts("alloc: OK");
	return 0;
}
