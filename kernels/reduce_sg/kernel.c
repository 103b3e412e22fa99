// SPDX-License-Identifier: MIT
/* reduce_sg: sums of int32 (wrapping), per sub-group with one atomic
 * each. */
#include "../lib_rvv.h"
#include "args.h"
#include <hartpool/kernel.h>
#include <stddef.h>

HP_KERNEL(reduce_sg, const hp_item *it, const void *args)
{
	const hp_reduce_sg_args *a = args;
	size_t i = hp_global_id(it, 0);
	int32_t v = i < a->n ? ((const int32_t *)(uintptr_t)a->in)[i] : 0;
	int32_t s = hp_sub_group_reduce_add_int(it, v);
	if (hp_sub_group_local_id(it) == 0)
		hp_atomic_add_int((int32_t *)(uintptr_t)a->sum, s);
}
#define REDUCE_SG_ATTRS_                                                       \
	.uses_barriers = true, .args_size = sizeof(hp_reduce_sg_args),         \
	HP_BUFFERS(HP_BUF(hp_reduce_sg_args, in, int32_t, ARG,                 \
			  offsetof(hp_reduce_sg_args, n)),                     \
		   HP_BUF(hp_reduce_sg_args, sum, int32_t, FIXED, 1))
#ifdef __riscv_vector
/* With V: a work-group function (row_is_group) with each sub-group's
 * sum one vector reduction and one atomic, as the kernel above does it
 * with a fiber per item; sub-groups are runs of local linear ids, so in a
 * group of more than one row an item's element is its row's first plus
 * its local x. */
static void reduce_sg_group_v(const hp_item *it, const void *args, size_t n)
{
	const hp_reduce_sg_args *a = args;
	const hp_group *g = it->g;
	const int32_t *in = HP_PTR(const int32_t, a->in);
	int32_t *out = HP_PTR(int32_t, a->sum);
	size_t s = g->l->sub_group_size, lx = g->local_size[0],
	       base = it->global_id[0], lim = a->n;
	bool rows = lx != n || !g->l->vector_bytes;
	for (size_t f = 0; f < n; f += s) {
		size_t k = n - f < s ? n - f : s;
		int32_t sum = 0;
		if (rows) {
			for (size_t q = f; q < f + k; q++) {
				size_t i = base + q % lx;
				if (i < lim)
					sum = (int32_t)((uint32_t)sum +
							(uint32_t)in[i]);
			}
		} else if (base + f < lim) {
			size_t left = lim - (base + f);
			sum = hp_rvv_isum(in + base + f, left < k ? left : k);
		}
		hp_atomic_add_int(out, sum);
	}
}
HP_REGISTER_ROW(reduce_sg, reduce_sg_group_v, .row_is_group = true,
		REDUCE_SG_ATTRS_);
#else
HP_REGISTER(reduce_sg, REDUCE_SG_ATTRS_);
#endif
