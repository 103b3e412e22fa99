// SPDX-License-Identifier: MIT
/*
 * Several devices in one platform, without a device (docs/icd.md, "Several
 * devices in one context"): two fake devices (HARTPOOL_DEVICES="boot:a
 * boot:b", two boards: two compiles), a context over both. Checked: the
 * device and program queries; a buffer's copy on the second device made
 * when a command there needs it, with the first device's bytes; a command
 * that may write leaves its device's copy the only current one; a command
 * waiting for another device's event held on the host until it completes;
 * migrations (to a device, content undefined, to the host); a launch on a
 * device the program was not built for; an SVM allocation at one address
 * on both, moved between them.
 */
#include "fake_hartpool.h"
#include "icd.h"
#include "icd_test.h"
#include <stdlib.h>
#include <string.h>

static cl_device_id dev[2];
static cl_context ctx;
static cl_command_queue q[2];

static void setup(void)
{
	cl_platform_id plat;
	cl_uint n = 0;
	CHECK_EQ(clGetPlatformIDs(1, &plat, NULL), CL_SUCCESS);
	CHECK_EQ(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 2, dev, &n),
		 CL_SUCCESS);
	CHECK_EQ(n, 2);
	cl_device_id def;
	CHECK_EQ(clGetDeviceIDs(plat, CL_DEVICE_TYPE_DEFAULT, 1, &def, &n),
		 CL_SUCCESS);
	CHECK(n == 1 && def == dev[0]);
	cl_int err;
	ctx = clCreateContext(NULL, 2, dev, NULL, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	for (int i = 0; i < 2; i++) {
		q[i] = clCreateCommandQueue(ctx, dev[i], 0, &err);
		CHECK_EQ(err, CL_SUCCESS);
	}
}

static void test_queries(void)
{
	cl_uint n = 0;
	cl_device_id d[2] = {0};
	CHECK_EQ(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n,
				  NULL),
		 CL_SUCCESS);
	CHECK_EQ(n, 2);
	CHECK_EQ(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof(d), d, NULL),
		 CL_SUCCESS);
	CHECK(d[0] == dev[0] && d[1] == dev[1]);
	/* a device named twice counts once */
	cl_device_id twice[3] = {dev[1], dev[1], dev[0]};
	cl_int err;
	cl_context c = clCreateContext(NULL, 3, twice, NULL, NULL, &err);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n,
				  NULL),
		 CL_SUCCESS);
	CHECK_EQ(n, 2);
	clReleaseContext(c);
	/* a queue on a device outside the context */
	c = clCreateContext(NULL, 1, &dev[0], NULL, NULL, &err);
	CHECK(!clCreateCommandQueue(c, dev[1], 0, &err));
	CHECK_EQ(err, CL_INVALID_DEVICE);
	clReleaseContext(c);
	cl_device_id qd;
	CHECK_EQ(clGetCommandQueueInfo(q[1], CL_QUEUE_DEVICE, sizeof(qd), &qd,
				       NULL),
		 CL_SUCCESS);
	CHECK(qd == dev[1]);
}

static const char *src = "kernel void k(global int *a, int n) { }\n";

static cl_program build(cl_uint n, const cl_device_id *d)
{
	cl_int err;
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clBuildProgram(p, n, d, NULL, NULL, NULL), CL_SUCCESS);
	return p;
}

/* @p p's kernel k over the buffer @p m (its n: 16). */
static cl_kernel kernel_on(cl_program p, cl_mem m)
{
	cl_int err;
	cl_kernel k = clCreateKernel(p, "k", &err);
	CHECK_EQ(err, CL_SUCCESS);
	int n = 16;
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(m), &m), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k, 1, sizeof(n), &n), CL_SUCCESS);
	return k;
}

static void test_program(void)
{
	cl_program p = build(0, NULL);
	cl_uint n = 0;
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof(n), &n,
				  NULL),
		 CL_SUCCESS);
	CHECK_EQ(n, 2);
	size_t sizes[2] = {0, 0};
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(sizes),
				  sizes, NULL),
		 CL_SUCCESS);
	CHECK(sizes[0] && sizes[1]);
	/* one binary per device */
	unsigned char *bins[2] = {malloc(sizes[0]), malloc(sizes[1])};
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bins), bins,
				  NULL),
		 CL_SUCCESS);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bins[0]), bins,
				  NULL),
		 CL_INVALID_VALUE);
	cl_int st[2] = {1, 1}, err;
	cl_program b = clCreateProgramWithBinary(
		ctx, 2, dev, sizes, (const unsigned char **)bins, st, &err);
	CHECK(err == CL_SUCCESS && st[0] == CL_SUCCESS && st[1] == CL_SUCCESS);
	CHECK_EQ(clBuildProgram(b, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
	cl_kernel k = clCreateKernel(b, "k", &err);
	CHECK_EQ(err, CL_SUCCESS);
	/* two devices: a per-device query needs one named */
	size_t wg;
	CHECK_EQ(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(wg), &wg, NULL),
		 CL_INVALID_DEVICE);
	CHECK_EQ(clGetKernelWorkGroupInfo(k, dev[1], CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(wg), &wg, NULL),
		 CL_SUCCESS);
	clReleaseKernel(k);
	clReleaseProgram(b);
	free(bins[0]);
	free(bins[1]);
	clReleaseProgram(p);
	/* built for device 0 only: not launchable on device 1 */
	p = build(1, &dev[0]);
	cl_mem m = clCreateBuffer(ctx, 0, 64, NULL, &err);
	k = kernel_on(p, m);
	size_t g = 16;
	CHECK_EQ(clEnqueueNDRangeKernel(q[1], k, 1, NULL, &g, NULL, 0, NULL,
					NULL),
		 CL_INVALID_PROGRAM_EXECUTABLE);
	CHECK_EQ(clEnqueueNDRangeKernel(q[0], k, 1, NULL, &g, NULL, 0, NULL,
					NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(q[0]), CL_SUCCESS);
	size_t sz;
	CHECK_EQ(clGetProgramBuildInfo(p, dev[1], CL_PROGRAM_BINARY_TYPE,
				       sizeof(cl_uint), NULL, &sz),
		 CL_SUCCESS);
	clReleaseMemObject(m);
	clReleaseKernel(k);
	clReleaseProgram(p);
}

/* The bytes of @p m's copy on device @p d (NULL: none yet). */
static const int *on(cl_mem m, int d)
{
	cl_mem r = m->parent ? m->parent : m;
	hp_buffer a = r->at[dev[d]->index];
	return a ? fake_hp_buffer_mem(a, NULL) : NULL;
}

static void test_moves(void)
{
	int host[64];
	for (int i = 0; i < 64; i++)
		host[i] = 1000 + i;
	cl_int err;
	cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(host), host,
				  &err);
	CHECK_EQ(err, CL_SUCCESS);
	/* on the first device only, until a command elsewhere needs it */
	CHECK(on(m, 0) && !memcmp(on(m, 0), host, sizeof(host)));
	CHECK(!on(m, 1));
	cl_program p = build(0, NULL);
	cl_kernel k = kernel_on(p, m);
	size_t g = 64;
	CHECK_EQ(clEnqueueNDRangeKernel(q[1], k, 1, NULL, &g, NULL, 0, NULL,
					NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(q[1]), CL_SUCCESS);
	/* brought over, and the kernel's copy is the only current one */
	CHECK(on(m, 1) && !memcmp(on(m, 1), host, sizeof(host)));
	CHECK_EQ(m->valid, 1u << dev[1]->index);
	/* the kernel "wrote" device 1's copy: a read on device 0 sees it */
	int *d1 = (int *)on(m, 1);
	d1[5] = -5;
	int back[64];
	CHECK_EQ(clEnqueueReadBuffer(q[0], m, CL_TRUE, 0, sizeof(back), back, 0,
				     NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(back[5], -5);
	CHECK_EQ(m->valid, 1u << dev[0]->index | 1u << dev[1]->index);
	/* a write on device 0 leaves device 1's copy stale */
	int w = 77;
	CHECK_EQ(clEnqueueWriteBuffer(q[0], m, CL_TRUE, 0, sizeof(w), &w, 0,
				      NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(m->valid, 1u << dev[0]->index);
	CHECK_EQ(on(m, 1)[0], 1000);
	/* migrated to device 1 */
	cl_event e;
	CHECK_EQ(clEnqueueMigrateMemObjects(q[1], 1, &m, 0, 0, NULL, &e),
		 CL_SUCCESS);
	CHECK_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
	CHECK_EQ(on(m, 1)[0], 77);
	clReleaseEvent(e);
	/* to the host: a hint, nothing moves */
	uint32_t before = m->valid;
	CHECK_EQ(clEnqueueMigrateMemObjects(q[0], 1, &m,
					    CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL,
					    NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(q[0]), CL_SUCCESS);
	CHECK_EQ(m->valid, before);
	/* content undefined: current on device 0 without a copy */
	((int *)on(m, 1))[0] = 99;
	CHECK_EQ(clEnqueueMigrateMemObjects(
			 q[0], 1, &m, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
			 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(q[0]), CL_SUCCESS);
	CHECK_EQ(m->valid, 1u << dev[0]->index);
	CHECK_EQ(on(m, 0)[0], 77);
	/* a sub-buffer moves with its buffer */
	cl_buffer_region r = {128, 64};
	cl_mem s =
		clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CHECK_EQ(err, CL_SUCCESS);
	int five = 5;
	CHECK_EQ(clEnqueueFillBuffer(q[1], s, &five, sizeof(five), 0, 64, 0,
				     NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(q[1]), CL_SUCCESS);
	CHECK_EQ(m->valid, 1u << dev[1]->index);
	CHECK_EQ(clEnqueueReadBuffer(q[0], m, CL_TRUE, 0, sizeof(back), back, 0,
				     NULL, NULL),
		 CL_SUCCESS);
	CHECK(back[0] == 77 && back[31] == 1031 && back[32] == 5 &&
	      back[47] == 5 && back[48] == 1048);
	clReleaseMemObject(s);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseMemObject(m);
}

/* Device 1's write waits for device 0's kernel: held on the host, not
 * given to device 1, until that event completes. */
static void test_cross_wait(void)
{
	cl_int err;
	cl_mem m = clCreateBuffer(ctx, 0, 64, NULL, &err);
	cl_program p = build(0, NULL);
	cl_kernel k = kernel_on(p, m);
	size_t g = 16;
	fake_hp_hold(true);
	cl_event e0, e1;
	CHECK_EQ(clEnqueueNDRangeKernel(q[0], k, 1, NULL, &g, NULL, 0, NULL,
					&e0),
		 CL_SUCCESS);
	int v = 3;
	CHECK_EQ(clEnqueueWriteBuffer(q[1], m, CL_FALSE, 0, sizeof(v), &v, 1,
				      &e0, &e1),
		 CL_SUCCESS);
	cl_int st;
	CHECK_EQ(clGetEventInfo(e1, CL_EVENT_COMMAND_EXECUTION_STATUS,
				sizeof(st), &st, NULL),
		 CL_SUCCESS);
	CHECK_EQ(st, CL_QUEUED);
	CHECK_EQ(fake_hp_pending(), 1);
	CHECK_EQ(fake_hp_run(1), 1);
	fake_hp_hold(false);
	CHECK_EQ(clWaitForEvents(1, &e1), CL_SUCCESS);
	CHECK_EQ(m->valid, 1u << dev[1]->index);
	CHECK_EQ(on(m, 1)[0], 3);
	clReleaseEvent(e0);
	clReleaseEvent(e1);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseMemObject(m);
}

/* An SVM allocation at one address on both devices, its bytes moved
 * between them (host pages at the pointer: no fake device maps its
 * memory). */
static void test_svm(void)
{
	enum { N = 64 };
	int *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
#ifdef __SANITIZE_ADDRESS__
	CHECK(!p); /* its shadow memory is at the device's addresses */
	return;
#endif
	CHECK(p != NULL);
	cl_mem m = icd_svm_find(ctx, p, 0);
	CHECK(m && m->at[0] && m->at[0] == m->at[1]);
	CHECK((uintptr_t)p == m->at[0] + m->svm_at);
	CHECK(!clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0));
	int h[N], g[N];
	for (int i = 0; i < N; i++)
		h[i] = i;
	CHECK_EQ(clEnqueueSVMMemcpy(q[0], CL_TRUE, p, h, sizeof(h), 0, NULL,
				    NULL),
		 CL_SUCCESS);
	CHECK_EQ(m->valid, 1u << dev[0]->index);
	/* read on device 1: moved there first */
	CHECK_EQ(clEnqueueSVMMemcpy(q[1], CL_TRUE, g, p, sizeof(g), 0, NULL,
				    NULL),
		 CL_SUCCESS);
	CHECK(!memcmp(g, h, sizeof(g)));
	/* written through a map on device 1's queue: only its copy is
	 * current, device 0 gets it back */
	CHECK_EQ(clEnqueueSVMMap(q[1], CL_TRUE, CL_MAP_WRITE, p, sizeof(h), 0,
				 NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(p[5], 5);
	p[5] = 99;
	CHECK_EQ(clEnqueueSVMUnmap(q[1], p, 0, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(clFinish(q[1]), CL_SUCCESS);
	CHECK_EQ(m->valid, 1u << dev[1]->index);
	CHECK_EQ(clEnqueueSVMMemcpy(q[0], CL_TRUE, g, p, sizeof(g), 0, NULL,
				    NULL),
		 CL_SUCCESS);
	CHECK_EQ(g[5], 99);
	clSVMFree(ctx, p);
}

static void teardown(void)
{
	for (int i = 0; i < 2; i++)
		CHECK_EQ(clReleaseCommandQueue(q[i]), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(ctx), CL_SUCCESS);
	CHECK_EQ(fake_hp_stats().buffers_live, 0);
}

int main(void)
{
	setenv("HARTPOOL_DEVICES", "boot:a boot:b", 1);
	static const struct icd_test tests[] = {
		{"setup", setup},
		{"test_queries", test_queries},
		{"test_program", test_program},
		{"test_moves", test_moves},
		{"test_cross_wait", test_cross_wait},
		{"test_svm", test_svm},
		{"teardown", teardown},
	};
	return icd_test_main("test_icd_multi", tests,
			     sizeof(tests) / sizeof(tests[0]));
}
