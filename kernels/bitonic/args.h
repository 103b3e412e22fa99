/* SPDX-License-Identifier: MIT */
/* The argument block of bitonic (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_BITONIC_ARGS_H
#define KERNELS_BITONIC_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * bitonic: one pass of a bitonic sort of uint32 keys, ascending: the
 * pairs (lo, lo + j) of the stage of block size k compare-and-swap. n is a
 * power of two (pad with 0xffffffff), the range n/2 items (1-D). The
 * sort: for k = 2, 4, ..., n: for j = k/2, k/4, ..., 1: one launch.
 */
typedef struct {
	uint64_t data; /**< uint32_t[n] */
	uint64_t n;
	uint64_t k, j;
} hp_bitonic_args;

#endif
