/* SPDX-License-Identifier: MIT */
/* The argument block of saxpy (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_SAXPY_ARGS_H
#define KERNELS_SAXPY_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/** saxpy: y[i] = a * x[i] + y[i] (float), in place, for every work-item i
 * of a 1-D range of n items (the buffers span the range). */
typedef struct {
	uint64_t x, y; /**< float[n] */
	uint64_t n;
	float a;
	uint32_t reserved; /**< 0 */
} hp_saxpy_args;

#endif
