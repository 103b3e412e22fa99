// SPDX-License-Identifier: MIT
/* One context over two devices of the platform (HARTPOOL_DEVICES): a
 * kernel on device 0, a dependent kernel on device 1 that reads its output
 * (an event of device 0's queue in device 1's wait list), buffers moved
 * both ways with clEnqueueMigrateMemObjects, a sub-buffer written on one
 * device and read on the other, the context's and program's device
 * queries, profiling times in order where a buffer was moved, and an SVM
 * allocation used on both devices.
 *
 * Usage: multidev [CASE]: every case, or the one named. */
#include "common.h"
#include <stdint.h>

#define N 4096

static const char *src =
	"kernel void affine(global const float *a, global float *b, float f)\n"
	"{ size_t i = get_global_id(0); b[i] = a[i] * f + (float)i; }\n"
	"kernel void add1(global const float *b, global float *c)\n"
	"{ size_t i = get_global_id(0); c[i] = b[i] + 1.0f; }\n"
	"kernel void fill(global int *x, int v)\n"
	"{ size_t i = get_global_id(0); x[i] = v + (int)i; }\n";

struct two {
	cl_device_id dev[2];
	cl_context ctx;
	cl_command_queue q[2];
	cl_program prog;
};

static void two_setup(struct two *t)
{
	cl_platform_id plat;
	cl_uint n = 0;
	CL_OK(clGetPlatformIDs(1, &plat, NULL));
	CL_OK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 2, t->dev, &n));
	CHECK(n >= 2, "%u devices: set HARTPOOL_DEVICES to 2 or more", n);
	cl_int err;
	t->ctx = clCreateContext(NULL, 2, t->dev, NULL, NULL, &err);
	CL_OK(err);
	cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES,
				    CL_QUEUE_PROFILING_ENABLE, 0};
	for (int i = 0; i < 2; i++) {
		t->q[i] = clCreateCommandQueueWithProperties(t->ctx, t->dev[i],
							     qp, &err);
		CL_OK(err);
	}
	t->prog = clCreateProgramWithSource(t->ctx, 1, &src, NULL, &err);
	CL_OK(err);
	/* no device list: built for both */
	err = clBuildProgram(t->prog, 0, NULL, "", NULL, NULL);
	if (err) {
		char log[8192] = "";
		clGetProgramBuildInfo(t->prog, t->dev[0], CL_PROGRAM_BUILD_LOG,
				      sizeof(log), log, NULL);
		CHECK(0, "build: %d\n%s", err, log);
	}
}

static void two_teardown(struct two *t)
{
	CL_OK(clReleaseProgram(t->prog));
	for (int i = 0; i < 2; i++)
		CL_OK(clReleaseCommandQueue(t->q[i]));
	CL_OK(clReleaseContext(t->ctx));
}

static cl_mem buf(struct two *t, cl_mem_flags f, size_t size, void *host)
{
	cl_int err;
	cl_mem m = clCreateBuffer(t->ctx, f, size, host, &err);
	CL_OK(err);
	return m;
}

static cl_kernel kern(struct two *t, const char *name)
{
	cl_int err;
	cl_kernel k = clCreateKernel(t->prog, name, &err);
	CL_OK(err);
	return k;
}

/* The context's and the program's devices. */
static void case_queries(struct two *t)
{
	cl_uint n = 0;
	cl_device_id d[4];
	CL_OK(clGetContextInfo(t->ctx, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n,
			       NULL));
	CHECK(n == 2, "CL_CONTEXT_NUM_DEVICES %u", n);
	size_t sz = 0;
	CL_OK(clGetContextInfo(t->ctx, CL_CONTEXT_DEVICES, sizeof(d), d, &sz));
	CHECK(sz == 2 * sizeof(cl_device_id) && d[0] == t->dev[0] &&
		      d[1] == t->dev[1],
	      "CL_CONTEXT_DEVICES: %zu bytes", sz);
	CL_OK(clGetProgramInfo(t->prog, CL_PROGRAM_NUM_DEVICES, sizeof(n), &n,
			       NULL));
	CHECK(n == 2, "CL_PROGRAM_NUM_DEVICES %u", n);
	size_t sizes[2] = {0, 0};
	CL_OK(clGetProgramInfo(t->prog, CL_PROGRAM_BINARY_SIZES, sizeof(sizes),
			       sizes, NULL));
	CHECK(sizes[0] && sizes[1], "binary sizes %zu %zu", sizes[0], sizes[1]);
	for (int i = 0; i < 2; i++) {
		cl_build_status st;
		CL_OK(clGetProgramBuildInfo(t->prog, t->dev[i],
					    CL_PROGRAM_BUILD_STATUS, sizeof(st),
					    &st, NULL));
		CHECK(st == CL_BUILD_SUCCESS, "device %d: status %d", i, st);
	}
	/* a queue on a device outside the context */
	cl_int err;
	cl_context one = clCreateContext(NULL, 1, &t->dev[0], NULL, NULL, &err);
	CL_OK(err);
	cl_command_queue q = clCreateCommandQueue(one, t->dev[1], 0, &err);
	CHECK(!q && err == CL_INVALID_DEVICE, "queue outside: %d", err);
	CL_OK(clReleaseContext(one));
	printf("queries: 2 devices in the context and the program\n");
}

/* Device 0 computes b from a; device 1, waiting for that event, computes c
 * from b; c is read on device 1. */
static void case_chain(struct two *t)
{
	static float a[N], c[N];
	for (int i = 0; i < N; i++)
		a[i] = (float)(i % 97) * 0.5f;
	cl_mem ma =
		buf(t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(a), a);
	cl_mem mb = buf(t, CL_MEM_READ_WRITE, sizeof(a), NULL);
	cl_mem mc = buf(t, CL_MEM_WRITE_ONLY, sizeof(a), NULL);
	cl_kernel k1 = kern(t, "affine"), k2 = kern(t, "add1");
	float f = 3.0f;
	CL_OK(clSetKernelArg(k1, 0, sizeof(ma), &ma));
	CL_OK(clSetKernelArg(k1, 1, sizeof(mb), &mb));
	CL_OK(clSetKernelArg(k1, 2, sizeof(f), &f));
	CL_OK(clSetKernelArg(k2, 0, sizeof(mb), &mb));
	CL_OK(clSetKernelArg(k2, 1, sizeof(mc), &mc));
	size_t g = N;
	cl_event e1, e2;
	CL_OK(clEnqueueNDRangeKernel(t->q[0], k1, 1, NULL, &g, NULL, 0, NULL,
				     &e1));
	CL_OK(clEnqueueNDRangeKernel(t->q[1], k2, 1, NULL, &g, NULL, 1, &e1,
				     &e2));
	CL_OK(clFlush(t->q[0]));
	CL_OK(clEnqueueReadBuffer(t->q[1], mc, CL_TRUE, 0, sizeof(c), c, 1, &e2,
				  NULL));
	for (int i = 0; i < N; i++) {
		float want = a[i] * 3.0f + (float)i + 1.0f;
		CHECK(c[i] == want, "c[%d] = %g, not %g", i, c[i], want);
	}
	/* the second kernel brought b over first: its times in order */
	cl_ulong tq, ts, tb, te;
	CL_OK(clGetEventProfilingInfo(e2, CL_PROFILING_COMMAND_QUEUED,
				      sizeof(tq), &tq, NULL));
	CL_OK(clGetEventProfilingInfo(e2, CL_PROFILING_COMMAND_SUBMIT,
				      sizeof(ts), &ts, NULL));
	CL_OK(clGetEventProfilingInfo(e2, CL_PROFILING_COMMAND_START,
				      sizeof(tb), &tb, NULL));
	CL_OK(clGetEventProfilingInfo(e2, CL_PROFILING_COMMAND_END, sizeof(te),
				      &te, NULL));
	CHECK(tq <= ts && ts <= tb && tb <= te, "times %llu %llu %llu %llu",
	      (unsigned long long)tq, (unsigned long long)ts,
	      (unsigned long long)tb, (unsigned long long)te);
	/* b read on device 0 too (current on both now) */
	static float b[N];
	CL_OK(clEnqueueReadBuffer(t->q[0], mb, CL_TRUE, 0, sizeof(b), b, 0,
				  NULL, NULL));
	for (int i = 0; i < N; i++)
		CHECK(b[i] == a[i] * 3.0f + (float)i, "b[%d] = %g", i, b[i]);
	clReleaseEvent(e1);
	clReleaseEvent(e2);
	clReleaseKernel(k1);
	clReleaseKernel(k2);
	clReleaseMemObject(ma);
	clReleaseMemObject(mb);
	clReleaseMemObject(mc);
	printf("chain: device 0 -> device 1, %d values right\n", N);
}

static void check_fill(const int *x, int n, int v, const char *what)
{
	for (int i = 0; i < n; i++)
		CHECK(x[i] == v + i, "%s: x[%d] = %d, not %d", what, i, x[i],
		      v + i);
}

static void run_fill(struct two *t, int d, cl_kernel k, cl_mem m, int v,
		     size_t n, cl_event *ev)
{
	CL_OK(clSetKernelArg(k, 0, sizeof(m), &m));
	CL_OK(clSetKernelArg(k, 1, sizeof(v), &v));
	CL_OK(clEnqueueNDRangeKernel(t->q[d], k, 1, NULL, &n, NULL, 0, NULL,
				     ev));
}

/* clEnqueueMigrateMemObjects both ways: written on one device, moved to
 * the other ahead of its use, read there. */
static void case_migrate(struct two *t)
{
	static int x[N];
	cl_mem m = buf(t, CL_MEM_READ_WRITE, sizeof(x), NULL);
	cl_kernel k = kern(t, "fill");
	for (int from = 0; from < 2; from++) {
		int to = 1 - from, v = 1000 * (from + 1);
		cl_event w, mv;
		run_fill(t, from, k, m, v, N, &w);
		CL_OK(clEnqueueMigrateMemObjects(t->q[to], 1, &m, 0, 1, &w,
						 &mv));
		CL_OK(clEnqueueReadBuffer(t->q[to], m, CL_TRUE, 0, sizeof(x), x,
					  1, &mv, NULL));
		check_fill(x, N, v, from ? "1 -> 0" : "0 -> 1");
		cl_ulong s, e;
		CL_OK(clGetEventProfilingInfo(mv, CL_PROFILING_COMMAND_START,
					      sizeof(s), &s, NULL));
		CL_OK(clGetEventProfilingInfo(mv, CL_PROFILING_COMMAND_END,
					      sizeof(e), &e, NULL));
		CHECK(s <= e, "migration times %llu %llu",
		      (unsigned long long)s, (unsigned long long)e);
		printf("migrate: device %d -> %d, %d values right (%llu ns)\n",
		       from, to, N, (unsigned long long)(e - s));
		clReleaseEvent(w);
		clReleaseEvent(mv);
	}
	/* content undefined: nothing copied, the kernel writes it whole */
	cl_event mv;
	CL_OK(clEnqueueMigrateMemObjects(
		t->q[1], 1, &m, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0,
		NULL, &mv));
	CL_OK(clWaitForEvents(1, &mv));
	run_fill(t, 1, k, m, 7, N, NULL);
	CL_OK(clFinish(t->q[1]));
	/* read on device 0 without a wait list, after clFinish */
	CL_OK(clEnqueueReadBuffer(t->q[0], m, CL_TRUE, 0, sizeof(x), x, 0, NULL,
				  NULL));
	check_fill(x, N, 7, "undefined, then 1 -> 0");
	/* to the host: a hint, the data stays */
	CL_OK(clEnqueueMigrateMemObjects(
		t->q[0], 1, &m, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
	CL_OK(clEnqueueReadBuffer(t->q[0], m, CL_TRUE, 0, sizeof(x), x, 0, NULL,
				  NULL));
	check_fill(x, N, 7, "after a migration to the host");
	clReleaseEvent(mv);
	clReleaseKernel(k);
	clReleaseMemObject(m);
}

/* A sub-buffer written on device 1, its buffer read on device 0. */
static void case_sub(struct two *t)
{
	static int x[N];
	for (int i = 0; i < N; i++)
		x[i] = -1;
	cl_mem m =
		buf(t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(x), x);
	cl_buffer_region r = {N / 2 * sizeof(int), N / 2 * sizeof(int)};
	cl_int err;
	cl_mem s =
		clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CL_OK(err);
	cl_kernel k = kern(t, "fill");
	cl_event e;
	run_fill(t, 1, k, s, 5, N / 2, &e);
	CL_OK(clEnqueueReadBuffer(t->q[0], m, CL_TRUE, 0, sizeof(x), x, 1, &e,
				  NULL));
	for (int i = 0; i < N / 2; i++)
		CHECK(x[i] == -1, "x[%d] = %d: the first half changed", i,
		      x[i]);
	check_fill(x + N / 2, N / 2, 5, "sub-buffer on device 1");
	clReleaseEvent(e);
	clReleaseKernel(k);
	clReleaseMemObject(s);
	clReleaseMemObject(m);
	printf("sub: a sub-buffer written on device 1, read on device 0\n");
}

/* An SVM allocation spans both devices at one address: written by a
 * kernel on device 0, read by one on device 1 into another allocation,
 * that mapped on device 0's queue. Fine grain needs one memory: refused. */
static void case_svm(struct two *t)
{
	int *a = clSVMAlloc(t->ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
#ifdef __SANITIZE_ADDRESS__
	/* ASan's shadow memory holds the device's addresses in this
	 * process: refused, not faked */
	CHECK(!a, "an SVM allocation at %p under ASan", (void *)a);
	printf("svm: refused under ASan (its shadow memory is at the device's "
	       "addresses)\n");
	return;
#endif
	float *c = clSVMAlloc(t->ctx, CL_MEM_READ_WRITE, N * sizeof(float), 0);
	CHECK(a && c, "clSVMAlloc over two devices: %p, %p", (void *)a,
	      (void *)c);
	CHECK(!clSVMAlloc(t->ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0),
	      "fine-grain SVM over two devices");
	cl_kernel f = kern(t, "fill"), add = kern(t, "add1");
	int v = 11;
	size_t g = N;
	cl_event e;
	CL_OK(clSetKernelArgSVMPointer(f, 0, a));
	CL_OK(clSetKernelArg(f, 1, sizeof(v), &v));
	CL_OK(clEnqueueNDRangeKernel(t->q[0], f, 1, NULL, &g, NULL, 0, NULL,
				     &e));
	/* add1 reads floats: the ints' bits, checked as such below */
	CL_OK(clSetKernelArgSVMPointer(add, 0, a));
	CL_OK(clSetKernelArgSVMPointer(add, 1, c));
	cl_event e2;
	CL_OK(clEnqueueNDRangeKernel(t->q[1], add, 1, NULL, &g, NULL, 1, &e,
				     &e2));
	CL_OK(clEnqueueSVMMap(t->q[0], CL_TRUE, CL_MAP_READ, c,
			      N * sizeof(float), 1, &e2, NULL));
	for (int i = 0; i < N; i++) {
		int x = v + i;
		float b;
		memcpy(&b, &x, sizeof(b));
		CHECK(c[i] == b + 1.0f, "c[%d] = %g, not %g", i, c[i],
		      b + 1.0f);
	}
	CL_OK(clEnqueueSVMUnmap(t->q[0], c, 0, NULL, NULL));
	CL_OK(clFinish(t->q[0]));
	clReleaseEvent(e);
	clReleaseEvent(e2);
	clReleaseKernel(f);
	clReleaseKernel(add);
	clSVMFree(t->ctx, a);
	clSVMFree(t->ctx, c);
	printf("svm: one SVM pointer on both devices, moved between them\n");
}

int main(int argc, char **argv)
{
	struct two t;
	two_setup(&t);
	if (ocl_case(argc, argv, "queries"))
		case_queries(&t);
	if (ocl_case(argc, argv, "chain"))
		case_chain(&t);
	if (ocl_case(argc, argv, "migrate"))
		case_migrate(&t);
	if (ocl_case(argc, argv, "sub"))
		case_sub(&t);
	if (ocl_case(argc, argv, "svm"))
		case_svm(&t);
	two_teardown(&t);
	printf("multidev: OK\n");
	return 0;
}
