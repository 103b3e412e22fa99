// SPDX-License-Identifier: MIT
/* bitonic: one compare-and-swap pass of a bitonic sort per launch; the
 * host enqueues the passes in order (args.h). */
#include "args.h"
#include <hartpool/kernel.h>

/*
 * Item p handles the pair (lo, lo + j) where lo is p with a 0 bit
 * inserted at j's position; the pair sorts ascending when lo's bit k is 0
 * (its block of size k goes up), descending otherwise. j and k are powers
 * of two.
 */
HP_KERNEL(bitonic, const hp_item *it, const void *args)
{
	const hp_bitonic_args *a = args;
	size_t p = hp_global_id(it, 0);
	if ((size_t)a->n != a->n || p >= a->n / 2 || a->j == 0 || a->j >= a->n)
		return;
	size_t j = (size_t)a->j;
	size_t lo = ((p & ~(j - 1)) << 1) | (p & (j - 1)), hi = lo + j;
	if (hi >= a->n)
		return;
	uint32_t *d = (uint32_t *)(uintptr_t)a->data;
	uint32_t x = d[lo], y = d[hi];
	bool up = ((uint64_t)lo & a->k) == 0;
	if (up ? x > y : x < y) {
		d[lo] = y;
		d[hi] = x;
	}
}
HP_REGISTER(bitonic, .args_size = sizeof(hp_bitonic_args),
	    HP_BUFFERS(HP_BUF(hp_bitonic_args, data, uint32_t, ARG,
			      offsetof(hp_bitonic_args, n))));
