// SPDX-License-Identifier: MIT
/*
 * Per-session quotas (quota.h): the rule, the defaults of a shared device
 * and the refusal's words.
 */
#include "quota.h"
#include <stdio.h>

static const char *const names[MBOX_QUOTAS] = {
	"heap", "buffers", "objects", "rows", "queues", "commands",
};
static const char *const units[MBOX_QUOTAS] = {
	"bytes",	  "buffers",
	"kernel objects", "kernel-table rows",
	"queues",	  "commands in flight",
};

const char *mbox_quota_name(unsigned res)
{
	return res < MBOX_QUOTAS ? names[res] : "?";
}

uint64_t mbox_quota_floor(const mbox_quota *q, unsigned open)
{
	uint64_t share = q->cap / ((uint64_t)open + 1);
	uint64_t f = q->min < share ? q->min : share;
	return f < q->max ? f : q->max;
}

int mbox_quota_check(const mbox_quota *q, const mbox_quota_state *st,
		     unsigned s, uint64_t n, uint64_t *kept)
{
	uint64_t used = 0, unmet = 0;
	unsigned open = (unsigned)__builtin_popcount(st->open | 1u << s);
	uint64_t floor = mbox_quota_floor(q, open);
	for (unsigned k = 0; k < HP_MBOX_SESSIONS; k++) {
		used += st->use[k];
		if (k != s && st->open & 1u << k && st->use[k] < floor)
			unmet += floor - st->use[k];
	}
	/* What s takes within its own floor was kept for it: only the
	 * others' floors limit that part. Beyond it, a newcomer's too. */
	uint64_t own = st->use[s] < floor ? floor - st->use[s] : 0;
	if (st->slot_free && n > own)
		unmet += floor;
	if (kept)
		*kept = unmet;
	if (n > q->max || st->use[s] > q->max - n)
		return MBOX_QUOTA_OVER_MAX;
	uint64_t free = used < q->cap ? q->cap - used : 0;
	if (n > free || free - n < unmet)
		return MBOX_QUOTA_FLOORS;
	return MBOX_QUOTA_OK;
}

void mbox_quota_why(unsigned res, int verdict, const mbox_quota *q,
		    uint64_t use, uint64_t n, uint64_t kept, char *why,
		    size_t len)
{
	const char *name = mbox_quota_name(res);
	const char *unit = res < MBOX_QUOTAS ? units[res] : "units";
	if (verdict == MBOX_QUOTA_OVER_MAX)
		snprintf(why, len,
			 "over the session's %s quota: %llu of %llu %s in use, "
			 "%llu asked (hartpool up --quota %s=...)",
			 name, (unsigned long long)use,
			 (unsigned long long)q->max, unit,
			 (unsigned long long)n, name);
	else
		snprintf(why, len,
			 "the %slast %llu %s are kept for other sessions' "
			 "floors (%llu asked; hartpool up --quota-min)",
			 res == MBOX_QUOTA_HEAP ? "heap's " : "",
			 (unsigned long long)kept, unit, (unsigned long long)n);
}

/* The defaults of a shared device (docs/design.md, 75): a session takes at
 * most half of a resource (a quarter of the commands: four queues' rings)
 * and is sure of an eighth (one queue, one ring of commands). */
static uint64_t default_max(unsigned r, uint64_t cap)
{
	switch (r) {
	case MBOX_QUOTA_COMMANDS:
		return cap / 4; /* four queues' rings */
	default:
		return cap / 2;
	}
}

static uint64_t default_min(unsigned r, uint64_t cap)
{
	switch (r) {
	case MBOX_QUOTA_QUEUES:
		return 1; /* the service queue */
	case MBOX_QUOTA_COMMANDS:
		return cap / HP_MBOX_QUEUES; /* one queue's ring */
	default:
		return cap / 8;
	}
}

void mbox_quota_limits(mbox_quota *q, const uint64_t *cap, bool shared,
		       const uint64_t *max, const uint64_t *min)
{
	for (unsigned r = 0; r < MBOX_QUOTAS; r++) {
		q[r].cap = cap[r];
		q[r].max = cap[r];
		q[r].min = 0;
		if (!shared)
			continue;
		bool mx = max && max[r] != MBOX_QUOTA_DEFAULT;
		bool mn = min && min[r] != MBOX_QUOTA_DEFAULT;
		q[r].max = mx ? max[r] : default_max(r, cap[r]);
		q[r].min = mn ? min[r] : default_min(r, cap[r]);
		if (q[r].max > cap[r])
			q[r].max = cap[r];
		/* A session needs its service queue and a command at a time. */
		if ((r == MBOX_QUOTA_QUEUES || r == MBOX_QUOTA_COMMANDS) &&
		    q[r].max < 1)
			q[r].max = 1;
		if (q[r].min > q[r].max)
			q[r].min = q[r].max;
	}
}
