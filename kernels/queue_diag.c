// SPDX-License-Identifier: MIT
/* Small diagnostic kernels for the mailbox and queue tests: tally
 * (exactly-once), affine (order), add (joins), spin (long-running), churn
 * (long-running with barriers: teams under time slices), gate (running until
 * the host opens it). */
#include <hartpool/kernel.h>
#include <hartpool/kernels/diag.h>

HP_KERNEL(tally, const hp_item *it, const void *args)
{
	const hp_tally_args *a = args;
	uint32_t *c = (uint32_t *)(uintptr_t)a->counts;
	hp_atomic_add_uint(c + a->base + hp_global_linear_id(it), 1);
}
/* It writes counts[base + glin]: the buffer must reach base + items. */
HP_REGISTER(tally, .args_size = sizeof(hp_tally_args),
	    HP_BUFFERS(HP_BUF(hp_tally_args, counts, uint32_t, ITEMS_PLUS_ARG,
			      offsetof(hp_tally_args, base))));

HP_KERNEL(affine, const hp_item *it, const void *args)
{
	const hp_affine_args *a = args;
	uint32_t *y = (uint32_t *)(uintptr_t)a->y + hp_global_linear_id(it);
	*y = *y * a->mul + a->add;
}
HP_REGISTER(affine, .args_size = sizeof(hp_affine_args),
	    HP_BUFFERS(HP_BUF(hp_affine_args, y, uint32_t, ITEMS, 0)));

HP_KERNEL(add, const hp_item *it, const void *args)
{
	const hp_add_args *a = args;
	size_t i = hp_global_linear_id(it);
	((uint32_t *)(uintptr_t)a->c)[i] =
		((const uint32_t *)(uintptr_t)a->a)[i] +
		((const uint32_t *)(uintptr_t)a->b)[i];
}
HP_REGISTER(add, .args_size = sizeof(hp_add_args),
	    HP_BUFFERS(HP_BUF(hp_add_args, a, uint32_t, ITEMS, 0),
		       HP_BUF(hp_add_args, b, uint32_t, ITEMS, 0),
		       HP_BUF(hp_add_args, c, uint32_t, ITEMS, 0)));

HP_KERNEL(spin, const hp_item *it, const void *args)
{
	const hp_spin_args *a = args;
	uint32_t x = (uint32_t)hp_global_linear_id(it) + 1;
	for (uint64_t i = 0; i < a->iters; i++)
		x = x * 1664525u +
		    1013904223u; /* no shortcut for the compiler */
	((uint32_t *)(uintptr_t)a->out)[hp_global_linear_id(it)] = x;
}
HP_REGISTER(spin, .args_size = sizeof(hp_spin_args),
	    HP_BUFFERS(HP_BUF(hp_spin_args, out, uint32_t, ITEMS, 0)));

/* Polls the host's word: a kernel that runs exactly as long as the host
 * wants it to (bounded by iters), so tests of overtaking and full rings do
 * not depend on how fast anything runs. */
HP_KERNEL(gate, const hp_item *it, const void *args)
{
	const hp_gate_args *a = args;
	const volatile uint32_t *open =
		(const volatile uint32_t *)(uintptr_t)a->flag;
	uint64_t i = 0;
	while (i < a->iters && !*open)
		i++;
	((uint32_t *)(uintptr_t)a->out)[hp_global_linear_id(it)] = *open != 0;
}
HP_REGISTER(gate, .args_size = sizeof(hp_gate_args),
	    HP_BUFFERS(HP_BUF(hp_gate_args, out, uint32_t, ITEMS, 0),
		       HP_BUF(hp_gate_args, flag, uint32_t, FIXED, 1)));

HP_KERNEL(churn, const hp_item *it, const void *args)
{
	const hp_churn_args *a = args;
	uint32_t *lm = hp_local_mem(it);
	size_t me = hp_local_linear_id(it);
	size_t n = hp_local_size(it, 0) * hp_local_size(it, 1) *
		   hp_local_size(it, 2);
	uint32_t x = (uint32_t)hp_global_linear_id(it) + 1;
	for (uint64_t r = 0; r < a->rounds; r++) {
		for (uint64_t i = 0; i < a->iters; i++)
			x = x * 1664525u + 1013904223u;
		lm[me] = x;
		hp_barrier(it);
		x ^= lm[(me + 1) % n];
		hp_barrier(it);
	}
	((uint32_t *)(uintptr_t)a->out)[hp_global_linear_id(it)] = x;
}
HP_REGISTER(churn, .uses_barriers = true,
	    .local_mem_bytes = 256 * sizeof(uint32_t),
	    .args_size = sizeof(hp_churn_args),
	    HP_BUFFERS(HP_BUF(hp_churn_args, out, uint32_t, ITEMS, 0)));
