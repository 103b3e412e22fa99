// SPDX-License-Identifier: MIT
/* The workloads of sgemm_naive and sgemm_tiled (docs/kernels.md): test data,
 * how it splits over devices, the host reference. */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sgemm_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_sgemm_args *a = args;
	RANGE(c, 2, 29, 37, 8, 8);
	a->n = wl_dim(c, 0);
	a->m = wl_dim(c, 1);
	a->k = workload_arg(c, "k", 23);
	a->a_len = a->m * a->k;
	a->b_len = a->k * a->n;
	a->c_len = a->m * a->n;
	NEED_BUF(c, a->a_len * sizeof(float), &a->a);
	NEED_BUF(c, a->b_len * sizeof(float), &a->b);
	NEED_BUF(c, a->c_len * sizeof(float), &a->c);
	float *A = c->host[0], *B = c->host[1];
	for (uint64_t i = 0; i < a->a_len; i++)
		A[i] = wl_rnd_float(c, i, 1);
	for (uint64_t i = 0; i < a->b_len; i++)
		B[i] = wl_rnd_float(c, i, 2);
	*size = sizeof(*a);
	return workload_upload2(c);
}

/* Products summed in order k = 0, 1, ... as on the device. The fused and
 * the unfused sums are each within about K u sum|a b| of the exact one
 * (u = 2^-24), so (K + 2) 2^-23 sum|a b| covers their difference. */
static int sgemm_check(workload_ctx *c)
{
	uint64_t n = wl_dim(c, 0), m = wl_dim(c, 1),
		 k = workload_arg(c, "k", 23);
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
			rc = wl_fcheck(c, "element", i * n + j, C[i * n + j],
				       acc, (double)(k + 2) * ULP2 * mag);
		}
	c->compared = m * n;
	return rc;
}

const workload workload_sgemm_naive = {
	.name = "sgemm_naive",
	.help = "C = A B, --global N,M --arg k=K (29,37 k=23, local 8,8); "
		"|err| <= (K+2) 2^-23 sum|a b|",
	.prepare = sgemm_prepare,
	.check = sgemm_check,
	.split = {.outputs = 1u << 2, .dim = 1},
};
const workload workload_sgemm_tiled = {
	.name = "sgemm_tiled",
	.help = "sgemm_naive with 8-deep tiles in local memory; same sizes "
		"and tolerance",
	.prepare = sgemm_prepare,
	.check = sgemm_check,
	.split = {.outputs = 1u << 2, .dim = 1},
};
