// SPDX-License-Identifier: MIT
/* Sleeping mutex; see hal/lock.h. The uncontended case is one AMO to take
 * it and a store, a fence and a load to release it: the executor takes
 * its command lock twice per command. */
#include <hal/ipi.h>
#include <hal/lock.h>
#include <hal/sleep.h>

bool hal_lock_try(hal_lock *l)
{
	return hal_load_relaxed(&l->held) == 0 && hal_swap(&l->held, 1u) == 0;
}

static __attribute__((noinline)) void lock_wait(hal_lock *l)
{
	unsigned me = hal_hart_idx();
	bool registered = false;
	for (unsigned polls = 0;; polls++) {
		if (hal_lock_try(l))
			break;
		if (polls < HAL_WAIT_POLLS) {
			hal_cpu_relax();
			continue;
		}
		/* Count ourselves, register, then re-check: a release after
		 * the count finds it and looks for our bit (or we see its
		 * store of held), a release before it is seen by the try. */
		hal_sleep_prepare();
		if (!registered)
			hal_fetch_add(&l->nwait, 1u);
		hal_hartmask_set(&l->waiters, me);
		registered = true;
		if (hal_lock_try(l))
			break;
		hal_sleep();
	}
	/* Whoever holds the lock must not stay registered. A wake-up that
	 * was not a hand-over (any other IPI) can end the sleep while our
	 * bit is still set; if the try above then wins, a stale bit would
	 * make a later release hand the lock to us instead of to a hart
	 * that really sleeps on it, and that hart would sleep forever. */
	if (registered) {
		hal_hartmask_test_clear(&l->waiters, me);
		hal_fetch_add(&l->nwait, -1u);
	}
}

void hal_lock_acquire(hal_lock *l)
{
	if (hal_swap(&l->held, 1u) != 0)
		lock_wait(l);
}

/* The first registered waiter with index >= from, or -1. */
static int waiter_from(const hal_hartmask *m, unsigned from, unsigned words)
{
	for (unsigned w = from / HAL_HARTMASK_BITS; w < words; w++) {
		unsigned long bits = hal_load_relaxed(&m->w[w]);
		if (w == from / HAL_HARTMASK_BITS)
			bits &= ~0UL << (from % HAL_HARTMASK_BITS);
		if (bits)
			return (int)(w * HAL_HARTMASK_BITS + hal_ctzl(bits));
	}
	return -1;
}

/* Hand over to one registered waiter, the next after ourselves so that
 * every waiter gets its turn. None registered yet (a waiter between its
 * count and its bit): it sees the free lock in its try. */
static __attribute__((noinline)) void hand_over(hal_lock *l)
{
	unsigned words = hal_hartmask_used_words();
	unsigned me = hal_hart_idx();
	for (;;) {
		int idx = waiter_from(&l->waiters, me + 1, words);
		if (idx < 0)
			idx = waiter_from(&l->waiters, 0, words);
		if (idx < 0)
			return;
		if (hal_hartmask_test_clear(&l->waiters, (unsigned)idx)) {
			hal_ipi_send((unsigned)idx);
			return;
		}
	}
}

void hal_lock_release(hal_lock *l)
{
	hal_store_release(&l->held, 0u);
	hal_fence(); /* store held, then read nwait: see hal_ipi.c */
	if (hal_load_relaxed(&l->nwait))
		hand_over(l);
}
