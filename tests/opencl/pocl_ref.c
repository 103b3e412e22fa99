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
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

static void check(cl_int e, const char *what)
{
	if (e != CL_SUCCESS) {
		fprintf(stderr, "%s: error %d\n", what, e);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s builtins_values.cl\n", argv[0]);
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
	cl_kernel k = clCreateKernel(p, "builtins_values", &e);
	check(e, "clCreateKernel");
	float zf[N] = {0};
	int zi[N] = {0};
	cl_mem bf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				   sizeof(zf), zf, &e);
	check(e, "clCreateBuffer");
	cl_mem bi = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				   sizeof(zi), zi, &e);
	check(e, "clCreateBuffer");
	check(clSetKernelArg(k, 0, sizeof(bf), &bf), "clSetKernelArg");
	check(clSetKernelArg(k, 1, sizeof(bi), &bi), "clSetKernelArg");
	size_t global = N;
	check(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL,
				     NULL),
	      "clEnqueueNDRangeKernel");
	check(clEnqueueReadBuffer(q, bf, CL_TRUE, 0, sizeof(zf), zf, 0, NULL,
				  NULL),
	      "clEnqueueReadBuffer");
	check(clEnqueueReadBuffer(q, bi, CL_TRUE, 0, sizeof(zi), zi, 0, NULL,
				  NULL),
	      "clEnqueueReadBuffer");
	printf("buf0 f32[%d]:", N);
	for (int i = 0; i < N; i++)
		printf(" %.9g", zf[i]);
	printf("\nbuf1 i32[%d]:", N);
	for (int i = 0; i < N; i++)
		printf(" %d", zi[i]);
	printf("\n");
	return 0;
}
