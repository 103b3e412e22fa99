/* SPDX-License-Identifier: MIT */
/* Shared helpers of the OpenCL host test programs: the first platform's
 * first device, a context and a queue; CHECK() exits non-zero. */
#ifndef HP_OCL_TEST_COMMON_H
#define HP_OCL_TEST_COMMON_H

#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);  \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			exit(1);                                               \
		}                                                              \
	} while (0)
#define CL_OK(expr)                                                            \
	do {                                                                   \
		cl_int e_ = (expr);                                            \
		CHECK(e_ == CL_SUCCESS, "%s = %d", #expr, e_);                 \
	} while (0)

typedef struct {
	cl_platform_id plat;
	cl_device_id dev;
	cl_context ctx;
	cl_command_queue q;
} ocl_env;

static inline void ocl_setup(ocl_env *o, cl_command_queue_properties props)
{
	cl_uint n = 0;
	CL_OK(clGetPlatformIDs(1, &o->plat, &n));
	CHECK(n >= 1, "no platform");
	CL_OK(clGetDeviceIDs(o->plat, CL_DEVICE_TYPE_ALL, 1, &o->dev, NULL));
	cl_int err;
	o->ctx = clCreateContext(NULL, 1, &o->dev, NULL, NULL, &err);
	CL_OK(err);
	cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, props, 0};
	o->q = clCreateCommandQueueWithProperties(o->ctx, o->dev, qp, &err);
	CL_OK(err);
}

static inline void ocl_teardown(ocl_env *o)
{
	CL_OK(clReleaseCommandQueue(o->q));
	CL_OK(clReleaseContext(o->ctx));
}

/* Run the case @p name: every case when the program was given no
 * argument, else only the one it names (to try one case at a time). */
static inline int ocl_case(int argc, char **argv, const char *name)
{
	return argc < 2 || !strcmp(argv[1], name);
}

/* @p p's build log on the device (a static buffer: the next call's too). */
static inline char *ocl_log(ocl_env *o, cl_program p)
{
	static char log[16384];
	log[0] = 0;
	clGetProgramBuildInfo(p, o->dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log,
			      NULL);
	return log;
}

/* Build @p src; on failure print the log and exit. */
static inline cl_program ocl_build(ocl_env *o, const char *src,
				   const char *opts)
{
	cl_int err;
	cl_program p = clCreateProgramWithSource(o->ctx, 1, &src, NULL, &err);
	CL_OK(err);
	err = clBuildProgram(p, 1, &o->dev, opts, NULL, NULL);
	if (err != CL_SUCCESS) {
		char log[16384] = "";
		clGetProgramBuildInfo(p, o->dev, CL_PROGRAM_BUILD_LOG,
				      sizeof(log), log, NULL);
		fprintf(stderr, "build failed (%d):\n%s\n", err, log);
		exit(1);
	}
	return p;
}

#endif
