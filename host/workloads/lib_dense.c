// SPDX-License-Identifier: MIT
/*
 * Workloads of the kernel library's element-wise and dense kernels
 * (include/hartpool/kernels/lib.h, docs/kernels.md): vadd, saxpy, sgemm,
 * transpose, conv2d, mandelbrot; test data and host references.
 */
#include "lib_common.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- vadd, saxpy ---- */

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
static void vadd_rebase(void *args, uint64_t items)
{
	hp_vadd_args *a = args;
	a->a += items * sizeof(float);
	a->b += items * sizeof(float);
	a->c += items * sizeof(float);
}

static void saxpy_rebase(void *args, uint64_t items)
{
	hp_saxpy_args *a = args;
	a->x += items * sizeof(float);
	a->y += items * sizeof(float);
}

/* ---- sgemm ---- */

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

/* ---- transpose ---- */

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

/* ---- conv2d ---- */

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

/* ---- mandelbrot ---- */

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

/* ---- the table entries ---- */

const workload workload_vadd = {
	.name = "vadd",
	.help = "float c = a + b, n = --global (1000, local 64); exact",
	.prepare = vadd_prepare,
	.check = vadd_check,
	.split = {.outputs = 1u << 2,
		  .dim = WORKLOAD_OUTERMOST,
		  .rebase = vadd_rebase},
};
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
const workload workload_transpose = {
	.name = "transpose",
	.help = "--global W,H floats through a local-memory tile (37,29, "
		"local 8,8); exact",
	.prepare = transpose_prepare,
	.check = transpose_check,
	/* a column slab of in is a row slab of out */
	.split = {.outputs = 1u << 1, .dim = 0},
};
const workload workload_conv2d = {
	.name = "conv2d",
	.help = "--arg r=1|2: 3x3|5x5 stencil, clamped edges (37,29, local "
		"8,8); |err| <= (T+2) 2^-23 sum|w p|",
	.prepare = conv2d_prepare,
	.check = conv2d_check,
	.split = {.outputs = 1u << 1, .dim = 1},
};
const workload workload_mandelbrot = {
	.name = "mandelbrot",
	.help = "iterations on --global W,H, --arg max_iter=128 (61,47, "
		"local 8,8); exact",
	.prepare = mandelbrot_prepare,
	.check = mandelbrot_check,
	.split = {.outputs = 1u, .dim = 1},
};
