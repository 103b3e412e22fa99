/* SPDX-License-Identifier: MIT */
/**
 * @file Software barrier for a set of harts: sense-reversing (a generation
 * counter), a short poll then sleep; the last arriver wakes the sleepers
 * with IPIs. Portable: the host build runs it with threads as harts.
 */
#ifndef HAL_BARRIER_H
#define HAL_BARRIER_H

#include <hal/hartmask.h>

typedef struct {
	unsigned num;	       /**< participants */
	unsigned remaining;    /**< arrivals still missing this generation */
	unsigned generation;   /**< bumped by the last arriver */
	hal_hartmask sleepers; /**< harts that may be in wfi */
} hal_barrier;

/** Prepare @p b for @p num participants (before any of them uses it). */
void hal_barrier_init(hal_barrier *b, unsigned num);

/**
 * Wait until all participants have called this for the current generation.
 * Everything a participant wrote before is visible to all after.
 * @return true on exactly one participant per generation (the last arriver).
 */
bool hal_barrier_wait(hal_barrier *b);

#endif
