/* SPDX-License-Identifier: MIT */
/**
 * @file A sleeping mutex: a hart that finds it held sleeps until the holder
 * hands it on with an IPI. For rare, short sections (console lines); hot
 * paths use lock-free AMOs instead.
 */
#ifndef HAL_LOCK_H
#define HAL_LOCK_H

#include <hal/hartmask.h>

typedef struct {
	unsigned held;
	/* Harts registered in `waiters` (or about to be): a release that
	 * reads 0 here has nobody to hand over to, without scanning the
	 * mask. */
	unsigned nwait;
	hal_hartmask waiters;
} hal_lock;

#define HAL_LOCK_INIT                                                          \
	{                                                                      \
		0                                                              \
	}

/** Take the lock (acquire). */
void hal_lock_acquire(hal_lock *l);
/** Take the lock if it is free; true if taken. */
bool hal_lock_try(hal_lock *l);
/** Release the lock and wake one waiter. */
void hal_lock_release(hal_lock *l);

#endif
