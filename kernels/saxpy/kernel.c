// SPDX-License-Identifier: MIT
/* saxpy: one element per work-item over the whole 1-D range, no guard on
 * n, as vadd (kernels/vadd/kernel.c says why). */
#include "args.h"
#include <hartpool/kernel.h>

HP_KERNEL(saxpy, const hp_item *it, const void *args)
{
	const hp_saxpy_args *a = args;
	const float *x = (const float *)(uintptr_t)a->x;
	float *y = (float *)(uintptr_t)a->y, s = a->a;
	size_t i = hp_global_linear_id(it);
	y[i] = s * x[i] + y[i];
}
HP_REGISTER(saxpy, .uses_fpu = true, .args_size = sizeof(hp_saxpy_args),
	    HP_BUFFERS(HP_BUF(hp_saxpy_args, x, float, ITEMS, 0),
		       HP_BUF(hp_saxpy_args, y, float, ITEMS, 0)));
