// SPDX-License-Identifier: MIT
/* clGetExtensionFunctionAddressForPlatform through the ICD loader (the
 * loader calls the platform's dispatch table entry, which was missing:
 * any caller, PoCL's pocld at start-up among them, crashed): a known
 * extension function is found and works, an unknown name is NULL. */
#include "common.h"

typedef cl_int(CL_API_CALL *subgroup_info_fn)(cl_kernel, cl_device_id,
					      cl_kernel_sub_group_info, size_t,
					      const void *, size_t, void *,
					      size_t *);

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	void *f = clGetExtensionFunctionAddressForPlatform(
		o.plat, "clGetKernelSubGroupInfoKHR");
	CHECK(f, "clGetKernelSubGroupInfoKHR not found");
	CHECK(!clGetExtensionFunctionAddressForPlatform(o.plat,
							"clNoSuchFunctionXYZ"),
	      "an unknown name was found");
	cl_program p = ocl_build(&o,
				 "__kernel void k(__global int *o)"
				 "{ o[get_global_id(0)] = 1; }",
				 "-cl-std=CL3.0");
	cl_int err;
	cl_kernel k = clCreateKernel(p, "k", &err);
	CL_OK(err);
	size_t local = 16, n = 0;
	CL_OK(((subgroup_info_fn)f)(
		k, o.dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
		sizeof(local), &local, sizeof(n), &n, NULL));
	CHECK(n >= 1 && n <= 16, "max sub-group size %zu", n);
	printf("extaddr: OK (max sub-group size %zu)\n", n);
	return 0;
}
