// SPDX-License-Identifier: MIT
/* Portable part of the IPI interface. */
#include <hal/ipi.h>

static __attribute__((noinline)) void send_from(hal_hartmask *m, unsigned w0,
						unsigned words)
{
	for (unsigned w = w0; w < words; w++) {
		if (!hal_load_relaxed(&m->w[w]))
			continue;
		unsigned long bits = hal_swap(&m->w[w], 0UL);
		while (bits) {
			unsigned b = (unsigned)hal_ctzl(bits);
			bits &= bits - 1;
			hal_ipi_send(w * HAL_HARTMASK_BITS + b);
		}
	}
}

void hal_ipi_send_mask_clear(hal_hartmask *m)
{
	/* The caller just published a condition; sleepers register in m and
	 * then read that condition. Store -> load order needs a full fence on
	 * both sides (theirs is the AMO that set the bit), else both can miss
	 * each other and a wake-up is lost. */
	hal_fence();
	/* Mostly nobody sleeps on it: a scan, no frame. */
	unsigned words = hal_hartmask_used_words();
	for (unsigned w = 0; w < words; w++)
		if (hal_load_relaxed(&m->w[w])) {
			send_from(m, w, words);
			return;
		}
}
