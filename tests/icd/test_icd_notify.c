// SPDX-License-Identifier: MIT
/*
 * The context's pfn_notify (clCreateContext) gets a sentence naming the
 * numbers when one of the ICD's checks refuses a call. Kept out of
 * tests/run.sh until the ICD calls pfn_notify from its checks (docs/icd.md,
 * "Unit tests without a device"): then add test_icd_notify to
 * icd-unit-tests-run in tests/icd/objects.mk.
 */
#include "fake_hartpool.h"
#include "icd.h"
#include "icd_test.h"

static char said[16][256];
static unsigned n_said;
static void CL_CALLBACK notify(const char *text, const void *info, size_t cb,
			       void *data)
{
	(void)info, (void)cb;
	CHECK(data == (void *)said);
	if (n_said < 16)
		snprintf(said[n_said++], sizeof(said[0]), "%s", text);
}

/* Did the latest sentence contain every one of @p words (NULL-ended)? */
static int last_says(const char *const *words)
{
	if (!n_said)
		return 0;
	for (; *words; words++)
		if (!strstr(said[n_said - 1], *words))
			return 0;
	return 1;
}
#define SAYS(...) last_says((const char *const[]){__VA_ARGS__, NULL})

static void test_notify(void)
{
	cl_platform_id plat;
	cl_device_id dev;
	CHECK_EQ(clGetPlatformIDs(1, &plat, NULL), CL_SUCCESS);
	CHECK_EQ(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL),
		 CL_SUCCESS);
	cl_int err;
	cl_context c = clCreateContext(NULL, 1, &dev, notify, said, &err);
	CHECK_EQ(err, CL_SUCCESS);
	cl_command_queue q =
		clCreateCommandQueueWithProperties(c, dev, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);

	/* a buffer of 0 bytes */
	n_said = 0;
	CHECK(clCreateBuffer(c, 0, 0, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_BUFFER_SIZE);
	CHECK_EQ(n_said, 1);
	CHECK(SAYS("0"));
	/* larger than the largest allocation: both numbers */
	char max[32], want[32];
	snprintf(max, sizeof(max), "%llu",
		 (unsigned long long)icd_max_alloc(&icd_devices[0]));
	snprintf(want, sizeof(want), "%llu",
		 (unsigned long long)icd_max_alloc(&icd_devices[0]) + 1);
	CHECK(clCreateBuffer(c, 0, icd_max_alloc(&icd_devices[0]) + 1, NULL,
			     &err) == NULL);
	CHECK_EQ(n_said, 2);
	CHECK(SAYS(max, want));

	/* the NDRange rules: the sentences of ndrange_check.h */
	cl_program p = clCreateProgramWithBuiltInKernels(c, 1, &dev,
							 "fake_noop", &err);
	cl_kernel k = clCreateKernel(p, "fake_noop", &err);
	CHECK_EQ(err, CL_SUCCESS);
	size_t g[3] = {64, 4, 2}, l0[3] = {0, 1, 1}, lz[3] = {1, 1, 128};
	n_said = 0;
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 4, NULL, g, NULL, 0, NULL, NULL),
		 CL_INVALID_WORK_DIMENSION);
	CHECK(SAYS("work_dim 4"));
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 3, NULL, g, l0, 0, NULL, NULL),
		 CL_INVALID_WORK_GROUP_SIZE);
	CHECK(SAYS("local size 0 in dimension 0"));
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 3, NULL, g, lz, 0, NULL, NULL),
		 CL_INVALID_WORK_ITEM_SIZE);
	CHECK(SAYS("128", "dimension 2", "64"));
	size_t two = 2, off = SIZE_MAX;
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, &off, &two, NULL, 0, NULL,
					NULL),
		 CL_INVALID_GLOBAL_OFFSET);
	CHECK(SAYS("offset", "64 bits"));
	CHECK_EQ(n_said, 4);

	CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
	CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

int main(void)
{
	static const struct icd_test tests[] = {
		{"test_notify", test_notify},
	};
	return icd_test_main("test_icd_notify", tests, 1);
}
