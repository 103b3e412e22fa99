/* SPDX-License-Identifier: MIT */
/**
 * @file Host implementation of the HAL's hart, IPI and sleep interfaces:
 * threads play harts, so the portable code can run under sanitizers.
 */
#ifndef HAL_HOST_H
#define HAL_HOST_H

#include <stdbool.h>

/**
 * Run @p fn on @p num threads, each with its own hart index 0 .. num-1, and
 * wait for all of them. hal_hart_num() returns @p num meanwhile.
 */
void hal_host_run(unsigned num, void (*fn)(void *arg), void *arg);

/** Make the calling thread hart 0 of a one-hart machine (fuzzers: the
 * executor without other threads). */
void hal_host_single(void);

/** Times hal_sleep() actually blocked, over all threads so far. */
unsigned long hal_host_sleeps(void);

/** Is hart @p idx blocked in hal_sleep() with no IPI posted to it? */
bool hal_host_asleep(unsigned idx);

/** Is every hart of the running hal_host_run() blocked in hal_sleep() with
 * no IPI posted (or returned)? Then no hart will ever act again: harts
 * wake only by IPIs from harts (timed sleeps do not count as asleep). A
 * test's watcher thread (not a hart) reads it to report a stall instead of
 * hanging. */
bool hal_host_quiescent(void);

/** Give hart index @p idx the HAL_HART_* bits @p caps (hal_hart_caps);
 * every hart has all of them until a test says otherwise. Call before
 * hal_host_run. */
void hal_host_set_hart_caps(unsigned idx, unsigned caps);

#endif
