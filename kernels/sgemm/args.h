/* SPDX-License-Identifier: MIT */
/* The argument block of sgemm (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_SGEMM_ARGS_H
#define KERNELS_SGEMM_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * sgemm_naive, sgemm_tiled: C = A * B (float, row-major): A is m x k, B
 * k x n, C m x n. 2-D range (n, m) or larger: dimension 0 is the column of
 * C, dimension 1 the row. Each item sums its k products in order k = 0, 1,
 * ..., so both kernels give the same bits. sgemm_tiled stages tiles of
 * HP_SGEMM_TILE k-values in local memory: any local size (up to 256 items)
 * works, an 8x8 or 16x16 one is the usual choice.
 */
typedef struct {
	uint64_t a, b, c;
	uint64_t a_len, b_len, c_len; /**< m*k, k*n, m*n */
	uint64_t m, n, k;
} hp_sgemm_args;
#define HP_SGEMM_TILE 8u

#endif
