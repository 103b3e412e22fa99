// SPDX-License-Identifier: MIT
/* histogram: 256 bins of bytes. Local atomics absorb the contention
 * within a work-group; global atomics then only see one add per bin and
 * group. */
#include "args.h"
#include <hartpool/kernel.h>

HP_KERNEL(histogram, const hp_item *it, const void *args)
{
	const hp_histogram_args *a = args;
	uint32_t *lh = hp_local_mem(it);
	size_t me = hp_local_linear_id(it);
	size_t items = hp_local_size(it, 0) * hp_local_size(it, 1) *
		       hp_local_size(it, 2);
	size_t all = hp_global_size(it, 0) * hp_global_size(it, 1) *
		     hp_global_size(it, 2);
	for (size_t b = me; b < 256; b += items)
		lh[b] = 0;
	hp_barrier(it);
	const uint8_t *data = (const uint8_t *)(uintptr_t)a->data;
	for (size_t i = hp_global_linear_id(it); i < a->n; i += all)
		hp_atomic_add_uint(&lh[data[i]], 1);
	hp_barrier(it);
	uint32_t *bins = (uint32_t *)(uintptr_t)a->bins;
	for (size_t b = me; b < 256; b += items)
		if (lh[b])
			hp_atomic_add_uint(&bins[b], lh[b]);
}
#define HISTOGRAM_ATTRS_                                                       \
	.uses_barriers = true, .local_mem_bytes = 256 * sizeof(uint32_t),      \
	.args_size = sizeof(hp_histogram_args),                                \
	HP_BUFFERS(HP_BUF(hp_histogram_args, data, uint8_t, ARG,               \
			  offsetof(hp_histogram_args, n)),                     \
		   HP_BUF(hp_histogram_args, bins, uint32_t, FIXED, 256))
#ifdef __riscv_vector
/* With V: a work-group function (row_is_group) counting the elements of
 * every item of the group, as above, in the group's local bins without
 * atomics (one hart runs the group), then adding them as above. The
 * counting stays scalar: a byte's increments conflict within a vector,
 * and RVV has no conflict detection; what V boards gain is the group
 * without a fiber per item. */
static void histogram_group_v(const hp_item *it, const void *args, size_t items)
{
	const hp_histogram_args *a = args;
	const hp_group *g = it->g;
	const hp_launch *l = g->l;
	uint32_t *lh = hp_local_mem(it);
	size_t all = l->global_size[0] * l->global_size[1] * l->global_size[2];
	const uint8_t *data = HP_PTR(const uint8_t, a->data);
	(void)items;
	for (size_t b = 0; b < 256; b++)
		lh[b] = 0;
	size_t x0 = it->global_id[0] - l->global_offset[0];
	size_t y0 = it->global_id[1] - l->global_offset[1];
	size_t z0 = it->global_id[2] - l->global_offset[2];
	for (size_t z = z0; z < z0 + g->local_size[2]; z++)
		for (size_t y = y0; y < y0 + g->local_size[1]; y++)
			for (size_t x = x0; x < x0 + g->local_size[0]; x++)
				for (size_t i =
					     x + (y + z * l->global_size[1]) *
							 l->global_size[0];
				     i < a->n; i += all)
					lh[data[i]]++;
	uint32_t *bins = HP_PTR(uint32_t, a->bins);
	for (size_t b = 0; b < 256; b++)
		if (lh[b])
			hp_atomic_add_uint(&bins[b], lh[b]);
}
HP_REGISTER_ROW(histogram, histogram_group_v, .row_is_group = true,
		HISTOGRAM_ATTRS_);
#else
HP_REGISTER(histogram, HISTOGRAM_ATTRS_);
#endif
