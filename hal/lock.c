// SPDX-License-Identifier: MIT
/* Sleeping mutex; see hal/lock.h. */
#include <hal/ipi.h>
#include <hal/lock.h>
#include <hal/sleep.h>

bool hal_lock_try(hal_lock *l)
{
	return hal_load_relaxed(&l->held) == 0 && hal_swap(&l->held, 1u) == 0;
}

void hal_lock_acquire(hal_lock *l)
{
	unsigned me = hal_hart_idx();
	for (unsigned polls = 0;; polls++) {
		if (hal_lock_try(l))
			return;
		if (polls < HAL_WAIT_POLLS) {
			hal_cpu_relax();
			continue;
		}
		/* Register, then re-check: a release after the registration
		 * finds our bit and wakes us, a release before it is seen by
		 * the try. */
		hal_sleep_prepare();
		hal_hartmask_set(&l->waiters, me);
		if (hal_lock_try(l)) {
			hal_hartmask_test_clear(&l->waiters, me);
			return;
		}
		hal_sleep();
	}
}

void hal_lock_release(hal_lock *l)
{
	hal_store_release(&l->held, 0u);
	hal_fence(); /* store held, then read waiters: see hal_ipi.c */
	/* Hand over to one registered waiter, starting after ourselves so
	 * that every waiter gets its turn. */
	unsigned me = hal_hart_idx(), n = hal_hart_num();
	for (unsigned k = 1; k <= n; k++) {
		unsigned idx = (me + k) % n;
		if (!(hal_load_relaxed(&l->waiters.w[idx / HAL_HARTMASK_BITS]) &
		      hal_hartmask_bit(idx)))
			continue;
		if (hal_hartmask_test_clear(&l->waiters, idx)) {
			hal_ipi_send(idx);
			return;
		}
	}
}
