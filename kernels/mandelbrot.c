// SPDX-License-Identifier: MIT
/* mandelbrot: iteration counts, from 1 to max_iter per item, so the
 * work-groups inside the set cost far more than those outside (a test of
 * load balancing). The arithmetic is hp_mandel_pixel in lib.h, shared
 * with the host reference. */
#include <hartpool/kernel.h>
#include <hartpool/kernels/lib.h>

HP_KERNEL(mandelbrot, const hp_item *it, const void *args)
{
	const hp_mandelbrot_args *a = args;
	size_t x = hp_global_id(it, 0), y = hp_global_id(it, 1);
	if (x >= a->w || y >= a->h || !hp_lib_fits(a->w, a->h, a->len))
		return;
	((uint32_t *)(uintptr_t)a->out)[y * (size_t)a->w + x] =
		hp_mandel_pixel(a, x, y);
}
HP_REGISTER(mandelbrot, .uses_fpu = true,
	    .args_size = sizeof(hp_mandelbrot_args),
	    HP_BUFFERS(HP_BUF(hp_mandelbrot_args, out, uint32_t, ARG,
			      offsetof(hp_mandelbrot_args, len))));
