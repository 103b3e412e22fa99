// SPDX-License-Identifier: MIT
/* Firmware side of hal/context.h on top of context_riscv.S. */
#include <hal/context.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void hal_context_switch_raw(hal_context *from, hal_context *to);

/* context_riscv.S knows these offsets. */
_Static_assert(offsetof(hal_context, sp) == 0, "sp first");
_Static_assert(offsetof(hal_context, fp_saved) == 7 * sizeof(void *),
	       "fp_saved offset");
_Static_assert(offsetof(hal_context, fregs) ==
		       ((8 * sizeof(void *) + 7) & ~(size_t)7),
	       "fregs offset");
_Static_assert(offsetof(hal_context, user) == offsetof(hal_context, fregs) + 96,
	       "user offset");
_Static_assert(HAL_CONTEXT_NO_FPU == 2, "context_riscv.S's NO_FPU");
void hal_context_start(void);
extern const unsigned hal_context_frame_size;

void hal_context_init(hal_context *c, void *lo, size_t size,
		      void (*entry)(void *), void *arg)
{
	uintptr_t top = ((uintptr_t)lo + size) & ~(uintptr_t)15;
	unsigned long *frame = (unsigned long *)(top - hal_context_frame_size);
	memset(frame, 0, hal_context_frame_size);
	frame[0] = (unsigned long)hal_context_start; /* ra */
	frame[1] = (unsigned long)arg;		     /* s0 */
	frame[2] = (unsigned long)entry;	     /* s1 */
	c->sp = frame;
	c->stack_lo = lo;
	c->stack_size = size;
	c->fp_saved = 0;
}

void hal_context_self(hal_context *c)
{
	memset(c, 0, sizeof(*c));
}

void hal_context_switch(hal_context *from, hal_context *to)
{
	hal_context_switch_raw(from, to);
}
