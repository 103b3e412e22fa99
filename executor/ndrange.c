// SPDX-License-Identifier: MIT
/*
 * NDRange validation and the default local size (OpenCL 3.0 3.2.1 and the
 * clEnqueueNDRangeKernel error rules), and each kernel's largest work-group
 * (CL_KERNEL_WORK_GROUP_SIZE). Pure: unit-tested on the host. The rules are
 * documented in docs/ndrange.md. Errors come with a sentence that names
 * the limit and the numbers; it is only formatted on the error path. The
 * range's own rules (work_dim, sizes, offsets, a local size against the
 * device and the kernel) are the ICD's too: include/hartpool/ndrange_check.h.
 */
#include "exec.h"
#include <hartpool/ndrange_check.h>
#include <stdarg.h>
#include <stdio.h>
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

static int fail(hp_launch *out, char *why, size_t n, int code, const char *fmt,
		...) __attribute__((format(printf, 5, 6)));
/* An invalid range leaves `out` zeroed (a valid one has every field set
 * at the end of exec_ndrange_setup: no memset on the path every command
 * takes). */
static __attribute__((noinline, cold)) int
fail(hp_launch *out, char *why, size_t n, int code, const char *fmt, ...)
{
	memset(out, 0, sizeof(*out));
	if (why && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return code;
}

static unsigned long long ull(uint64_t v)
{
	return (unsigned long long)v;
}

static inline uint32_t fiber_stack_bytes(const exec_device *dev,
					 const hp_kernel *k)
{
	/* a work-group function's scratch per item may be none */
	uint32_t b = k->stack_bytes || k->row_is_group
			     ? k->stack_bytes
			     : dev->fiber_stack_default;
	return (b + 15u) & ~15u;
}

uint32_t exec_fiber_stack_bytes(const exec_device *dev, const hp_kernel *k)
{
	return fiber_stack_bytes(dev, k);
}

/* Inlined into exec_ndrange_setup, which runs for every command. */
static inline __attribute__((always_inline)) uint32_t
kernel_max(const exec_device *dev, const hp_kernel *k, unsigned s,
	   unsigned team, enum exec_group_limit *why)
{
	enum exec_group_limit by = EXEC_LIMIT_DEVICE;
	uint32_t max = dev->max_work_group_size;
	if (k->local_mem_bytes > dev->local_mem_size) {
		max = 0;
		by = EXEC_LIMIT_LOCAL_MEM;
	}
	if (!k->uses_barriers && k->stack_bytes > dev->kernel_stack) {
		max = 0;
		by = EXEC_LIMIT_STACK;
	}
	if (k->max_work_group_size && k->max_work_group_size < max) {
		max = k->max_work_group_size;
		by = EXEC_LIMIT_KERNEL_MAX;
	}
	const uint32_t *kr = k->reqd_work_group_size;
	uint64_t reqd = (uint64_t)kr[0] * kr[1] * kr[2];
	if (reqd && reqd < max) {
		max = (uint32_t)reqd;
		by = EXEC_LIMIT_KERNEL_REQD;
	}
	if (k->uses_barriers && max) {
		/* Each hart of the team holds the fibers of whole sub-groups
		 * of the group (ndrange setup: per_hart below); c fibers fit
		 * one hart's arena. A work-group function's group is one
		 * hart's, its items' scratch in the arena. */
		uint32_t b = fiber_stack_bytes(dev, k);
		uint64_t c = b ? dev->fiber_arena_size / b : UINT32_MAX;
		uint64_t fit = s && !k->row_is_group
				       ? c / s * s * (team ? team : 1)
				       : c;
		if (fit < c)
			fit = c;
		if (fit < max) {
			max = (uint32_t)fit;
			by = EXEC_LIMIT_FIBERS;
		}
	}
	*why = by;
	return max;
}

uint32_t exec_kernel_max_group(const exec_device *dev, const hp_kernel *k,
			       unsigned s, unsigned team,
			       enum exec_group_limit *why)
{
	enum exec_group_limit by;
	uint32_t max = kernel_max(dev, k, s, team, &by);
	if (why)
		*why = by;
	return max;
}

/* The reason behind a kernel's maximum, for error details. */
static void limit_text(const exec_device *dev, const hp_kernel *k,
		       enum exec_group_limit by, unsigned team, char *buf,
		       size_t n)
{
	switch (by) {
	case EXEC_LIMIT_KERNEL_MAX:
		snprintf(buf, n, "its max_work_group_size");
		break;
	case EXEC_LIMIT_KERNEL_REQD:
		snprintf(buf, n, "its reqd_work_group_size");
		break;
	case EXEC_LIMIT_FIBERS:
		snprintf(buf, n, "%u B %s, %u KiB per hart%s",
			 (unsigned)exec_fiber_stack_bytes(dev, k),
			 k->row_is_group ? "of scratch per work-item"
					 : "stacks",
			 (unsigned)(dev->fiber_arena_size >> 10),
			 team > 1 || k->row_is_group
				 ? ""
				 : "; a team of harts holds more");
		break;
	case EXEC_LIMIT_LOCAL_MEM:
		snprintf(buf, n, "local memory");
		break;
	case EXEC_LIMIT_STACK:
		snprintf(buf, n, "its stack: %u B, the kernel stack gives %u",
			 (unsigned)k->stack_bytes, (unsigned)dev->kernel_stack);
		break;
	default:
		snprintf(buf, n, "the device limit");
		break;
	}
}

/* hp_nd_limits.max_why: the reason behind the kernel's maximum. */
struct max_why {
	const exec_device *dev;
	const hp_kernel *k;
	enum exec_group_limit by;
	unsigned team;
};

static void max_why(const void *ctx, char *buf, size_t n)
{
	const struct max_why *m = ctx;
	limit_text(m->dev, m->k, m->by, m->team, buf, n);
}

/* An invalid range found by the shared checks: `out` zeroed, as fail()
 * leaves it. */
static __attribute__((noinline, cold)) int failed(hp_launch *out, int code)
{
	memset(out, 0, sizeof(*out));
	return code;
}

/* The common launch, 1-D without a required work-group size, when it is
 * valid: the same result as the general path below, without its loops
 * over three dimensions (validation was a sixth of a dispatch). Anything
 * it would reject goes to the general path, which finds the same error
 * in its own order. True if `out` is filled in. */
static bool setup_1d(const exec_device *dev, const hp_kernel *k,
		     const exec_range *r, hp_launch *out)
{
	if (!k || !k->fn || r->work_dim != 1)
		return false;
	const uint32_t *kr = k->reqd_work_group_size;
	if (kr[0] | kr[1] | kr[2] | r->reqd[0] | r->reqd[1] | r->reqd[2] |
	    r->local_extra)
		return false;
	unsigned ks = k->sub_group_size;
	if (ks && (ks & (ks - 1) || !(dev->sub_group_sizes & ks)))
		return false;
	unsigned s = r->sub_group_size ? r->sub_group_size
		     : ks	       ? ks
				       : dev->default_sub_group_size;
	if (!s || s & (s - 1) || !(dev->sub_group_sizes & s))
		return false;
	if (r->schedule > EXEC_SCHED_FIXED ||
	    (r->schedule == EXEC_SCHED_FIXED && r->chunk == 0))
		return false;
	unsigned team = r->team_size ? r->team_size : 1;
	unsigned workers = dev->harts - dev->first_worker;
	if (team > workers)
		return false;
	uint64_t size_max = dev->address_bits >= 64
				    ? UINT64_MAX
				    : (UINT64_C(1) << dev->address_bits) - 1;
	uint64_t g64 = r->global[0], off64 = r->offset[0];
	if (g64 == 0 || g64 > size_max || off64 > size_max - g64 ||
	    size_max > SIZE_MAX)
		return false;
	/* The device's size_t from here (it holds every value below): on
	 * rv32 no 64-bit division calls. */
	size_t g = (size_t)g64, off = (size_t)off64, e;
	enum exec_group_limit by;
	size_t limit = kernel_max(dev, k, s, team, &by);
	if (r->local_given) {
		uint64_t e64 = r->local[0];
		if (!e64 || e64 > dev->max_work_item_sizes[0] || e64 > limit)
			return false;
		e = (size_t)e64;
		if (r->uniform && g % e)
			return false;
	} else {
		/* hp_nd_choose_local() in one dimension. */
		if (!limit)
			return false;
		e = g / (4u * (size_t)(workers / team));
		if (e > limit)
			e = limit;
		if (e >= s)
			e = e / s * s;
		if (e > g)
			e = g;
		if (e > dev->max_work_item_sizes[0])
			e = dev->max_work_item_sizes[0];
		if (e < 1)
			e = 1;
		if (e >= s)
			e = e / s * s;
		/* Uniform: a divisor search, the general path's (no call
		 * here keeps this path a leaf). */
		if (r->uniform && g % e)
			return false;
	}
	size_t groups = g / e + (g % e != 0);
	if (groups > size_max / 4)
		return false;
	out->work_dim = 1;
	out->global_size[0] = g;
	out->global_size[1] = out->global_size[2] = 1;
	out->global_offset[0] = off;
	out->global_offset[1] = out->global_offset[2] = 0;
	out->local_size[0] = e;
	out->local_size[1] = out->local_size[2] = 1;
	out->num_groups[0] = groups;
	out->num_groups[1] = out->num_groups[2] = 1;
	out->total_groups = groups;
	out->enqueued_linear = e;
	out->sub_group_size = s;
	out->enqueued_num_sub_groups = (unsigned)(e / s + (e % s != 0));
	out->max_sub_group_size = e < s ? (unsigned)e : s;
	out->team_size = team;
	out->schedule = r->schedule;
	out->chunk = r->chunk;
	return true;
}

static int setup_general(const exec_device *dev, const hp_kernel *k,
			 const exec_range *r, hp_launch *out, char *why,
			 size_t why_size);

int exec_ndrange_setup(const exec_device *dev, const hp_kernel *k,
		       const exec_range *r, hp_launch *out, char *why,
		       size_t why_size)
{
#ifdef __riscv_vector
	out->vector_bytes = dev->vlenb; /* hp_launch: V boards only */
#endif
	int rc = setup_1d(dev, k, r, out)
			 ? 0
			 : setup_general(dev, k, r, out, why, why_size);
	if (!rc) {
		out->global_base = (uintptr_t)dev->global_base;
		out->global_bytes = (size_t)dev->global_size;
		out->local_bytes = dev->local_mem_size;
	}
	return rc;
}

#define FAIL(code, ...) return fail(out, why, why_size, code, __VA_ARGS__)

/* What the kernel itself asks (its reqd_work_group_size, sub-group size and
 * local memory) against the device, before any range is looked at. */
static int check_kernel(const exec_device *dev, const hp_kernel *k,
			const exec_range *r, hp_launch *out, char *why,
			size_t why_size)
{
	if (!k || !k->fn)
		FAIL(HP_INVALID_KERNEL, "no kernel");
	const uint32_t *kr = k->reqd_work_group_size;
	bool k_reqd = kr[0] || kr[1] || kr[2];
	if (k_reqd && (!kr[0] || !kr[1] || !kr[2]))
		FAIL(HP_INVALID_KERNEL, "the kernel's reqd_work_group_size "
					"has a 0");
	if (k->sub_group_size && (k->sub_group_size & (k->sub_group_size - 1) ||
				  !(dev->sub_group_sizes & k->sub_group_size)))
		FAIL(HP_INVALID_KERNEL,
		     "the kernel requires sub-group size %u, which the "
		     "device does not have",
		     (unsigned)k->sub_group_size);

	if ((uint64_t)k->local_mem_bytes + r->local_extra > dev->local_mem_size)
		FAIL(HP_OUT_OF_RESOURCES,
		     "the kernel's %u bytes of local memory and %u of __local "
		     "arguments exceed the device's %u per work-group",
		     (unsigned)k->local_mem_bytes, (unsigned)r->local_extra,
		     (unsigned)dev->local_mem_size);
	return 0;
}

/* The launch's words past its sizes (setup_general). */
static void launch_rest(hp_launch *out, const exec_range *r, unsigned w,
			uint64_t groups, uint64_t linear, unsigned s,
			unsigned team)
{
	out->work_dim = w;
	out->total_groups = (size_t)groups;
	out->enqueued_linear = (size_t)linear;
	out->sub_group_size = s;
	out->enqueued_num_sub_groups = (unsigned)div_up(linear, s);
	out->max_sub_group_size = linear < s ? (unsigned)linear : s;
	out->team_size = team;
	out->schedule = r->schedule;
	out->chunk = r->chunk;
}

/* Every range, and every error. Out of line: the fast path above does not
 * pay for its frame. */
static __attribute__((noinline)) int
setup_general(const exec_device *dev, const hp_kernel *k, const exec_range *r,
	      hp_launch *out, char *why, size_t why_size)
{
	uint64_t size_max = dev->address_bits >= 64
				    ? UINT64_MAX
				    : (UINT64_C(1) << dev->address_bits) - 1;
	int rc = check_kernel(dev, k, r, out, why, why_size);
	if (rc)
		return rc;
	const uint32_t *kr = k->reqd_work_group_size;
	hp_nd_limits lim = {.max_work_dim = 3,
			    .address_bits = dev->address_bits,
			    .max_item = dev->max_work_item_sizes};
	/* Normalised to 3 dimensions: size 1 and offset 0 beyond work_dim
	 * (the check writes the others). Element by element: an initialiser
	 * list becomes a memcpy from .rodata, and this runs for every
	 * command. */
	uint64_t g[3], off[3];
	for (unsigned d = 0; d < 3; d++)
		g[d] = 1, off[d] = 0;
	rc = hp_nd_check_global(&lim, r->work_dim, r->global, r->offset, g, off,
				why, why_size);
	if (rc)
		return failed(out, rc);
	unsigned w = r->work_dim;
	bool empty = !g[0] || !g[1] || !g[2];

	/* The effective reqd_work_group_size: the range's override, else the
	 * kernel's. Compared as a 3-tuple. */
	const uint32_t *req =
		(r->reqd[0] || r->reqd[1] || r->reqd[2]) ? r->reqd : kr;
	bool has_reqd = req[0] || req[1] || req[2];
	if (has_reqd && (!req[0] || !req[1] || !req[2]))
		FAIL(HP_INVALID_VALUE, "reqd_work_group_size %u,%u,%u has a 0",
		     (unsigned)req[0], (unsigned)req[1], (unsigned)req[2]);

	unsigned s = r->sub_group_size	 ? r->sub_group_size
		     : k->sub_group_size ? k->sub_group_size
					 : dev->default_sub_group_size;
	if (!s || s & (s - 1) || !(dev->sub_group_sizes & s))
		FAIL(HP_INVALID_VALUE,
		     "sub-group size %u: the device has powers of two "
		     "1..64",
		     s);
	if (r->schedule > EXEC_SCHED_FIXED ||
	    (r->schedule == EXEC_SCHED_FIXED && r->chunk == 0))
		FAIL(HP_INVALID_VALUE, "unknown schedule or chunk 0");
	unsigned team = r->team_size ? r->team_size : 1;
	unsigned workers = dev->harts - dev->first_worker;
	if (team > workers)
		FAIL(HP_INVALID_VALUE,
		     "team of %u harts, the device has %u worker harts", team,
		     workers);

	enum exec_group_limit by;
	uint64_t limit = kernel_max(dev, k, s, team, &by);
	if (!limit)
		FAIL(HP_OUT_OF_RESOURCES,
		     "the kernel needs %u bytes of local memory per "
		     "work-group, the device has %u",
		     (unsigned)k->local_mem_bytes,
		     (unsigned)dev->local_mem_size);

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
		lim.max_group = limit;
		struct max_why mw = {dev, k, by, team};
		lim.max_why = max_why;
		lim.max_ctx = &mw;
		rc = hp_nd_check_local(&lim, w, g, e, has_reqd ? req : NULL,
				       r->uniform, why, why_size);
		if (rc)
			return failed(out, rc);
	} else if (!empty)
		hp_nd_choose_local(dev->max_work_item_sizes, r->uniform, limit,
				   s, workers / team, g, e);

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
		FAIL(HP_OUT_OF_RESOURCES,
		     "%llu work-groups: the work-pool counts at most %llu",
		     ull(groups), ull(size_max / 4));
#undef FAIL

	launch_rest(out, r, w, groups, linear, s, team);
	return 0;
}
