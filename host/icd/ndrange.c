// SPDX-License-Identifier: MIT
/* The launch checks of clEnqueueNDRangeKernel, in one function with a
 * narrow interface (the device's and the kernel's limits in, the NDRange
 * and a reason out) so that it can become a validator shared with the
 * firmware's executor/ndrange.c.
 *
 * As OpenCL 3.0 asks: the work dimension; global sizes, their product and
 * offsets representable in the device's size_t (a global size of 0 is an
 * empty launch, 2.1 and later); local sizes non-zero, within the device's
 * work-item sizes, dividing the global sizes when uniform work-groups are
 * required, equal to reqd_work_group_size when the kernel has one, their
 * product within the kernel's work-group size. */
#include "icd.h"
#include <stdio.h>

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

static cl_int check_global(const struct icd_ndrange_limits *lim, cl_uint dim,
			   const size_t *offset, const size_t *global,
			   hp_ndrange *r, char *why, size_t whylen)
{
	uint64_t max = lim->address_bits >= 64
			       ? UINT64_MAX
			       : (1ull << lim->address_bits) - 1;
	uint64_t items = 1;
	for (cl_uint i = 0; i < dim; i++) {
		if (global[i] > max) {
			WHY("global size %zu of dimension %u exceeds the "
			    "device's size_t (%llu)",
			    global[i], i, (unsigned long long)max);
			return CL_INVALID_GLOBAL_WORK_SIZE;
		}
		if (global[i] && items > max / global[i]) {
			WHY("the global sizes' product exceeds the device's "
			    "size_t (%llu) at dimension %u",
			    (unsigned long long)max, i);
			return CL_INVALID_GLOBAL_WORK_SIZE;
		}
		items *= global[i] ? global[i] : 1;
		r->global[i] = global[i];
		r->offset[i] = offset ? offset[i] : 0;
		if (r->offset[i] > max - r->global[i]) {
			WHY("offset %llu + global size %zu of dimension %u "
			    "exceed the device's size_t (%llu)",
			    (unsigned long long)r->offset[i], global[i], i,
			    (unsigned long long)max);
			return CL_INVALID_GLOBAL_OFFSET;
		}
	}
	return CL_SUCCESS;
}

static cl_int check_local(const struct icd_ndrange_limits *lim, cl_uint dim,
			  const size_t *global, const size_t *local,
			  bool has_reqd, hp_ndrange *r, char *why,
			  size_t whylen)
{
	uint64_t group = 1;
	for (cl_uint i = 0; i < dim; i++) {
		size_t want = lim->reqd[i] ? lim->reqd[i] : 1;
		if (!local[i]) {
			WHY("local size of dimension %u is 0", i);
			return CL_INVALID_WORK_GROUP_SIZE;
		}
		if (local[i] > lim->max_work_item_sizes[i]) {
			WHY("local size %zu of dimension %u exceeds "
			    "CL_DEVICE_MAX_WORK_ITEM_SIZES[%u] = %llu",
			    local[i], i, i,
			    (unsigned long long)lim->max_work_item_sizes[i]);
			return CL_INVALID_WORK_ITEM_SIZE;
		}
		if (r->uniform && global[i] % local[i]) {
			WHY("global size %zu of dimension %u is not a "
			    "multiple of local size %zu (uniform work-groups: "
			    "OpenCL C 1.x or -cl-uniform-work-group-size)",
			    global[i], i, local[i]);
			return CL_INVALID_WORK_GROUP_SIZE;
		}
		if (has_reqd && local[i] != want) {
			WHY("local size %zu of dimension %u is not the "
			    "kernel's reqd_work_group_size %zu",
			    local[i], i, want);
			return CL_INVALID_WORK_GROUP_SIZE;
		}
		r->local[i] = local[i];
		group *= local[i];
	}
	if (group > lim->max_work_group_size) {
		WHY("work-group of %llu work-items exceeds the kernel's "
		    "CL_KERNEL_WORK_GROUP_SIZE %llu",
		    (unsigned long long)group,
		    (unsigned long long)lim->max_work_group_size);
		return CL_INVALID_WORK_GROUP_SIZE;
	}
	r->local_given = true;
	return CL_SUCCESS;
}

cl_int icd_ndrange_check(const struct icd_ndrange_limits *lim, cl_uint dim,
			 const size_t *offset, const size_t *global,
			 const size_t *local, hp_ndrange *r, char *why,
			 size_t whylen)
{
	if (dim < 1 || dim > lim->max_work_dim || dim > 3) {
		WHY("work_dim %u is not in 1..%u", dim,
		    lim->max_work_dim < 3 ? lim->max_work_dim : 3);
		return CL_INVALID_WORK_DIMENSION;
	}
	if (!global) {
		WHY("global_work_size is NULL");
		return CL_INVALID_GLOBAL_WORK_SIZE;
	}
	*r = (hp_ndrange){.work_dim = dim};
	cl_int rc = check_global(lim, dim, offset, global, r, why, whylen);
	if (rc)
		return rc;
	bool has_reqd = lim->reqd[0] || lim->reqd[1] || lim->reqd[2];
	r->uniform = lim->uniform;
	if (!local) {
		if (has_reqd) {
			WHY("local_work_size is NULL but the kernel has a "
			    "reqd_work_group_size");
			return CL_INVALID_WORK_GROUP_SIZE;
		}
		return CL_SUCCESS;
	}
	return check_local(lim, dim, global, local, has_reqd, r, why, whylen);
}
