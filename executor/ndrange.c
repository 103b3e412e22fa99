// SPDX-License-Identifier: MIT
/*
 * NDRange validation and the default local size (OpenCL 3.0 3.2.1 and the
 * clEnqueueNDRangeKernel error rules). Pure: unit-tested on the host. The
 * rule for choosing a local size is documented in docs/ndrange.md.
 */
#include "exec.h"
#include <string.h>

uint64_t exec_ndrange_items(const hp_launch *l)
{
	return (uint64_t)l->global_size[0] * l->global_size[1] *
	       l->global_size[2];
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/* Largest divisor of g that is <= cap, preferring multiples of s. */
static uint64_t divisor_at_most(uint64_t g, uint64_t cap, uint64_t s)
{
	if (g == 0)
		return cap ? 1 : 0;
	if (s > 1)
		for (uint64_t d = cap / s * s; d >= s; d -= s)
			if (g % d == 0)
				return d;
	for (uint64_t d = cap; d > 1; d--)
		if (g % d == 0)
			return d;
	return 1;
}

/* Pick a local size when the host gave none and the kernel requires none. */
static void choose_local(const exec_device *dev, const exec_range *r,
			 uint64_t limit, unsigned s, unsigned workers,
			 const uint64_t g[3], uint64_t e[3])
{
	uint64_t items = g[0] * g[1] * g[2];
	/* Several work-groups per worker (4): every hart stays busy and the
	 * guided pool can balance. */
	uint64_t target = items / (4u * (uint64_t)workers);
	if (target > limit)
		target = limit;
	if (target >= s)
		target = target / s * s;
	if (target < 1)
		target = 1;

	uint64_t budget = target;
	for (unsigned d = 0; d < 3; d++) {
		uint64_t cap = budget;
		if (cap > g[d])
			cap = g[d];
		if (cap > dev->max_work_item_sizes[d])
			cap = dev->max_work_item_sizes[d];
		if (cap < 1)
			cap = 1;
		/* Dimension 0 carries the sub-groups: a multiple of s where
		 * the global size allows. */
		if (d == 0 && cap >= s)
			cap = cap / s * s;
		e[d] = r->uniform ? divisor_at_most(g[d], cap, d == 0 ? s : 1)
				  : cap;
		budget /= e[d];
		if (budget < 1)
			budget = 1;
	}
}

int exec_ndrange_setup(const exec_device *dev, const hp_kernel *k,
		       const exec_range *r, hp_launch *out)
{
	memset(out, 0, sizeof(*out));
	uint64_t size_max = dev->address_bits >= 64
				    ? UINT64_MAX
				    : (UINT64_C(1) << dev->address_bits) - 1;

	if (!k || !k->fn)
		return HP_INVALID_KERNEL;
	const uint32_t *kr = k->reqd_work_group_size;
	bool k_reqd = kr[0] || kr[1] || kr[2];
	if (k_reqd && (!kr[0] || !kr[1] || !kr[2]))
		return HP_INVALID_KERNEL; /* a required size of 0 */
	if (k->sub_group_size && (k->sub_group_size & (k->sub_group_size - 1) ||
				  !(dev->sub_group_sizes & k->sub_group_size)))
		return HP_INVALID_KERNEL; /* unsupported required size */

	if (r->work_dim < 1 || r->work_dim > 3)
		return HP_INVALID_WORK_DIMENSION;
	unsigned w = r->work_dim;

	/* Normalise to 3 dimensions: size 1 and offset 0 beyond work_dim. */
	/* Element by element: an initialiser list becomes a memcpy from
	 * .rodata, and this runs for every command. */
	uint64_t g[3], off[3];
	for (unsigned d = 0; d < 3; d++)
		g[d] = 1, off[d] = 0;
	uint64_t items = 1;
	bool empty = false;
	for (unsigned d = 0; d < w; d++) {
		g[d] = r->global[d];
		off[d] = r->offset[d];
		if (g[d] > size_max)
			return HP_INVALID_GLOBAL_WORK_SIZE;
		if (g[d] == 0)
			empty = true;
		else if (items > size_max / g[d])
			return HP_INVALID_GLOBAL_WORK_SIZE; /* too many items */
		else
			items *= g[d];
	}
	for (unsigned d = 0; d < w; d++)
		if (off[d] > size_max - g[d])
			return HP_INVALID_GLOBAL_OFFSET;

	uint64_t limit = dev->max_work_group_size;
	if (k->max_work_group_size && k->max_work_group_size < limit)
		limit = k->max_work_group_size;

	/* The effective reqd_work_group_size: the range's override, else the
	 * kernel's. Compared as a 3-tuple. */
	const uint32_t *req =
		(r->reqd[0] || r->reqd[1] || r->reqd[2]) ? r->reqd : kr;
	bool has_reqd = req[0] || req[1] || req[2];
	if (has_reqd && (!req[0] || !req[1] || !req[2]))
		return HP_INVALID_VALUE;

	unsigned s = r->sub_group_size	 ? r->sub_group_size
		     : k->sub_group_size ? k->sub_group_size
					 : dev->default_sub_group_size;
	if (!s || s & (s - 1) || !(dev->sub_group_sizes & s))
		return HP_INVALID_VALUE;
	if (r->schedule > EXEC_SCHED_FIXED ||
	    (r->schedule == EXEC_SCHED_FIXED && r->chunk == 0))
		return HP_INVALID_VALUE;
	unsigned team = r->team_size ? r->team_size : 1;
	if (team > dev->harts - dev->first_worker)
		return HP_INVALID_VALUE;

	uint64_t e[3];
	e[0] = e[1] = e[2] = 1;
	if (r->local_given) {
		for (unsigned d = 0; d < w; d++)
			e[d] = r->local[d];
	} else if (has_reqd) {
		for (unsigned d = 0; d < 3; d++)
			e[d] = req[d];
	}
	if (r->local_given || has_reqd) {
		for (unsigned d = 0; d < w; d++)
			if (e[d] == 0)
				return HP_INVALID_WORK_GROUP_SIZE;
		/* A required size with a dimension > 1 beyond work_dim cannot
		 * be launched with this work_dim. */
		for (unsigned d = w; d < 3; d++)
			if (e[d] != 1)
				return HP_INVALID_WORK_GROUP_SIZE;
		if (has_reqd)
			for (unsigned d = 0; d < 3; d++)
				if (e[d] != req[d])
					return HP_INVALID_WORK_GROUP_SIZE;
		for (unsigned d = 0; d < 3; d++)
			if (e[d] > dev->max_work_item_sizes[d])
				return HP_INVALID_WORK_ITEM_SIZE;
		if (e[0] * e[1] * e[2] > limit)
			return HP_INVALID_WORK_GROUP_SIZE;
		if (r->uniform)
			for (unsigned d = 0; d < w; d++)
				if (g[d] % e[d])
					return HP_INVALID_WORK_GROUP_SIZE;
	} else if (!empty) {
		choose_local(dev, r, limit, s,
			     (dev->harts - dev->first_worker) / team, g, e);
	}

	if (k->local_mem_bytes > dev->local_mem_size)
		return HP_OUT_OF_RESOURCES;

	uint64_t linear = e[0] * e[1] * e[2];
	uint64_t groups = 1;
	for (unsigned d = 0; d < 3; d++) {
		out->global_size[d] = (size_t)g[d];
		out->global_offset[d] = (size_t)off[d];
		out->local_size[d] = (size_t)e[d];
		out->num_groups[d] = (size_t)div_up(g[d], e[d]);
		groups *= out->num_groups[d];
	}
	/* The pool's claim counter may run past the end by a few chunks. */
	if (groups > size_max / 4)
		return HP_OUT_OF_RESOURCES;

	out->work_dim = w;
	out->total_groups = (size_t)groups;
	out->enqueued_linear = (size_t)linear;
	out->sub_group_size = s;
	out->enqueued_num_sub_groups = (unsigned)div_up(linear, s);
	out->max_sub_group_size = linear < s ? (unsigned)linear : s;
	out->team_size = team;
	out->schedule = r->schedule;
	out->chunk = r->chunk;

	if (k->uses_barriers && !empty) {
		/* Work-items per hart: whole sub-groups, split over the team.
		 */
		uint64_t per_hart =
			div_up(out->enqueued_num_sub_groups, team) * s;
		if (per_hart > linear)
			per_hart = linear;
		uint64_t stack = k->stack_bytes ? k->stack_bytes
						: dev->fiber_stack_default;
		if (per_hart * stack > dev->fiber_arena_size)
			return HP_OUT_OF_RESOURCES;
	}
	return 0;
}
