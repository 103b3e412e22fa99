/* SPDX-License-Identifier: MIT */
/* Checks for the ICD's unit tests (tests/icd/): each CHECK counts, a
 * failed one prints its line and what it got; main() runs the test
 * functions in order and ends with "NAME: N checks, M failed". */
#ifndef ICD_TEST_H
#define ICD_TEST_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static unsigned checks, failures;

static void check_(int ok, const char *what, int line, long long got,
		   long long want)
{
	checks++;
	if (ok)
		return;
	failures++;
	printf("FAIL line %d: %s (got %lld, want %lld)\n", line, what, got,
	       want);
}

/* A condition. */
#define CHECK(c)                                                               \
	do {                                                                   \
		int ok_ = !!(c); /* once: c may have side effects */           \
		check_(ok_, #c, __LINE__, ok_, 1);                             \
	} while (0)
/* An expression's value (an error code, a count). */
#define CHECK_EQ(expr, want)                                                   \
	do {                                                                   \
		long long got_ = (long long)(expr);                            \
		long long want_ = (long long)(want);                           \
		check_(got_ == want_, #expr " == " #want, __LINE__, got_,      \
		       want_);                                                 \
	} while (0)

struct icd_test {
	const char *name;
	void (*fn)(void);
};

static int icd_test_main(const char *prog, const struct icd_test *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned f = failures;
		t[i].fn();
		if (failures != f)
			printf("  in %s\n", t[i].name);
	}
	printf("%s: %u checks, %u failed\n", prog, checks, failures);
	return failures ? 1 : 0;
}

#endif
