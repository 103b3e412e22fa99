// SPDX-License-Identifier: MIT
/* vadd and saxpy: one element per work-item, guarded by n so any 1-D range
 * of at least n items works. */
#include "lib.h"
#include <hartpool/kernel.h>

HP_KERNEL(vadd, const hp_item *it, const void *args)
{
	const hp_vadd_args *a = args;
	size_t i = hp_global_id(it, 0);
	if (i >= a->n)
		return;
	((float *)(uintptr_t)a->c)[i] = ((const float *)(uintptr_t)a->a)[i] +
					((const float *)(uintptr_t)a->b)[i];
}
HP_REGISTER(vadd, .args_size = sizeof(hp_vadd_args),
	    HP_BUFFERS(HP_BUF(hp_vadd_args, a, float, ARG,
			      offsetof(hp_vadd_args, n)),
		       HP_BUF(hp_vadd_args, b, float, ARG,
			      offsetof(hp_vadd_args, n)),
		       HP_BUF(hp_vadd_args, c, float, ARG,
			      offsetof(hp_vadd_args, n))));

HP_KERNEL(saxpy, const hp_item *it, const void *args)
{
	const hp_saxpy_args *a = args;
	size_t i = hp_global_id(it, 0);
	if (i >= a->n)
		return;
	float *y = (float *)(uintptr_t)a->y + i;
	*y = a->a * ((const float *)(uintptr_t)a->x)[i] + *y;
}
HP_REGISTER(saxpy, .args_size = sizeof(hp_saxpy_args),
	    HP_BUFFERS(HP_BUF(hp_saxpy_args, x, float, ARG,
			      offsetof(hp_saxpy_args, n)),
		       HP_BUF(hp_saxpy_args, y, float, ARG,
			      offsetof(hp_saxpy_args, n))));
