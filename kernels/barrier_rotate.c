// SPDX-License-Identifier: MIT
/* barrier_rotate: each work-item writes its local linear id to local
 * memory, waits at the work-group barrier, then reads its successor's value
 * (wrapping within the actual group size) and writes it out. Wrong if any
 * item reads before all have written. */
#include <hartpool/kernel.h>
#include <hartpool/kernels/diag.h>

HP_KERNEL(barrier_rotate, const hp_item *it, const void *args)
{
	const hp_barrier_rotate_args *a = args;
	uint32_t *lm = hp_local_mem(it);
	size_t me = hp_local_linear_id(it);
	size_t n = hp_local_size(it, 0) * hp_local_size(it, 1) *
		   hp_local_size(it, 2);
	lm[me] = (uint32_t)me;
	hp_barrier(it);
	uint32_t v = lm[(me + 1) % n];
	((uint32_t *)(uintptr_t)a->out)[hp_global_linear_id(it)] = v;
}
HP_REGISTER(barrier_rotate, .uses_barriers = true,
	    .local_mem_bytes = 256 * sizeof(uint32_t),
	    .args_size = sizeof(hp_barrier_rotate_args),
	    HP_BUFFERS(HP_BUF(hp_barrier_rotate_args, out, uint32_t, ITEMS,
			      0)));
