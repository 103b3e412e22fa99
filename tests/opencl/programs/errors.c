// SPDX-License-Identifier: MIT
/* Error cases: a build failure with its log, wrong argument sizes and
 * indices, missing arguments, bad work-group sizes, bad handles and
 * values, unsupported features, a kernel that faults on the device. */
#include "common.h"

static const char *src =
	"__kernel void k(__global int *p, int v)\n"
	"{\n"
	"	p[get_global_id(0)] = v;\n"
	"}\n"
	"__kernel __attribute__((reqd_work_group_size(4, 1, 1)))\n"
	"void r(__global int *p)\n"
	"{\n"
	"	p[get_global_id(0)] = 1;\n"
	"}\n"
	"__kernel void crash(__global int *p)\n"
	"{\n"
	"	*(__global volatile int *)(ulong)8 = 1;\n"
	"}\n";

#define EXPECT(expr, want)                                                     \
	do {                                                                   \
		cl_int e_ = (expr);                                            \
		CHECK(e_ == (want), "%s = %d, want %s", #expr, e_, #want);     \
	} while (0)

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	cl_int err;

	/* a build failure has a log naming the error */
	const char *bad = "__kernel void f(__global int *p) { p[0] = x; }\n";
	cl_program pb = clCreateProgramWithSource(o.ctx, 1, &bad, NULL, &err);
	CL_OK(err);
	EXPECT(clBuildProgram(pb, 1, &o.dev, NULL, NULL, NULL),
	       CL_BUILD_PROGRAM_FAILURE);
	char log[8192] = "";
	CL_OK(clGetProgramBuildInfo(pb, o.dev, CL_PROGRAM_BUILD_LOG,
				    sizeof(log), log, NULL));
	CHECK(strstr(log, "x"), "build log: '%s'", log);
	cl_build_status bst;
	CL_OK(clGetProgramBuildInfo(pb, o.dev, CL_PROGRAM_BUILD_STATUS,
				    sizeof(bst), &bst, NULL));
	CHECK(bst == CL_BUILD_ERROR, "build status %d", bst);
	CHECK(!clCreateKernel(pb, "f", &err) &&
		      err == CL_INVALID_PROGRAM_EXECUTABLE,
	      "kernel of a failed build: %d", err);
	clReleaseProgram(pb);

	cl_program p = ocl_build(&o, src, NULL);
	CHECK(!clCreateKernel(p, "nosuch", &err) &&
		      err == CL_INVALID_KERNEL_NAME,
	      "kernel name: %d", err);
	cl_kernel k = clCreateKernel(p, "k", &err);
	CL_OK(err);
	cl_mem b = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
	CL_OK(err);
	char c8[8] = {0};
	EXPECT(clSetKernelArg(k, 1, 8, c8), CL_INVALID_ARG_SIZE);
	EXPECT(clSetKernelArg(k, 1, 4, NULL), CL_INVALID_ARG_VALUE);
	EXPECT(clSetKernelArg(k, 0, 4, &b), CL_INVALID_ARG_SIZE);
	EXPECT(clSetKernelArg(k, 2, 4, c8), CL_INVALID_ARG_INDEX);
	cl_mem notmem = (cl_mem)(void *)&o;
	(void)notmem;
	size_t g = 256, l = 3;
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &b));
	EXPECT(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 0, NULL, NULL),
	       CL_INVALID_KERNEL_ARGS);
	int v = 7;
	CL_OK(clSetKernelArg(k, 1, sizeof(v), &v));
	/* OpenCL C 1.2 (the default): the global size must divide */
	EXPECT(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, &l, 0, NULL, NULL),
	       CL_INVALID_WORK_GROUP_SIZE);
	l = 100000;
	EXPECT(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, &l, 0, NULL, NULL),
	       CL_INVALID_WORK_ITEM_SIZE);
	size_t g2[2] = {256, 256}, l2[2] = {256, 256};
	EXPECT(clEnqueueNDRangeKernel(o.q, k, 2, NULL, g2, l2, 0, NULL, NULL),
	       CL_INVALID_WORK_GROUP_SIZE);
	EXPECT(clEnqueueNDRangeKernel(o.q, k, 4, NULL, &g, NULL, 0, NULL, NULL),
	       CL_INVALID_WORK_DIMENSION);
	/* no global size: an empty launch (2.1 and later) */
	EXPECT(clEnqueueNDRangeKernel(o.q, k, 1, NULL, NULL, NULL, 0, NULL,
				      NULL),
	       CL_SUCCESS);
	cl_event none = NULL;
	EXPECT(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 1, &none,
				      NULL),
	       CL_INVALID_EVENT_WAIT_LIST);
	EXPECT(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 1, NULL, NULL),
	       CL_INVALID_EVENT_WAIT_LIST);
	l = 64;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	int out[256];
	CL_OK(clEnqueueReadBuffer(o.q, b, CL_TRUE, 0, sizeof(out), out, 0, NULL,
				  NULL));
	for (int i = 0; i < 256; i++)
		CHECK(out[i] == 7, "out[%d] = %d", i, out[i]);

	/* reqd_work_group_size(4,1,1) */
	cl_kernel r = clCreateKernel(p, "r", &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(r, 0, sizeof(cl_mem), &b));
	size_t cwg[3];
	CL_OK(clGetKernelWorkGroupInfo(r, o.dev,
				       CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
				       sizeof(cwg), cwg, NULL));
	CHECK(cwg[0] == 4 && cwg[1] == 1 && cwg[2] == 1, "reqd %zu %zu %zu",
	      cwg[0], cwg[1], cwg[2]);
	l = 8;
	EXPECT(clEnqueueNDRangeKernel(o.q, r, 1, NULL, &g, &l, 0, NULL, NULL),
	       CL_INVALID_WORK_GROUP_SIZE);
	l = 4;
	CL_OK(clEnqueueNDRangeKernel(o.q, r, 1, NULL, &g, &l, 0, NULL, NULL));

	/* a kernel that faults: its event reports a negative status */
	cl_kernel cr = clCreateKernel(p, "crash", &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(cr, 0, sizeof(cl_mem), &b));
	cl_event ev;
	g = 1;
	CL_OK(clEnqueueNDRangeKernel(o.q, cr, 1, NULL, &g, NULL, 0, NULL, &ev));
	EXPECT(clWaitForEvents(1, &ev),
	       CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	cl_int st;
	CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st),
			     &st, NULL));
	CHECK(st < 0, "faulted kernel status %d", st);
	printf("faulting kernel: status %d\n", st);
	clReleaseEvent(ev);
	CL_OK(clFinish(o.q));

	/* bad values and handles */
	EXPECT(clGetDeviceInfo(o.dev, 0x7fff, 0, NULL, NULL), CL_INVALID_VALUE);
	cl_uint u;
	EXPECT(clGetDeviceInfo(o.dev, CL_DEVICE_MAX_COMPUTE_UNITS, 1, &u, NULL),
	       CL_INVALID_VALUE);
	EXPECT(clReleaseMemObject((cl_mem)(void *)k), CL_INVALID_MEM_OBJECT);
	EXPECT(clReleaseKernel((cl_kernel)(void *)b), CL_INVALID_KERNEL);
	CHECK(!clCreateBuffer(o.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64,
			      NULL, &err) &&
		      err == CL_INVALID_VALUE,
	      "buffer flags: %d", err);
	CHECK(!clCreateBuffer(o.ctx, 0, 0, NULL, &err) &&
		      err == CL_INVALID_BUFFER_SIZE,
	      "buffer size: %d", err);
	CHECK(!clCreateBuffer(o.ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &err) &&
		      err == CL_INVALID_HOST_PTR,
	      "host ptr: %d", err);
	EXPECT(clEnqueueReadBuffer(o.q, b, CL_TRUE, 1000, 100, out, 0, NULL,
				   NULL),
	       CL_INVALID_VALUE);
	/* unsupported: images, samplers; fine-grain system SVM */
	cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
	cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
			      .image_width = 4,
			      .image_height = 4};
	CHECK(!clCreateImage(o.ctx, 0, &fmt, &desc, NULL, &err) &&
		      err == CL_INVALID_OPERATION,
	      "image: %d", err);
	CHECK(!clCreateSampler(o.ctx, CL_FALSE, CL_ADDRESS_NONE,
			       CL_FILTER_NEAREST, &err) &&
		      err == CL_INVALID_OPERATION,
	      "sampler: %d", err);
	cl_bool yes = CL_TRUE;
	EXPECT(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
				   sizeof(yes), &yes),
	       CL_INVALID_OPERATION);

	clReleaseKernel(cr);
	clReleaseKernel(r);
	clReleaseKernel(k);
	clReleaseMemObject(b);
	clReleaseProgram(p);
	ocl_teardown(&o);
	puts("errors: OK");
	return 0;
}
