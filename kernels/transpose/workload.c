// SPDX-License-Identifier: MIT
/* The workload of transpose (docs/kernels.md): test data, how it splits over
 * devices, the host reference. */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int transpose_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_transpose_args *a = args;
	RANGE(c, 2, 37, 29, 8, 8);
	a->w = wl_dim(c, 0);
	a->h = wl_dim(c, 1);
	a->len = a->w * a->h;
	NEED_BUF(c, a->len * sizeof(float), &a->in);
	NEED_BUF(c, a->len * sizeof(float), &a->out);
	float *in = c->host[0];
	for (uint64_t i = 0; i < a->len; i++)
		in[i] = wl_rnd_float(c, i, 1);
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

static int transpose_check(workload_ctx *c)
{
	uint64_t w = wl_dim(c, 0), h = wl_dim(c, 1);
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

const workload workload_transpose = {
	.name = "transpose",
	.help = "--global W,H floats through a local-memory tile (37,29, "
		"local 8,8); exact",
	.prepare = transpose_prepare,
	.check = transpose_check,
	/* a column slab of in is a row slab of out */
	.split = {.outputs = 1u << 1, .dim = 0},
};
