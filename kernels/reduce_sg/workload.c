// SPDX-License-Identifier: MIT
/* The workload of reduce_sg (docs/kernels.md): test data, the host reference.
 */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const workload workload_reduce_sg = {
	.name = "reduce_sg",
	.help = "int32 sum: sub-group reduce + one atomic per sub-group "
		"(1000, local 64); exact",
	.prepare = reduce_sg_prepare,
	.check = reduce_sg_check,
};
