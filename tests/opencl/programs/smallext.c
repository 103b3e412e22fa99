// SPDX-License-Identifier: MIT
/* The small extensions toolchains probe for, each checked as its
 * specification has it: cl_khr_device_uuid (16-byte UUIDs, stable, the
 * device's apart from the driver's; no LUID), cl_khr_extended_versioning
 * (every extension listed with a version), cl_khr_suggested_local_work_size
 * (a size that launches, the required one, its errors) and
 * cl_khr_expect_assume (the built-ins in a kernel, its macro). */
#include "common.h"

#include <CL/cl_ext.h>

static void has_ext(ocl_env *o, const char *name)
{
	char exts[4096] = "";
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_EXTENSIONS, sizeof(exts), exts,
			      NULL));
	CHECK(strstr(exts, name), "%s not in '%s'", name, exts);
	cl_name_version nv[64];
	size_t n = 0;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_EXTENSIONS_WITH_VERSION,
			      sizeof(nv), nv, &n));
	int found = 0;
	for (size_t i = 0; i < n / sizeof(nv[0]); i++)
		if (!strcmp(nv[i].name, name))
			found = nv[i].version >= CL_MAKE_VERSION(1, 0, 0);
	CHECK(found, "%s has no version in CL_DEVICE_EXTENSIONS_WITH_VERSION",
	      name);
}

static void uuid(ocl_env *o)
{
	has_ext(o, "cl_khr_device_uuid");
	cl_uchar dev[CL_UUID_SIZE_KHR], again[CL_UUID_SIZE_KHR],
		drv[CL_UUID_SIZE_KHR], luid[CL_LUID_SIZE_KHR];
	size_t n = 0;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_UUID_KHR, sizeof(dev), dev,
			      &n));
	CHECK(n == CL_UUID_SIZE_KHR, "device UUID of %zu bytes", n);
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_UUID_KHR, sizeof(again), again,
			      NULL));
	CHECK(!memcmp(dev, again, sizeof(dev)), "the device UUID changed");
	CL_OK(clGetDeviceInfo(o->dev, CL_DRIVER_UUID_KHR, sizeof(drv), drv,
			      &n));
	CHECK(n == CL_UUID_SIZE_KHR, "driver UUID of %zu bytes", n);
	CHECK(memcmp(dev, drv, sizeof(dev)), "device UUID == driver UUID");
	static const cl_uchar zero[CL_UUID_SIZE_KHR];
	CHECK(memcmp(dev, zero, sizeof(dev)), "a zero device UUID");
	cl_bool valid = CL_TRUE;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_LUID_VALID_KHR, sizeof(valid),
			      &valid, NULL));
	CHECK(!valid, "a LUID said valid");
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_LUID_KHR, sizeof(luid), luid,
			      &n));
	CHECK(n == CL_LUID_SIZE_KHR, "LUID of %zu bytes", n);
	cl_uint mask = 1;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_NODE_MASK_KHR, sizeof(mask),
			      &mask, NULL));
	printf("smallext: device UUID %02x%02x%02x%02x..., driver "
	       "%02x%02x%02x%02x...\n",
	       dev[0], dev[1], dev[2], dev[3], drv[0], drv[1], drv[2], drv[3]);
}

static void versioning(ocl_env *o)
{
	has_ext(o, "cl_khr_extended_versioning");
	char exts[4096] = "";
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_EXTENSIONS, sizeof(exts), exts,
			      NULL));
	cl_name_version nv[64];
	size_t n = 0;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_EXTENSIONS_WITH_VERSION,
			      sizeof(nv), nv, &n));
	/* the two lists name the same extensions */
	size_t words = 0;
	for (char *w = strtok(exts, " "); w; w = strtok(NULL, " "), words++) {
		int in = 0;
		for (size_t i = 0; i < n / sizeof(nv[0]); i++)
			in |= !strcmp(nv[i].name, w);
		CHECK(in, "%s has no versioned entry", w);
	}
	CHECK(words == n / sizeof(nv[0]), "%zu extensions, %zu versioned",
	      words, n / sizeof(nv[0]));
	cl_version v = 0;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_NUMERIC_VERSION_KHR, sizeof(v),
			      &v, NULL));
	CHECK(CL_VERSION_MAJOR_KHR(v) == 3, "numeric version %u.%u",
	      CL_VERSION_MAJOR_KHR(v), CL_VERSION_MINOR_KHR(v));
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR,
			      sizeof(v), &v, NULL));
	CHECK(CL_VERSION_MAJOR_KHR(v) == 1 && CL_VERSION_MINOR_KHR(v) == 2,
	      "OpenCL C numeric version %u.%u", CL_VERSION_MAJOR_KHR(v),
	      CL_VERSION_MINOR_KHR(v));
	printf("smallext: %zu extensions, each with a version\n", words);
}

static void suggested(ocl_env *o)
{
	has_ext(o, "cl_khr_suggested_local_work_size");
	clGetKernelSuggestedLocalWorkSizeKHR_fn fn =
		(clGetKernelSuggestedLocalWorkSizeKHR_fn)
			clGetExtensionFunctionAddressForPlatform(
				o->plat,
				"clGetKernelSuggestedLocalWorkSizeKHR");
	CHECK(fn, "no clGetKernelSuggestedLocalWorkSizeKHR");
	static const char *src =
		"kernel void any(global int *o) { o[get_global_id(0)] = "
		"(int)get_local_size(0); }\n"
		"kernel __attribute__((reqd_work_group_size(4, 2, 1)))\n"
		"void req(global int *o) { o[0] = 1; }\n";
	cl_program p = ocl_build(o, src, "-cl-std=CL3.0");
	cl_int err;
	cl_kernel k = clCreateKernel(p, "any", &err);
	CL_OK(err);
	size_t g[3] = {1000, 1, 1}, l[3] = {0, 0, 0};
	CHECK(fn(o->q, k, 1, NULL, g, l) == CL_INVALID_KERNEL_ARGS,
	      "no arguments set and no CL_INVALID_KERNEL_ARGS");
	cl_mem b = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, 1000 * sizeof(int),
				  NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	CL_OK(fn(o->q, k, 1, NULL, g, l));
	size_t wgs = 0;
	CL_OK(clGetKernelWorkGroupInfo(k, o->dev, CL_KERNEL_WORK_GROUP_SIZE,
				       sizeof(wgs), &wgs, NULL));
	CHECK(l[0] >= 1 && l[0] <= wgs && l[0] <= g[0],
	      "suggested %zu for 1000 items (kernel's maximum %zu)", l[0], wgs);
	/* the suggestion is what the device chooses for a launch without a
	 * local size (the CTS checks it so) */
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, g, NULL, 0, NULL, NULL));
	int first = 0;
	CL_OK(clEnqueueReadBuffer(o->q, b, CL_TRUE, 0, sizeof(first), &first, 0,
				  NULL, NULL));
	CHECK((size_t)first == l[0], "items saw a local size of %d, not %zu",
	      first, l[0]);
	/* with an offset, and in 2-D */
	size_t off[2] = {5, 3}, g2[2] = {64, 8}, l2[2] = {0, 0};
	CL_OK(fn(o->q, k, 2, off, g2, l2));
	CHECK(l2[0] * l2[1] <= wgs && l2[0] && l2[1] && l2[0] <= 64 &&
		      l2[1] <= 8,
	      "2-D suggestion %zu x %zu", l2[0], l2[1]);
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 2, off, g2, l2, 0, NULL, NULL));
	CL_OK(clFinish(o->q));
	/* the errors */
	size_t zero[1] = {0};
	CHECK(fn(o->q, k, 1, NULL, zero, l) == CL_INVALID_GLOBAL_WORK_SIZE,
	      "a global size of 0");
	CHECK(fn(o->q, k, 1, NULL, NULL, l) == CL_INVALID_VALUE,
	      "no global size");
	CHECK(fn(o->q, k, 1, NULL, g, NULL) == CL_INVALID_VALUE,
	      "no room for the suggestion");
	CHECK(fn(o->q, k, 4, NULL, g, l) == CL_INVALID_WORK_DIMENSION,
	      "work_dim 4");
	CHECK(fn(NULL, k, 1, NULL, g, l) == CL_INVALID_COMMAND_QUEUE,
	      "no queue");
	CHECK(fn(o->q, NULL, 1, NULL, g, l) == CL_INVALID_KERNEL, "no kernel");
	/* a required size is the suggestion */
	cl_kernel r = clCreateKernel(p, "req", &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(r, 0, sizeof(b), &b));
	size_t gr[2] = {16, 4}, lr[2] = {0, 0};
	CL_OK(fn(o->q, r, 2, NULL, gr, lr));
	CHECK(lr[0] == 4 && lr[1] == 2, "required 4 x 2, suggested %zu x %zu",
	      lr[0], lr[1]);
	printf("smallext: suggested %zu for 1000 items, %zu x %zu for 64 x 8, "
	       "the required 4 x 2\n",
	       l[0], l2[0], l2[1]);
	clReleaseKernel(r);
	clReleaseKernel(k);
	clReleaseMemObject(b);
	clReleaseProgram(p);
}

static void expect_assume(ocl_env *o)
{
	has_ext(o, "cl_khr_expect_assume");
	static const char *src =
		"#ifndef cl_khr_expect_assume\n"
		"#error no cl_khr_expect_assume\n"
		"#endif\n"
		"kernel void ea(global int *o, int n)\n"
		"{\n"
		"	__builtin_assume(n > 0);\n"
		"	size_t i = get_global_id(0);\n"
		"	if (__builtin_expect(i < (size_t)n, 1))\n"
		"		o[i] = (int)i * 2;\n"
		"	else\n"
		"		o[i] = -1;\n"
		"}\n";
	cl_program p = ocl_build(o, src, "-cl-std=CL3.0");
	cl_int err;
	cl_kernel k = clCreateKernel(p, "ea", &err);
	CL_OK(err);
	cl_mem b = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, 32 * sizeof(int),
				  NULL, &err);
	CL_OK(err);
	cl_int n = 20;
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	CL_OK(clSetKernelArg(k, 1, sizeof(n), &n));
	size_t g = 32;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	int out[32];
	CL_OK(clEnqueueReadBuffer(o->q, b, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < 32; i++)
		CHECK(out[i] == (i < n ? i * 2 : -1), "item %d: %d", i, out[i]);
	printf("smallext: __builtin_expect and __builtin_assume run\n");
	clReleaseKernel(k);
	clReleaseMemObject(b);
	clReleaseProgram(p);
}

int main(int argc, char **argv)
{
	ocl_env o;
	ocl_setup(&o, 0);
	if (ocl_case(argc, argv, "uuid"))
		uuid(&o);
	if (ocl_case(argc, argv, "versioning"))
		versioning(&o);
	if (ocl_case(argc, argv, "suggested"))
		suggested(&o);
	if (ocl_case(argc, argv, "expect_assume"))
		expect_assume(&o);
	ocl_teardown(&o);
	printf("smallext: OK\n");
	return 0;
}
