// SPDX-License-Identifier: MIT
/* Sense-reversing barrier with a generation counter; see hal/barrier.h. */
#include <hal/barrier.h>
#include <hal/ipi.h>
#include <hal/sleep.h>
#include <string.h>

void hal_barrier_init(hal_barrier *b, unsigned num)
{
	memset(b, 0, sizeof(*b));
	b->num = num;
	b->remaining = num;
}

bool hal_barrier_wait(hal_barrier *b)
{
	/* Read the generation before arriving: it cannot change until this
	 * hart's own arrival has been counted. */
	unsigned gen = hal_load_acquire(&b->generation);

	if (hal_fetch_add(&b->remaining, -1u) == 1) {
		/* Last arriver: re-arm, then publish the new generation (the
		 * release orders the re-arm before it), then wake sleepers. */
		hal_store_relaxed(&b->remaining, b->num);
		hal_store_release(&b->generation, gen + 1);
		hal_ipi_send_mask_clear(&b->sleepers);
		return true;
	}

	hal_wait_while_eq(&b->generation, gen, &b->sleepers);
	return false;
}
