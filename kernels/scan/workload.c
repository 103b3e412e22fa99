// SPDX-License-Identifier: MIT
/* The workload of scan (its kernels scan and scan_add) (docs/kernels.md): test
 * data, the host reference, the launch sequence. */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Arrays of the scan: level 0 is `out` (n), level k + 1 holds the group
 * sums of level k at off[k + 1] in the scratch buffer, until one group. */
static unsigned scan_levels(uint64_t n, uint64_t L, uint64_t len[],
			    uint64_t off[])
{
	unsigned k = 0;
	uint64_t at = 0;
	len[0] = n;
	off[0] = 0;
	while (k + 1 < WL_MAX_LEVELS) {
		uint64_t g = wl_groups_of(len[k], L);
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
	uint64_t L = wl_seq_local(c), len[WL_MAX_LEVELS], off[WL_MAX_LEVELS];
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
	uint64_t L = wl_seq_local(c), len[WL_MAX_LEVELS], off[WL_MAX_LEVELS];
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

const workload workload_scan = {
	.name = "scan",
	.help = "inclusive int32 prefix sum: group scans, scans of the group "
		"sums, adds (1000, local 64); exact",
	.prepare = scan_prepare,
	.check = scan_check,
	.enqueue = scan_enqueue,
};
