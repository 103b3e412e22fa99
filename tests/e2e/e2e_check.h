/* SPDX-License-Identifier: MIT */
/*
 * The checks of the e2e programs (test_mbox, test_objects, test_edges):
 * CHECK counts and reports a failed condition and goes on; MUST ends the
 * run when a library call that has to work fails. Each program ends with
 * "e2e: N checks, M failed" from e2e_report().
 */
#ifndef TESTS_E2E_CHECK_H
#define TESTS_E2E_CHECK_H

#include <hartpool.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned checks, failures;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		checks++;                                                      \
		if (!(cond)) {                                                 \
			failures++;                                            \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);            \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

/* Library calls that must work; a failure ends the run. */
#define MUST(call)                                                             \
	do {                                                                   \
		int rc_ = (call);                                              \
		if (rc_) {                                                     \
			printf("FATAL %s:%d: %s: %s: %s\n", __FILE__,          \
			       __LINE__, #call, hp_error_name(rc_),            \
			       hp_last_error());                               \
			exit(1);                                               \
		}                                                              \
	} while (0)

/* The closing line; the exit status. */
static inline int e2e_report(void)
{
	printf("e2e: %u checks, %u failed\n", checks, failures);
	return failures != 0;
}

#endif
