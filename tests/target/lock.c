// SPDX-License-Identifier: MIT
/*
 * The sleeping lock under contention with stray IPIs: every hart takes and
 * releases one lock LOCK_ROUNDS times, and now and then sends an IPI to
 * another hart, as the executor's wake-ups do. A stray IPI ends a
 * waiter's sleep without being a hand-over; the lock must still wake a
 * real sleeper on every release (a lost hand-over hangs the run, which the
 * runner's time limit turns into a failure). The holder is never still
 * registered as a waiter (a stale registration is what would send a later
 * hand-over to a hart that does not sleep), a plain counter updated under
 * the lock comes out exact, and nobody is ever inside twice.
 */
#include "tt.h"
#include <boot/app.h>
#include <hal/atomic.h>
#include <hal/ipi.h>
#include <hal/lock.h>

#define LOCK_ROUNDS 20000u

static hal_lock lock = HAL_LOCK_INIT;
static unsigned long counter;
static unsigned inside;

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num();
	unsigned overlap = 0, stale = 0;
	for (unsigned r = 0; r < LOCK_ROUNDS; r++) {
		hal_lock_acquire(&lock);
		overlap += hal_fetch_add(&inside, 1u) != 0;
		stale += (hal_load_relaxed(
				  &lock.waiters.w[me / HAL_HARTMASK_BITS]) &
			  hal_hartmask_bit(me)) != 0;
		unsigned long v = counter;
		for (volatile unsigned d = 0; d < 64 + (r & 255); d++)
			;
		counter = v + 1;
		hal_fetch_add(&inside, -1u);
		hal_lock_release(&lock);
		if (n > 1 && r % 4 == 0)
			hal_ipi_send((me + 1 + r / 4 % (n - 1)) % n);
	}
	TT_CHECK(overlap == 0);
	TT_CHECK(stale == 0);
	boot_barrier_all();
	if (me == 0) {
		TT_CHECK(counter == (unsigned long)LOCK_ROUNDS * n);
		for (unsigned w = 0; w < HAL_HARTMASK_WORDS; w++)
			TT_CHECK(lock.waiters.w[w] == 0);
		hal_printf("lock: counter %lu (expected %lu) on %u harts\n",
			   counter, (unsigned long)LOCK_ROUNDS * n, n);
	}
	return tt_result();
}
