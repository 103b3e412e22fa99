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
