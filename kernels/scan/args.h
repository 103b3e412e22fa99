/* SPDX-License-Identifier: MIT */
/* The argument block of scan (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_SCAN_ARGS_H
#define KERNELS_SCAN_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * scan: out[i] = in[0] + ... + in[i] within each work-group (inclusive,
 * int32, wrapping) and sums[group] = the group's total. scan_add:
 * data[i] += sums[group - 1] for groups > 0. Both 1-D over n items with the
 * same local size L (2..256, given). The whole-array scan:
 *   scan(in -> out, sums0), then if ceil(n/L) > 1: the whole-array scan
 *   of sums0 in place (in = out = sums0, sums1, ...), then
 *   scan_add(out, sums0).
 * in == out is allowed.
 */
typedef struct {
	uint64_t in, out; /**< int32_t[n] */
	uint64_t sums;	  /**< int32_t[groups] */
	uint64_t n;
} hp_scan_args;
typedef struct {
	uint64_t data; /**< int32_t[n] */
	uint64_t sums; /**< int32_t[groups], inclusive-scanned */
	uint64_t n;
} hp_scan_add_args;

#endif
