// SPDX-License-Identifier: MIT
/* The workload of histogram (docs/kernels.md): test data, the host reference.
 */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const workload workload_histogram = {
	.name = "histogram",
	.help = "256 bins of --arg n=BYTES (4 per item; 1000, local 64): "
		"local, then global atomics; exact",
	.prepare = histogram_prepare,
	.check = histogram_check,
};
