/* SPDX-License-Identifier: MIT */
/**
 * @file The NDRange rules of clEnqueueNDRangeKernel, once, for both sides:
 * the firmware's executor/ndrange.c and the ICD's clEnqueueNDRangeKernel
 * (host/icd/kernel.c) call the same checks (common/ndrange_check.c) and
 * get the same HP_ error code (the OpenCL code of the same value) and the
 * same sentence, which names the limit and the numbers (docs/ndrange.md,
 * docs/design.md 59). The sentence is only formatted on the error path.
 *
 * Two steps, in the firmware's order: the range itself (work_dim, global
 * sizes and offsets against the device's size_t), then a local size
 * (given, or the required one) against the device and the kernel.
 */
#ifndef HARTPOOL_NDRANGE_CHECK_H
#define HARTPOOL_NDRANGE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What a range is checked against. */
typedef struct hp_nd_limits {
	unsigned max_work_dim; /**< the device's (3) */
	unsigned address_bits; /**< width of the device's size_t */
	uint32_t max_item[3];  /**< max work-item sizes */
	/** The kernel's largest work-group (CL_KERNEL_WORK_GROUP_SIZE). */
	uint64_t max_group;
	/** Why max_group is what it is, for the sentence (called only on
	 * that error); NULL: "the device limit". */
	void (*max_why)(const void *ctx, char *buf, size_t n);
	const void *max_ctx;
} hp_nd_limits;

/** work_dim (1..max_work_dim, at most 3), then each global size and the
 * number of work-items (representable in the device's size_t; 0 is an
 * empty range), then each offset + global size. @p offset may be NULL
 * (0). 0, HP_INVALID_WORK_DIMENSION, HP_INVALID_GLOBAL_WORK_SIZE or
 * HP_INVALID_GLOBAL_OFFSET with the sentence in @p why (@p n bytes; may
 * be NULL). */
int hp_nd_check_global(const hp_nd_limits *l, unsigned work_dim,
		       const uint64_t *global, const uint64_t *offset,
		       char *why, size_t n);

/** A local size @p e (three dimensions: 1 beyond work_dim, unless it is a
 * required size) for global sizes @p g (three, 1 beyond work_dim): no 0,
 * nothing but 1 beyond work_dim, equal to @p reqd when that is given (NULL
 * or 0,0,0: none), each dimension within max_item, the product within
 * max_group, and with @p uniform a divisor of the global size. 0,
 * HP_INVALID_WORK_GROUP_SIZE or HP_INVALID_WORK_ITEM_SIZE with the
 * sentence. */
int hp_nd_check_local(const hp_nd_limits *l, unsigned work_dim,
		      const uint64_t g[3], const uint64_t e[3],
		      const uint32_t *reqd, bool uniform, char *why, size_t n);

#endif
