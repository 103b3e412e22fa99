/* SPDX-License-Identifier: MIT */
/**
 * @file The NDRange rules of clEnqueueNDRangeKernel, once, for both sides:
 * the firmware's executor/ndrange.c and the ICD's clEnqueueNDRangeKernel
 * (its size checks in host/icd/ndrange.c) call the same checks (inline, below)
 * and get the same HP_ error code (the OpenCL code of the same value) and the
 * same sentence, which names the limit and the numbers (docs/ndrange.md,
 * docs/design.md 59). The sentence is only formatted on the error path,
 * out of line (common/ndrange_check.c).
 *
 * Two steps, in the firmware's order: the range itself (work_dim, global
 * sizes and offsets against the device's size_t), then a local size
 * (given, or the required one) against the device and the kernel.
 */
#ifndef HARTPOOL_NDRANGE_CHECK_H
#define HARTPOOL_NDRANGE_CHECK_H

#include <hartpool/error.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What a range is checked against. */
typedef struct hp_nd_limits {
	unsigned max_work_dim;	  /**< the device's (3) */
	unsigned address_bits;	  /**< width of the device's size_t */
	const uint32_t *max_item; /**< the 3 max work-item sizes */
	/** The kernel's largest work-group (CL_KERNEL_WORK_GROUP_SIZE). */
	uint64_t max_group;
	/** Why max_group is what it is, for the sentence (called only on
	 * that error); NULL: "the device limit". */
	void (*max_why)(const void *ctx, char *buf, size_t n);
	const void *max_ctx;
} hp_nd_limits;

/** The local size of a launch that gives none and whose kernel requires
 * none: at most @p limit work-items (the kernel's maximum), about four
 * work-groups per worker (@p workers), dimension 0 a multiple of the
 * sub-group size @p s where the global size allows, each size dividing
 * the global one when @p uniform. @p g: the 3 global sizes (1 past
 * work_dim); @p e gets the 3 local sizes. The firmware's choice
 * (executor/ndrange.c) and the ICD's clGetKernelSuggestedLocalWorkSizeKHR
 * (common/ndrange_check.c). */
void hp_nd_choose_local(const uint32_t max_item[3], bool uniform,
			uint64_t limit, unsigned s, unsigned workers,
			const uint64_t g[3], uint64_t e[3]);

/* The error path, out of line (common/ndrange_check.c): the checks below
 * are inline, so a caller's loops take them in, and only a broken rule
 * calls out to write its sentence. */
int hp_nd_say(char *why, size_t n, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5), cold));
/** The sentence of a local size @p prod above @p max (asks @p max_why
 * with @p ctx why). Scalars, not the limits: a caller's hp_nd_limits then
 * never leaves its registers. */
int hp_nd_above_max(uint64_t prod, uint64_t max,
		    void (*max_why)(const void *ctx, char *buf, size_t n),
		    const void *ctx, char *why, size_t n) __attribute__((cold));

/** work_dim (1..max_work_dim, at most 3), then each global size and the
 * number of work-items (representable in the device's size_t; 0 is an
 * empty range), then each offset + global size. @p offset may be NULL
 * (0). @p g_out and @p off_out (may be NULL) get the sizes and offsets
 * of the first work_dim dimensions as they are checked (the caller sets
 * the others). 0, HP_INVALID_WORK_DIMENSION, HP_INVALID_GLOBAL_WORK_SIZE or
 * HP_INVALID_GLOBAL_OFFSET with the sentence in @p why (@p n bytes; may
 * be NULL). */
static inline __attribute__((always_inline)) int
hp_nd_check_global(const hp_nd_limits *l, unsigned w, const uint64_t *global,
		   const uint64_t *offset, uint64_t *g_out, uint64_t *off_out,
		   char *why, size_t n)
{
	unsigned bits = l->address_bits;
	uint64_t size_max = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	if (w < 1 || w > 3 || w > l->max_work_dim) {
		if (l->max_work_dim >= 3)
			return hp_nd_say(why, n, HP_INVALID_WORK_DIMENSION,
					 "work_dim %u is not 1, 2 or 3", w);
		return hp_nd_say(
			why, n, HP_INVALID_WORK_DIMENSION,
			"work_dim %u is not between 1 and the device's %u", w,
			l->max_work_dim);
	}
	uint64_t items = 1;
	for (unsigned d = 0; d < w; d++) {
		uint64_t g = global[d];
		if (g > size_max)
			return hp_nd_say(
				why, n, HP_INVALID_GLOBAL_WORK_SIZE,
				"global size %llu in dimension %u is above "
				"the device's size_t (%u bits)",
				(unsigned long long)(g), d, bits);
		if (g && items > size_max / g)
			return hp_nd_say(
				why, n, HP_INVALID_GLOBAL_WORK_SIZE,
				"more work-items than the device's size_t "
				"(%u bits) counts",
				bits);
		if (g)
			items *= g;
		if (g_out)
			g_out[d] = g;
	}
	for (unsigned d = 0; offset && d < w; d++) {
		if (off_out)
			off_out[d] = offset[d];
		if (offset[d] > size_max - global[d])
			return hp_nd_say(
				why, n, HP_INVALID_GLOBAL_OFFSET,
				"offset %llu + global size %llu in dimension "
				"%u is above the device's size_t (%u bits)",
				(unsigned long long)(offset[d]),
				(unsigned long long)(global[d]), d, bits);
	}
	return 0;
}

/** A local size @p e (three dimensions: 1 beyond work_dim, unless it is a
 * required size) for global sizes @p g (three, 1 beyond work_dim): no 0,
 * nothing but 1 beyond work_dim, equal to @p reqd when that is given (NULL
 * or 0,0,0: none), each dimension within max_item, the product within
 * max_group, and with @p uniform a divisor of the global size. 0,
 * HP_INVALID_WORK_GROUP_SIZE or HP_INVALID_WORK_ITEM_SIZE with the
 * sentence. */
static inline __attribute__((always_inline)) int
hp_nd_check_local(const hp_nd_limits *l, unsigned w, const uint64_t g[3],
		  const uint64_t e[3], const uint32_t *req, bool uniform,
		  char *why, size_t n)
{
	for (unsigned d = 0; d < w; d++)
		if (e[d] == 0)
			return hp_nd_say(why, n, HP_INVALID_WORK_GROUP_SIZE,
					 "local size 0 in dimension %u", d);
	/* A required size with a dimension > 1 beyond work_dim cannot be
	 * launched with this work_dim. */
	for (unsigned d = w; d < 3; d++)
		if (e[d] != 1)
			return hp_nd_say(
				why, n, HP_INVALID_WORK_GROUP_SIZE,
				"required size %llu in dimension %u, beyond "
				"work_dim %u",
				(unsigned long long)(e[d]), d, w);
	if (req && (req[0] || req[1] || req[2]))
		for (unsigned d = 0; d < 3; d++)
			if (e[d] != req[d])
				return hp_nd_say(
					why, n, HP_INVALID_WORK_GROUP_SIZE,
					"local size %llu,%llu,%llu is not "
					"reqd_work_group_size %u,%u,%u",
					(unsigned long long)(e[0]),
					(unsigned long long)(e[1]),
					(unsigned long long)(e[2]),
					(unsigned)req[0], (unsigned)req[1],
					(unsigned)req[2]);
	for (unsigned d = 0; d < 3; d++)
		if (e[d] > l->max_item[d])
			return hp_nd_say(
				why, n, HP_INVALID_WORK_ITEM_SIZE,
				"local size %llu in dimension %u is above "
				"the device's max work-item size %u",
				(unsigned long long)(e[d]), d,
				(unsigned)l->max_item[d]);
	uint64_t prod = e[0] * e[1] * e[2];
	if (prod > l->max_group)
		return hp_nd_above_max(prod, l->max_group, l->max_why,
				       l->max_ctx, why, n);
	if (uniform)
		for (unsigned d = 0; d < w; d++)
			if (g[d] % e[d])
				return hp_nd_say(
					why, n, HP_INVALID_WORK_GROUP_SIZE,
					"local size %llu does not divide "
					"global size %llu in dimension %u "
					"(uniform work-groups)",
					(unsigned long long)(e[d]),
					(unsigned long long)(g[d]), d);
	return 0;
}

#endif
