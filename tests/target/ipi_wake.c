// SPDX-License-Identifier: MIT
/*
 * Wake-ups. Hart 0 wakes every other hart in turn: the hart goes to sleep
 * (wfi), hart 0 waits until it has announced the sleep plus 1 ms, then
 * sends one IPI; the sleeper's wake that sees the "sent" flag must have the
 * IPI pending, and at most two earlier wake-ups may be spurious (late IPIs
 * of the boot barrier), so the sleeper really slept. Then every hart
 * sleeps on the timer for 2 ms and must not wake before its deadline.
 */
#include "tt.h"
#include <boot/app.h>
#include <hal/csr.h>
#include <hal/ipi.h>
#include <hal/sleep.h>
#include <hal/timer.h>

static unsigned sleeping[HAL_MAX_HARTS], sent[HAL_MAX_HARTS];
static uint64_t sent_at[HAL_MAX_HARTS], woke_at[HAL_MAX_HARTS];

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num();

	if (me == 0) {
		uint64_t worst = 0;
		for (unsigned k = 1; k < n; k++) {
			HAL_WAIT_UNTIL(hal_load_acquire(&sleeping[k]));
			hal_timer_sleep_us(1000);
			sent_at[k] = hal_timer_now();
			hal_store_release(&sent[k], 1u);
			hal_ipi_send(k);
		}
		boot_barrier_all();
		for (unsigned k = 1; k < n; k++) {
			uint64_t lat = woke_at[k] - sent_at[k];
			worst = lat > worst ? lat : worst;
		}
		hal_printf("ipi_wake: %u harts woken by IPI, worst latency "
			   "%llu us\n",
			   n - 1,
			   (unsigned long long)hal_timer_ticks_to_us(worst));
	} else {
		/* A wait is a loop: a late IPI from an earlier barrier may end
		 * the first wfi (allowed, see hal/sleep.h). The wake that sees
		 * "sent" must have the IPI pending, and spurious wakes must be
		 * rare, not a spin. */
		unsigned spurious = 0;
		unsigned long ip = 0;
		bool by_wake = false; /* left the loop right after a wfi */
		hal_sleep_prepare();
		hal_store_release(&sleeping[me], 1u);
		hal_ipi_send(0); /* hart 0 may sleep in HAL_WAIT_UNTIL */
		for (;;) {
			hal_sleep();
			ip = csr_read(CSR_IP);
			if (hal_load_acquire(&sent[me])) {
				by_wake = true;
				break;
			}
			spurious++;
			hal_sleep_prepare();
			if (hal_load_acquire(&sent[me]))
				break;
		}
		woke_at[me] = hal_timer_now();
		TT_CHECK(!by_wake || (ip & IE_SOFT));
		TT_CHECK(spurious <= 2);
		hal_ipi_clear_self();
		boot_barrier_all();
	}

	uint64_t deadline = hal_timer_now() + 2 * hal_timer_freq() / 1000;
	hal_timer_sleep_until(deadline);
	TT_CHECK(hal_timer_now() >= deadline);
	TT_CHECK(
		!(csr_read(CSR_IP) & IE_TIMER)); /* comparator disarmed again */
	boot_barrier_all();
	if (me == 0)
		hal_printf("ipi_wake: timer sleep of 2 ms on %u harts ok\n", n);
	return tt_result();
}
