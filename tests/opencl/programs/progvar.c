// SPDX-License-Identifier: MIT
/* Program-scope global variables (OpenCL C 3.0's __opencl_c_program_scope_
 * global_variables), results checked on the host: initializers of every
 * kind (scalars, arrays, a struct, zeros), values kept from one launch to
 * the next and seen by the program's other kernels, atomics on them,
 * CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, a rebuild that resets them,
 * two programs with their own instances, initializers holding addresses
 * of variables (and NULL), and the builds refused with a log: too many
 * bytes, an initializer holding the address of __constant data. */
#include "common.h"

static const char *src =
	"global int counter = 5;\n"
	"global float table[4] = {1, 2, 3, 4};\n"
	"typedef struct { int a; char b; long c; } rec;\n"
	"global rec st = {7, 8, 9};\n"
	"global int seen[64];\n"
	"static global int hidden = 40;\n"
	"global int *to_seen = &seen[3];\n"
	"typedef struct { global float *t; int n; global int *none; } view;\n"
	"global view tv = {table + 1, 3, 0};\n"
	"int next(void) { return atomic_inc(&counter); }\n"
	"kernel void step(global int *o)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	int before = seen[i];\n"
	"	seen[i] = before + (int)i;\n"
	"	o[i] = before + (int)table[i % 4] + st.a + st.b + hidden;\n"
	"	next();\n"
	"}\n"
	"kernel void report(global long *o)\n"
	"{\n"
	"	o[0] = counter;\n"
	"	o[1] = st.c;\n"
	"	o[2] = *to_seen;\n"
	"	o[3] = (long)tv.t[0] * 10 + tv.n + (tv.none == 0) * 100;\n"
	"	st.c += 1;\n"
	"}\n";

static void run(ocl_env *o, cl_program p, const char *name, cl_mem b, size_t g)
{
	cl_int err;
	cl_kernel k = clCreateKernel(p, name, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	CL_OK(clFinish(o->q));
	clReleaseKernel(k);
}

static void check_round(ocl_env *o, cl_program p, cl_mem bi, cl_mem bl,
			int round)
{
	enum { N = 16 };
	run(o, p, "step", bi, N);
	int out[N];
	CL_OK(clEnqueueReadBuffer(o->q, bi, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < N; i++) {
		int want = round * i + (i % 4 + 1) + 7 + 8 + 40;
		CHECK(out[i] == want, "round %d item %d: %d, not %d", round, i,
		      out[i], want);
	}
	run(o, p, "report", bl, 1);
	cl_long r[4];
	CL_OK(clEnqueueReadBuffer(o->q, bl, CL_TRUE, 0, sizeof(r), r, 0, NULL,
				  NULL));
	CHECK(r[0] == 5 + (round + 1) * N, "counter %lld after round %d",
	      (long long)r[0], round);
	CHECK(r[1] == 9 + round, "st.c %lld after round %d", (long long)r[1],
	      round);
	CHECK(r[2] == 3 * (round + 1), "seen[3] %lld after round %d",
	      (long long)r[2], round);
	/* addresses in initializers: table + 1, a NULL that stays NULL */
	CHECK(r[3] == 2 * 10 + 3 + 100,
	      "a view through initial addresses: "
	      "%lld",
	      (long long)r[3]);
}

static cl_program build_expect_fail(ocl_env *o, const char *s, const char *says)
{
	cl_int err;
	cl_program p = clCreateProgramWithSource(o->ctx, 1, &s, NULL, &err);
	CL_OK(err);
	err = clBuildProgram(p, 1, &o->dev, "-cl-std=CL3.0", NULL, NULL);
	CHECK(err == CL_BUILD_PROGRAM_FAILURE, "built: %d", err);
	CHECK(strstr(ocl_log(o, p), says), "the log does not say '%s': %s",
	      says, ocl_log(o, p));
	return p;
}

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	size_t max = 0;
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
			      sizeof(max), &max, NULL));
	CHECK(max >= 65536, "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE %zu", max);
	cl_program p = ocl_build(&o, src, "-cl-std=CL3.0");
	size_t total = 0;
	CL_OK(clGetProgramBuildInfo(p, o.dev,
				    CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
				    sizeof(total), &total, NULL));
	CHECK(total >= 4 + 16 + 16 + 256 + 4 + 4 + 12 && total < 450,
	      "CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE %zu", total);
	cl_int err;
	cl_mem bi = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE, 16 * sizeof(int),
				   NULL, &err);
	CL_OK(err);
	cl_mem bl = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE,
				   4 * sizeof(cl_long), NULL, &err);
	CL_OK(err);
	for (int round = 0; round < 3; round++)
		check_round(&o, p, bi, bl, round);
	printf("progvar: values kept across launches and kernels, %zu bytes\n",
	       total);
	/* another program of the same source: its own instance */
	cl_program q = ocl_build(&o, src, "-cl-std=CL3.0");
	check_round(&o, q, bi, bl, 0);
	check_round(&o, p, bi, bl, 3);
	/* a rebuild starts from the initializers again */
	CL_OK(clBuildProgram(p, 1, &o.dev, "-cl-std=CL3.0", NULL, NULL));
	check_round(&o, p, bi, bl, 0);
	printf("progvar: each program its own instance, a rebuild resets it\n");
	clReleaseProgram(q);
	clReleaseProgram(p);
	/* refused builds */
	cl_program f = build_expect_fail(
		&o,
		"global int big[20000];\n"
		"kernel void k(global int *o) { o[0] = big[get_global_id(0)]; "
		"}\n",
		"more than the device's");
	clReleaseProgram(f);
	f = build_expect_fail(&o,
			      "constant int ct[2] = {1, 2};\n"
			      "global constant int *pc = ct;\n"
			      "kernel void k(global int *o) { o[0] = *pc; }\n",
			      "pc");
	clReleaseProgram(f);
	printf("progvar: too large, and an address of __constant data in an "
	       "initializer, refused\n");
	clReleaseMemObject(bi);
	clReleaseMemObject(bl);
	ocl_teardown(&o);
	printf("progvar: OK\n");
	return 0;
}
