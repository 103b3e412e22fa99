// SPDX-License-Identifier: MIT
/* The sentences of the NDRange rules for the firmware and the ICD (the
 * rules are inline in include/hartpool/ndrange_check.h): only a broken rule
 * comes here. Pure and portable: built into the firmware, libhartpool and
 * the host tests. */
#include <hartpool/error.h>
#include <hartpool/ndrange_check.h>
#include <stdarg.h>
#include <stdio.h>

int hp_nd_say(char *why, size_t n, int code, const char *fmt, ...)
{
	if (why && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return code;
}

int hp_nd_above_max(uint64_t prod, uint64_t max,
		    void (*max_why)(const void *ctx, char *buf, size_t n),
		    const void *ctx, char *why, size_t n)
{
	char lim[80];
	if (max_why)
		max_why(ctx, lim, sizeof(lim));
	else
		snprintf(lim, sizeof(lim), "the device limit");
	return hp_nd_say(why, n, HP_INVALID_WORK_GROUP_SIZE,
			 "local size %llu above the kernel's maximum %llu (%s)",
			 (unsigned long long)prod, (unsigned long long)max,
			 lim);
}

/* Largest divisor of g that is <= cap, preferring multiples of s. */
static uint64_t divisor_at_most(uint64_t g, uint64_t cap, uint64_t s)
{
	if (g == 0)
		return cap ? 1 : 0;
	if (s > 1)
		for (uint64_t d = cap / s * s; d >= s; d -= s)
			if (g % d == 0)
				return d;
	for (uint64_t d = cap; d > 1; d--)
		if (g % d == 0)
			return d;
	return 1;
}

void hp_nd_choose_local(const uint32_t max_item[3], bool uniform,
			uint64_t limit, unsigned s, unsigned workers,
			const uint64_t g[3], uint64_t e[3])
{
	uint64_t items = g[0] * g[1] * g[2];
	/* Several work-groups per worker (4): every hart stays busy and the
	 * guided pool can balance. */
	uint64_t target = items / (4u * (uint64_t)(workers ? workers : 1));
	if (target > limit)
		target = limit;
	if (target >= s)
		target = target / s * s;
	if (target < 1)
		target = 1;

	uint64_t budget = target;
	for (unsigned d = 0; d < 3; d++) {
		uint64_t cap = budget;
		if (cap > g[d])
			cap = g[d];
		if (cap > max_item[d])
			cap = max_item[d];
		if (cap < 1)
			cap = 1;
		/* Dimension 0 carries the sub-groups: a multiple of s where
		 * the global size allows. */
		if (d == 0 && cap >= s)
			cap = cap / s * s;
		e[d] = uniform ? divisor_at_most(g[d], cap, d == 0 ? s : 1)
			       : cap;
		budget /= e[d];
		if (budget < 1)
			budget = 1;
	}
}
