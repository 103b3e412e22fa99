// SPDX-License-Identifier: MIT
/* vadd and saxpy: one element per work-item, guarded by n so any 1-D range
 * of at least n items works. The arguments are read before the guard: the
 * row loop then keeps them in registers (the compiler does not hoist loads
 * out of a branch), 8 instructions per element instead of 15. */
#include <hartpool/kernel.h>
#include <hartpool/kernels/lib.h>

HP_KERNEL(vadd, const hp_item *it, const void *args)
{
	const hp_vadd_args *a = args;
	const float *x = (const float *)(uintptr_t)a->a;
	const float *y = (const float *)(uintptr_t)a->b;
	float *z = (float *)(uintptr_t)a->c;
	size_t i = hp_global_id(it, 0);
	if (i < a->n)
		z[i] = x[i] + y[i];
}
HP_REGISTER(vadd, .uses_fpu = true, .args_size = sizeof(hp_vadd_args),
	    HP_BUFFERS(HP_BUF(hp_vadd_args, a, float, ARG,
			      offsetof(hp_vadd_args, n)),
		       HP_BUF(hp_vadd_args, b, float, ARG,
			      offsetof(hp_vadd_args, n)),
		       HP_BUF(hp_vadd_args, c, float, ARG,
			      offsetof(hp_vadd_args, n))));

HP_KERNEL(saxpy, const hp_item *it, const void *args)
{
	const hp_saxpy_args *a = args;
	const float *x = (const float *)(uintptr_t)a->x;
	float *y = (float *)(uintptr_t)a->y, s = a->a;
	size_t i = hp_global_id(it, 0);
	if (i < a->n)
		y[i] = s * x[i] + y[i];
}
HP_REGISTER(saxpy, .uses_fpu = true, .args_size = sizeof(hp_saxpy_args),
	    HP_BUFFERS(HP_BUF(hp_saxpy_args, x, float, ARG,
			      offsetof(hp_saxpy_args, n)),
		       HP_BUF(hp_saxpy_args, y, float, ARG,
			      offsetof(hp_saxpy_args, n))));
