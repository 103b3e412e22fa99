// SPDX-License-Identifier: MIT
/*
 * Reference values for tests/opencl/kernels/builtins_values.cl from another
 * OpenCL implementation on the host (PoCL's CPU device, or whichever the
 * loader lists first): runs builtins_values over 64 work-items and prints
 * its two buffers like `hartpool run --print` does, with every float's
 * digits.
 *
 *   gcc -O2 -o /tmp/pocl_ref tests/opencl/pocl_ref.c -lOpenCL
 *   /tmp/pocl_ref tests/opencl/kernels/builtins_values.cl
 *   /tmp/pocl_ref FILE.cl KERNEL GLOBAL FLOATS INTS
 *
 * The kernel takes (__global float *, __global int *) buffers of FLOATS and
 * INTS elements (default builtins_values 64 64 64), zeroed.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static void check(cl_int e, const char *what)
{
	if (e != CL_SUCCESS) {
		fprintf(stderr, "%s: error %d\n", what, e);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 6) {
		fprintf(stderr,
			"usage: %s FILE.cl [KERNEL GLOBAL FLOATS INTS]\n",
			argv[0]);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	static char src[1 << 16];
	size_t n = fread(src, 1, sizeof(src) - 1, f);
	fclose(f);
	src[n] = 0;

	cl_platform_id plat;
	cl_device_id dev;
	cl_int e;
	check(clGetPlatformIDs(1, &plat, NULL), "clGetPlatformIDs");
	check(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL),
	      "clGetDeviceIDs");
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
	check(e, "clCreateContext");
	cl_command_queue q =
		clCreateCommandQueueWithProperties(ctx, dev, NULL, &e);
	check(e, "clCreateCommandQueue");
	const char *s = src;
	cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &e);
	check(e, "clCreateProgramWithSource");
	if (clBuildProgram(p, 1, &dev, "-cl-std=CL3.0", NULL, NULL)) {
		static char log[1 << 16];
		clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof(log),
				      log, NULL);
		fprintf(stderr, "build failed:\n%s\n", log);
		return 1;
	}
	const char *name = argc == 6 ? argv[2] : "builtins_values";
	size_t global = argc == 6 ? strtoul(argv[3], NULL, 0) : 64;
	size_t nf = argc == 6 ? strtoul(argv[4], NULL, 0) : 64;
	size_t ni = argc == 6 ? strtoul(argv[5], NULL, 0) : 64;
	cl_kernel k = clCreateKernel(p, name, &e);
	check(e, "clCreateKernel");
	float *zf = calloc(nf, sizeof(float));
	int *zi = calloc(ni, sizeof(int));
	if (!zf || !zi)
		return 1;
	cl_mem bf =
		clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			       nf * sizeof(float), zf, &e);
	check(e, "clCreateBuffer");
	cl_mem bi =
		clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			       ni * sizeof(int), zi, &e);
	check(e, "clCreateBuffer");
	check(clSetKernelArg(k, 0, sizeof(bf), &bf), "clSetKernelArg");
	check(clSetKernelArg(k, 1, sizeof(bi), &bi), "clSetKernelArg");
	check(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL,
				     NULL),
	      "clEnqueueNDRangeKernel");
	check(clEnqueueReadBuffer(q, bf, CL_TRUE, 0, nf * sizeof(float), zf, 0,
				  NULL, NULL),
	      "clEnqueueReadBuffer");
	check(clEnqueueReadBuffer(q, bi, CL_TRUE, 0, ni * sizeof(int), zi, 0,
				  NULL, NULL),
	      "clEnqueueReadBuffer");
	printf("buf0 f32[%zu]:", nf);
	for (size_t i = 0; i < nf; i++)
		printf(" %.9g", zf[i]);
	printf("\nbuf1 i32[%zu]:", ni);
	for (size_t i = 0; i < ni; i++)
		printf(" %d", zi[i]);
	printf("\n");
	return 0;
}
