// SPDX-License-Identifier: MIT
/*
 * Timer wake-ups among IPIs, the dispatcher's pattern on every hart: sleep
 * with hal_sleep_until() (the timer joins the IPI as a reason to wake) to a
 * deadline 1-300 us ahead, over and over, while every hart also IPIs
 * others after each of its sleeps. A hart whose timer wake-up is lost
 * sleeps for good once the others are done: the run then never reaches
 * the final barrier and the runner's time limit ends it as a failure.
 * Every sleep must end at or after its deadline (an IPI ends a sleep early:
 * the hart sleeps again), and no timer interrupt is left pending once the
 * comparator is disarmed.
 */
#include "tt.h"
#include <boot/app.h>
#include <hal/csr.h>
#include <hal/ipi.h>
#include <hal/sleep.h>
#include <hal/timer.h>

#define ROUNDS 400

static const unsigned delay_us[] = {1, 3, 10, 30, 100, 300, 2, 20};
static unsigned long early_wakes[HAL_MAX_HARTS];

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num();
	uint64_t us = hal_timer_freq() / 1000000u;
	uint32_t rng = 2654435761u * (me + 1);
	boot_barrier_all();
	for (unsigned r = 0; r < ROUNDS; r++) {
		unsigned d = delay_us[(r + me) %
				      (sizeof(delay_us) / sizeof(delay_us[0]))];
		uint64_t deadline = hal_timer_now() + d * us + 1;
		for (;;) {
			hal_sleep_prepare();
			hal_sleep_until(deadline);
			if (hal_timer_now() >= deadline)
				break;
			early_wakes[me]++; /* an IPI: sleep again */
		}
		TT_CHECK(hal_timer_now() >= deadline);
		if (n > 1) {
			rng = rng * 1103515245u + 12345u;
			unsigned to = (rng >> 8) % n;
			hal_ipi_send(to == me ? (me + 1) % n : to);
		}
	}
	/* The comparator is "never" again: no timer interrupt pending. Once
	 * more first: with Sstc, QEMU 7.2 clears STIP and moves its timer in
	 * two steps, and a timer of the previous value that expired in
	 * between still raises STIP after the first write (multi-threaded
	 * TCG; a spurious wake-up at worst, and the next write clears it). */
	hal_timer_disarm();
	TT_CHECK(!(csr_read(CSR_IP) & IE_TIMER));
	hal_ipi_clear_self();
	boot_barrier_all();
	if (me == 0) {
		unsigned long early = 0;
		for (unsigned k = 0; k < n; k++)
			early += early_wakes[k];
		hal_printf("timer_wake: %u timed sleeps on %u harts ok (%lu "
			   "ended early by an IPI and slept again)\n",
			   ROUNDS * n, n, early);
	}
	return tt_result();
}
