// SPDX-License-Identifier: MIT
/* Fibers on the host (hal/include/hal/fiber.h) over hal_context: the same
 * rings and slow-path decisions as on RISC-V, with a C-ABI switch. */
#include <hal/fiber.h>

static void host_fiber_main(void *p)
{
	hal_fiber *f = p;
	hal_fiber *next = f->entry(f);
	for (;;) {
		hal_context_switch(&f->ctx, &next->ctx);
		/* Continued after its entry returned. */
		next = f->slow(f, HAL_FIBER_DEAD);
	}
}

void hal_fiber_init(hal_fiber *f, void *lo, size_t size,
		    hal_fiber *(*entry)(hal_fiber *))
{
	f->guard = lo;
	*f->guard = (uintptr_t)lo;
	f->top = (void *)(((uintptr_t)lo + size) & ~(uintptr_t)15);
	f->entry = entry;
	/* The context's stack includes the guard word (only an overflow
	 * reaches it). */
	hal_context_init(&f->ctx, lo, size, host_fiber_main, f);
}

void hal_fiber_finish(hal_fiber *f)
{
	(void)f; /* host_fiber_main's loop serves a continued finished fiber */
}

void hal_fiber_yield(hal_fiber *f, unsigned k)
{
	hal_fiber *n;
	if (!hal_fiber_guard_ok(f))
		n = f->slow(f, HAL_FIBER_GUARD);
	else if (!(n = f->next[k]))
		n = f->slow(f, k);
	if (n != f)
		hal_context_switch(&f->ctx, &n->ctx);
}

void hal_fiber_run(hal_fiber *self, hal_fiber *first)
{
	hal_context_self(&self->ctx);
	hal_context_switch(&self->ctx, &first->ctx);
}
