/* SPDX-License-Identifier: MIT */
/* The argument block of transpose (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_TRANSPOSE_ARGS_H
#define KERNELS_TRANSPOSE_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * transpose: out[x][y] = in[y][x]; in is h rows of w floats, out w rows of
 * h. 2-D range (w, h) or larger; each work-group moves its block through
 * a tile in local memory (any local shape up to 256 items).
 */
typedef struct {
	uint64_t in, out; /**< float[w*h] */
	uint64_t len;	  /**< w*h */
	uint64_t w, h;
} hp_transpose_args;

#endif
