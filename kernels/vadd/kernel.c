// SPDX-License-Identifier: MIT
/* vadd (and saxpy, kernels/saxpy/): one element per work-item over the whole
 * 1-D range. No guard on n: the buffers span the NDRange (extent ITEMS, checked
 * by the mailbox before launch), so every work-item has its element, and the
 * row loop is the loads, the arithmetic and the store (OpenMP's loop body: a
 * guard would add a compare and keep the index alive, 10 instructions per
 * element instead of 8, and block the loop's unrolling). `n` is the count
 * the host used (the range's global size). */
#include "../lib_rvv.h"
#include "args.h"
#include <hartpool/kernel.h>

HP_KERNEL(vadd, const hp_item *it, const void *args)
{
	const hp_vadd_args *a = args;
	const float *x = (const float *)(uintptr_t)a->a;
	const float *y = (const float *)(uintptr_t)a->b;
	float *z = (float *)(uintptr_t)a->c;
	size_t i = hp_global_linear_id(it);
	z[i] = x[i] + y[i];
}
#define VADD_ATTRS_                                                            \
	.uses_fpu = true, .args_size = sizeof(hp_vadd_args),                   \
	HP_BUFFERS(HP_BUF(hp_vadd_args, a, float, ITEMS, 0),                   \
		   HP_BUF(hp_vadd_args, b, float, ITEMS, 0),                   \
		   HP_BUF(hp_vadd_args, c, float, ITEMS, 0))
#ifdef __riscv_vector
/* With V: the row, a chunk's groups in one call (row_spans_groups: vadd
 * reads only global ids), as one vector loop; the scalar row where the
 * harts keep V off. */
static void vadd_row_v(const hp_item *it, const void *args, size_t n)
{
	if (!it->g->l->vector_bytes) {
		hp_krow_vadd(it, args, n);
		return;
	}
	const hp_vadd_args *a = args;
	size_t i = hp_global_linear_id(it);
	hp_rvv_fadd(HP_PTR(float, a->c) + i, HP_PTR(const float, a->a) + i,
		    HP_PTR(const float, a->b) + i, n);
}
HP_REGISTER_ROW(vadd, vadd_row_v, .row_spans_groups = true, VADD_ATTRS_);
#else
HP_REGISTER(vadd, VADD_ATTRS_);
#endif
