// SPDX-License-Identifier: MIT
/* Waiting for a word to change; see hal/sleep.h. */
#include <hal/hartmask.h>
#include <hal/sleep.h>

void hal_wait_while_eq(const unsigned *word, unsigned old,
		       hal_hartmask *sleepers)
{
	unsigned me = hal_hart_idx();
	for (unsigned polls = 0; hal_load_acquire(word) == old;) {
		if (polls < HAL_WAIT_POLLS) {
			polls++;
			hal_cpu_relax();
			continue;
		}
		/* Announce the sleep before the last check: the waker either
		 * sees the bit (and IPIs) or we see the new value. */
		hal_sleep_prepare();
		hal_hartmask_set(sleepers, me);
		if (hal_load_acquire(word) != old)
			break;
		hal_sleep();
	}
	/* A stale bit only costs one spurious wake-up later. */
}
