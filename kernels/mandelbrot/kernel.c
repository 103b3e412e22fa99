// SPDX-License-Identifier: MIT
/* mandelbrot: iteration counts, from 1 to max_iter per item, so the
 * work-groups inside the set cost far more than those outside (a test of
 * load balancing). The arithmetic is hp_mandel_pixel in args.h, shared
 * with the host reference. */
#include "args.h"
#include <hartpool/kernel.h>
#include <kernels/lib_util.h>

/* The checks that are the same along a row fold into one bound, `lim`
 * (w, or 0 when the row is outside or the shape does not fit the buffer):
 * one compare per item in the row loop, as in sgemm_naive. The shape
 * fitting the buffer also keeps w within size_t on rv32. The output
 * pointer is read before the call, so the row loop keeps it in a
 * register. */
HP_KERNEL(mandelbrot, const hp_item *it, const void *args)
{
	const hp_mandelbrot_args *a = args;
	size_t x = hp_global_id(it, 0), y = hp_global_id(it, 1);
	size_t lim = hp_lib_opaque(
		(size_t)a->w &
		-(size_t)((y < a->h) & hp_lib_fits(a->w, a->h, a->len)));
	uint32_t *out = (uint32_t *)(uintptr_t)a->out;
	if (x >= lim)
		return;
	out[y * (size_t)a->w + x] = hp_mandel_pixel(a, x, y);
}
HP_REGISTER(mandelbrot, .uses_fpu = true,
	    .args_size = sizeof(hp_mandelbrot_args),
	    HP_BUFFERS(HP_BUF(hp_mandelbrot_args, out, uint32_t, ARG,
			      offsetof(hp_mandelbrot_args, len))));
