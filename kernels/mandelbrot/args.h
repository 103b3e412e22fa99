/* SPDX-License-Identifier: MIT */
/* The argument block of mandelbrot (docs/kernels.md; every library kernel's
 * block is collected in <hartpool/kernels/lib.h>). */
#ifndef KERNELS_MANDELBROT_ARGS_H
#define KERNELS_MANDELBROT_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * mandelbrot: out[y][x] = iterations of z = z^2 + c from z = 0 until
 * |z|^2 > 4 or max_iter, with c = (x0 + x*dx, y0 + y*dy) (float). 2-D range
 * (w, h) or larger. Work per item ranges from 1 to max_iter iterations.
 */
typedef struct {
	uint64_t out; /**< uint32_t[w*h] */
	uint64_t len; /**< w*h */
	uint64_t w, h;
	uint64_t max_iter;
	float x0, y0, dx, dy;
} hp_mandelbrot_args;

/* GCC contracts a*b + c into a fused multiply-add where the ISA has one
 * (RV64's F), clang within expressions: mandelbrot's counts must be the
 * same on every ISA and on the host, so its arithmetic is never fused. */
#if defined(__clang__)
#define HP_NO_FP_CONTRACT __attribute__((unused, noinline))
#define HP_NO_FP_CONTRACT_BODY _Pragma("clang fp contract(off)")
#else
#define HP_NO_FP_CONTRACT                                                      \
	__attribute__((unused, noinline, optimize("fp-contract=off")))
#define HP_NO_FP_CONTRACT_BODY
#endif

/** Mandelbrot iterations of pixel (x, y): the kernel and the host
 * reference both call this. */
static HP_NO_FP_CONTRACT __attribute__((pure)) uint32_t
hp_mandel_pixel(const hp_mandelbrot_args *a, uint64_t x, uint64_t y)
{
	HP_NO_FP_CONTRACT_BODY
	float cr = a->x0 + (float)x * a->dx;
	float ci = a->y0 + (float)y * a->dy;
	float zr = 0.0f, zi = 0.0f;
	uint32_t max =
		a->max_iter < UINT32_MAX ? (uint32_t)a->max_iter : UINT32_MAX;
	uint32_t n = 0;
	while (n < max) {
		float zr2 = zr * zr, zi2 = zi * zi;
		if (zr2 + zi2 > 4.0f)
			break;
		zi = 2.0f * zr * zi + ci;
		zr = zr2 - zi2 + cr;
		n++;
	}
	return n;
}

#endif
