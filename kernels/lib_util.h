/* SPDX-License-Identifier: MIT */
/*
 * What the library kernels (kernels/<name>/, one line each in
 * kernels/kernels.mk) share; <hartpool/kernels/lib.h> starts with it and
 * collects every kernel's argument blocks (kernels/<name>/args.h).
 *
 * Filling them: every buffer is a device address as uint64_t (on the
 * firmware, `(uint64_t)(uintptr_t)pointer`), every size a uint64_t, so host
 * and firmware of any XLEN agree. The `*_len` fields are the element counts
 * the buffers span: the mailbox checks each buffer against them before a
 * launch, and a kernel whose shape fields (w, h, m, n, k) need more than
 * that does nothing. Sizes follow the buffers, not the NDRange: every
 * kernel guards its items, so a range larger than the data is fine, and
 * remainder work-groups need nothing special. Ranges use the global ids as
 * indices (no --offset).
 *
 * A firmware-side benchmark launches them like any command: an exec_cmd
 * with .kernel = &hp_kernel_NAME, .args = &the struct, .args_size =
 * sizeof(the struct) and the range its args.h gives; the multi-launch
 * kernels (reduce_wg, scan, bitonic) as the sequences their args.h
 * describe, on an in-order queue.
 */
#ifndef KERNELS_LIB_UTIL_H
#define KERNELS_LIB_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** @p v, as a value the compiler cannot look into: a bound folded from
 * several checks stays one value (one compare per item in a row loop)
 * instead of being split back into a branch per check. */
static inline size_t hp_lib_opaque(size_t v)
{
	__asm__("" : "+r"(v));
	return v;
}

/** a * b <= len, without overflow (shape fields against buffer spans). */
static inline bool hp_lib_fits(uint64_t a, uint64_t b, uint64_t len)
{
	uint64_t p;
	return !__builtin_mul_overflow(a, b, &p) && p <= len;
}

#endif
