// SPDX-License-Identifier: MIT
/* Fibers on RISC-V (hal/include/hal/fiber.h): the state a new or finished
 * fiber is continued with; the switches are hal/fiber_riscv.S. */
#include <hal/fiber.h>

void hal_fiber_entry_(void);
void hal_fiber_dead_(void);

void hal_fiber_init(hal_fiber *f, void *lo, size_t size,
		    hal_fiber *(*entry)(hal_fiber *))
{
	f->guard = lo;
	*f->guard = (uintptr_t)lo;
	f->top = (void *)(((uintptr_t)lo + size) & ~(uintptr_t)15);
	f->sp = f->top;
	f->pc = (void *)hal_fiber_entry_;
	f->s0 = f;
	f->entry = entry;
}

void hal_fiber_finish(hal_fiber *f)
{
	f->sp = f->top;
	f->pc = (void *)hal_fiber_dead_;
	f->s0 = f;
}
