// SPDX-License-Identifier: MIT
/* The workload of mandelbrot (docs/kernels.md): test data, how it splits over
 * devices, the host reference. */
#include "args.h"
#include <host/workloads/lib_common.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void mandel_args(workload_ctx *c, hp_mandelbrot_args *a)
{
	a->w = wl_dim(c, 0);
	a->h = wl_dim(c, 1);
	a->len = a->w * a->h;
	a->max_iter = workload_arg(c, "max_iter", 128);
	/* [-2.2, 1.0] x [-1.2, 1.2]: the whole set, the image's middle
	 * rows and the left bulb take max_iter, the edges a few. */
	a->x0 = -2.2f;
	a->y0 = -1.2f;
	a->dx = 3.2f / (float)a->w;
	a->dy = 2.4f / (float)a->h;
}

static int mandelbrot_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_mandelbrot_args *a = args;
	RANGE(c, 2, 61, 47, 8, 8);
	mandel_args(c, a);
	NEED_BUF(c, a->len * sizeof(uint32_t), &a->out);
	*size = sizeof(*a);
	return 0;
}

static int mandelbrot_check(workload_ctx *c)
{
	hp_mandelbrot_args a;
	mandel_args(c, &a);
	uint32_t *out = c->host[0];
	int rc = workload_download(c, 0, out, a.len * sizeof(uint32_t));
	for (uint64_t y = 0; !rc && y < a.h; y++)
		for (uint64_t x = 0; !rc && x < a.w; x++)
			rc = wl_icheck(c, "pixel", y * a.w + x,
				       out[y * a.w + x],
				       hp_mandel_pixel(&a, x, y));
	c->compared = a.len;
	return rc;
}

const workload workload_mandelbrot = {
	.name = "mandelbrot",
	.help = "iterations on --global W,H, --arg max_iter=128 (61,47, "
		"local 8,8); exact",
	.prepare = mandelbrot_prepare,
	.check = mandelbrot_check,
	.split = {.outputs = 1u, .dim = 1},
};
