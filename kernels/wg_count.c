// SPDX-License-Identifier: MIT
/* wg_count: work-items count themselves with a local atomic counter per
 * work-group (so partial groups report their real size) and with a global
 * atomic counter. */
#include <hartpool/kernel.h>
#include <hartpool/kernels/diag.h>

HP_KERNEL(wg_count, const hp_item *it, const void *args)
{
	const hp_wg_count_args *a = args;
	uint32_t *count = hp_local_mem(it);
	if (hp_local_linear_id(it) == 0)
		*count = 0;
	hp_barrier(it);
	hp_atomic_add_uint(count, 1);
	hp_atomic_add_uint((uint32_t *)(uintptr_t)a->total, 1);
	hp_barrier(it);
	if (hp_local_linear_id(it) == 0) {
		size_t g = hp_group_id(it, 0) +
			   hp_num_groups(it, 0) *
				   (hp_group_id(it, 1) +
				    hp_num_groups(it, 1) * hp_group_id(it, 2));
		((uint32_t *)(uintptr_t)a->per_group)[g] = *count;
	}
}
HP_REGISTER(wg_count, .uses_barriers = true,
	    .local_mem_bytes = sizeof(uint32_t),
	    .args_size = sizeof(hp_wg_count_args),
	    HP_BUFFERS(HP_BUF(hp_wg_count_args, per_group, uint32_t, GROUPS, 0),
		       HP_BUF(hp_wg_count_args, total, uint32_t, FIXED, 1)));
