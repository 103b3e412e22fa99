// SPDX-License-Identifier: MIT
/* saxpy: one element per work-item over the whole 1-D range, no guard on
 * n, as vadd (kernels/vadd/kernel.c says why). */
#include "../lib_rvv.h"
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
#define SAXPY_ATTRS_                                                           \
	.uses_fpu = true, .args_size = sizeof(hp_saxpy_args),                  \
	HP_BUFFERS(HP_BUF(hp_saxpy_args, x, float, ITEMS, 0),                  \
		   HP_BUF(hp_saxpy_args, y, float, ITEMS, 0))
#ifdef __riscv_vector
/* With V: as vadd's (kernels/vadd/kernel.c). */
static void saxpy_row_v(const hp_item *it, const void *args, size_t n)
{
	if (!it->g->l->vector_bytes) {
		hp_krow_saxpy(it, args, n);
		return;
	}
	const hp_saxpy_args *a = args;
	size_t i = hp_global_linear_id(it);
	hp_rvv_saxpy(HP_PTR(float, a->y) + i, HP_PTR(const float, a->x) + i,
		     a->a, n);
}
HP_REGISTER_ROW(saxpy, saxpy_row_v, .row_spans_groups = true, SAXPY_ATTRS_);
#else
HP_REGISTER(saxpy, SAXPY_ATTRS_);
#endif
