// SPDX-License-Identifier: MIT
/*
 * EPCC-style overheads of OpenMP constructs (libgomp), the peer of
 * bench/exec_overhead.c. Each construct has a test (the body inside the
 * construct) and a reference (the same body without it), both repeated
 * `inner` times per run and run `reps` times; overhead = (test - reference)
 * / count. This program reports wall time (clock_gettime, master thread);
 * every thread also brackets its share with markers (test region T,
 * reference region T + 1), from which bench/omp/report.py computes the
 * instruction overheads when the counting plugin is loaded.
 *
 *   parallel    empty `parallel` region (+ delay)  <-> empty-kernel dispatch
 *   for_static  `for schedule(static)`, 1 iteration per thread (+ barrier)
 *   barrier     `barrier`                           <-> work-group barrier
 *   reduction   `for reduction(+)`, 1 iteration per thread
 *                                                   <-> sub-group reduce
 *   dynamic_1   `for schedule(dynamic, 1)`, per chunk <-> per work-group
 *   dynamic_16  `for schedule(dynamic, 16)`, per chunk
 *   guided      `for schedule(guided)`, per loop of iters x threads items
 *   for_iter    `for schedule(static)`, per iteration of an empty body
 *                                                   <-> per work-item
 *
 *   epcc [-r reps] [-i inner] [-d delay] [-n iters] [-N items]
 *
 * Output: `bench` lines (regions and counts), one `wall` line per run, and
 * a `#` summary line per construct.
 */
#define _POSIX_C_SOURCE 200809L
#include "common.h"
#include <omp.h>
#include <unistd.h>

#define MAX_REPS 1000
static int reps = 7;	    /* runs of each test and reference */
static int inner = 256;	    /* constructs per run */
static int delay_len = 16;  /* delay loop iterations in the body */
static int iters = 256;	    /* iterations per thread, schedule tests */
static int items = 4096;    /* iterations per thread, for_iter */
static int sched_inner = 4; /* loops per run, schedule tests */
static int nthreads;

/* The body of the synchronisation tests: a short, fixed amount of work. */
__attribute__((noipa)) static void delay(int n)
{
	for (int i = 0; i < n; i++)
		__asm__ volatile("");
}

/* An empty work-item: one call per iteration, like a kernel per item. */
__attribute__((noipa)) static void item(long i)
{
	__asm__ volatile("" ::"r"(i));
}

/* ---- parallel: a new team per construct ---- */

/* The markers and the clock sit inside the first and the last body, so a
 * run measures inner - 1 whole constructs (join + fork) in every thread. */
static uint64_t parallel_test(int r)
{
	uint64_t t0 = 0, t1 = 0;
	for (int j = 0; j < inner; j++) {
#pragma omp parallel
		{
			int master = omp_get_thread_num() == 0;
			if (j == 0) {
				if (master)
					t0 = now_ns();
				begin(r);
			}
			delay(delay_len);
			if (j == inner - 1) {
				end(r);
				if (master)
					t1 = now_ns();
			}
		}
	}
	return t1 - t0;
}

static uint64_t parallel_ref(int r)
{
	uint64_t t0 = 0, t1 = 0;
	for (int j = 0; j < inner; j++) {
		if (j == 0) {
			t0 = now_ns();
			begin(r);
		}
		delay(delay_len);
		if (j == inner - 1) {
			end(r);
			t1 = now_ns();
		}
	}
	return t1 - t0;
}

/* ---- constructs inside one team ---- */

/* Runs fn(arg) in every thread of a team between two barriers, markers
 * around it in every thread; the master's wall time of the whole. */
static uint64_t in_team(int r, void (*fn)(int), int arg)
{
	uint64_t t0 = 0, t1 = 0;
#pragma omp parallel
	{
		int master = omp_get_thread_num() == 0;
#pragma omp barrier
		if (master)
			t0 = now_ns();
		begin(r);
		fn(arg);
		end(r);
#pragma omp barrier
		if (master)
			t1 = now_ns();
	}
	return t1 - t0;
}

static void delays(int n)
{
	(void)n;
	for (int j = 0; j < inner; j++)
		delay(delay_len);
}

static void for_static(int n)
{
	(void)n;
	for (int j = 0; j < inner; j++) {
#pragma omp for schedule(static)
		for (int i = 0; i < nthreads; i++)
			delay(delay_len);
	}
}

static void barriers(int n)
{
	(void)n;
	for (int j = 0; j < inner; j++) {
		delay(delay_len);
#pragma omp barrier
	}
}

static long reduced; /* shared by the team */

static void reductions(int n)
{
	(void)n;
	for (int j = 0; j < inner; j++) {
#pragma omp for schedule(static) reduction(+ : reduced)
		for (int i = 0; i < nthreads; i++) {
			delay(delay_len);
			reduced += 1;
		}
	}
}

/* Reference of the schedule tests: one thread's share of iterations. */
static void items_serial(int per_thread)
{
	for (int j = 0; j < sched_inner; j++)
		for (long i = 0; i < per_thread; i++)
			item(i);
}

static void dynamic(int chunk)
{
	long n = (long)iters * nthreads;
	for (int j = 0; j < sched_inner; j++) {
#pragma omp for schedule(dynamic, chunk)
		for (long i = 0; i < n; i++)
			item(i);
	}
}

static void guided(int chunk)
{
	long n = (long)iters * nthreads;
	for (int j = 0; j < sched_inner; j++) {
#pragma omp for schedule(guided, chunk)
		for (long i = 0; i < n; i++)
			item(i);
	}
}

/* for_iter: `items` iterations per thread (test) vs 1 (reference). */
static void for_items(int per_thread)
{
	long n = (long)per_thread * nthreads;
	for (int j = 0; j < sched_inner; j++) {
#pragma omp for schedule(static)
		for (long i = 0; i < n; i++)
			item(i);
	}
}

/* Chunks libgomp's guided schedule makes of n iterations: each takes
 * max(ceil(remaining / threads), chunk) (our model of libgomp 12). */
static long guided_chunks(long n, int threads, int chunk)
{
	long c = 0;
	while (n > 0) {
		long q = (n + threads - 1) / threads;
		if (q < chunk)
			q = chunk;
		n -= q < n ? q : n;
		c++;
	}
	return c;
}

/* ---- the table of benchmarks ---- */

typedef struct {
	const char *name, *unit;
	uint64_t (*test)(int r), (*ref)(int r);
	void (*test_fn)(int), (*ref_fn)(int); /* in-team tests */
	int test_arg, ref_arg;
	double count; /* constructs per thread in one run */
	double total; /* constructs in one run (the team's, all threads) */
} bench;

static uint64_t run(const bench *b, int test, int r)
{
	if (test)
		return b->test ? b->test(r)
			       : in_team(r, b->test_fn, b->test_arg);
	return b->ref ? b->ref(r) : in_team(r, b->ref_fn, b->ref_arg);
}

int main(int argc, char **argv)
{
	int opt;
	while ((opt = getopt(argc, argv, "r:i:d:n:N:")) != -1) {
		switch (opt) {
		case 'r':
			reps = arg_int(optarg, "reps");
			if (reps > MAX_REPS)
				reps = MAX_REPS;
			break;
		case 'i':
			inner = arg_int(optarg, "inner");
			break;
		case 'd':
			delay_len = arg_int(optarg, "delay");
			break;
		case 'n':
			iters = arg_int(optarg, "iters");
			break;
		case 'N':
			items = arg_int(optarg, "items");
			break;
		default:
			fprintf(stderr, "usage: epcc [-r reps] [-i inner] [-d "
					"delay] [-n iters] [-N items]\n");
			return 2;
		}
	}
	if (inner < 2) {
		fprintf(stderr, "epcc: -i must be at least 2\n");
		return 2;
	}
	nthreads = omp_get_max_threads();
	double s = sched_inner, t = nthreads;
	const bench list[] = {
		{"parallel", "region", parallel_test, parallel_ref, NULL, NULL,
		 0, 0, inner - 1, inner - 1},
		{"for_static", "construct", NULL, NULL, for_static, delays, 0,
		 0, inner, inner},
		{"barrier", "barrier", NULL, NULL, barriers, delays, 0, 0,
		 inner, inner},
		{"reduction", "reduction", NULL, NULL, reductions, delays, 0, 0,
		 inner, inner},
		{"dynamic_1", "chunk", NULL, NULL, dynamic, items_serial, 1,
		 iters, s * iters, s * iters * t},
		{"dynamic_16", "chunk", NULL, NULL, dynamic, items_serial, 16,
		 iters, s * iters / 16, s * iters * t / 16},
		{"guided", "loop", NULL, NULL, guided, items_serial, 1, iters,
		 s, s},
		{"for_iter", "iteration", NULL, NULL, for_items, for_items,
		 items, 1, s * (items - 1), s * (items - 1) * t},
	};
	const int nb = (int)(sizeof list / sizeof list[0]);

	printf("epcc threads=%d reps=%d inner=%d delay=%d iters=%d items=%d "
	       "sched_inner=%d guided_chunks=%ld\n",
	       nthreads, reps, inner, delay_len, iters, items, sched_inner,
	       guided_chunks((long)iters * nthreads, nthreads, 1));
	/* Not malloc'd: the heap stays the same whatever reps is (libgomp's
	 * 1-thread teams are malloc'd and freed per region, and that cost
	 * depends on the heap). */
	static double ov[MAX_REPS];
	for (int k = 0; k < nb; k++) {
		const bench *b = &list[k];
		int rt = 1 + 2 * k, rr = 2 + 2 * k; /* region numbers */
		printf("bench name=%s unit=%s test=%d ref=%d count=%.1f "
		       "total=%.1f\n",
		       b->name, b->unit, rt, rr, b->count, b->total);
		run(b, 1, -1); /* warm-up, unmarked */
		run(b, 0, -1);
		for (int rep = 0; rep < reps; rep++) {
			uint64_t tn = run(b, 1, rt), rn = run(b, 0, rr);
			printf("wall name=%s rep=%d test_ns=%llu ref_ns=%llu\n",
			       b->name, rep, (unsigned long long)tn,
			       (unsigned long long)rn);
			ov[rep] = ((double)tn - (double)rn) / b->count / 1e3;
		}
		double med, min, max;
		stats(ov, reps, &med, &min, &max);
		printf("# %-10s %9.3f us per %s of a thread (min %.3f, max "
		       "%.3f), wall\n",
		       b->name, med, b->unit, min, max);
		fflush(stdout);
	}
	/* Every reduction run (warm-up + reps) added inner x threads. */
	long want = (long)(1 + reps) * inner * nthreads;
	if (reduced != want) {
		fprintf(stderr, "epcc: reduction gave %ld, expected %ld\n",
			reduced, want);
		return 1;
	}
	return 0;
}
