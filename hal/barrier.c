// SPDX-License-Identifier: MIT
/* Team barriers: the software backend, and the choice of the board's
 * barrier unit where there is one; see hal/barrier.h. */
#include <hal/barrier.h>
#include <hal/ipi.h>
#include <hal/sleep.h>
#include <string.h>

const hal_barrier_hw *hal_barrier_unit;

/* Boards without a unit (hal/barrier_unit.c replaces this). */
__attribute__((weak)) bool hal_barrier_unit_setup(uintptr_t base)
{
	(void)base;
	return false;
}

#define DEPARTED (1u << 16)
#define ARRIVALS(w) ((w) & (DEPARTED - 1u))

void hal_barrier_init(hal_barrier *b, unsigned num)
{
	memset(b, 0, sizeof(*b));
	b->num = num;
	b->unit = -1;
}

bool hal_barrier_init_team(hal_barrier *b, const hal_hartmask *team)
{
	unsigned num = 0, first = ~0u;
	for (unsigned i = 0; i < HAL_HARTMASK_WORDS; i++)
		for (unsigned long w = team->w[i]; w; w &= w - 1) {
			if (first == ~0u)
				first = i * HAL_HARTMASK_BITS + hal_ctzl(w);
			num++;
		}
	/* Not the generation, nor the sleepers: a member still leaving the
	 * last round of an earlier use reads the one and may set the other,
	 * and must see its release whatever happens here. */
	hal_store_relaxed(&b->word, 0u);
	b->num = num;
	b->team = *team;
	b->first = first;
	b->unit = hal_barrier_unit ? hal_barrier_unit->alloc(team) : -1;
	return b->unit >= 0;
}

void hal_barrier_fini(hal_barrier *b)
{
	if (b->unit >= 0)
		hal_barrier_unit->free(b->unit);
	b->unit = -1;
}

/* Software: the round is complete; re-arm (departures stay), publish the
 * new generation (the release orders the re-arm before it), wake. */
static void sw_release(hal_barrier *b, unsigned w, unsigned gen)
{
	hal_store_relaxed(&b->word, w & ~(DEPARTED - 1u));
	hal_store_release(&b->generation, gen + 1);
	hal_ipi_send_mask_clear(&b->sleepers);
}

/* Software arrival: the round's generation in *gen; true if ours was the
 * last arrival (we released the round). */
static bool sw_arrive(hal_barrier *b, unsigned *gen)
{
	/* The generation cannot change before our own arrival is counted. */
	*gen = hal_load_acquire(&b->generation);
	unsigned num = b->num; /* before our arrival: the barrier may be
				* made again once the round is released */
	unsigned w = hal_fetch_add(&b->word, 1u) + 1u;
	if (ARRIVALS(w) + (w >> 16) != num)
		return false;
	sw_release(b, w, *gen);
	return true;
}

unsigned hal_barrier_arrive(hal_barrier *b)
{
	if (b->unit >= 0)
		return hal_barrier_unit->arrive(b->unit);
	unsigned gen;
	sw_arrive(b, &gen);
	return gen;
}

bool hal_barrier_passed(const hal_barrier *b, unsigned ticket)
{
	if (b->unit >= 0)
		return hal_barrier_unit->passed(b->unit, ticket);
	return hal_load_acquire(&b->generation) != ticket;
}

void hal_barrier_sleep(hal_barrier *b, unsigned ticket)
{
	if (b->unit >= 0) {
		hal_barrier_unit->sleep(b->unit, ticket);
		return;
	}
	/* Announce the sleep before the last check: the releaser either
	 * sees the bit (and IPIs) or we see the new generation. The caller
	 * cleared the IPI before its own checks (hal/sleep.h). */
	hal_hartmask_set(&b->sleepers, hal_hart_idx());
	if (hal_load_acquire(&b->generation) == ticket)
		hal_sleep();
}

void hal_barrier_depart(hal_barrier *b)
{
	if (b->unit >= 0)
		hal_barrier_unit->depart();
	/* Software: a stale sleeper bit only costs one spurious wake-up. */
}

void hal_barrier_pause(hal_barrier *b)
{
	if (b->unit >= 0)
		hal_barrier_unit->pause();
	/* Software: a stale sleeper bit only costs one spurious wake-up. */
}

bool hal_barrier_wait(hal_barrier *b)
{
	unsigned ticket;
	if (b->unit >= 0) {
		/* Read before passing: the barrier may be made again after. */
		bool elected = hal_hart_idx() == b->first;
		hal_barrier_unit->wait(b->unit);
		return elected;
	}
	if (sw_arrive(b, &ticket))
		return true;
	hal_wait_while_eq(&b->generation, ticket, &b->sleepers);
	return false;
}

void hal_barrier_leave(hal_barrier *b)
{
	if (b->unit >= 0) {
		hal_barrier_unit->leave(b->unit);
		return;
	}
	unsigned gen = hal_load_acquire(&b->generation), num = b->num;
	unsigned w = hal_fetch_add(&b->word, DEPARTED) + DEPARTED;
	/* Our leaving may complete a round the others are waiting in. */
	if (ARRIVALS(w) && ARRIVALS(w) + (w >> 16) == num)
		sw_release(b, w, gen);
}

void hal_barrier_reset(hal_barrier *b)
{
	if (b->unit >= 0)
		hal_barrier_unit->set_team(b->unit, &b->team);
	else
		hal_store_relaxed(&b->word, 0u);
}
