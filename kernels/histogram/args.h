/* SPDX-License-Identifier: MIT */
/* The argument block of histogram (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_HISTOGRAM_ARGS_H
#define KERNELS_HISTOGRAM_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * histogram: bins[v] += number of bytes data[i] == v, i < n (256 bins):
 * every work-group counts into local memory with local atomics, then adds
 * its non-zero bins to the global ones with global atomics. Any range:
 * the work-items stride over the data by the number of work-items. Zero
 * bins first.
 */
typedef struct {
	uint64_t data; /**< uint8_t[n] */
	uint64_t bins; /**< uint32_t[256], zeroed by the caller */
	uint64_t n;
} hp_histogram_args;

#endif
