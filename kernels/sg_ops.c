// SPDX-License-Identifier: MIT
/* sg_ops: every sub-group function on the work-item's input, for every
 * type; results at out[glin][HP_SG_*] (include/hartpool/kernels/diag.h). */
#include <hartpool/kernel.h>
#include <hartpool/kernels/diag.h>
#include <string.h>

#define SG_ALL_OPS(tn, T, base)                                                \
	do {                                                                   \
		T x = (T)in;                                                   \
		unsigned n = hp_sub_group_size(it);                            \
		unsigned id = hp_sub_group_local_id(it);                       \
		T v[HP_SG_PER_TYPE] = {                                        \
			hp_sub_group_broadcast_##tn(it, x, 0),                 \
			hp_sub_group_broadcast_##tn(it, x, n - 1),             \
			hp_sub_group_shuffle_##tn(it, x, (id + 1) % n),        \
			hp_sub_group_reduce_add_##tn(it, x),                   \
			hp_sub_group_reduce_min_##tn(it, x),                   \
			hp_sub_group_reduce_max_##tn(it, x),                   \
			hp_sub_group_scan_inclusive_add_##tn(it, x),           \
			hp_sub_group_scan_inclusive_min_##tn(it, x),           \
			hp_sub_group_scan_inclusive_max_##tn(it, x),           \
			hp_sub_group_scan_exclusive_add_##tn(it, x),           \
			hp_sub_group_scan_exclusive_min_##tn(it, x),           \
			hp_sub_group_scan_exclusive_max_##tn(it, x),           \
		};                                                             \
		for (unsigned k = 0; k < HP_SG_PER_TYPE; k++) {                \
			uint64_t bits = 0;                                     \
			memcpy(&bits, &v[k], sizeof(T));                       \
			out[(base) + k] = bits;                                \
		}                                                              \
	} while (0)

HP_KERNEL(sg_ops, const hp_item *it, const void *args)
{
	const hp_sg_ops_args *a = args;
	size_t glin = hp_global_linear_id(it);
	int32_t in = ((const int32_t *)(uintptr_t)a->in)[glin];
	uint64_t *out = (uint64_t *)(uintptr_t)a->out + glin * HP_SG_OUTS;
	SG_ALL_OPS(int, int32_t, 0 * HP_SG_PER_TYPE);
	SG_ALL_OPS(uint, uint32_t, 1 * HP_SG_PER_TYPE);
	SG_ALL_OPS(long, int64_t, 2 * HP_SG_PER_TYPE);
	SG_ALL_OPS(ulong, uint64_t, 3 * HP_SG_PER_TYPE);
	SG_ALL_OPS(float, float, 4 * HP_SG_PER_TYPE);
	out[HP_SG_ANY] = hp_sub_group_any(it, in > 0);
	out[HP_SG_ALL] = hp_sub_group_all(it, in > 0);
	/* Sub-group barrier: every lane writes, meets, reads its neighbour
	 * through the shuffle-free path (local memory). */
	int32_t *lm = hp_local_mem(it);
	lm[hp_local_linear_id(it)] = in;
	hp_sub_group_barrier(it);
	size_t first = hp_local_linear_id(it) - hp_sub_group_local_id(it);
	unsigned n = hp_sub_group_size(it);
	out[HP_SG_BARRIER] = (uint64_t)(int64_t)
		lm[first + (hp_sub_group_local_id(it) + 1) % n];
}
HP_REGISTER(sg_ops, .uses_barriers = true, .uses_fpu = true,
	    .local_mem_bytes = 256 * sizeof(int32_t), .stack_bytes = 2048,
	    .args_size = sizeof(hp_sg_ops_args),
	    HP_BUFFERS(HP_BUF(hp_sg_ops_args, in, int32_t, ITEMS, 0),
		       HP_BUF(hp_sg_ops_args, out, hp_sg_record, ITEMS, 0)));
