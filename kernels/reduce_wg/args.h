/* SPDX-License-Identifier: MIT */
/* The argument block of reduce_wg (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_REDUCE_WG_ARGS_H
#define KERNELS_REDUCE_WG_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * reduce_wg: out[group] = sum of in[i] over the group's items i < n
 * (int32, wrapping), by a tree in local memory. 1-D range >= n with the
 * local size L (<= 256) given. To sum n values: launch over n items into
 * partials p0[ceil(n/L)], then over those into p1, ... until one group is
 * left; its partial is the sum.
 */
typedef struct {
	uint64_t in;  /**< int32_t[n] */
	uint64_t out; /**< int32_t[groups] */
	uint64_t n;
} hp_reduce_wg_args;

#endif
