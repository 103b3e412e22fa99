/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the OpenMP peer programs (Linux user mode, libgomp):
 * wall time, region markers with a run-time region number, statistics.
 *
 * begin(r) / end(r) emit HP_MARK_BEGIN(r) / HP_MARK_END(r) of
 * include/hartpool/marker.h. HP_MARKER needs a constant, so mark() is a
 * switch over every marker the peer uses (regions 0..63); r < 0 emits
 * nothing (warm-up runs). The call adds the same few instructions to every
 * region, which cancel in test - reference and are noise in the kernels.
 */
#ifndef BENCH_OMP_COMMON_H
#define BENCH_OMP_COMMON_H

#include <hartpool/marker.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_REGIONS 64

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define MARK_CASE(n)                                                           \
	case (n):                                                              \
		HP_MARKER(n);                                                  \
		break;
#define MARK_CASE4(n)                                                          \
	MARK_CASE(n) MARK_CASE(n + 1) MARK_CASE(n + 2) MARK_CASE(n + 3)
#define MARK_CASE16(n)                                                         \
	MARK_CASE4(n) MARK_CASE4(n + 4) MARK_CASE4(n + 8) MARK_CASE4(n + 12)

__attribute__((noinline)) static void mark(int id)
{
	switch (id) {
		MARK_CASE16(0)
		MARK_CASE16(16)
		MARK_CASE16(32)
		MARK_CASE16(48)
		MARK_CASE16(64)
		MARK_CASE16(80)
		MARK_CASE16(96)
		MARK_CASE16(112)
	default:
		break;
	}
}

static inline void begin(int r)
{
	if (r >= 0)
		mark(2 * r);
}

static inline void end(int r)
{
	if (r >= 0)
		mark(2 * r + 1);
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median, min and max of v[0..n) (sorts v). */
static inline void stats(double *v, int n, double *med, double *min,
			 double *max)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*min = v[0];
	*max = v[n - 1];
}

/* Small deterministic generator for the input data. */
static inline uint32_t rng_next(uint64_t *s)
{
	*s = *s * 6364136223846793005u + 1442695040888963407u;
	return (uint32_t)(*s >> 33);
}

static inline int arg_int(const char *s, const char *what)
{
	char *e;
	long v = strtol(s, &e, 0);
	if (*s == 0 || *e != 0 || v < 1 || v > 1L << 30) {
		fprintf(stderr, "bad %s '%s'\n", what, s);
		exit(2);
	}
	return (int)v;
}

#endif
