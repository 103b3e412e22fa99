// SPDX-License-Identifier: MIT
/* Ranges that wrap: rectangles whose region and pitches overflow size_t
 * (read, write and copy: CL_INVALID_VALUE, the neighbouring buffers and
 * the host untouched), rectangles just inside and just outside a buffer,
 * global sizes whose product overflows the device's size_t
 * (CL_INVALID_GLOBAL_WORK_SIZE at enqueue) and an empty global size (a
 * command that completes and runs nothing). */
#include "common.h"
#include <stdint.h>

#define EXPECT(expr, want)                                                     \
	do {                                                                   \
		cl_int e_ = (expr);                                            \
		CHECK(e_ == (want), "%s = %d, want %s (%d)", #expr, e_, #want, \
		      (int)(want));                                            \
	} while (0)

#define BIG 4096

static const char *src = "__kernel void set(__global int *p, int v)\n"
			 "{\n"
			 "	p[get_global_id(0)] = v;\n"
			 "}\n";

static cl_mem filled(ocl_env *o, size_t n, unsigned char v)
{
	unsigned char host[BIG];
	memset(host, v, n);
	cl_int err;
	cl_mem m = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, n, host, &err);
	CL_OK(err);
	return m;
}

static void expect_bytes(ocl_env *o, cl_mem m, size_t n, unsigned char v,
			 const char *what)
{
	unsigned char host[BIG];
	CL_OK(clEnqueueReadBuffer(o->q, m, CL_TRUE, 0, n, host, 0, NULL, NULL));
	for (size_t i = 0; i < n; i++)
		CHECK(host[i] == v, "%s: byte %zu = %#x, want %#x", what, i,
		      host[i], v);
}

static void rects(ocl_env *o)
{
	/* the case: 64 bytes, a 4 KiB neighbour */
	cl_mem small = filled(o, 64, 0x11), big = filled(o, BIG, 0x22);
	static unsigned char host[BIG];
	memset(host, 0x33, sizeof(host));
	size_t zero[3] = {0, 0, 0};
	size_t wrap[3] = {16, 1, SIZE_MAX / 32 + 2};
	EXPECT(clEnqueueWriteBufferRect(o->q, small, CL_TRUE, zero, zero, wrap,
					16, 32, 0, 0, host, 0, NULL, NULL),
	       CL_INVALID_VALUE);
	EXPECT(clEnqueueReadBufferRect(o->q, small, CL_TRUE, zero, zero, wrap,
				       16, 32, 0, 0, host, 0, NULL, NULL),
	       CL_INVALID_VALUE);
	EXPECT(clEnqueueCopyBufferRect(o->q, small, big, zero, zero, wrap, 16,
				       32, 16, 32, 0, NULL, NULL),
	       CL_INVALID_VALUE);
	EXPECT(clEnqueueCopyBufferRect(o->q, big, small, zero, zero, wrap, 16,
				       32, 16, 32, 0, NULL, NULL),
	       CL_INVALID_VALUE);
	/* a default slice pitch (region[1] * row pitch) that wraps */
	size_t tall[3] = {1, SIZE_MAX / 2 + 1, 1};
	EXPECT(clEnqueueWriteBufferRect(o->q, small, CL_TRUE, zero, zero, tall,
					2, 0, 0, 0, host, 0, NULL, NULL),
	       CL_INVALID_VALUE);
	/* an origin past the end whose sum wraps */
	size_t far[3] = {SIZE_MAX - 7, 0, 0}, one[3] = {16, 1, 1};
	EXPECT(clEnqueueWriteBufferRect(o->q, small, CL_TRUE, far, zero, one, 0,
					0, 0, 0, host, 0, NULL, NULL),
	       CL_INVALID_VALUE);
	/* the host side wrapping (the buffer side fits) */
	size_t hfar[3] = {0, 0, SIZE_MAX / 64};
	EXPECT(clEnqueueReadBufferRect(o->q, small, CL_TRUE, zero, hfar, one, 0,
				       0, 64, 128, host, 0, NULL, NULL),
	       CL_INVALID_VALUE);
	EXPECT(clEnqueueCopyBufferRect(o->q, big, small, zero, far, one, 0, 0,
				       0, 0, 0, NULL, NULL),
	       CL_INVALID_VALUE);
	CL_OK(clFinish(o->q));
	expect_bytes(o, small, 64, 0x11, "64-byte buffer");
	expect_bytes(o, big, BIG, 0x22, "its 4 KiB neighbour");

	/* just inside: the last 16 bytes of the 64 (rows of 16, slices of
	 * 32: slice 1, row 1) */
	size_t last[3] = {0, 1, 1};
	CL_OK(clEnqueueWriteBufferRect(o->q, small, CL_TRUE, last, zero, one,
				       16, 32, 0, 0, host, 0, NULL, NULL));
	unsigned char got[64];
	CL_OK(clEnqueueReadBuffer(o->q, small, CL_TRUE, 0, 64, got, 0, NULL,
				  NULL));
	for (int i = 0; i < 64; i++)
		CHECK(got[i] == (i >= 48 ? 0x33 : 0x11), "rect byte %d = %#x",
		      i, got[i]);
	/* just outside: one byte more */
	size_t past[3] = {1, 1, 1};
	EXPECT(clEnqueueWriteBufferRect(o->q, small, CL_TRUE, past, zero, one,
					16, 32, 0, 0, host, 0, NULL, NULL),
	       CL_INVALID_VALUE);
	expect_bytes(o, big, BIG, 0x22, "the neighbour after the edge cases");
	CL_OK(clReleaseMemObject(small));
	CL_OK(clReleaseMemObject(big));
}

static void global_sizes(ocl_env *o)
{
	cl_uint bits;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_ADDRESS_BITS, sizeof(bits),
			      &bits, NULL));
	cl_program p = ocl_build(o, src, "-cl-std=CL3.0");
	cl_int err;
	cl_kernel k = clCreateKernel(p, "set", &err);
	CL_OK(err);
	cl_mem b = filled(o, 64, 0x44);
	int v = 7;
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &b));
	CL_OK(clSetKernelArg(k, 1, sizeof(v), &v));
	/* each size is representable, their product is not */
	size_t half = bits == 32 ? (size_t)1 << 16 : (size_t)1 << 32;
	size_t g2[2] = {half, half}, g3[3] = {half, half / 2, 4};
	EXPECT(clEnqueueNDRangeKernel(o->q, k, 2, NULL, g2, NULL, 0, NULL,
				      NULL),
	       CL_INVALID_GLOBAL_WORK_SIZE);
	EXPECT(clEnqueueNDRangeKernel(o->q, k, 3, NULL, g3, NULL, 0, NULL,
				      NULL),
	       CL_INVALID_GLOBAL_WORK_SIZE);
	if (bits == 32) {
		size_t g1 = (size_t)1 << 32; /* one size above the device's */
		EXPECT(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g1, NULL, 0,
					      NULL, NULL),
		       CL_INVALID_GLOBAL_WORK_SIZE);
	}
	/* an empty range (OpenCL 2.1 and later): runs nothing, completes */
	size_t g0[2] = {16, 0};
	cl_event ev;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 2, NULL, g0, NULL, 0, NULL, &ev));
	CL_OK(clWaitForEvents(1, &ev));
	cl_int st;
	CL_OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st),
			     &st, NULL));
	CHECK(st == CL_COMPLETE, "empty range: status %d", st);
	CL_OK(clReleaseEvent(ev));
	expect_bytes(o, b, 64, 0x44, "buffer of the empty range");
	printf("ranges: %u-bit device: %zu x %zu refused\n", bits, half, half);
	CL_OK(clReleaseMemObject(b));
	CL_OK(clReleaseKernel(k));
	CL_OK(clReleaseProgram(p));
}

/* tests/opencl/programs/ranges [rects|global_sizes] */
int main(int argc, char **argv)
{
	ocl_env o;
	ocl_setup(&o, 0);
	if (ocl_case(argc, argv, "rects")) {
		rects(&o);
		puts("ranges: rectangles checked");
	}
	if (ocl_case(argc, argv, "global_sizes"))
		global_sizes(&o);
	ocl_teardown(&o);
	puts("ranges: OK");
	return 0;
}
