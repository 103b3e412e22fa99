// SPDX-License-Identifier: MIT
/* conv2d: a 3x3 or 5x5 stencil with clamped edges, weights in the
 * argument block (the equivalent of OpenCL constant memory). */
#include "args.h"
#include <hartpool/kernel.h>
#include <kernels/lib_util.h>

HP_KERNEL(conv2d, const hp_item *it, const void *args)
{
	const hp_conv2d_args *a = args;
	size_t x = hp_global_id(it, 0), y = hp_global_id(it, 1);
	if (x >= a->w || y >= a->h || a->r < 1 || a->r > HP_CONV2D_MAX_R ||
	    !hp_lib_fits(a->w, a->h, a->len))
		return;
	long w = (long)a->w, h = (long)a->h, r = (long)a->r;
	const float *in = (const float *)(uintptr_t)a->in;
	const float *wt = a->weights;
	float acc = 0.0f;
	for (long dy = -r; dy <= r; dy++) {
		long yy = (long)y + dy;
		yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
		const float *row = in + yy * w;
		for (long dx = -r; dx <= r; dx++) {
			long xx = (long)x + dx;
			xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
			acc += *wt++ * row[xx];
		}
	}
	((float *)(uintptr_t)a->out)[y * (size_t)w + x] = acc;
}
HP_REGISTER(conv2d, .uses_fpu = true, .args_size = sizeof(hp_conv2d_args),
	    HP_BUFFERS(HP_BUF(hp_conv2d_args, in, float, ARG,
			      offsetof(hp_conv2d_args, len)),
		       HP_BUF(hp_conv2d_args, out, float, ARG,
			      offsetof(hp_conv2d_args, len))));
