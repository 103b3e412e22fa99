/* SPDX-License-Identifier: MIT */
/** @file A set of hart indices, with atomic updates. */
#ifndef HAL_HARTMASK_H
#define HAL_HARTMASK_H

#include <hal/atomic.h>
#include <hal/hart.h>
#include <stdbool.h>

#define HAL_HARTMASK_BITS (8 * sizeof(unsigned long))
#define HAL_HARTMASK_WORDS                                                     \
	((HAL_MAX_HARTS + HAL_HARTMASK_BITS - 1) / HAL_HARTMASK_BITS)

typedef struct {
	unsigned long w[HAL_HARTMASK_WORDS];
} hal_hartmask;

static inline unsigned long hal_hartmask_bit(unsigned idx)
{
	return 1UL << (idx % HAL_HARTMASK_BITS);
}

/**
 * Index of the lowest set bit of @p x (x != 0). A de Bruijn multiply: the
 * ISA has no ctz without Zbb, and __builtin_ctzl calls a libgcc loop.
 */
static inline unsigned hal_ctzl(unsigned long x)
{
#if __SIZEOF_LONG__ == 8
	static const unsigned char t[64] = {
		0,  1,	2,  53, 3,  7,	54, 27, 4,  38, 41, 8,	34, 55, 48, 28,
		62, 5,	39, 46, 44, 42, 22, 9,	24, 35, 59, 56, 49, 18, 29, 11,
		63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10,
		51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
	return t[((x & -x) * 0x022fdd63cc95386dUL) >> 58];
#else
	static const unsigned char t[32] = {
		0,  1,	28, 2,	29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4,  8,
		31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6,  11, 5,  10, 9};
	return t[((x & -x) * 0x077cb531UL) >> 27];
#endif
}

/** Words that can hold a bit for the harts in use. */
static inline unsigned hal_hartmask_used_words(void)
{
	return (hal_hart_num() + HAL_HARTMASK_BITS - 1) / HAL_HARTMASK_BITS;
}

/** Atomically add @p idx (acquire-release). */
static inline void hal_hartmask_set(hal_hartmask *m, unsigned idx)
{
	hal_fetch_or(&m->w[idx / HAL_HARTMASK_BITS], hal_hartmask_bit(idx));
}

/** Atomically remove @p idx; returns whether it was present. */
static inline bool hal_hartmask_test_clear(hal_hartmask *m, unsigned idx)
{
	unsigned long bit = hal_hartmask_bit(idx);
	return hal_fetch_and(&m->w[idx / HAL_HARTMASK_BITS], ~bit) & bit;
}

#endif
