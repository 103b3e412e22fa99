/* SPDX-License-Identifier: MIT */
/*
 * The executor test suite, shared by the host test (threads as harts,
 * sanitizers) and the on-target test (QEMU). Call suite_main() on the hart
 * with index 0 after exec_init(); the other harts run exec_serve().
 */
#ifndef TESTS_COMMON_EXEC_SUITE_H
#define TESTS_COMMON_EXEC_SUITE_H

#include <stdbool.h>

typedef struct {
	int (*printf)(const char *fmt, ...);
	bool quick;	 /* fewer launches (slow targets) */
	bool hammer;	 /* the many-instances stress part */
	unsigned checks; /* out */
	unsigned failures;
} suite_ctx;

/* Runs every part; returns the number of failures. */
unsigned suite_main(suite_ctx *s);

#endif
