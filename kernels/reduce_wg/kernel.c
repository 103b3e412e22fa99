// SPDX-License-Identifier: MIT
/* reduce_wg: sums of int32 (wrapping), per work-group through local
 * memory. */
#include "args.h"
#include <hartpool/kernel.h>
#include <stddef.h>

/*
 * A tree in local memory: at each step the lower half of the active range
 * adds the upper half, log2(group size) barriers. Groups of any size
 * (remainder groups, sizes not a power of two) work because an item only
 * adds a partner that exists.
 */
HP_KERNEL(reduce_wg, const hp_item *it, const void *args)
{
	const hp_reduce_wg_args *a = args;
	uint32_t *lm = hp_local_mem(it);
	size_t i = hp_global_id(it, 0), me = hp_local_id(it, 0);
	size_t size = hp_local_size(it, 0);
	/* Unsigned: the sum wraps instead of overflowing. */
	lm[me] =
		i < a->n ? (uint32_t)((const int32_t *)(uintptr_t)a->in)[i] : 0;
	size_t half = 1;
	while (half * 2 < size)
		half *= 2;
	for (; half; half /= 2) {
		hp_barrier(it);
		if (me < half && me + half < size)
			lm[me] += lm[me + half];
	}
	if (me == 0)
		((int32_t *)(uintptr_t)a->out)[hp_group_id(it, 0)] =
			(int32_t)lm[0];
}
HP_REGISTER(reduce_wg, .uses_barriers = true,
	    .local_mem_bytes = 256 * sizeof(uint32_t),
	    .args_size = sizeof(hp_reduce_wg_args),
	    HP_BUFFERS(HP_BUF(hp_reduce_wg_args, in, int32_t, ARG,
			      offsetof(hp_reduce_wg_args, n)),
		       HP_BUF(hp_reduce_wg_args, out, int32_t, GROUPS, 0)));
