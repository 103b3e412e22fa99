// SPDX-License-Identifier: MIT
/*
 * Kernel peers: the benchmark kernels written the usual OpenMP way, each
 * checked against a serial reference computed in the same program (exit 1
 * on a mismatch).
 *
 *   kernels [-r reps] vadd N            c = a + b (float)
 *   kernels [-r reps] saxpy N           z = alpha * x + y (float)
 *   kernels [-r reps] sgemm N           C = A B, N x N, naive (float)
 *   kernels [-r reps] mandel W H ITER [CHUNK]
 *                                       iteration counts, schedule(static),
 *                                       (dynamic, CHUNK), (guided)
 *   kernels [-r reps] reduce N          sum of N int32, wrapping (reduction)
 *   kernels [-r reps] hist N            256 bins of N bytes (array reduction)
 *
 * The definitions follow hartpool's kernels (kernels/<name>/args.h):
 * float data, mandelbrot's arithmetic unfused over [-2.2, 1.0] x [-1.2, 1.2].
 *
 * Regions: the serial reference is region 1 (master). Variant v has its
 * work region 2 + 2v in every thread (from entering the parallel region to
 * the end of its share of the loop, `nowait`: no waiting counted) and its
 * fork-to-join region 3 + 2v in the master. Output: `kernel`, `serial`,
 * `variant`, `wall` (one per run) and `check` lines.
 */
#define _POSIX_C_SOURCE 200809L
#include "common.h"
#include <math.h>
#include <omp.h>
#include <string.h>
#include <unistd.h>

static long n;		       /* elements, or the matrix order */
static int w, h, iters, chunk; /* mandel */
static float *a, *b, *c, *ref, alpha = 2.5f;
static uint32_t *u, *out, *uref; /* reduce input, integer outputs */
static uint8_t *bytes;		 /* hist input */
static uint32_t sum, sum_ref;

#define BINS 256

static void *alloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);
	if (!p) {
		fprintf(stderr, "kernels: out of memory\n");
		exit(2);
	}
	return p;
}

static void fill_float(float *p, long count, uint64_t seed)
{
	for (long i = 0; i < count; i++)
		p[i] = (float)(rng_next(&seed) % 2000) / 100.0f - 10.0f;
}

static int same_float(const float *x, const float *y, long count)
{
	for (long i = 0; i < count; i++)
		if (fabsf(x[i] - y[i]) > 1e-5f * fmaxf(1.0f, fabsf(y[i]))) {
			fprintf(stderr, "kernels: [%ld] = %g, expected %g\n", i,
				(double)x[i], (double)y[i]);
			return 0;
		}
	return 1;
}

static int same_u32(const uint32_t *x, const uint32_t *y, long count)
{
	for (long i = 0; i < count; i++)
		if (x[i] != y[i]) {
			fprintf(stderr, "kernels: [%ld] = %u, expected %u\n", i,
				x[i], y[i]);
			return 0;
		}
	return 1;
}

/* ---- vadd ---- */

static void vadd_setup(void)
{
	a = alloc(sizeof(float) * n), b = alloc(sizeof(float) * n);
	c = alloc(sizeof(float) * n), ref = alloc(sizeof(float) * n);
	fill_float(a, n, 1);
	fill_float(b, n, 2);
}

static void vadd_serial(void)
{
	for (long i = 0; i < n; i++)
		ref[i] = a[i] + b[i];
}

static void vadd_par(int r)
{
#pragma omp parallel
	{
		begin(r);
#pragma omp for schedule(static) nowait
		for (long i = 0; i < n; i++)
			c[i] = a[i] + b[i];
		end(r);
	}
}

static void vadd_clear(void)
{
	memset(c, 0, sizeof(float) * n);
}

static int vadd_check(void)
{
	return same_float(c, ref, n);
}

/* ---- saxpy ---- */

static void saxpy_setup(void)
{
	a = alloc(sizeof(float) * n), b = alloc(sizeof(float) * n);
	c = alloc(sizeof(float) * n), ref = alloc(sizeof(float) * n);
	fill_float(a, n, 3); /* x */
	fill_float(b, n, 4); /* y */
}

static void saxpy_serial(void)
{
	for (long i = 0; i < n; i++)
		ref[i] = alpha * a[i] + b[i];
}

static void saxpy_par(int r)
{
#pragma omp parallel
	{
		begin(r);
#pragma omp for schedule(static) nowait
		for (long i = 0; i < n; i++)
			c[i] = alpha * a[i] + b[i];
		end(r);
	}
}

/* ---- sgemm ---- */

static void sgemm_setup(void)
{
	a = alloc(sizeof(float) * n * n), b = alloc(sizeof(float) * n * n);
	c = alloc(sizeof(float) * n * n), ref = alloc(sizeof(float) * n * n);
	fill_float(a, n * n, 5);
	fill_float(b, n * n, 6);
}

static void sgemm_serial(void)
{
	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++) {
			float acc = 0;
			for (long k = 0; k < n; k++)
				acc += a[i * n + k] * b[k * n + j];
			ref[i * n + j] = acc;
		}
}

static void sgemm_par(int r)
{
#pragma omp parallel
	{
		begin(r);
#pragma omp for schedule(static) nowait
		for (long i = 0; i < n; i++)
			for (long j = 0; j < n; j++) {
				float acc = 0;
				for (long k = 0; k < n; k++)
					acc += a[i * n + k] * b[k * n + j];
				c[i * n + j] = acc;
			}
		end(r);
	}
}

static void sgemm_clear(void)
{
	memset(c, 0, sizeof(float) * n * n);
}

static int sgemm_check(void)
{
	return same_float(c, ref, n * n);
}

/* ---- mandel ---- */

/* One pixel, not inlined and never fused (like hp_mandel_pixel): the
 * serial and parallel loops compute exactly the same float arithmetic, and
 * a pixel is one call, like a work-item. */
__attribute__((noinline, optimize("fp-contract=off"))) static uint32_t
pixel(long p)
{
	float cr = -2.2f + (float)(p % w) * (3.2f / (float)w);
	float ci = -1.2f + (float)(p / w) * (2.4f / (float)h);
	float zr = 0.0f, zi = 0.0f;
	uint32_t k = 0;
	while (k < (uint32_t)iters) {
		float zr2 = zr * zr, zi2 = zi * zi;
		if (zr2 + zi2 > 4.0f)
			break;
		zi = 2.0f * zr * zi + ci;
		zr = zr2 - zi2 + cr;
		k++;
	}
	return k;
}

static void mandel_setup(void)
{
	n = (long)w * h;
	out = alloc(sizeof(uint32_t) * n);
	uref = alloc(sizeof(uint32_t) * n);
}

static void mandel_serial(void)
{
	for (long p = 0; p < n; p++)
		uref[p] = pixel(p);
}

static void mandel_static(int r)
{
#pragma omp parallel
	{
		begin(r);
#pragma omp for schedule(static) nowait
		for (long p = 0; p < n; p++)
			out[p] = pixel(p);
		end(r);
	}
}

static void mandel_dynamic(int r)
{
#pragma omp parallel
	{
		begin(r);
#pragma omp for schedule(dynamic, chunk) nowait
		for (long p = 0; p < n; p++)
			out[p] = pixel(p);
		end(r);
	}
}

static void mandel_guided(int r)
{
#pragma omp parallel
	{
		begin(r);
#pragma omp for schedule(guided) nowait
		for (long p = 0; p < n; p++)
			out[p] = pixel(p);
		end(r);
	}
}

static void mandel_clear(void)
{
	memset(out, 0, sizeof(uint32_t) * n);
}

static int mandel_check(void)
{
	return same_u32(out, uref, n);
}

/* ---- reduce ---- */

static void reduce_setup(void)
{
	uint64_t seed = 7;
	u = alloc(sizeof(uint32_t) * n);
	for (long i = 0; i < n; i++)
		u[i] = rng_next(&seed);
}

static void reduce_serial(void)
{
	uint32_t s = 0;
	for (long i = 0; i < n; i++)
		s += u[i];
	sum_ref = s;
}

static void reduce_par(int r)
{
	uint32_t s = 0;
#pragma omp parallel
	{
		begin(r);
#pragma omp for schedule(static) reduction(+ : s) nowait
		for (long i = 0; i < n; i++)
			s += u[i];
		end(r);
	}
	sum = s;
}

static void reduce_clear(void)
{
	sum = 0;
}

static int reduce_check(void)
{
	if (sum == sum_ref)
		return 1;
	fprintf(stderr, "kernels: sum %u, expected %u\n", sum, sum_ref);
	return 0;
}

/* ---- hist ---- */

static void hist_setup(void)
{
	uint64_t seed = 8;
	bytes = alloc((size_t)n);
	for (long i = 0; i < n; i++)
		bytes[i] = (uint8_t)(rng_next(&seed) >> 8);
	out = alloc(sizeof(uint32_t) * BINS);
	uref = alloc(sizeof(uint32_t) * BINS);
}

static void hist_serial(void)
{
	memset(uref, 0, sizeof(uint32_t) * BINS);
	for (long i = 0; i < n; i++)
		uref[bytes[i]]++;
}

static void hist_par(int r)
{
	uint32_t *hh = out;
#pragma omp parallel
	{
		begin(r);
#pragma omp for schedule(static) reduction(+ : hh[:BINS]) nowait
		for (long i = 0; i < n; i++)
			hh[bytes[i]]++;
		end(r);
	}
}

static void hist_clear(void)
{
	memset(out, 0, sizeof(uint32_t) * BINS);
}

static int hist_check(void)
{
	return same_u32(out, uref, BINS);
}

/* ---- driver ---- */

typedef struct {
	const char *name;
	void (*par)(int r);
} variant;

typedef struct {
	const char *name;
	int nargs, optargs; /* size arguments: required, optional */
	void (*setup)(void), (*serial)(void), (*clear)(void);
	int (*check)(void);
	variant v[3];
} kernel;

/* Kernel K's setup and serial reference are K_setup and K_serial. */
// clang-format off
#define KERNEL(k, nargs, optargs, clear, check, ...) \
	{#k, nargs, optargs, k##_setup, k##_serial, clear, check, {__VA_ARGS__}}
// clang-format on

static const kernel kernels[] = {
	KERNEL(vadd, 1, 0, vadd_clear, vadd_check, {"static", vadd_par}),
	KERNEL(saxpy, 1, 0, vadd_clear, vadd_check, {"static", saxpy_par}),
	KERNEL(sgemm, 1, 0, sgemm_clear, sgemm_check, {"static", sgemm_par}),
	KERNEL(mandel, 3, 1, mandel_clear, mandel_check,
	       {"static", mandel_static}, {"dynamic", mandel_dynamic},
	       {"guided", mandel_guided}),
	KERNEL(reduce, 1, 0, reduce_clear, reduce_check,
	       {"static", reduce_par}),
	KERNEL(hist, 1, 0, hist_clear, hist_check, {"static", hist_par}),
};

static void usage(void)
{
	fprintf(stderr,
		"usage: kernels [-r reps] vadd|saxpy|sgemm|reduce|hist N\n"
		"       kernels [-r reps] mandel W H ITER [CHUNK]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int reps = 5, opt;
	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt != 'r')
			usage();
		reps = arg_int(optarg, "reps");
	}
	if (optind >= argc)
		usage();
	const kernel *k = NULL;
	for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
		if (strcmp(argv[optind], kernels[i].name) == 0)
			k = &kernels[i];
	int nargs = argc - optind - 1;
	if (!k || nargs < k->nargs || nargs > k->nargs + k->optargs)
		usage();
	char **arg = argv + optind + 1;
	char size[96];
	if (k->setup == mandel_setup) {
		w = arg_int(arg[0], "W"), h = arg_int(arg[1], "H");
		iters = arg_int(arg[2], "ITER");
		chunk = nargs > 3 ? arg_int(arg[3], "CHUNK") : 64;
		snprintf(size, sizeof size, "%dx%d,iter=%d,chunk=%d", w, h,
			 iters, chunk);
	} else {
		n = arg_int(arg[0], "N");
		snprintf(size, sizeof size, "%ld", n);
	}
	printf("kernel name=%s size=%s threads=%d reps=%d\n", k->name, size,
	       omp_get_max_threads(), reps);
	k->setup();
	k->serial(); /* warm-up: code translated, pages touched */
	uint64_t t0 = now_ns();
	begin(1);
	k->serial();
	end(1);
	printf("serial region=1 ns=%llu\n",
	       (unsigned long long)(now_ns() - t0));
	for (int v = 0; v < 3 && k->v[v].name; v++) {
		const variant *var = &k->v[v];
		int work = 2 + 2 * v, all = 3 + 2 * v;
		printf("variant name=%s work=%d all=%d\n", var->name, work,
		       all);
		k->clear();
		var->par(-1); /* warm-up: the team exists, pages touched */
		for (int rep = 0; rep < reps; rep++) {
			k->clear();
			t0 = now_ns();
			begin(all);
			var->par(work);
			end(all);
			uint64_t ns = now_ns() - t0;
			printf("wall variant=%s rep=%d ns=%llu\n", var->name,
			       rep, (unsigned long long)ns);
			if (!k->check()) {
				printf("check variant=%s FAIL\n", var->name);
				fprintf(stderr,
					"kernels: %s %s: wrong result\n",
					k->name, var->name);
				return 1;
			}
		}
		printf("check variant=%s ok\n", var->name);
		fflush(stdout);
	}
	return 0;
}
