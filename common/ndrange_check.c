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
