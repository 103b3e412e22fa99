/* SPDX-License-Identifier: MIT */
/* The argument block of conv2d (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_CONV2D_ARGS_H
#define KERNELS_CONV2D_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * conv2d: out[y][x] = sum over dy, dx in [-r, r] of
 * weights[(dy+r)*(2r+1) + dx+r] * in[clamp(y+dy)][clamp(x+dx)] (float,
 * edges clamped; sums in that order). r is 1 (3x3) or 2 (5x5). 2-D range
 * (w, h) or larger.
 */
typedef struct {
	uint64_t in, out; /**< float[w*h] */
	uint64_t len;	  /**< w*h */
	uint64_t w, h;
	uint64_t r;
	float weights[25]; /**< the first (2r+1)^2 are used */
	uint32_t reserved; /**< 0 */
} hp_conv2d_args;
#define HP_CONV2D_MAX_R 2u

#endif
