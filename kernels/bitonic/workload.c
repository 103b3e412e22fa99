// SPDX-License-Identifier: MIT
/* The workload of bitonic (docs/kernels.md): test data, the host reference, the
 * launch sequence. */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const workload workload_bitonic = {
	.name = "bitonic",
	.help = "sort --global N uint32 (padded to 2^k), one launch per pass "
		"(1000, local 48); exact",
	.prepare = bitonic_prepare,
	.check = bitonic_check,
	.enqueue = bitonic_enqueue,
};
