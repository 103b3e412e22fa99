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
HP_REGISTER(histogram, .uses_barriers = true,
	    .local_mem_bytes = 256 * sizeof(uint32_t),
	    .args_size = sizeof(hp_histogram_args),
	    HP_BUFFERS(HP_BUF(hp_histogram_args, data, uint8_t, ARG,
			      offsetof(hp_histogram_args, n)),
		       HP_BUF(hp_histogram_args, bins, uint32_t, FIXED, 256)));
