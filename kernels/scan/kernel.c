// SPDX-License-Identifier: MIT
/* scan and scan_add: the two kernels of an inclusive prefix sum of int32
 * over a whole array (the sequence is in args.h). Sums
 * wrap. */
#include "../lib_rvv.h"
#include "args.h"
#include <hartpool/kernel.h>

/*
 * Within a work-group: Hillis-Steele over two buffers in local memory,
 * one barrier per step (log2 of the group size steps). Each step reads one
 * buffer and writes the other, so no item overwrites a value another item
 * still has to read in that step. Each item reads in[i] before it writes
 * out[i], and no other item touches i, so in == out works.
 */
HP_KERNEL(scan, const hp_item *it, const void *args)
{
	const hp_scan_args *a = args;
	size_t i = hp_global_id(it, 0), me = hp_local_id(it, 0);
	size_t size = hp_local_size(it, 0);
	uint32_t *src = hp_local_mem(it);
	uint32_t *dst = src + hp_enqueued_local_size(it, 0);
	src[me] =
		i < a->n ? (uint32_t)((const int32_t *)(uintptr_t)a->in)[i] : 0;
	for (size_t d = 1; d < size; d *= 2) {
		hp_barrier(it);
		dst[me] = me >= d ? src[me] + src[me - d] : src[me];
		uint32_t *t = src;
		src = dst;
		dst = t;
	}
	if (i < a->n)
		((int32_t *)(uintptr_t)a->out)[i] = (int32_t)src[me];
	if (me == size - 1)
		((int32_t *)(uintptr_t)a->sums)[hp_group_id(it, 0)] =
			(int32_t)src[me];
}
#define SCAN_ATTRS_                                                            \
	.uses_barriers = true, .local_mem_bytes = 2 * 256 * sizeof(uint32_t),  \
	.args_size = sizeof(hp_scan_args),                                     \
	HP_BUFFERS(HP_BUF(hp_scan_args, in, int32_t, ARG,                      \
			  offsetof(hp_scan_args, n)),                          \
		   HP_BUF(hp_scan_args, out, int32_t, ARG,                     \
			  offsetof(hp_scan_args, n)),                          \
		   HP_BUF(hp_scan_args, sums, int32_t, GROUPS, 0))
#ifdef __riscv_vector
/* With V: a work-group function (row_is_group), the group's elements one
 * prefix sum in vector registers (integer sums wrap, so the order of the
 * adds does not change them), the items past n adding 0 as above; every
 * row of a group in more dimensions scans the same elements, so the first
 * does it. Where the harts keep V off, the same sums in a scalar loop. */
static void scan_group_v(const hp_item *it, const void *args, size_t items)
{
	const hp_scan_args *a = args;
	size_t i0 = hp_global_id(it, 0), sx = it->g->local_size[0];
	size_t k = i0 < a->n ? (a->n - i0 < sx ? a->n - i0 : sx) : 0;
	const int32_t *in = HP_PTR(const int32_t, a->in) + i0;
	int32_t *out = HP_PTR(int32_t, a->out) + i0;
	uint32_t sum = 0;
	(void)items;
	if (it->g->l->vector_bytes)
		sum = (uint32_t)hp_rvv_iscan(out, in, k, 0);
	else
		for (size_t q = 0; q < k; q++)
			out[q] = (int32_t)(sum += (uint32_t)in[q]);
	HP_PTR(int32_t, a->sums)[hp_group_id(it, 0)] = (int32_t)sum;
}
HP_REGISTER_ROW(scan, scan_group_v, .row_is_group = true, SCAN_ATTRS_);
#else
HP_REGISTER(scan, SCAN_ATTRS_);
#endif

HP_KERNEL(scan_add, const hp_item *it, const void *args)
{
	const hp_scan_add_args *a = args;
	size_t i = hp_global_id(it, 0), g = hp_group_id(it, 0);
	if (i >= a->n || g == 0)
		return;
	int32_t *p = (int32_t *)(uintptr_t)a->data + i;
	*p = (int32_t)((uint32_t)*p +
		       (uint32_t)((const int32_t *)(uintptr_t)a->sums)[g - 1]);
}
#define SCAN_ADD_ATTRS_                                                        \
	.args_size = sizeof(hp_scan_add_args),                                 \
	HP_BUFFERS(HP_BUF(hp_scan_add_args, data, int32_t, ARG,                \
			  offsetof(hp_scan_add_args, n)),                      \
		   HP_BUF(hp_scan_add_args, sums, int32_t, GROUPS, 0))
#ifdef __riscv_vector
/* With V: a group's row as one vector add of its group's carry. */
static void scan_add_row_v(const hp_item *it, const void *args, size_t n)
{
	const hp_scan_add_args *a = args;
	size_t i = hp_global_id(it, 0), g = hp_group_id(it, 0);
	if (!it->g->l->vector_bytes) {
		hp_krow_scan_add(it, args, n);
		return;
	}
	if (i >= a->n || g == 0)
		return;
	hp_rvv_iaddx(HP_PTR(int32_t, a->data) + i,
		     HP_PTR(const int32_t, a->sums)[g - 1],
		     a->n - i < n ? a->n - i : n);
}
HP_REGISTER_ROW(scan_add, scan_add_row_v, SCAN_ADD_ATTRS_);
#else
HP_REGISTER(scan_add, SCAN_ADD_ATTRS_);
#endif
