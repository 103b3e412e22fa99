// SPDX-License-Identifier: MIT
/* The sleeping mutex with threads as harts: mutual exclusion (a plain
 * counter updated under the lock comes out exact; ThreadSanitizer checks
 * the accesses) and no lost hand-over (the run ends). */
#include "check.h"
#include <hal/lock.h>
#include <hal_host.h>

#define ITERS 20000

static hal_lock lock = HAL_LOCK_INIT;
static unsigned long counter; /* plain: only touched under the lock */
static unsigned inside;	      /* harts inside the section: must stay 1 */

static void body(void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < ITERS; i++) {
		hal_lock_acquire(&lock);
		CHECK_EQ(hal_fetch_add(&inside, 1u), 0);
		counter++;
		hal_fetch_add(&inside, -1u);
		hal_lock_release(&lock);
	}
}

int main(void)
{
	unsigned counts[] = {1, 2, 7, 16};
	for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
		counter = 0;
		hal_host_run(counts[c], body, NULL);
		CHECK_EQ(counter, (unsigned long)counts[c] * ITERS);
	}
	CHECK(hal_lock_try(&lock));
	CHECK(!hal_lock_try(&lock));
	return check_report("test_lock");
}
