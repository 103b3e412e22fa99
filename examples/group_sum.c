// SPDX-License-Identifier: MIT
/*
 * Sum of each work-group's inputs, through local memory and barriers (a
 * tree: log2(local size) steps), one result per group. Two kernels in one
 * object: the sum, and the same sum with a sub-group reduction.
 *
 *   hartpool build examples/group_sum.c -o group_sum.hpk
 *   hartpool run --kernel-file group_sum.hpk group_sum --global 256 \
 *           --local 64 --karg buf:u32:256:iota --karg buf:u32:4 --print
 */
#include <hartpool/kernel.h>

#define GROUP_MAX 256

struct group_sum_args {
	uint64_t in;  /* uint32_t[global size] */
	uint64_t out; /* uint32_t[number of groups] */
};

HP_KERNEL(group_sum, const hp_item *it, const void *args)
{
	const struct group_sum_args *a = args;
	uint32_t *part = hp_local_mem(it);
	size_t me = hp_local_id(it, 0), n = hp_local_size(it, 0);
	part[me] = HP_PTR(const uint32_t, a->in)[hp_global_id(it, 0)];
	/* Halve the active range until one sum is left; every item reaches
	 * every barrier. */
	size_t half = 1;
	while (half * 2 < n)
		half *= 2;
	for (; half; half /= 2) {
		hp_barrier(it);
		if (me < half && me + half < n)
			part[me] += part[me + half];
	}
	if (me == 0)
		HP_PTR(uint32_t, a->out)[hp_group_id(it, 0)] = part[0];
}
HP_REGISTER(group_sum, .uses_barriers = true, .max_work_group_size = GROUP_MAX,
	    .local_mem_bytes = GROUP_MAX * sizeof(uint32_t),
	    .args_size = sizeof(struct group_sum_args),
	    HP_BUFFERS(HP_BUF(struct group_sum_args, in, uint32_t, ITEMS, 0),
		       HP_BUF(struct group_sum_args, out, uint32_t, GROUPS,
			      0)));

/* The same sum: each sub-group reduces its lanes, lane 0 adds it in. */
HP_KERNEL(group_sum_sg, const hp_item *it, const void *args)
{
	const struct group_sum_args *a = args;
	uint32_t *sum = hp_local_mem(it);
	if (hp_local_linear_id(it) == 0)
		*sum = 0;
	hp_barrier(it);
	uint32_t x = HP_PTR(const uint32_t, a->in)[hp_global_id(it, 0)];
	uint32_t s = hp_sub_group_reduce_add_uint(it, x);
	if (hp_sub_group_local_id(it) == 0)
		hp_atomic_add_uint(sum, s);
	hp_barrier(it);
	if (hp_local_linear_id(it) == 0)
		HP_PTR(uint32_t, a->out)[hp_group_id(it, 0)] = *sum;
}
HP_REGISTER(group_sum_sg, .uses_barriers = true,
	    .local_mem_bytes = sizeof(uint32_t),
	    .args_size = sizeof(struct group_sum_args),
	    HP_BUFFERS(HP_BUF(struct group_sum_args, in, uint32_t, ITEMS, 0),
		       HP_BUF(struct group_sum_args, out, uint32_t, GROUPS,
			      0)));
