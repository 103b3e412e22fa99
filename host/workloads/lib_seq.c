// SPDX-License-Identifier: MIT
/*
 * Workloads of the kernel library's reductions, scans and sorts
 * (include/hartpool/kernels/lib.h, docs/kernels.md): reduce_wg, reduce_sg,
 * scan, histogram, bitonic; test data, host references, and the launch
 * sequences of those that need several launches (reduce_wg, scan,
 * bitonic).
 */
#include "lib_common.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	a->n = wl_dim(c, 0);
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
		in[i] = wl_rnd_int(c, i, 1);
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
		r = wl_seq_range(c, a.n, a.n < 256 ? a.n : 256);
		rc = workload_enqueue(c, c->kernel, &r, &a, sizeof(a), last);
	}
	return rc;
}

static int reduce_wg_check(workload_ctx *c)
{
	uint64_t n = wl_dim(c, 0), L = seq_local(c);
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
		rc = wl_icheck(c, "partial of group", g, (uint32_t)part[g], s);
	}
	if (!rc)
		rc = wl_icheck(c, "sum, level", lv - 1,
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
	a->n = wl_dim(c, 0);
	NEED_BUF(c, a->n * sizeof(int32_t), &a->in);
	NEED_BUF(c, sizeof(int32_t), &a->sum);
	int32_t *in = c->host[0];
	for (uint64_t i = 0; i < a->n; i++)
		in[i] = wl_rnd_int(c, i, 1);
	*size = sizeof(*a);
	return workload_upload2(c);
}

/* The sum accumulates: --repeat N adds it N times. */
static int reduce_sg_check(workload_ctx *c)
{
	uint64_t n = wl_dim(c, 0);
	const int32_t *in = c->host[0];
	uint32_t got, want = 0;
	int rc = workload_download(c, 1, &got, sizeof(got));
	for (uint64_t i = 0; i < n; i++)
		want += (uint32_t)in[i];
	c->compared = 1;
	return rc ? rc
		  : wl_icheck(c, "sum after launches", c->repeat, got,
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
	a->n = wl_dim(c, 0);
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
		in[i] = wl_rnd_int(c, i, 1);
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
	int rc = wl_kernel_id(c, "scan_add", &add);
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
		r = wl_seq_range(c, len[k], L);
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
		r = k ? wl_seq_range(c, len[k], L) : c->r;
		r.local[0] = L;
		r.local_given = true;
		rc = workload_enqueue(c, add, &r, &s, sizeof(s), last);
	}
	return rc;
}

static int scan_check(workload_ctx *c)
{
	uint64_t n = wl_dim(c, 0);
	const int32_t *in = c->host[0];
	int32_t *out = c->host[1];
	int rc = workload_download(c, 1, out, n * sizeof(int32_t));
	uint32_t s = 0;
	for (uint64_t i = 0; !rc && i < n; i++) {
		s += (uint32_t)in[i];
		rc = wl_icheck(c, "element", i, (uint32_t)out[i], s);
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
		uint64_t x = wl_rnd(c, i, 1);
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
		rc = wl_icheck(c, "bin", b, got[b],
			       want[b] * (uint32_t)c->repeat);
	c->compared = 256;
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
	uint64_t x = wl_rnd(c, i, 3);
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
	uint64_t keys = wl_dim(c, 0);
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
	uint64_t keys = wl_dim(c, 0), n = pow2_at_least(keys);
	uint32_t *want = c->host[0], *got = malloc(n * sizeof(uint32_t) + 1);
	int rc = got ? workload_download(c, 0, got, n * sizeof(uint32_t))
		     : workload_host_oom(c, n * sizeof(uint32_t));
	/* The host copy still holds the keys and padding; sort it. */
	qsort(want, n, sizeof(uint32_t), cmp_u32);
	for (uint64_t i = 0; !rc && i < n; i++)
		rc = wl_icheck(c, "position", i, got[i], want[i]);
	c->compared = n;
	free(got);
	return rc;
}

/* ---- the table entries ---- */

const workload workload_reduce_wg = {
	.name = "reduce_wg",
	.help = "int32 sum: local-memory tree per group, then launches over "
		"the partials (1000, local 64); exact",
	.prepare = reduce_wg_prepare,
	.check = reduce_wg_check,
	.enqueue = reduce_wg_enqueue,
};
const workload workload_reduce_sg = {
	.name = "reduce_sg",
	.help = "int32 sum: sub-group reduce + one atomic per sub-group "
		"(1000, local 64); exact",
	.prepare = reduce_sg_prepare,
	.check = reduce_sg_check,
};
const workload workload_scan = {
	.name = "scan",
	.help = "inclusive int32 prefix sum: group scans, scans of the group "
		"sums, adds (1000, local 64); exact",
	.prepare = scan_prepare,
	.check = scan_check,
	.enqueue = scan_enqueue,
};
const workload workload_histogram = {
	.name = "histogram",
	.help = "256 bins of --arg n=BYTES (4 per item; 1000, local 64): "
		"local, then global atomics; exact",
	.prepare = histogram_prepare,
	.check = histogram_check,
};
const workload workload_bitonic = {
	.name = "bitonic",
	.help = "sort --global N uint32 (padded to 2^k), one launch per pass "
		"(1000, local 48); exact",
	.prepare = bitonic_prepare,
	.check = bitonic_check,
	.enqueue = bitonic_enqueue,
};
