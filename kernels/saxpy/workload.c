// SPDX-License-Identifier: MIT
/* The workload of saxpy (docs/kernels.md): test data, how it splits over
 * devices, the host reference. */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int saxpy_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_saxpy_args *a = args;
	RANGE(c, 1, 1000, 1, 64, 1);
	NEED_1D(c);
	a->n = wl_dim(c, 0);
	a->a = (float)wl_farg(c, "a", 1.5);
	NEED_BUF(c, a->n * sizeof(float), &a->x);
	NEED_BUF(c, a->n * sizeof(float), &a->y);
	float *x = c->host[0], *y = c->host[1];
	for (uint64_t i = 0; i < a->n; i++)
		x[i] = wl_rnd_float(c, i, 1), y[i] = wl_rnd_float(c, i, 2);
	*size = sizeof(*a);
	return workload_upload2(c);
}

/* y is updated in place once per launch (--repeat): the reference too.
 * Each update's fused and unfused results are within 2^-23 (|a x| +
 * |y'|) of each other; twice that, summed over the updates. */
static int saxpy_check(workload_ctx *c)
{
	uint64_t n = wl_dim(c, 0);
	float a = (float)wl_farg(c, "a", 1.5);
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
		rc = wl_fcheck(c, "element", i, y[i], want, tol);
	}
	c->compared = n;
	free(y);
	return rc;
}

/* run --devices: the slab's items index its elements by their linear id
 * (counted from the slab's offset): every buffer moves to the slab. */
static void saxpy_rebase(void *args, uint64_t items)
{
	hp_saxpy_args *a = args;
	a->x += items * sizeof(float);
	a->y += items * sizeof(float);
}

const workload workload_saxpy = {
	.name = "saxpy",
	.help = "float y = a*x + y (--arg a=1.5; 1000, local 64); |err| <= "
		"2^-22 (|a x| + |y|) per launch",
	.prepare = saxpy_prepare,
	.check = saxpy_check,
	.split = {.outputs = 1u << 1,
		  .dim = WORKLOAD_OUTERMOST,
		  .rebase = saxpy_rebase},
};
