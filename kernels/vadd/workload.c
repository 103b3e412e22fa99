// SPDX-License-Identifier: MIT
/* The workload of vadd (docs/kernels.md): test data, how it splits over
 * devices, the host reference. */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int vadd_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_vadd_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	NEED_1D(c);
	a->n = wl_dim(c, 0);
	NEED_BUF(c, a->n * sizeof(float), &a->a);
	NEED_BUF(c, a->n * sizeof(float), &a->b);
	NEED_BUF(c, a->n * sizeof(float), &a->c);
	float *x = c->host[0], *y = c->host[1];
	for (uint64_t i = 0; i < a->n; i++)
		x[i] = wl_rnd_float(c, i, 1), y[i] = wl_rnd_float(c, i, 2);
	*size = sizeof(*a);
	return workload_upload2(c);
}

static int vadd_check(workload_ctx *c)
{
	uint64_t n = wl_dim(c, 0);
	const float *x = c->host[0], *y = c->host[1];
	float *z = c->host[2];
	int rc = workload_download(c, 2, z, n * sizeof(float));
	for (uint64_t i = 0; !rc && i < n; i++)
		rc = wl_fcheck(c, "element", i, z[i], x[i] + y[i], 0.0);
	c->compared = n;
	return rc;
}

/* run --devices: the slab's items index its elements by their linear id
 * (counted from the slab's offset): every buffer moves to the slab. */
static void vadd_rebase(void *args, uint64_t items)
{
	hp_vadd_args *a = args;
	a->a += items * sizeof(float);
	a->b += items * sizeof(float);
	a->c += items * sizeof(float);
}

const workload workload_vadd = {
	.name = "vadd",
	.help = "float c = a + b, n = --global (1000, local 64); exact",
	.prepare = vadd_prepare,
	.check = vadd_check,
	.split = {.outputs = 1u << 2,
		  .dim = WORKLOAD_OUTERMOST,
		  .rebase = vadd_rebase},
};
