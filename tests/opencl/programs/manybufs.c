// SPDX-License-Identifier: MIT
/* Many small buffers: 4,000 buffers of 64 bytes, each filled with its
 * index, then a kernel over some of them (the first, the last, and every
 * 97th) adds them into a result buffer, and every buffer is read back.
 * The device heap holds 1,024 buffers today (HP_MBOX_BUFFERS_MAX): this
 * program fails until the heap takes more; it is not part of make test:
 *
 *   OCL_ICD_VENDORS=$PWD/build/host/hartpool.icd \
 *       timeout 600 build/host/opencl/manybufs [COUNT]
 */
#include "common.h"

static const char *src =
	"__kernel void add(__global const int *a, __global int *sum)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	sum[i] += a[i];\n"
	"}\n";

#define WORDS 16 /* 64 bytes */

int main(int argc, char **argv)
{
	unsigned count = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 4000;
	CHECK(count >= 2, "COUNT %u: at least 2", count);
	ocl_env o;
	ocl_setup(&o, 0);
	cl_int err;
	cl_mem *b = calloc(count, sizeof(*b));
	CHECK(b, "out of memory");
	for (unsigned i = 0; i < count; i++) {
		int v[WORDS];
		for (int j = 0; j < WORDS; j++)
			v[j] = (int)i;
		b[i] = clCreateBuffer(o.ctx, CL_MEM_COPY_HOST_PTR, sizeof(v), v,
				      &err);
		CHECK(err == CL_SUCCESS, "buffer %u of %u (64 bytes): %d", i,
		      count, err);
	}
	printf("manybufs: %u buffers of 64 bytes\n", count);
	cl_program p = ocl_build(&o, src, NULL);
	cl_kernel k = clCreateKernel(p, "add", &err);
	CL_OK(err);
	int zero[WORDS] = {0};
	cl_mem sum = clCreateBuffer(o.ctx, CL_MEM_COPY_HOST_PTR, sizeof(zero),
				    zero, &err);
	CHECK(err == CL_SUCCESS, "the sum buffer after %u: %d", count, err);
	CL_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &sum));
	long want = 0;
	size_t g = WORDS;
	/* buffers 0, 97, 194, ... and the last */
	for (unsigned i = 0;; i += 97) {
		if (i > count - 1)
			i = count - 1;
		CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &b[i]));
		CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 0, NULL,
					     NULL));
		want += i;
		if (i == count - 1)
			break;
	}
	int got[WORDS];
	CL_OK(clEnqueueReadBuffer(o.q, sum, CL_TRUE, 0, sizeof(got), got, 0,
				  NULL, NULL));
	for (int j = 0; j < WORDS; j++)
		CHECK(got[j] == want, "sum[%d] = %d, want %ld", j, got[j],
		      want);
	for (unsigned i = 0; i < count; i++) {
		CL_OK(clEnqueueReadBuffer(o.q, b[i], CL_TRUE, 0, sizeof(got),
					  got, 0, NULL, NULL));
		for (int j = 0; j < WORDS; j++)
			CHECK(got[j] == (int)i, "buffer %u word %d = %d", i, j,
			      got[j]);
		CL_OK(clReleaseMemObject(b[i]));
	}
	free(b);
	CL_OK(clReleaseMemObject(sum));
	CL_OK(clReleaseKernel(k));
	CL_OK(clReleaseProgram(p));
	ocl_teardown(&o);
	puts("manybufs: OK");
	return 0;
}
