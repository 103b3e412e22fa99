/* SPDX-License-Identifier: MIT */
/* A minimal check harness for the host unit tests: CHECK() records a
 * failure with its place and goes on; check_report() prints the verdict. */
#ifndef TESTS_HOST_CHECK_H
#define TESTS_HOST_CHECK_H

#include <stdio.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                            \
	do {                                                                   \
		__atomic_fetch_add(&check_count, 1, __ATOMIC_RELAXED);         \
		if (!(cond)) {                                                 \
			__atomic_fetch_add(&check_failures, 1,                 \
					   __ATOMIC_RELAXED);                  \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
		}                                                              \
	} while (0)

/* CHECK with a printf-style explanation of the failure. */
#define CHECK_MSG(cond, ...)                                                   \
	do {                                                                   \
		__atomic_fetch_add(&check_count, 1, __ATOMIC_RELAXED);         \
		if (!(cond)) {                                                 \
			__atomic_fetch_add(&check_failures, 1,                 \
					   __ATOMIC_RELAXED);                  \
			fprintf(stderr, "%s:%d: check failed: ", __FILE__,     \
				__LINE__);                                     \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
		}                                                              \
	} while (0)

#define CHECK_EQ(a, b)                                                         \
	do {                                                                   \
		long long a_ = (long long)(a), b_ = (long long)(b);            \
		__atomic_fetch_add(&check_count, 1, __ATOMIC_RELAXED);         \
		if (a_ != b_) {                                                \
			__atomic_fetch_add(&check_failures, 1,                 \
					   __ATOMIC_RELAXED);                  \
			fprintf(stderr,                                        \
				"%s:%d: check failed: %s == %s "               \
				"(%lld != %lld)\n",                            \
				__FILE__, __LINE__, #a, #b, a_, b_);           \
		}                                                              \
	} while (0)

/* Prints "<name>: N checks, M failed" and returns the exit status. */
static inline int check_report(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif
