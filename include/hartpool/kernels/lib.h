/* SPDX-License-Identifier: MIT */
/*
 * Argument blocks of the kernel library (docs/kernels.md).
 *
 * Filling them: every buffer is a device address as uint64_t (on the
 * firmware, `(uint64_t)(uintptr_t)pointer`), every size a uint64_t, so host
 * and firmware of any XLEN agree. The `*_len` fields are the element counts
 * the buffers span: the mailbox checks each buffer against them before a
 * launch, and a kernel whose shape fields (w, h, m, n, k) need more than
 * that does nothing. Sizes follow the buffers, not the NDRange: every
 * kernel guards its items, so a range larger than the data is fine, and
 * remainder work-groups need nothing special. Ranges use the global ids as
 * indices (no --offset).
 *
 * A firmware-side benchmark launches them like any command: an exec_cmd
 * with .kernel = &hp_kernel_NAME, .args = &the struct, .args_size =
 * sizeof(the struct) and the range below; the multi-launch kernels
 * (reduce_wg, scan, bitonic) as the sequences described here, on an
 * in-order queue.
 */
#ifndef KERNELS_LIB_H
#define KERNELS_LIB_H

#include <stdbool.h>
#include <stdint.h>

/** vadd: c[i] = a[i] + b[i] (float) for every work-item i of a 1-D range
 * of n items (the buffers span the range: no guard on n). */
typedef struct {
	uint64_t a, b, c; /**< float[n] */
	uint64_t n;
} hp_vadd_args;

/** saxpy: y[i] = a * x[i] + y[i] (float), in place, for every work-item i
 * of a 1-D range of n items (the buffers span the range). */
typedef struct {
	uint64_t x, y; /**< float[n] */
	uint64_t n;
	float a;
	uint32_t reserved; /**< 0 */
} hp_saxpy_args;

/**
 * sgemm_naive, sgemm_tiled: C = A * B (float, row-major): A is m x k, B
 * k x n, C m x n. 2-D range (n, m) or larger: dimension 0 is the column of
 * C, dimension 1 the row. Each item sums its k products in order k = 0, 1,
 * ..., so both kernels give the same bits. sgemm_tiled stages tiles of
 * HP_SGEMM_TILE k-values in local memory: any local size (up to 256 items)
 * works, an 8x8 or 16x16 one is the usual choice.
 */
typedef struct {
	uint64_t a, b, c;
	uint64_t a_len, b_len, c_len; /**< m*k, k*n, m*n */
	uint64_t m, n, k;
} hp_sgemm_args;
#define HP_SGEMM_TILE 8u

/**
 * reduce_wg: out[group] = sum of in[i] over the group's items i < n
 * (int32, wrapping), by a tree in local memory. 1-D range >= n with the
 * local size L (<= 256) given. To sum n values: launch over n items into
 * partials p0[ceil(n/L)], then over those into p1, ... until one group is
 * left; its partial is the sum.
 */
typedef struct {
	uint64_t in;  /**< int32_t[n] */
	uint64_t out; /**< int32_t[groups] */
	uint64_t n;
} hp_reduce_wg_args;

/**
 * reduce_sg: *sum += sum of in[i], i < n (int32, wrapping): each sub-group
 * reduces with hp_sub_group_reduce_add_int, its first item adds the result
 * to *sum with one atomic. Zero *sum first; one launch, 1-D range >= n.
 */
typedef struct {
	uint64_t in;  /**< int32_t[n] */
	uint64_t sum; /**< int32_t, zeroed by the caller */
	uint64_t n;
} hp_reduce_sg_args;

/**
 * scan: out[i] = in[0] + ... + in[i] within each work-group (inclusive,
 * int32, wrapping) and sums[group] = the group's total. scan_add:
 * data[i] += sums[group - 1] for groups > 0. Both 1-D over n items with the
 * same local size L (2..256, given). The whole-array scan:
 *   scan(in -> out, sums0), then if ceil(n/L) > 1: the whole-array scan
 *   of sums0 in place (in = out = sums0, sums1, ...), then
 *   scan_add(out, sums0).
 * in == out is allowed.
 */
typedef struct {
	uint64_t in, out; /**< int32_t[n] */
	uint64_t sums;	  /**< int32_t[groups] */
	uint64_t n;
} hp_scan_args;
typedef struct {
	uint64_t data; /**< int32_t[n] */
	uint64_t sums; /**< int32_t[groups], inclusive-scanned */
	uint64_t n;
} hp_scan_add_args;

/**
 * histogram: bins[v] += number of bytes data[i] == v, i < n (256 bins):
 * every work-group counts into local memory with local atomics, then adds
 * its non-zero bins to the global ones with global atomics. Any range:
 * the work-items stride over the data by the number of work-items. Zero
 * bins first.
 */
typedef struct {
	uint64_t data; /**< uint8_t[n] */
	uint64_t bins; /**< uint32_t[256], zeroed by the caller */
	uint64_t n;
} hp_histogram_args;

/**
 * transpose: out[x][y] = in[y][x]; in is h rows of w floats, out w rows of
 * h. 2-D range (w, h) or larger; each work-group moves its block through
 * a tile in local memory (any local shape up to 256 items).
 */
typedef struct {
	uint64_t in, out; /**< float[w*h] */
	uint64_t len;	  /**< w*h */
	uint64_t w, h;
} hp_transpose_args;

/**
 * conv2d: out[y][x] = sum over dy, dx in [-r, r] of
 * weights[(dy+r)*(2r+1) + dx+r] * in[clamp(y+dy)][clamp(x+dx)] (float,
 * edges clamped; sums in that order). r is 1 (3x3) or 2 (5x5). 2-D range
 * (w, h) or larger.
 */
typedef struct {
	uint64_t in, out; /**< float[w*h] */
	uint64_t len;	  /**< w*h */
	uint64_t w, h;
	uint64_t r;
	float weights[25]; /**< the first (2r+1)^2 are used */
	uint32_t reserved; /**< 0 */
} hp_conv2d_args;
#define HP_CONV2D_MAX_R 2u

/**
 * bitonic: one pass of a bitonic sort of uint32 keys, ascending: the
 * pairs (lo, lo + j) of the stage of block size k compare-and-swap. n is a
 * power of two (pad with 0xffffffff), the range n/2 items (1-D). The
 * sort: for k = 2, 4, ..., n: for j = k/2, k/4, ..., 1: one launch.
 */
typedef struct {
	uint64_t data; /**< uint32_t[n] */
	uint64_t n;
	uint64_t k, j;
} hp_bitonic_args;

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

/** @p v, as a value the compiler cannot look into: a bound folded from
 * several checks stays one value (one compare per item in a row loop)
 * instead of being split back into a branch per check. */
static inline size_t hp_lib_opaque(size_t v)
{
	__asm__("" : "+r"(v));
	return v;
}

/** a * b <= len, without overflow (shape fields against buffer spans). */
static inline bool hp_lib_fits(uint64_t a, uint64_t b, uint64_t len)
{
	uint64_t p;
	return !__builtin_mul_overflow(a, b, &p) && p <= len;
}

#endif
