// SPDX-License-Identifier: MIT
/* Every hart adds 1 to one shared counter 10,000 times with amoadd, and
 * 1,000 times to a second one with an LR/SC compare-and-swap loop; both
 * totals must be exact. */
#include "tt.h"
#include <boot/app.h>

#define AMO_ITERS 10000u
#define CAS_ITERS 1000u

static unsigned amo_total, cas_total;

int app_main(void)
{
	unsigned n = hal_hart_num();
	for (unsigned i = 0; i < AMO_ITERS; i++)
		hal_fetch_add_relaxed(&amo_total, 1u);
	for (unsigned i = 0; i < CAS_ITERS; i++) {
		unsigned old = hal_load_relaxed(&cas_total);
		/* Lock-free retry, not a wait: a failed CAS means another
		 * hart made progress. */
		while (!hal_cas(&cas_total, &old, old + 1))
			continue;
	}
	boot_barrier_all();
	if (hal_hart_idx() == 0) {
		unsigned amo = hal_load_acquire(&amo_total),
			 cas = hal_load_acquire(&cas_total);
		TT_CHECK(amo == n * AMO_ITERS);
		TT_CHECK(cas == n * CAS_ITERS);
		hal_printf("amo_counter: amoadd total %u (expected %u), cas "
			   "total %u (expected %u)\n",
			   amo, n * AMO_ITERS, cas, n * CAS_ITERS);
	}
	return tt_result();
}
