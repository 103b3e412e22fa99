/* SPDX-License-Identifier: MIT */
/*
 * Per-session quotas (mailbox-private; docs/sessions.md, "Quotas"): one
 * rule for every resource a session takes on a shared device (heap bytes,
 * buffers, kernel objects, kernel-table rows, queues, commands in flight).
 * Each resource has a capacity, and each session a most (max) and a
 * guaranteed floor (min). A take of n units by session s is refused when
 *
 *   - s's use + n > max ("over the session's quota"), or
 *   - it would leave fewer free units than the floors still unmet: the
 *     other open sessions' max(0, floor - use), plus one newcomer's floor
 *     while a session slot is free ("kept for other sessions' floors");
 *     a take within s's own floor needs only the others' floors left
 *     (the newcomer's was kept for s when s came).
 *
 * A floor is min, or an equal share of the capacity (capacity / (open
 * sessions + 1)) when more sessions are open than floors of min fit, and
 * never above max. So a
 * host that comes last still finds its floor free, however greedy the
 * others are. A private device has max = capacity, min = 0: only the
 * capacity counts. The rule is pure (mbox_quota_check); session.c finds
 * the figures and applies it.
 */
#ifndef MAILBOX_QUOTA_H
#define MAILBOX_QUOTA_H

#include <hartpool/mbox.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The resources with a quota (hp_mbox_quota's order). */
enum mbox_quota_res {
	MBOX_QUOTA_HEAP = HP_QUOTA_HEAP,
	MBOX_QUOTA_BUFFERS = HP_QUOTA_BUFFERS,
	MBOX_QUOTA_OBJECTS = HP_QUOTA_OBJECTS,
	MBOX_QUOTA_ROWS = HP_QUOTA_ROWS,
	MBOX_QUOTA_QUEUES = HP_QUOTA_QUEUES,
	MBOX_QUOTA_COMMANDS = HP_QUOTA_COMMANDS,
	MBOX_QUOTAS = HP_QUOTAS
};

/** One resource's limits. */
typedef struct mbox_quota {
	uint64_t cap; /**< units on the device */
	uint64_t max; /**< a session's most */
	uint64_t min; /**< a session's floor */
} mbox_quota;

/** Where the figures stand: every session's use, which sessions are open
 * (bit s), and whether a session slot is free (a newcomer may come). */
typedef struct mbox_quota_state {
	uint64_t use[HP_MBOX_SESSIONS];
	uint32_t open;
	bool slot_free;
} mbox_quota_state;

/** mbox_quota_check's verdicts. */
enum { MBOX_QUOTA_OK, MBOX_QUOTA_OVER_MAX, MBOX_QUOTA_FLOORS };

/** May session @p s take @p n more units of the resource @p q? A verdict;
 * *kept (may be NULL) gets the units kept for the others' floors. */
int mbox_quota_check(const mbox_quota *q, const mbox_quota_state *st,
		     unsigned s, uint64_t n, uint64_t *kept);

/** The floor of one session while @p open sessions are open. */
uint64_t mbox_quota_floor(const mbox_quota *q, unsigned open);

/** A refusal as a detail line (in @p why, @p len bytes): the quota, the
 * numbers and the `hartpool up` option that sets it. */
void mbox_quota_why(unsigned res, int verdict, const mbox_quota *q,
		    uint64_t use, uint64_t n, uint64_t kept, char *why,
		    size_t len);

/** A quota not given: the default (docs/design.md, 75). */
#define MBOX_QUOTA_DEFAULT UINT64_MAX

/** The limits of a device: shared (@p shared) with @p max and @p min
 * given per resource (MBOX_QUOTA_DEFAULT, or @p max / @p min NULL: the
 * default), or private (no quotas: max = capacity, min = 0); @p cap holds
 * the capacities. A max above the capacity is the capacity, a min above
 * the max is the max. */
void mbox_quota_limits(mbox_quota *q, const uint64_t *cap, bool shared,
		       const uint64_t *max, const uint64_t *min);

/** A resource's name ("heap", "buffers", ...: the --quota keys). */
const char *mbox_quota_name(unsigned res);

#endif
