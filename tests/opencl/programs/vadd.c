// SPDX-License-Identifier: MIT
/* Vector add from OpenCL C source: build, kernel and argument info, a
 * launch with the device choosing the work-group size, printf, the
 * program's binary loaded again with clCreateProgramWithBinary. */
#include "common.h"

#define N 10000

static const char *src =
	"__kernel void vadd(__global const float *a, __global const float *b,\n"
	"                   __global float *c, uint n)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	if (i < n)\n"
	"		c[i] = a[i] + b[i];\n"
	"	if (i == 0)\n"
	"		printf(\"hello from work-item %d\\n\", (int)i);\n"
	"}\n";

/* Destructor callbacks: called in reverse order of registration. */
static int calls[4], ncalls;
static void CL_CALLBACK mem_gone(cl_mem m, void *data)
{
	(void)m;
	calls[ncalls++ & 3] = (int)(intptr_t)data;
}

static void run(ocl_env *o, cl_program p, const float *a, const float *b)
{
	static float c[N];
	cl_int err;
	cl_kernel k = clCreateKernel(p, "vadd", &err);
	CL_OK(err);
	cl_mem ba = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, N * 4,
				   (void *)a, &err);
	CL_OK(err);
	cl_mem bb = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, N * 4,
				   (void *)b, &err);
	CL_OK(err);
	cl_mem bc =
		clCreateBuffer(o->ctx, CL_MEM_WRITE_ONLY, N * 4, NULL, &err);
	CL_OK(err);
	cl_uint n = N;
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &ba));
	CL_OK(clSetKernelArg(k, 1, sizeof(cl_mem), &bb));
	CL_OK(clSetKernelArg(k, 2, sizeof(cl_mem), &bc));
	CL_OK(clSetKernelArg(k, 3, sizeof(n), &n));
	size_t g = N;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	CL_OK(clEnqueueReadBuffer(o->q, bc, CL_TRUE, 0, N * 4, c, 0, NULL,
				  NULL));
	for (int i = 0; i < N; i++)
		CHECK(c[i] == a[i] + b[i], "c[%d] = %f", i, c[i]);
	ncalls = 0;
	CL_OK(clSetMemObjectDestructorCallback(ba, mem_gone, (void *)1));
	CL_OK(clSetMemObjectDestructorCallback(ba, mem_gone, (void *)2));
	CHECK(clSetMemObjectDestructorCallback(ba, NULL, NULL) ==
		      CL_INVALID_VALUE,
	      "a NULL destructor callback accepted");
	clReleaseMemObject(ba);
	CHECK(ncalls == 2 && calls[0] == 2 && calls[1] == 1,
	      "destructor callbacks: %d calls (%d, %d)", ncalls, calls[0],
	      calls[1]);
	clReleaseMemObject(bb);
	clReleaseMemObject(bc);
	clReleaseKernel(k);
}

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	static float a[N], b[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = (float)(N - i);
	}
	cl_program p = ocl_build(&o, src, "-cl-std=CL3.0");
	char names[256];
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names,
			       NULL));
	CHECK(!strcmp(names, "vadd"), "kernel names '%s'", names);
	cl_int err;
	cl_kernel k = clCreateKernel(p, "vadd", &err);
	CL_OK(err);
	cl_uint na;
	CL_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(na), &na, NULL));
	CHECK(na == 4, "num args %u", na);
	char s[64];
	CL_OK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof(s), s, NULL));
	CHECK(!strcmp(s, "b"), "arg 1 name '%s'", s);
	CL_OK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_TYPE_NAME, sizeof(s), s,
				 NULL));
	CHECK(!strcmp(s, "float*"), "arg 2 type '%s'", s);
	cl_kernel_arg_address_qualifier aq;
	CL_OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
				 sizeof(aq), &aq, NULL));
	CHECK(aq == CL_KERNEL_ARG_ADDRESS_GLOBAL, "address qualifier %u", aq);
	cl_kernel_arg_type_qualifier tq;
	CL_OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof(tq),
				 &tq, NULL));
	CHECK(tq & CL_KERNEL_ARG_TYPE_CONST, "type qualifier %llu",
	      (unsigned long long)tq);
	size_t wg;
	CL_OK(clGetKernelWorkGroupInfo(k, o.dev, CL_KERNEL_WORK_GROUP_SIZE,
				       sizeof(wg), &wg, NULL));
	CHECK(wg >= 1, "work-group size %zu", wg);
	clReleaseKernel(k);
	run(&o, p, a, b);

	/* the binary, loaded again */
	size_t bs;
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(bs), &bs,
			       NULL));
	unsigned char *bin = malloc(bs);
	CHECK(bin, "malloc");
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin,
			       NULL));
	cl_int st;
	cl_program p2 = clCreateProgramWithBinary(
		o.ctx, 1, &o.dev, &bs, (const unsigned char **)&bin, &st, &err);
	CL_OK(err);
	CL_OK(clBuildProgram(p2, 1, &o.dev, NULL, NULL, NULL));
	run(&o, p2, a, b);
	free(bin);
	clReleaseProgram(p2);
	clReleaseProgram(p);
	ocl_teardown(&o);
	puts("vadd: OK");
	return 0;
}
