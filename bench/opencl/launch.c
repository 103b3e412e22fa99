// SPDX-License-Identifier: MIT
/*
 * The ICD's launch path in wall time (bench/opencl.sh): an empty kernel
 * enqueued N times back to back then one clFinish (pipelined, the time per
 * launch) on an in-order and an out-of-order queue, and N times enqueue +
 * clFinish (synchronous, the median round trip). A plain OpenCL program:
 * the first platform's first device.
 *
 *   cl_launch [N]    prints: pipelined_us=X ooo_us=Y sync_us=Z
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(x)                                                               \
	do {                                                                   \
		cl_int e_ = (x);                                               \
		if (e_ != CL_SUCCESS) {                                        \
			fprintf(stderr, "%s: error %d\n", #x, e_);             \
			exit(1);                                               \
		}                                                              \
	} while (0)

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* @p n launches back to back, then one clFinish: the time per launch. */
static double stream(cl_command_queue q, cl_kernel k, int n)
{
	size_t g = 1;
	double t0 = now_us();
	for (int i = 0; i < n; i++)
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL,
					     NULL));
	CHECK(clFinish(q));
	return (now_us() - t0) / n;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	if (n < 1 || n > 1000000)
		n = 1000;
	cl_platform_id p;
	cl_device_id d;
	cl_int e;
	CHECK(clGetPlatformIDs(1, &p, NULL));
	CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
	cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
	CHECK(e);
	cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &e);
	CHECK(e);
	const char *src = "kernel void empty(void) {}";
	cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &e);
	CHECK(e);
	CHECK(clBuildProgram(prog, 1, &d, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(prog, "empty", &e);
	CHECK(e);
	size_t g = 1;
	/* warm up: the device boots on first use */
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
	CHECK(clFinish(q));

	double pipelined = stream(q, k, n);
	cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES,
				     CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
	cl_command_queue qo = clCreateCommandQueueWithProperties(c, d, ooo, &e);
	CHECK(e);
	double out_of_order = stream(qo, k, n);
	clReleaseCommandQueue(qo);

	double *s = malloc(n * sizeof(*s));
	if (!s)
		return 1;
	for (int i = 0; i < n; i++) {
		double a = now_us();
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL,
					     NULL));
		CHECK(clFinish(q));
		s[i] = now_us() - a;
	}
	qsort(s, n, sizeof(*s), cmp);
	printf("pipelined_us=%.1f ooo_us=%.1f sync_us=%.1f\n", pipelined,
	       out_of_order, s[n / 2]);
	free(s);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
	return 0;
}
