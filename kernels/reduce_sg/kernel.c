// SPDX-License-Identifier: MIT
/* reduce_sg: sums of int32 (wrapping), per sub-group with one atomic
 * each. */
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
HP_REGISTER(reduce_sg, .uses_barriers = true,
	    .args_size = sizeof(hp_reduce_sg_args),
	    HP_BUFFERS(HP_BUF(hp_reduce_sg_args, in, int32_t, ARG,
			      offsetof(hp_reduce_sg_args, n)),
		       HP_BUF(hp_reduce_sg_args, sum, int32_t, FIXED, 1)));
