// SPDX-License-Identifier: MIT
/* The launch checks of clEnqueueNDRangeKernel: the device's and the
 * kernel's limits in, the NDRange and a reason out. The rules are the
 * firmware's (include/hartpool/ndrange_check.h, also used by
 * executor/ndrange.c): the same HP_ code, which is the CL code, and the
 * same sentence on both sides.
 *
 * As OpenCL 3.0 asks: the work dimension; global sizes, their product and
 * offsets representable in the device's size_t (a global size of 0, or
 * none, is an empty launch, 2.1 and later); local sizes non-zero, within the
 * device's work-item sizes, dividing the global sizes when uniform work-groups
 * are required, equal to reqd_work_group_size when the kernel has one (as a
 * 3-tuple; no local size then means that one), their product within the
 * kernel's work-group size. */
#include "icd.h"
#include <hartpool/ndrange_check.h>
#include <stdio.h>

#define WHY(...) snprintf(why, whylen, __VA_ARGS__)

cl_int icd_ndrange_check(const struct icd_ndrange_limits *lim, cl_uint dim,
			 const size_t *offset, const size_t *global,
			 const size_t *local, hp_ndrange *r, char *why,
			 size_t whylen)
{
	/* Nothing of global or offset is read before work_dim is known good
	 * (an application passes arrays of work_dim entries). */
	bool dim_ok = dim >= 1 && dim <= 3 && dim <= lim->max_work_dim;
	/* no global size, like a 0 in it: an empty launch (2.1 and later;
	 * CL_INVALID_GLOBAL_WORK_SIZE before) */
	static const size_t none[3] = {0, 0, 0};
	if (!global)
		global = none, local = NULL;
	uint32_t items[3];
	for (int i = 0; i < 3; i++)
		items[i] = lim->max_work_item_sizes[i] > UINT32_MAX
				   ? UINT32_MAX
				   : (uint32_t)lim->max_work_item_sizes[i];
	hp_nd_limits l = {.max_work_dim = lim->max_work_dim,
			  .address_bits = lim->address_bits,
			  .max_item = items,
			  .max_group = lim->max_work_group_size};
	*r = (hp_ndrange){.work_dim = dim};
	for (cl_uint i = 0; dim_ok && i < dim; i++) {
		r->global[i] = global[i];
		r->offset[i] = offset ? offset[i] : 0;
	}
	cl_int rc = hp_nd_check_global(&l, dim, r->global, r->offset, NULL,
				       NULL, why, whylen);
	if (rc)
		return rc;
	bool has_reqd = lim->reqd[0] || lim->reqd[1] || lim->reqd[2];
	r->uniform = lim->uniform;
	for (cl_uint i = 0; i < dim; i++)
		if (!r->global[i])
			return CL_SUCCESS; /* empty: no work-group to size */
	if (!local && !has_reqd)
		return CL_SUCCESS;
	/* no local size and a reqd_work_group_size: the required one (2.1
	 * and later), checked like a given one */
	uint64_t g[3] = {1, 1, 1}, e[3] = {1, 1, 1};
	uint32_t req[3];
	for (cl_uint i = 0; i < 3; i++) {
		req[i] = has_reqd ? (lim->reqd[i] ? (uint32_t)lim->reqd[i] : 1)
				  : 0;
		if (i < dim)
			g[i] = global[i], e[i] = local ? local[i] : req[i];
	}
	if ((rc = hp_nd_check_local(&l, dim, g, e, req, r->uniform, why,
				    whylen)))
		return rc;
	for (cl_uint i = 0; i < dim; i++)
		r->local[i] = e[i];
	r->local_given = true;
	return CL_SUCCESS;
}
