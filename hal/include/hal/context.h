/* SPDX-License-Identifier: MIT */
/**
 * @file Execution contexts (fibers): a stack plus the callee-saved
 * registers. hal_context_switch() is a function call that returns when some
 * other context switches back. The executor runs the work-items of barrier
 * kernels as contexts.
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
	/** Firmware with an FPU: fs0-fs11 are saved here, and only when the
	 * context dirtied them (mstatus.FS); fp_saved says they are valid. */
	unsigned long fp_saved;
	unsigned long long fregs[12];
	/** Set for contexts that run in U-mode (hal/isolation.h), where
	 * mstatus cannot be read: fs0-fs11 are then always saved; with
	 * HAL_CONTEXT_NO_FPU too (a hart without an FPU) never. */
	unsigned long user;
} hal_context;

/** hal_context.user bit: the hart has no FPU (U-mode cannot ask). */
#define HAL_CONTEXT_NO_FPU 2ul

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
