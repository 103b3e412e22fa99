// SPDX-License-Identifier: MIT
/*
 * Workloads of the kernel library (include/hartpool/kernels/lib.h,
 * docs/kernels.md): test data from the seed, the host references, and the
 * launch sequences of the kernels that need several launches (reduce_wg,
 * scan, bitonic).
 *
 * Float references add in the kernel's order; they differ from the device
 * only where the device fuses a*b + c (RV64 has fmadd.s, the host build and
 * RV32's soft-float do not), so the tolerances are error bounds of the
 * fused and the unfused sums against each other, relative to the terms'
 * magnitudes. `--arg exact=1` asks for the same bits instead.
 */
#include "workloads.h"
#include <hartpool/kernels/lib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- common ---- */

/* One 64-bit word of test data: element i of stream `which` (splitmix64
 * of the seed). */
static uint64_t rnd(const workload_ctx *c, uint64_t i, unsigned which)
{
	uint64_t x = c->seed * 0x9e3779b97f4a7c15ull +
		     i * 0xd1b54a32d192ed03ull + which * 0x8cb92ba72f3d8dd7ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* A float in [-1, 1) with 24 significant bits (exactly representable). */
static float rnd_float(const workload_ctx *c, uint64_t i, unsigned which)
{
	int32_t k = (int32_t)(rnd(c, i, which) >> 40) - (1 << 23);
	return (float)k / (float)(1 << 23);
}

/* An int32 in [-1000, 1000]. */
static int32_t rnd_int(const workload_ctx *c, uint64_t i, unsigned which)
{
	return (int32_t)(rnd(c, i, which) % 2001u) - 1000;
}

/* --arg NAME=VALUE as a floating-point number. */
static double farg(const workload_ctx *c, const char *name, double dflt)
{
	const char *v = workload_arg_str(c, name);
	return v ? strtod(v, NULL) : dflt;
}

static bool exact(const workload_ctx *c)
{
	return workload_arg(c, "exact", 0) != 0;
}

/* The workload's own range when --global was not given: small, and with
 * remainder groups (local l0 x l1 unless --local was given). The kernels
 * index with global ids, so there is no --offset. */
static int range(workload_ctx *c, unsigned dims, uint64_t g0, uint64_t g1,
		 uint64_t l0, uint64_t l1)
{
	if (c->r.offset[0] || c->r.offset[1] || c->r.offset[2]) {
		snprintf(c->msg, sizeof(c->msg),
			 "the library kernels take no --offset");
		return HP_INVALID_GLOBAL_OFFSET;
	}
	if (c->range_given)
		return 0;
	c->r.work_dim = dims;
	c->r.global[0] = g0;
	c->r.global[1] = dims > 1 ? g1 : 1;
	c->r.global[2] = 1;
	if (!c->r.local_given) {
		c->r.local_given = true;
		c->r.local[0] = l0;
		c->r.local[1] = dims > 1 ? l1 : 1;
		c->r.local[2] = 1;
	}
	c->items = c->r.global[0] * c->r.global[1];
	return 0;
}

#define RANGE(c, ...)                                                          \
	do {                                                                   \
		int rc_ = range((c), __VA_ARGS__);                             \
		if (rc_)                                                       \
			return rc_;                                            \
	} while (0)

/* The 1-D kernels take --global N only. */
static int one_d(workload_ctx *c)
{
	if (c->r.work_dim == 1)
		return 0;
	snprintf(c->msg, sizeof(c->msg), "%s takes a 1-D range (--global N)",
		 c->wl ? c->wl->name : "this kernel");
	return HP_INVALID_WORK_DIMENSION;
}

#define NEED_1D(c)                                                             \
	do {                                                                   \
		int rc_ = one_d(c);                                            \
		if (rc_)                                                       \
			return rc_;                                            \
	} while (0)

/* Width and height of a 2-D range (1-D: height 1). */
static uint64_t dim(const workload_ctx *c, unsigned d)
{
	return d < c->r.work_dim ? c->r.global[d] : 1;
}

/* A float result against the reference: within @p tol, or the same value
 * with --arg exact=1. */
static int fcheck(workload_ctx *c, const char *what, uint64_t i, float got,
		  float want, double tol)
{
	bool ok = exact(c) ? got == want
			   : fabs((double)got - (double)want) <= tol;
	if (ok)
		return 0;
	snprintf(c->msg, sizeof(c->msg),
		 "%s %llu: %.9g, expected %.9g (tolerance %.3g)", what,
		 (unsigned long long)i, (double)got, (double)want,
		 exact(c) ? 0.0 : tol);
	return 1;
}

static int icheck(workload_ctx *c, const char *what, uint64_t i, uint32_t got,
		  uint32_t want)
{
	if (got == want)
		return 0;
	snprintf(c->msg, sizeof(c->msg), "%s %llu: %d (0x%x), expected %d",
		 what, (unsigned long long)i, (int32_t)got, got, (int32_t)want);
	return 1;
}

/* 2^-23: twice the unit roundoff of float. */
#define ULP2 (1.0 / 8388608.0)

/* A 1-D launch of a sequence: the user's range settings that still make
 * sense (sub-group size, team size), @p global items, local @p local
 * (0: the device's choice). */
static hp_ndrange seq_range(const workload_ctx *c, uint64_t global,
			    uint64_t local)
{
	hp_ndrange r = {.work_dim = 1,
			.global = {global, 1, 1},
			.local = {local ? local : 1, 1, 1},
			.local_given = local != 0,
			.sub_group_size = c->r.sub_group_size,
			.team_size = c->r.team_size,
			.timeout_us = c->r.timeout_us};
	return r;
}

static int kernel_id(workload_ctx *c, const char *name, uint32_t *id)
{
	int rc = hp_kernel_find(c->d, name, id);
	if (rc)
		snprintf(c->msg, sizeof(c->msg), "%s", hp_last_error());
	return rc;
}

/* ---- vadd, saxpy ---- */

static int vadd_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_vadd_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	NEED_1D(c);
	a->n = dim(c, 0);
	NEED_BUF(c, a->n * sizeof(float), &a->a);
	NEED_BUF(c, a->n * sizeof(float), &a->b);
	NEED_BUF(c, a->n * sizeof(float), &a->c);
	float *x = c->host[0], *y = c->host[1];
	for (uint64_t i = 0; i < a->n; i++)
		x[i] = rnd_float(c, i, 1), y[i] = rnd_float(c, i, 2);
	*size = sizeof(*a);
	return workload_upload2(c);
}

static int vadd_check(workload_ctx *c)
{
	uint64_t n = dim(c, 0);
	const float *x = c->host[0], *y = c->host[1];
	float *z = c->host[2];
	int rc = workload_download(c, 2, z, n * sizeof(float));
	for (uint64_t i = 0; !rc && i < n; i++)
		rc = fcheck(c, "element", i, z[i], x[i] + y[i], 0.0);
	c->compared = n;
	return rc;
}

static int saxpy_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_saxpy_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	NEED_1D(c);
	a->n = dim(c, 0);
	a->a = (float)farg(c, "a", 1.5);
	NEED_BUF(c, a->n * sizeof(float), &a->x);
	NEED_BUF(c, a->n * sizeof(float), &a->y);
	float *x = c->host[0], *y = c->host[1];
	for (uint64_t i = 0; i < a->n; i++)
		x[i] = rnd_float(c, i, 1), y[i] = rnd_float(c, i, 2);
	*size = sizeof(*a);
	return workload_upload2(c);
}

/* y is updated in place once per launch (--repeat): the reference too.
 * Each update's fused and unfused results are within 2^-23 (|a x| +
 * |y'|) of each other; twice that, summed over the updates. */
static int saxpy_check(workload_ctx *c)
{
	uint64_t n = dim(c, 0);
	float a = (float)farg(c, "a", 1.5);
	const float *x = c->host[0], *y0 = c->host[1];
	float *y = malloc(n * sizeof(float) + 1);
	int rc = y ? workload_download(c, 1, y, n * sizeof(float))
		   : workload_host_oom(c, n * sizeof(float));
	for (uint64_t i = 0; !rc && i < n; i++) {
		float want = y0[i];
		double tol = 0;
		for (unsigned long r = 0; r < c->repeat; r++) {
			float ax = a * x[i];
			want = ax + want;
			tol += 2 * ULP2 *
			       (fabs((double)ax) + fabs((double)want));
		}
		rc = fcheck(c, "element", i, y[i], want, tol);
	}
	c->compared = n;
	free(y);
	return rc;
}

/* ---- sgemm ---- */

static int sgemm_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_sgemm_args *a = args;
	RANGE(c, 2, 29, 37, 8, 8);
	a->n = dim(c, 0);
	a->m = dim(c, 1);
	a->k = workload_arg(c, "k", 23);
	a->a_len = a->m * a->k;
	a->b_len = a->k * a->n;
	a->c_len = a->m * a->n;
	NEED_BUF(c, a->a_len * sizeof(float), &a->a);
	NEED_BUF(c, a->b_len * sizeof(float), &a->b);
	NEED_BUF(c, a->c_len * sizeof(float), &a->c);
	float *A = c->host[0], *B = c->host[1];
	for (uint64_t i = 0; i < a->a_len; i++)
		A[i] = rnd_float(c, i, 1);
	for (uint64_t i = 0; i < a->b_len; i++)
		B[i] = rnd_float(c, i, 2);
	*size = sizeof(*a);
	return workload_upload2(c);
}

/* Products summed in order k = 0, 1, ... as on the device. The fused and
 * the unfused sums are each within about K u sum|a b| of the exact one
 * (u = 2^-24), so (K + 2) 2^-23 sum|a b| covers their difference. */
static int sgemm_check(workload_ctx *c)
{
	uint64_t n = dim(c, 0), m = dim(c, 1), k = workload_arg(c, "k", 23);
	const float *A = c->host[0], *B = c->host[1];
	float *C = c->host[2];
	int rc = workload_download(c, 2, C, m * n * sizeof(float));
	for (uint64_t i = 0; !rc && i < m; i++)
		for (uint64_t j = 0; !rc && j < n; j++) {
			float acc = 0.0f;
			double mag = 0;
			for (uint64_t p = 0; p < k; p++) {
				float t = A[i * k + p] * B[p * n + j];
				acc = acc + t;
				mag += fabs((double)t);
			}
			rc = fcheck(c, "element", i * n + j, C[i * n + j], acc,
				    (double)(k + 2) * ULP2 * mag);
		}
	c->compared = m * n;
	return rc;
}

/* ---- reduce_wg ---- */

/* The local size of the first launch of reduce_wg and scan: the partials
 * must be counted before the launch, so the host chooses it. */
static uint64_t seq_local(const workload_ctx *c)
{
	return c->r.local_given ? c->r.local[0] : 64;
}

static uint64_t groups_of(uint64_t n, uint64_t l)
{
	return n / l + (n % l != 0);
}

/* The levels of partials after the first launch (local L) and the later
 * ones (local 256, the device's maximum): their lengths and offsets in
 * the scratch buffer; returns how many. */
#define MAX_LEVELS 64
static unsigned reduce_levels(uint64_t n, uint64_t L, uint64_t len[],
			      uint64_t off[])
{
	unsigned k = 0;
	uint64_t at = 0, g = groups_of(n, L);
	for (;;) {
		len[k] = g;
		off[k] = at;
		at += g;
		k++;
		if (g <= 1 || k == MAX_LEVELS)
			return k;
		g = groups_of(g, 256);
	}
}

static int reduce_wg_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_reduce_wg_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	NEED_1D(c);
	a->n = dim(c, 0);
	uint64_t L = seq_local(c), len[MAX_LEVELS], off[MAX_LEVELS];
	if (!L) {
		snprintf(c->msg, sizeof(c->msg),
			 "reduce_wg needs --local >= 1");
		return HP_INVALID_WORK_GROUP_SIZE;
	}
	unsigned lv = a->n ? reduce_levels(a->n, L, len, off) : 0;
	uint64_t total = lv ? off[lv - 1] + len[lv - 1] : 1;
	NEED_BUF(c, a->n * sizeof(int32_t), &a->in);
	NEED_BUF(c, total * sizeof(int32_t), &a->out);
	int32_t *in = c->host[0];
	for (uint64_t i = 0; i < a->n; i++)
		in[i] = rnd_int(c, i, 1);
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

/* Launch 1 over the data with the user's range settings, then launches
 * of 256-item groups over the partials until one is left. */
static int reduce_wg_enqueue(workload_ctx *c, hp_event *last)
{
	hp_reduce_wg_args a = *(const hp_reduce_wg_args *)c->kargs;
	uint64_t L = seq_local(c), len[MAX_LEVELS], off[MAX_LEVELS];
	if (!a.n)
		return hp_enqueue_kernel(c->q, c->kernel, &c->r, &a, sizeof(a),
					 NULL, 0, last);
	unsigned lv = reduce_levels(a.n, L, len, off);
	hp_buffer part = a.out;
	hp_ndrange r = c->r;
	r.local[0] = L;
	r.local_given = true;
	int rc = workload_enqueue(c, c->kernel, &r, &a, sizeof(a), last);
	for (unsigned k = 1; !rc && k < lv; k++) {
		a.in = part + off[k - 1] * sizeof(int32_t);
		a.out = part + off[k] * sizeof(int32_t);
		a.n = len[k - 1];
		r = seq_range(c, a.n, a.n < 256 ? a.n : 256);
		rc = workload_enqueue(c, c->kernel, &r, &a, sizeof(a), last);
	}
	return rc;
}

static int reduce_wg_check(workload_ctx *c)
{
	uint64_t n = dim(c, 0), L = seq_local(c);
	uint64_t len[MAX_LEVELS], off[MAX_LEVELS];
	if (!n)
		return 0;
	unsigned lv = reduce_levels(n, L, len, off);
	const int32_t *in = c->host[0];
	int32_t *part = c->host[1];
	int rc = workload_download(c, 1, part, c->buf_size[1]);
	/* The first launch's partials, then the total. */
	uint32_t total = 0;
	for (uint64_t g = 0; !rc && g < len[0]; g++) {
		uint32_t s = 0;
		for (uint64_t i = g * L; i < n && i < (g + 1) * L; i++)
			s += (uint32_t)in[i];
		total += s;
		rc = icheck(c, "partial of group", g, (uint32_t)part[g], s);
	}
	if (!rc)
		rc = icheck(c, "sum, level", lv - 1,
			    (uint32_t)part[off[lv - 1]], total);
	c->compared = len[0] + 1;
	return rc;
}

/* ---- reduce_sg ---- */

static int reduce_sg_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_reduce_sg_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	NEED_1D(c);
	a->n = dim(c, 0);
	NEED_BUF(c, a->n * sizeof(int32_t), &a->in);
	NEED_BUF(c, sizeof(int32_t), &a->sum);
	int32_t *in = c->host[0];
	for (uint64_t i = 0; i < a->n; i++)
		in[i] = rnd_int(c, i, 1);
	*size = sizeof(*a);
	return workload_upload2(c);
}

/* The sum accumulates: --repeat N adds it N times. */
static int reduce_sg_check(workload_ctx *c)
{
	uint64_t n = dim(c, 0);
	const int32_t *in = c->host[0];
	uint32_t got, want = 0;
	int rc = workload_download(c, 1, &got, sizeof(got));
	for (uint64_t i = 0; i < n; i++)
		want += (uint32_t)in[i];
	c->compared = 1;
	return rc ? rc
		  : icheck(c, "sum after launches", c->repeat, got,
			   want * (uint32_t)c->repeat);
}

/* ---- scan ---- */

/* Arrays of the scan: level 0 is `out` (n), level k + 1 holds the group
 * sums of level k at off[k + 1] in the scratch buffer, until one group. */
static unsigned scan_levels(uint64_t n, uint64_t L, uint64_t len[],
			    uint64_t off[])
{
	unsigned k = 0;
	uint64_t at = 0;
	len[0] = n;
	off[0] = 0;
	while (k + 1 < MAX_LEVELS) {
		uint64_t g = groups_of(len[k], L);
		k++;
		len[k] = g;
		off[k] = at;
		at += g;
		if (g <= 1)
			break;
	}
	return k + 1;
}

static int scan_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_scan_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	NEED_1D(c);
	a->n = dim(c, 0);
	uint64_t L = seq_local(c), len[MAX_LEVELS], off[MAX_LEVELS];
	if (L < 2) {
		snprintf(c->msg, sizeof(c->msg),
			 "scan needs a local size of at least 2");
		return HP_INVALID_WORK_GROUP_SIZE;
	}
	unsigned lv = scan_levels(a->n, L, len, off);
	NEED_BUF(c, a->n * sizeof(int32_t), &a->in);
	NEED_BUF(c, a->n * sizeof(int32_t), &a->out);
	NEED_BUF(c, (off[lv - 1] + len[lv - 1]) * sizeof(int32_t), &a->sums);
	int32_t *in = c->host[0];
	for (uint64_t i = 0; i < a->n; i++)
		in[i] = rnd_int(c, i, 1);
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

/* Up: scan every level (in -> out, then the sums in place), each writing
 * the group sums of the next; down: add the scanned sums of level k + 1
 * to the groups of level k. All with the same local size. */
static int scan_enqueue(workload_ctx *c, hp_event *last)
{
	hp_scan_args a = *(const hp_scan_args *)c->kargs;
	uint64_t L = seq_local(c), len[MAX_LEVELS], off[MAX_LEVELS];
	unsigned lv = scan_levels(a.n, L, len, off);
	hp_buffer scratch = a.sums;
	uint32_t add;
	int rc = kernel_id(c, "scan_add", &add);
	if (rc)
		return rc;
	hp_ndrange r = c->r;
	r.local[0] = L;
	r.local_given = true;
	rc = workload_enqueue(c, c->kernel, &r, &a, sizeof(a), last);
	for (unsigned k = 1; !rc && k + 1 < lv; k++) {
		a.in = a.out = scratch + off[k] * sizeof(int32_t);
		a.sums = scratch + off[k + 1] * sizeof(int32_t);
		a.n = len[k];
		r = seq_range(c, len[k], L);
		rc = workload_enqueue(c, c->kernel, &r, &a, sizeof(a), last);
	}
	for (unsigned k = lv - 1; !rc && k-- > 0;) {
		if (len[k + 1] <= 1)
			continue; /* one group: already complete */
		const hp_scan_args *a0 = c->kargs;
		hp_scan_add_args s = {
			.data = k ? scratch + off[k] * sizeof(int32_t)
				  : a0->out,
			.sums = scratch + off[k + 1] * sizeof(int32_t),
			.n = len[k]};
		r = k ? seq_range(c, len[k], L) : c->r;
		r.local[0] = L;
		r.local_given = true;
		rc = workload_enqueue(c, add, &r, &s, sizeof(s), last);
	}
	return rc;
}

static int scan_check(workload_ctx *c)
{
	uint64_t n = dim(c, 0);
	const int32_t *in = c->host[0];
	int32_t *out = c->host[1];
	int rc = workload_download(c, 1, out, n * sizeof(int32_t));
	uint32_t s = 0;
	for (uint64_t i = 0; !rc && i < n; i++) {
		s += (uint32_t)in[i];
		rc = icheck(c, "element", i, (uint32_t)out[i], s);
	}
	c->compared = n;
	return rc;
}

/* ---- histogram ---- */

static uint64_t hist_bytes(const workload_ctx *c)
{
	return workload_arg(c, "n", 4 * c->items);
}

static int histogram_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_histogram_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	a->n = hist_bytes(c);
	NEED_BUF(c, a->n, &a->data);
	NEED_BUF(c, 256 * sizeof(uint32_t), &a->bins);
	uint8_t *d = c->host[0];
	/* A quarter of the bytes in one bin: contention on its counter. */
	for (uint64_t i = 0; i < a->n; i++) {
		uint64_t x = rnd(c, i, 1);
		d[i] = x % 4 == 0 ? 7 : (uint8_t)(x >> 32);
	}
	*size = sizeof(*a);
	return workload_upload2(c);
}

/* The bins accumulate: --repeat N counts every byte N times. */
static int histogram_check(workload_ctx *c)
{
	uint64_t n = hist_bytes(c);
	const uint8_t *d = c->host[0];
	uint32_t got[256], want[256] = {0};
	int rc = workload_download(c, 1, got, sizeof(got));
	for (uint64_t i = 0; i < n; i++)
		want[d[i]]++;
	for (unsigned b = 0; !rc && b < 256; b++)
		rc = icheck(c, "bin", b, got[b], want[b] * (uint32_t)c->repeat);
	c->compared = 256;
	return rc;
}

/* ---- transpose ---- */

static int transpose_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_transpose_args *a = args;
	RANGE(c, 2, 37, 29, 8, 8);
	a->w = dim(c, 0);
	a->h = dim(c, 1);
	a->len = a->w * a->h;
	NEED_BUF(c, a->len * sizeof(float), &a->in);
	NEED_BUF(c, a->len * sizeof(float), &a->out);
	float *in = c->host[0];
	for (uint64_t i = 0; i < a->len; i++)
		in[i] = rnd_float(c, i, 1);
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

static int transpose_check(workload_ctx *c)
{
	uint64_t w = dim(c, 0), h = dim(c, 1);
	const float *in = c->host[0];
	float *out = c->host[1];
	int rc = workload_download(c, 1, out, w * h * sizeof(float));
	for (uint64_t y = 0; !rc && y < h; y++)
		for (uint64_t x = 0; !rc && x < w; x++)
			if (memcmp(&out[x * h + y], &in[y * w + x], 4)) {
				snprintf(c->msg, sizeof(c->msg),
					 "out[%llu][%llu] is %.9g, expected "
					 "in[%llu][%llu] = %.9g",
					 (unsigned long long)x,
					 (unsigned long long)y,
					 (double)out[x * h + y],
					 (unsigned long long)y,
					 (unsigned long long)x,
					 (double)in[y * w + x]);
				rc = 1;
			}
	c->compared = w * h;
	return rc;
}

/* ---- conv2d ---- */

static void conv_weights(const workload_ctx *c, float wt[25])
{
	for (unsigned i = 0; i < 25; i++)
		wt[i] = rnd_float(c, i, 7);
}

static int conv2d_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_conv2d_args *a = args;
	RANGE(c, 2, 37, 29, 8, 8);
	a->w = dim(c, 0);
	a->h = dim(c, 1);
	a->len = a->w * a->h;
	a->r = workload_arg(c, "r", 1);
	if (a->r < 1 || a->r > HP_CONV2D_MAX_R) {
		snprintf(c->msg, sizeof(c->msg),
			 "conv2d: --arg r=1 (3x3) or r=2 (5x5)");
		return HP_INVALID_VALUE;
	}
	conv_weights(c, a->weights);
	NEED_BUF(c, a->len * sizeof(float), &a->in);
	NEED_BUF(c, a->len * sizeof(float), &a->out);
	float *in = c->host[0];
	for (uint64_t i = 0; i < a->len; i++)
		in[i] = rnd_float(c, i, 1);
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

static int64_t clampi(int64_t v, int64_t hi)
{
	return v < 0 ? 0 : v > hi ? hi : v;
}

/* The taps summed in the kernel's order; T taps: (T + 2) 2^-23 sum|w p|
 * bounds the fused against the unfused sum (as for sgemm). */
static int conv2d_check(workload_ctx *c)
{
	int64_t w = (int64_t)dim(c, 0), h = (int64_t)dim(c, 1);
	int64_t r = (int64_t)workload_arg(c, "r", 1),
		taps = (2 * r + 1) * (2 * r + 1);
	float wt[25];
	conv_weights(c, wt);
	const float *in = c->host[0];
	float *out = c->host[1];
	int rc =
		workload_download(c, 1, out, (uint64_t)(w * h) * sizeof(float));
	for (int64_t y = 0; !rc && y < h; y++)
		for (int64_t x = 0; !rc && x < w; x++) {
			float acc = 0.0f;
			double mag = 0;
			const float *k = wt;
			for (int64_t dy = -r; dy <= r; dy++)
				for (int64_t dx = -r; dx <= r; dx++) {
					float t = *k++ *
						  in[clampi(y + dy, h - 1) * w +
						     clampi(x + dx, w - 1)];
					acc = acc + t;
					mag += fabs((double)t);
				}
			rc = fcheck(c, "pixel", (uint64_t)(y * w + x),
				    out[y * w + x], acc,
				    (double)(taps + 2) * ULP2 * mag);
		}
	c->compared = (uint64_t)(w * h);
	return rc;
}

/* ---- bitonic ---- */

/* Keys: N = --global (default 1000), padded with 0xffffffff to a power of
 * two; some repeats, a 0 and a 0xffffffff among them. */
static uint64_t pow2_at_least(uint64_t n)
{
	uint64_t p = 1;
	while (p < n)
		p *= 2;
	return p;
}

static uint32_t key(const workload_ctx *c, uint64_t i)
{
	uint64_t x = rnd(c, i, 3);
	return i == 1	    ? 0xffffffffu
	       : i == 2	    ? 0
	       : x % 5 == 0 ? 12345
			    : (uint32_t)(x >> 32);
}

static int bitonic_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_bitonic_args *a = args;
	RANGE(c, 1, 1000, 1, 48, 1);
	NEED_1D(c);
	uint64_t keys = dim(c, 0);
	a->n = pow2_at_least(keys);
	NEED_BUF(c, a->n * sizeof(uint32_t), &a->data);
	uint32_t *d = c->host[0];
	for (uint64_t i = 0; i < a->n; i++)
		d[i] = i < keys ? key(c, i) : 0xffffffffu;
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

/* One launch per (k, j) over the n/2 pairs, with the user's local size
 * and other range settings. */
static int bitonic_enqueue(workload_ctx *c, hp_event *last)
{
	hp_bitonic_args a = *(const hp_bitonic_args *)c->kargs;
	hp_ndrange r = c->r;
	r.work_dim = 1;
	r.global[0] = a.n / 2;
	if (a.n < 2)
		return hp_enqueue_marker(c->q, last);
	int rc = 0;
	for (a.k = 2; !rc && a.k <= a.n; a.k *= 2)
		for (a.j = a.k / 2; !rc && a.j > 0; a.j /= 2)
			rc = workload_enqueue(c, c->kernel, &r, &a, sizeof(a),
					      last);
	return rc;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

static int bitonic_check(workload_ctx *c)
{
	uint64_t keys = dim(c, 0), n = pow2_at_least(keys);
	uint32_t *want = c->host[0], *got = malloc(n * sizeof(uint32_t) + 1);
	int rc = got ? workload_download(c, 0, got, n * sizeof(uint32_t))
		     : workload_host_oom(c, n * sizeof(uint32_t));
	/* The host copy still holds the keys and padding; sort it. */
	qsort(want, n, sizeof(uint32_t), cmp_u32);
	for (uint64_t i = 0; !rc && i < n; i++)
		rc = icheck(c, "position", i, got[i], want[i]);
	c->compared = n;
	free(got);
	return rc;
}

/* ---- mandelbrot ---- */

static void mandel_args(workload_ctx *c, hp_mandelbrot_args *a)
{
	a->w = dim(c, 0);
	a->h = dim(c, 1);
	a->len = a->w * a->h;
	a->max_iter = workload_arg(c, "max_iter", 128);
	/* [-2.2, 1.0] x [-1.2, 1.2]: the whole set, the image's middle
	 * rows and the left bulb take max_iter, the edges a few. */
	a->x0 = -2.2f;
	a->y0 = -1.2f;
	a->dx = 3.2f / (float)a->w;
	a->dy = 2.4f / (float)a->h;
}

static int mandelbrot_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_mandelbrot_args *a = args;
	RANGE(c, 2, 61, 47, 8, 8);
	mandel_args(c, a);
	NEED_BUF(c, a->len * sizeof(uint32_t), &a->out);
	*size = sizeof(*a);
	return 0;
}

static int mandelbrot_check(workload_ctx *c)
{
	hp_mandelbrot_args a;
	mandel_args(c, &a);
	uint32_t *out = c->host[0];
	int rc = workload_download(c, 0, out, a.len * sizeof(uint32_t));
	for (uint64_t y = 0; !rc && y < a.h; y++)
		for (uint64_t x = 0; !rc && x < a.w; x++)
			rc = icheck(c, "pixel", y * a.w + x, out[y * a.w + x],
				    hp_mandel_pixel(&a, x, y));
	c->compared = a.len;
	return rc;
}

/* ---- the table entries ---- */

const workload workload_vadd = {
	"vadd", "float c = a + b, n = --global (1000, local 64); exact",
	vadd_prepare, vadd_check, NULL};
const workload workload_saxpy = {
	"saxpy",
	"float y = a*x + y (--arg a=1.5; 1000, local 64); "
	"|err| <= 2^-22 (|a x| + |y|) per launch",
	saxpy_prepare, saxpy_check, NULL};
const workload workload_sgemm_naive = {
	"sgemm_naive",
	"C = A B, --global N,M --arg k=K (29,37 k=23, local 8,8); "
	"|err| <= (K+2) 2^-23 sum|a b|",
	sgemm_prepare, sgemm_check, NULL};
const workload workload_sgemm_tiled = {
	"sgemm_tiled",
	"sgemm_naive with 8-deep tiles in local memory; same sizes and "
	"tolerance",
	sgemm_prepare, sgemm_check, NULL};
const workload workload_reduce_wg = {
	"reduce_wg",
	"int32 sum: local-memory tree per group, then launches over the "
	"partials (1000, local 64); exact",
	reduce_wg_prepare, reduce_wg_check, reduce_wg_enqueue};
const workload workload_reduce_sg = {
	"reduce_sg",
	"int32 sum: sub-group reduce + one atomic per sub-group (1000, "
	"local 64); exact",
	reduce_sg_prepare, reduce_sg_check, NULL};
const workload workload_scan = {
	"scan",
	"inclusive int32 prefix sum: group scans, scans of the group sums, "
	"adds (1000, local 64); exact",
	scan_prepare, scan_check, scan_enqueue};
const workload workload_histogram = {
	"histogram",
	"256 bins of --arg n=BYTES (4 per item; 1000, local 64): local, "
	"then global atomics; exact",
	histogram_prepare, histogram_check, NULL};
const workload workload_transpose = {
	"transpose",
	"--global W,H floats through a local-memory tile (37,29, local "
	"8,8); exact",
	transpose_prepare, transpose_check, NULL};
const workload workload_conv2d = {
	"conv2d",
	"--arg r=1|2: 3x3|5x5 stencil, clamped edges (37,29, local 8,8); "
	"|err| <= (T+2) 2^-23 sum|w p|",
	conv2d_prepare, conv2d_check, NULL};
const workload workload_bitonic = {
	"bitonic",
	"sort --global N uint32 (padded to 2^k), one launch per pass (1000, "
	"local 48); exact",
	bitonic_prepare, bitonic_check, bitonic_enqueue};
const workload workload_mandelbrot = {
	"mandelbrot",
	"iterations on --global W,H, --arg max_iter=128 (61,47, local 8,8); "
	"exact",
	mandelbrot_prepare, mandelbrot_check, NULL};
