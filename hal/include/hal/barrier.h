/* SPDX-License-Identifier: MIT */
/**
 * @file Barriers for a team of harts: any subset of harts, given as a mask,
 * several barriers at once. Two backends, chosen per barrier at init:
 *   - the board's barrier unit (hal/barrier_unit.c, docs/barrier-unit.md),
 *     when the board has one and one of its barriers is free: one store to
 *     arrive, sleep (wfi) until the unit raises the hart's line;
 *   - software, everywhere else: an AMO word counts arrivals, the last
 *     arriver bumps the generation and wakes the sleepers with IPIs.
 *     Portable: the host build runs it with threads as harts.
 *
 * A member may leave for good (hal_barrier_leave): later rounds complete
 * without it until hal_barrier_reset() makes every member take part again.
 * Waits are a loop of arrive / passed / sleep / depart, so a caller that
 * must also watch something else (a time limit) can run the loop itself;
 * hal_barrier_wait() is that loop.
 */
#ifndef HAL_BARRIER_H
#define HAL_BARRIER_H

#include <hal/hartmask.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct {
	unsigned word;	       /**< software: arrivals | departures << 16 */
	unsigned generation;   /**< software: bumped by each release */
	unsigned num;	       /**< members */
	int unit;	       /**< the unit's barrier, or -1: software */
	unsigned first;	       /**< the member hal_barrier_wait() elects */
	hal_hartmask sleepers; /**< software: harts that may be in wfi */
	hal_hartmask team;     /**< members by hart index (unit: to reset) */
} hal_barrier;

/** A software barrier of @p num participants, whoever they are (boot,
 * before the unit is set up). */
void hal_barrier_init(hal_barrier *b, unsigned num);

/** A barrier of the harts in @p team (indices, at least one): the board's
 * barrier unit if it has a free barrier, else software. True if it got
 * the unit. Call hal_barrier_fini() to give the unit's barrier back. May
 * be called again on a barrier used before (after hal_barrier_fini()),
 * once no member is inside: the generation is kept, so a member still on
 * its way out of the last round is not sent back in. A barrier never
 * used before must be zeroed or hal_barrier_init()ed first. */
bool hal_barrier_init_team(hal_barrier *b, const hal_hartmask *team);

/** Give a unit barrier back (no member may be inside). */
void hal_barrier_fini(hal_barrier *b);

/**
 * Wait until all members (that have not left) have called this for the
 * current round. Everything a member wrote before is visible to all after.
 * @return true on exactly one member per round: the last arriver in
 * software, the team's lowest index with the unit (which cannot tell).
 */
bool hal_barrier_wait(hal_barrier *b);

/** Arrive; returns the ticket of this round for the calls below. */
unsigned hal_barrier_arrive(hal_barrier *b);
/** Has the round of @p ticket been released? (acquire) */
bool hal_barrier_passed(const hal_barrier *b, unsigned ticket);
/** Sleep until the round of @p ticket is released, an IPI, or any other
 * wake-up the hart has enabled (its timer); may return at once. The wait
 * is hal/sleep.h's protocol: hal_sleep_prepare() first, then
 * hal_barrier_passed() and whatever else the caller watches, then this
 * (an IPI sent after the prepare ends it, with the unit too). */
void hal_barrier_sleep(hal_barrier *b, unsigned ticket);
/** Stop waiting in the round of @p ticket for now without leaving it: the
 * arrival stays, the hart's interrupts are as before its arrival (it may
 * run other code meanwhile), and it comes back to the same round later
 * with hal_barrier_passed() / _sleep() / _depart() and its ticket (a team
 * whose members park in a barrier, executor/pool.c). */
void hal_barrier_pause(hal_barrier *b);
/** After passing: done with the round (the unit: acknowledge its line). */
void hal_barrier_depart(hal_barrier *b);

/** Leave for good: the rounds in progress and later ones complete
 * without the calling hart (its arrival in this round is forgotten by the
 * unit; software counts it as both). */
void hal_barrier_leave(hal_barrier *b);
/** Every member takes part again, no arrivals (call with no member
 * inside, ordered by something like another barrier). */
void hal_barrier_reset(hal_barrier *b);

/* ---- a board's barrier unit (docs/barrier-unit.md) ---- */

/** The backend of a barrier unit: barriers by number. */
typedef struct hal_barrier_hw {
	int (*alloc)(const hal_hartmask *team); /**< -1: none free */
	void (*free)(int id);
	/** The team again after members left (nobody inside). */
	void (*set_team)(int id, const hal_hartmask *team);
	/** arrive, sleep until passed, depart: hal_barrier_wait(). */
	void (*wait)(int id);
	unsigned (*arrive)(int id);
	bool (*passed)(int id, unsigned ticket);
	void (*sleep)(int id, unsigned ticket);
	void (*depart)(void);
	void (*pause)(void);
	void (*leave)(int id);
} hal_barrier_hw;

/** The unit in use, NULL if none (set by hal_barrier_unit_setup). */
extern const hal_barrier_hw *hal_barrier_unit;

/**
 * Use the board's barrier unit at @p base (the device tree's; 0: the
 * board's default address, if it has one). On the boot hart, before the
 * other harts run. False (software barriers only) if the board has no unit
 * or nothing answers there.
 */
bool hal_barrier_unit_setup(uintptr_t base);

#endif
