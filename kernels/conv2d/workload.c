// SPDX-License-Identifier: MIT
/* The workload of conv2d (docs/kernels.md): test data, how it splits over
 * devices, the host reference. */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void conv_weights(const workload_ctx *c, float wt[25])
{
	for (unsigned i = 0; i < 25; i++)
		wt[i] = wl_rnd_float(c, i, 7);
}

static int conv2d_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_conv2d_args *a = args;
	RANGE(c, 2, 37, 29, 8, 8);
	a->w = wl_dim(c, 0);
	a->h = wl_dim(c, 1);
	a->len = a->w * a->h;
	a->r = workload_arg(c, "r", 1);
	if (a->r < 1 || a->r > HP_CONV2D_MAX_R) {
		snprintf(c->msg, sizeof(c->msg),
			 "conv2d: --arg r=1 (3x3) or r=2 (5x5)");
		return HP_INVALID_VALUE;
	}
	conv_weights(c, a->weights);
	NEED_BUF(c, a->len * sizeof(float), &a->in);
	NEED_BUF(c, a->len * sizeof(float), &a->out);
	float *in = c->host[0];
	for (uint64_t i = 0; i < a->len; i++)
		in[i] = wl_rnd_float(c, i, 1);
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

static int64_t clampi(int64_t v, int64_t hi)
{
	return v < 0 ? 0 : v > hi ? hi : v;
}

/* The taps summed in the kernel's order; T taps: (T + 2) 2^-23 sum|w p|
 * bounds the fused against the unfused sum (as for sgemm). */
static int conv2d_check(workload_ctx *c)
{
	int64_t w = (int64_t)wl_dim(c, 0), h = (int64_t)wl_dim(c, 1);
	int64_t r = (int64_t)workload_arg(c, "r", 1),
		taps = (2 * r + 1) * (2 * r + 1);
	float wt[25];
	conv_weights(c, wt);
	const float *in = c->host[0];
	float *out = c->host[1];
	int rc =
		workload_download(c, 1, out, (uint64_t)(w * h) * sizeof(float));
	for (int64_t y = 0; !rc && y < h; y++)
		for (int64_t x = 0; !rc && x < w; x++) {
			float acc = 0.0f;
			double mag = 0;
			const float *k = wt;
			for (int64_t dy = -r; dy <= r; dy++)
				for (int64_t dx = -r; dx <= r; dx++) {
					float t = *k++ *
						  in[clampi(y + dy, h - 1) * w +
						     clampi(x + dx, w - 1)];
					acc = acc + t;
					mag += fabs((double)t);
				}
			rc = wl_fcheck(c, "pixel", (uint64_t)(y * w + x),
				       out[y * w + x], acc,
				       (double)(taps + 2) * ULP2 * mag);
		}
	c->compared = (uint64_t)(w * h);
	return rc;
}

const workload workload_conv2d = {
	.name = "conv2d",
	.help = "--arg r=1|2: 3x3|5x5 stencil, clamped edges (37,29, local "
		"8,8); |err| <= (T+2) 2^-23 sum|w p|",
	.prepare = conv2d_prepare,
	.check = conv2d_check,
	.split = {.outputs = 1u << 1, .dim = 1},
};
