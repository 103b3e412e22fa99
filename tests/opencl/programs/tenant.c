// SPDX-License-Identifier: MIT
/* An OpenCL program that holds device resources, for the sessions tests
 * (docs/sessions.md): its kernel object, buffers and queue stay allocated
 * until the process ends, however it ends.
 *
 *   tenant build OUT.bin    build square.cl from source, save the binary
 *   tenant hold BIN         load BIN, allocate buffers, run the kernel
 *                           once (checked), print "ready", then wait to be
 *                           killed (nothing released)
 *   tenant run BIN          the same, checked, then release everything
 *                           and exit 0 */
#include "common.h"
#include <unistd.h>

#define N 4096

static const char *src = "__kernel void square(__global uint *out, uint add)\n"
			 "{\n"
			 "	size_t i = get_global_id(0);\n"
			 "	out[i] = (uint)(i * i) + add;\n"
			 "}\n";

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	CHECK(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	rewind(f);
	unsigned char *b = malloc(*n);
	CHECK(b && fread(b, 1, *n, f) == *n, "cannot read %s", path);
	fclose(f);
	return b;
}

int main(int argc, char **argv)
{
	CHECK(argc == 3, "usage: tenant build OUT.bin | hold BIN | run BIN");
	ocl_env o;
	ocl_setup(&o, 0);
	cl_int err;
	cl_program p;
	if (!strcmp(argv[1], "build")) {
		p = ocl_build(&o, src, "");
		size_t n;
		CL_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(n),
				       &n, NULL));
		unsigned char *bin = malloc(n);
		CL_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin),
				       &bin, NULL));
		FILE *f = fopen(argv[2], "wb");
		CHECK(f && fwrite(bin, 1, n, f) == n, "cannot write %s",
		      argv[2]);
		fclose(f);
		return 0;
	}
	size_t n;
	const unsigned char *bin = slurp(argv[2], &n);
	p = clCreateProgramWithBinary(o.ctx, 1, &o.dev, &n, &bin, NULL, &err);
	CL_OK(err);
	CL_OK(clBuildProgram(p, 1, &o.dev, "", NULL, NULL));
	cl_kernel k = clCreateKernel(p, "square", &err);
	CL_OK(err);
	cl_mem bufs[4];
	for (int i = 0; i < 4; i++) {
		bufs[i] = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE, N * 4, NULL,
					 &err);
		CL_OK(err);
	}
	cl_uint add = (cl_uint)getpid();
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[3]));
	CL_OK(clSetKernelArg(k, 1, sizeof(add), &add));
	size_t g = N;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
	static cl_uint out[N];
	CL_OK(clEnqueueReadBuffer(o.q, bufs[3], CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (unsigned i = 0; i < N; i++)
		CHECK(out[i] == i * i + add, "out[%u] = %u", i, out[i]);
	if (!strcmp(argv[1], "hold")) {
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	for (int i = 0; i < 4; i++)
		CL_OK(clReleaseMemObject(bufs[i]));
	CL_OK(clReleaseKernel(k));
	CL_OK(clReleaseProgram(p));
	ocl_teardown(&o);
	printf("tenant: OK\n");
	return 0;
}
