// SPDX-License-Identifier: MIT
/*
 * Writable globals in a kernel object: an initialised table, a pointer
 * into it, a pointer to a string and a counter. Every loaded copy of the
 * object has its own, in its session's memory, kept from one launch to
 * the next (docs/kernel-objects.md).
 *
 *   hartpool build examples/globals.c -o globals.hpk
 *   hartpool run --kernel-file globals.hpk tally --global 8 \
 *           --karg buf:u32:8 --print
 *
 * prints 133 135 137 141 133 135 137 141: weights[i % 4] + *heaviest +
 * label[0] ('w', 119).
 */
#include <hartpool/kernel.h>

static uint32_t seen;		     /* work-items of every tally so far */
uint32_t weights[4] = {3, 5, 7, 11}; /* initialised */
uint32_t *heaviest = &weights[3];    /* a pointer into the data */
const char *label = "w";	     /* a pointer to read-only data */

struct out_args {
	uint64_t out; /* uint32_t[] */
};

HP_KERNEL(tally, const hp_item *it, const void *args)
{
	const struct out_args *a = args;
	uint32_t *out = HP_PTR(uint32_t, a->out);
	size_t i = hp_global_id(it, 0);
	__atomic_fetch_add(&seen, 1, __ATOMIC_RELAXED);
	out[i] = weights[i % 4] + *heaviest + (uint32_t)label[0];
}
HP_REGISTER(tally, .args_size = sizeof(struct out_args),
	    HP_BUFFERS(HP_BUF(struct out_args, out, uint32_t, ITEMS, 0)));

/* out[0]: how many work-items the tallies of this copy have run */
HP_KERNEL(count, const hp_item *it, const void *args)
{
	const struct out_args *a = args;
	uint32_t *out = HP_PTR(uint32_t, a->out);
	if (hp_global_id(it, 0) == 0)
		out[0] = __atomic_load_n(&seen, __ATOMIC_RELAXED);
}
HP_REGISTER(count, .args_size = sizeof(struct out_args),
	    HP_BUFFERS(HP_BUF(struct out_args, out, uint32_t, ITEMS, 0)));

/* weights[i] += 1 for the first four work-items */
HP_KERNEL(bump, const hp_item *it, const void *args)
{
	(void)args;
	size_t i = hp_global_id(it, 0);
	if (i < 4)
		weights[i] += 1;
}
HP_REGISTER(bump);
