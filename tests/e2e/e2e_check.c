// SPDX-License-Identifier: MIT
/* The e2e harness (e2e_check.h). */
#include "e2e_check.h"

#include <stdarg.h>
#include <stdlib.h>

unsigned e2e_checks, e2e_failures;
const char *e2e_fatal_note;
void (*e2e_at_fatal)(void);

void e2e_fail(const char *fmt, ...)
{
	if (++e2e_failures > 40)
		return;
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL: ");
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void e2e_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("FATAL: ");
	vprintf(fmt, ap);
	va_end(ap);
	if (e2e_fatal_note)
		printf(" (%s)", e2e_fatal_note);
	printf("\n");
	fflush(stdout);
	void (*last)(void) = e2e_at_fatal;
	e2e_at_fatal = NULL; /* once: a MUST failing in there ends the run */
	if (last)
		last();
	exit(1);
}

/* The closing line; the exit status. */
int e2e_report(void)
{
	printf("e2e: %u checks, %u failed\n", e2e_checks, e2e_failures);
	return e2e_failures != 0;
}

uint32_t e2e_kernel(hp_device *d, const char *name)
{
	uint32_t id;
	MUST(hp_kernel_find(d, name, &id));
	return id;
}

hp_buffer e2e_buffer(hp_device *d, uint64_t size, const void *init)
{
	hp_buffer b;
	MUST(hp_buffer_alloc(d, size, &b));
	void *z = init ? NULL : calloc(1, size);
	if (!init && !z)
		e2e_fatal("out of host memory (%llu bytes)",
			  (unsigned long long)size);
	MUST(hp_buffer_write(d, b, 0, init ? init : z, size));
	free(z);
	return b;
}
