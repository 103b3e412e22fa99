// SPDX-License-Identifier: MIT
/* fpu_harts: a float kernel that records which hart ran each work-item. On
 * a board with harts without an FPU (sifive-u, icicle-kit: the E51 monitor
 * core) none of them may appear (docs/design.md, 34; tests/e2e). */
#include <hartpool/kernel.h>
#include <hartpool/kernels/diag.h>

HP_KERNEL(fpu_harts, const hp_item *it, const void *args)
{
	const hp_fpu_harts_args *a = args;
	size_t i = hp_global_linear_id(it);
	hp_fpu_harts_record *r = HP_PTR(hp_fpu_harts_record, a->out) + i;
	r->hart = hp_hart();
	r->value = (float)i * a->scale;
}
HP_REGISTER(fpu_harts, .uses_fpu = true, .args_size = sizeof(hp_fpu_harts_args),
	    HP_BUFFERS(HP_BUF(hp_fpu_harts_args, out, hp_fpu_harts_record,
			      ITEMS, 0)));
