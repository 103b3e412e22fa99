// SPDX-License-Identifier: MIT
/*
 * A plain OpenCL host program (no hartpool header): the first platform's
 * first device, saxpy.cl built at run time, buffers, a kernel with a
 * __local argument, profiling, results checked on the host.
 *
 *   gcc saxpy.c -o saxpy -lOpenCL
 *   OCL_ICD_VENDORS=$PWD/build/host/hartpool.icd ./saxpy saxpy.cl
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define LOCAL 64

#define CHECK(call)                                                            \
	do {                                                                   \
		cl_int e_ = (call);                                            \
		if (e_ != CL_SUCCESS) {                                        \
			fprintf(stderr, "%s: error %d\n", #call, e_);          \
			return 1;                                              \
		}                                                              \
	} while (0)

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = calloc(1, (size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "saxpy.cl";
	char *src = slurp(path);
	if (!src) {
		perror(path);
		return 1;
	}
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	char name[256];
	CHECK(clGetPlatformIDs(1, &plat, NULL));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	CHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL));
	printf("device: %s\n", name);
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
				       CL_QUEUE_PROFILING_ENABLE, 0};
	cl_command_queue q =
		clCreateCommandQueueWithProperties(ctx, dev, props, &err);
	CHECK(err);
	cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&src,
						    NULL, &err);
	CHECK(err);
	if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
		size_t n;
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL,
				      &n);
		char *log = malloc(n + 1);
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log,
				      NULL);
		fprintf(stderr, "build failed:\n%s\n", log);
		return 1;
	}
	cl_kernel k = clCreateKernel(prog, "saxpy", &err);
	CHECK(err);

	static float x[N], y[N], sums[N / LOCAL];
	for (int i = 0; i < N; i++) {
		x[i] = (float)i;
		y[i] = (float)(N - i);
	}
	cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				   sizeof(x), x, &err);
	CHECK(err);
	cl_mem by =
		clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(y), NULL, &err);
	CHECK(err);
	cl_mem bs = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(sums), NULL,
				   &err);
	CHECK(err);
	CHECK(clEnqueueWriteBuffer(q, by, CL_TRUE, 0, sizeof(y), y, 0, NULL,
				   NULL));
	float a = 2.0f;
	CHECK(clSetKernelArg(k, 0, sizeof(a), &a));
	CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &bx));
	CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &by));
	CHECK(clSetKernelArg(k, 3, sizeof(cl_mem), &bs));
	CHECK(clSetKernelArg(k, 4, LOCAL * sizeof(float), NULL));
	size_t global = N, local = LOCAL;
	cl_event ev;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL,
				     &ev));
	CHECK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, sizeof(y), y, 1, &ev,
				  NULL));
	CHECK(clEnqueueReadBuffer(q, bs, CL_TRUE, 0, sizeof(sums), sums, 0,
				  NULL, NULL));
	cl_ulong t0, t1;
	CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START,
				      sizeof(t0), &t0, NULL));
	CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1),
				      &t1, NULL));

	int bad = 0;
	for (int i = 0; i < N; i++)
		bad += y[i] != 2.0f * (float)i + (float)(N - i);
	for (int g = 0; g < N / LOCAL; g++) {
		double want = 0;
		for (int i = g * LOCAL; i < (g + 1) * LOCAL; i++)
			want += 2.0 * i + (N - i);
		bad += fabs(sums[g] - want) > 1e-3 * want;
	}
	printf("saxpy of %d floats in %d work-groups: %s, kernel %.1f us\n", N,
	       N / LOCAL, bad ? "WRONG" : "OK", (double)(t1 - t0) / 1000.0);
	clReleaseEvent(ev);
	clReleaseMemObject(bx);
	clReleaseMemObject(by);
	clReleaseMemObject(bs);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(src);
	return bad != 0;
}
