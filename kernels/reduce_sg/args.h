/* SPDX-License-Identifier: MIT */
/* The argument block of reduce_sg (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_REDUCE_SG_ARGS_H
#define KERNELS_REDUCE_SG_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * reduce_sg: *sum += sum of in[i], i < n (int32, wrapping): each sub-group
 * reduces with hp_sub_group_reduce_add_int, its first item adds the result
 * to *sum with one atomic. Zero *sum first; one launch, 1-D range >= n.
 */
typedef struct {
	uint64_t in;  /**< int32_t[n] */
	uint64_t sum; /**< int32_t, zeroed by the caller */
	uint64_t n;
} hp_reduce_sg_args;

#endif
