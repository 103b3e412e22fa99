/* SPDX-License-Identifier: MIT */
/* The argument block of vadd (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_VADD_ARGS_H
#define KERNELS_VADD_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/** vadd: c[i] = a[i] + b[i] (float) for every work-item i of a 1-D range
 * of n items (the buffers span the range: no guard on n). */
typedef struct {
	uint64_t a, b, c; /**< float[n] */
	uint64_t n;
} hp_vadd_args;

#endif
