// SPDX-License-Identifier: MIT
/* Why a call failed: the ICD hands the sentence of a failed check to the
 * context's pfn_notify (errinfo) and, with HARTPOOL_ICD_DEBUG=1, to
 * stderr. Each failure below is one of the ICD's own checks; the sentence
 * must name the values it checked. Every sentence the callback gets is
 * printed ("notify: ...") for tests/opencl/icd.part.sh. */
#include "common.h"

static char last[1024];
static int calls;
static int tag;

static void CL_CALLBACK notify(const char *errinfo, const void *pi, size_t cb,
			       void *data)
{
	(void)pi, (void)cb;
	CHECK(data == &tag, "user data %p, want %p", data, (void *)&tag);
	snprintf(last, sizeof(last), "%s", errinfo ? errinfo : "(null)");
	calls++;
	printf("notify: %s\n", last);
}

static void want(const char *what, const char *a, const char *b, const char *c)
{
	CHECK(calls > 0, "%s: pfn_notify not called", what);
	CHECK(strstr(last, a) && strstr(last, b) && strstr(last, c),
	      "%s: '%s' lacks '%s', '%s' or '%s'", what, last, a, b, c);
	calls = 0;
}

static const char *src = "__kernel void k(__global int *p)\n"
			 "{\n"
			 "	p[get_global_id(0)] = 1;\n"
			 "}\n";

int main(void)
{
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	CL_OK(clGetPlatformIDs(1, &plat, NULL));
	CL_OK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
					 (cl_context_properties)plat, 0};
	cl_context ctx = clCreateContext(props, 1, &dev, notify, &tag, &err);
	CL_OK(err);

	/* a buffer of size 0 */
	cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err);
	CHECK(!m && err == CL_INVALID_BUFFER_SIZE, "size 0: %d", err);
	want("size 0", "size 0", "CL_INVALID_BUFFER_SIZE", "1..");

	/* a local size that does not divide the global size (OpenCL C 1.2:
	 * uniform work-groups) */
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	CL_OK(err);
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	CL_OK(err);
	CL_OK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(p, "k", &err);
	CL_OK(err);
	m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL,
			   &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(m), &m));
	size_t global = 10, local = 3;
	err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL,
				     NULL);
	CHECK(err == CL_INVALID_WORK_GROUP_SIZE, "10 by 3: %d", err);
	want("10 by 3", "global size 10", "local size 3",
	     "CL_INVALID_WORK_GROUP_SIZE");

	/* a read past the buffer's end */
	int buf[8];
	err = clEnqueueReadBuffer(q, m, CL_TRUE, 250, sizeof(buf), buf, 0, NULL,
				  NULL);
	CHECK(err == CL_INVALID_VALUE, "read past the end: %d", err);
	want("read past the end", "32 bytes at 250", "256", "CL_INVALID_VALUE");

	/* an argument index past the kernel's arguments */
	err = clSetKernelArg(k, 5, sizeof(m), &m);
	CHECK(err == CL_INVALID_ARG_INDEX, "argument 5: %d", err);
	want("argument 5", "argument 5", "which has 1", "CL_INVALID_ARG_INDEX");

	/* no context yet: the debug output only, never a context's callback */
	err = clGetDeviceIDs(plat, 0, 1, &dev, NULL);
	CHECK(err == CL_INVALID_DEVICE_TYPE, "device type 0: %d", err);
	CHECK(calls == 0, "a failure without a context reached pfn_notify");

	/* success: no callback */
	CL_OK(clFinish(q));
	CHECK(calls == 0, "pfn_notify called without a failure");

	CL_OK(clReleaseMemObject(m));
	CL_OK(clReleaseKernel(k));
	CL_OK(clReleaseProgram(p));
	CL_OK(clReleaseCommandQueue(q));
	CL_OK(clReleaseContext(ctx));
	printf("notify: OK\n");
	return 0;
}
