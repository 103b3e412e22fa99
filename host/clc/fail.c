// SPDX-License-Identifier: MIT
/*
 * The kernel compiler's one way to fail (fail.h): the HP_ code and its
 * sentence into the build's log.
 */
#include "fail.h"
#include <hartpool/error.h>
#include <stdarg.h>
#include <stdio.h>

FILE *clc_out(const clc_log *l)
{
	return l && l->f ? l->f : stderr;
}

int clc_fail(clc_log *l, int code, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fprintf(clc_out(l), "hartpool: %s: build: %s\n", hp_error_name(code),
		why);
	if (l) {
		l->code = code;
		snprintf(l->why, sizeof(l->why), "%s", why);
	}
	return code;
}
