/* SPDX-License-Identifier: MIT */
/**
 * @file Execution contexts on the host (harts as threads): a stack plus the
 * callee-saved registers, switched by a C-ABI call (hal/host/context_*),
 * with the sanitizers' fiber bookkeeping. The host's fibers (hal/fiber.h)
 * run on them; on RISC-V fibers switch by the yield convention instead.
 */
#ifndef HAL_CONTEXT_H
#define HAL_CONTEXT_H

#include <stddef.h>

typedef struct hal_context {
	void *sp;	/**< saved stack pointer while switched out */
	void *stack_lo; /**< lowest address of the stack (NULL: the hart's) */
	size_t stack_size;
	void (*entry)(void *); /**< host build: started through a trampoline */
	void *arg;
	void *san_fiber; /**< host sanitizer bookkeeping */
	void *san_fake;
} hal_context;

/**
 * Make @p c start @p entry(@p arg) on the stack [lo, lo + size) when first
 * switched to. @p entry must never return (it switches away for good).
 */
void hal_context_init(hal_context *c, void *lo, size_t size,
		      void (*entry)(void *), void *arg);

/** Save the running context in @p from and continue @p to. */
void hal_context_switch(hal_context *from, hal_context *to);

/** Prepare @p c to stand for the calling hart's own stack. */
void hal_context_self(hal_context *c);

#endif
