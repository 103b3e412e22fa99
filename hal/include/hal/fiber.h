/* SPDX-License-Identifier: MIT */
/**
 * @file Fibers that switch in a few instructions: the work-items of barrier
 * kernels (executor/wg.c).
 *
 * A yield is called by the yield convention of hartpool/api.h: the caller
 * declares every register but sp, s0, gp and tp clobbered, so the compiler
 * keeps only the values that are live across the yield, in the caller's
 * own frame, and the switch saves three words (sp, the resume address, s0)
 * instead of the 13 integer and 12 floating-point callee-saved registers
 * of a C-ABI context switch (hal/context.h).
 *
 * Fibers form rings: hal_fiber_yield(f, k) continues f->next[k]. Where the
 * ring has no successor (NULL), where f's stack guard word is broken, and
 * when a finished fiber is continued, the fiber's `slow` function decides
 * (on the stack of the fiber that yields) which fiber to continue.
 */
#ifndef HAL_FIBER_H
#define HAL_FIBER_H

#include <hartpool/api.h>
#include <stddef.h>
#include <stdint.h>
#ifndef __riscv
#include <hal/context.h>
#endif

typedef struct hal_fiber hal_fiber;

/** Why `slow` is called: k = 0 or 1 for a missing next[k], or: */
enum {
	HAL_FIBER_GUARD = 2, /**< the stack guard word was overwritten */
	HAL_FIBER_DEAD = 3,  /**< a fiber whose entry returned was continued */
};

/* Layout read by hal/fiber_riscv.S: keep the first eight words. */
struct hal_fiber {
	void *sp;	    /**< saved at a yield */
	void *pc;	    /**< where it continues */
	void *s0;	    /**< saved at a yield; a new fiber: itself */
	hal_fiber *next[2]; /**< the rings (NULL: ask `slow`) */
	uintptr_t *guard;   /**< a word that holds its own address */
	hal_fiber *(*slow)(hal_fiber *f, unsigned why);
	/** Runs the fiber's work; returns the fiber to continue (the fiber
	 * is then finished: continuing it calls slow(f, HAL_FIBER_DEAD)). */
	hal_fiber *(*entry)(hal_fiber *f);
	void *top; /**< the stack's top (where a finished fiber's slow runs) */
#ifndef __riscv
	hal_context ctx; /* the host's switch */
#endif
};

/**
 * Prepare @p f to run @p entry on the stack [lo, lo + size) when first
 * continued; the stack's lowest word becomes its guard. next[] and `slow`
 * are the caller's to set.
 */
void hal_fiber_init(hal_fiber *f, void *lo, size_t size,
		    hal_fiber *(*entry)(hal_fiber *));

/** After its entry returned: continuing @p f calls slow(f, DEAD). */
void hal_fiber_finish(hal_fiber *f);

/** Whether @p f's stack guard word is intact. */
static inline int hal_fiber_guard_ok(const hal_fiber *f)
{
	return *f->guard == (uintptr_t)f->guard;
}

#ifdef __riscv
/* The entries (hal/fiber_riscv.S), by the yield convention. The HAL's own
 * callers keep nothing in FP registers (firmware code runs on harts without
 * an FPU too), so these calls leave them out. */
void hal_fiber_yield0(void);
void hal_fiber_yield1(void);
void hal_fiber_run_(void);

#define HAL_FIBER_CALL_(sym, a, b)                                             \
	do {                                                                   \
		register uintptr_t a0_ __asm__("a0") = (uintptr_t)(a);         \
		register uintptr_t a1_ __asm__("a1") = (uintptr_t)(b);         \
		register uintptr_t a2_ __asm__("a2") = 0;                      \
		register uintptr_t a3_ __asm__("a3") = 0;                      \
		__asm__ volatile("call " sym                                   \
				 : "+r"(a0_), "+r"(a1_), "+r"(a2_), "+r"(a3_)  \
				 :                                             \
				 : HP_YIELD_INT_CLOBBERS_);                    \
	} while (0)

/** Continue f->next[k] (k = 0 or 1); returns when @p f is continued. */
static inline __attribute__((always_inline)) void hal_fiber_yield(hal_fiber *f,
								  unsigned k)
{
	if (k == 0)
		HAL_FIBER_CALL_("hal_fiber_yield0", f, 0);
	else
		HAL_FIBER_CALL_("hal_fiber_yield1", f, 0);
}

/** Save the caller in @p self and continue @p first; returns when some
 * fiber continues @p self. */
static inline __attribute__((always_inline)) void
hal_fiber_run(hal_fiber *self, hal_fiber *first)
{
	HAL_FIBER_CALL_("hal_fiber_run_", self, first);
}
#else
void hal_fiber_yield(hal_fiber *f, unsigned k);
void hal_fiber_run(hal_fiber *self, hal_fiber *first);
#endif

#endif
