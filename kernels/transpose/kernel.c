// SPDX-License-Identifier: MIT
/* transpose: through a tile in local memory, so that both the reads of a
 * work-group (rows of in) and its writes (rows of out) are runs of
 * consecutive addresses. */
#include "args.h"
#include <hartpool/kernel.h>
#include <kernels/lib_util.h>

/*
 * The group's block of in is sx x sy (its actual local size) at (x0, y0);
 * item (lx, ly) loads tile[ly][lx]. After the barrier the items cover the
 * transposed block, sy wide and sx tall, in linear order: item l writes
 * out row x0 + l / sy, column y0 + l % sy, which is in[y0 + l % sy]
 * [x0 + l / sy] = tile[l % sy][l / sy]. Any group shape works.
 */
HP_KERNEL(transpose, const hp_item *it, const void *args)
{
	const hp_transpose_args *a = args;
	if (!hp_lib_fits(a->w, a->h, a->len))
		return;
	size_t w = (size_t)a->w, h = (size_t)a->h;
	float *tile = hp_local_mem(it);
	size_t lx = hp_local_id(it, 0), ly = hp_local_id(it, 1);
	size_t sx = hp_local_size(it, 0), sy = hp_local_size(it, 1);
	size_t x = hp_global_id(it, 0), y = hp_global_id(it, 1);
	size_t x0 = x - lx, y0 = y - ly;
	if (x < w && y < h)
		tile[ly * sx + lx] =
			((const float *)(uintptr_t)a->in)[y * w + x];
	hp_barrier(it);
	size_t l = ly * sx + lx, ox = x0 + l / sy, oy = y0 + l % sy;
	if (ox < w && oy < h)
		((float *)(uintptr_t)a->out)[ox * h + oy] =
			tile[(l % sy) * sx + l / sy];
}
HP_REGISTER(transpose, .uses_barriers = true, .uses_fpu = true,
	    .local_mem_bytes = 256 * sizeof(float),
	    .args_size = sizeof(hp_transpose_args),
	    HP_BUFFERS(HP_BUF(hp_transpose_args, in, float, ARG,
			      offsetof(hp_transpose_args, len)),
		       HP_BUF(hp_transpose_args, out, float, ARG,
			      offsetof(hp_transpose_args, len))));
