// SPDX-License-Identifier: MIT
/* The workload of reduce_wg (docs/kernels.md): test data, the host reference,
 * the launch sequence. */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The levels of partials after the first launch (local L) and the later
 * ones (local 256, the device's maximum): their lengths and offsets in
 * the scratch buffer; returns how many. */
#define WL_MAX_LEVELS 64
static unsigned reduce_levels(uint64_t n, uint64_t L, uint64_t len[],
			      uint64_t off[])
{
	unsigned k = 0;
	uint64_t at = 0, g = wl_groups_of(n, L);
	for (;;) {
		len[k] = g;
		off[k] = at;
		at += g;
		k++;
		if (g <= 1 || k == WL_MAX_LEVELS)
			return k;
		g = wl_groups_of(g, 256);
	}
}

static int reduce_wg_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_reduce_wg_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	NEED_1D(c);
	a->n = wl_dim(c, 0);
	uint64_t L = wl_seq_local(c), len[WL_MAX_LEVELS], off[WL_MAX_LEVELS];
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
	uint64_t L = wl_seq_local(c), len[WL_MAX_LEVELS], off[WL_MAX_LEVELS];
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
	uint64_t n = wl_dim(c, 0), L = wl_seq_local(c);
	uint64_t len[WL_MAX_LEVELS], off[WL_MAX_LEVELS];
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

const workload workload_reduce_wg = {
	.name = "reduce_wg",
	.help = "int32 sum: local-memory tree per group, then launches over "
		"the partials (1000, local 64); exact",
	.prepare = reduce_wg_prepare,
	.check = reduce_wg_check,
	.enqueue = reduce_wg_enqueue,
};
