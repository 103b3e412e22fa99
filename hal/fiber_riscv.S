/* SPDX-License-Identifier: MIT */
/* Fiber switches by the yield convention (hal/include/hal/fiber.h,
 * include/hartpool/api.h): the caller has given up every register but sp,
 * s0, gp and tp, so a switch saves sp, the return address and s0 and loads
 * the next fiber's three. hp_yield_wg and hp_yield_sg are the names kernels
 * built into the firmware call (kernel.h); loaded objects reach the same
 * code through the API table. */
#include <hal/asm.h>

#define R REGBYTES
/* hal_fiber: sp, pc, s0, next[0], next[1], guard, slow, entry. */
#define F_SP (0 * R)
#define F_PC (1 * R)
#define F_S0 (2 * R)
#define F_NEXT0 (3 * R)
#define F_NEXT1 (4 * R)
#define F_GUARD (5 * R)
#define F_SLOW (6 * R)
#define F_ENTRY (7 * R)
#define WHY_GUARD 2
#define WHY_DEAD 3

	.text
	/* a0 = f: continue f->next[1] (the sub-group ring). */
	.globl hal_fiber_yield1
	.globl hp_yield_sg
hal_fiber_yield1:
hp_yield_sg:
	li	a1, 1
	LREG	t0, F_NEXT1(a0)
	j	1f

	/* a0 = f: continue f->next[0] (the work-group ring). */
	.globl hal_fiber_yield0
	.globl hp_yield_wg
hal_fiber_yield0:
hp_yield_wg:
	li	a1, 0
	LREG	t0, F_NEXT0(a0)
1:	SREG	sp, F_SP(a0)
	SREG	ra, F_PC(a0)
	SREG	s0, F_S0(a0)
	LREG	t1, F_GUARD(a0)
	LREG	t2, 0(t1)
	bne	t1, t2, 3f
	beqz	t0, 2f
	/* Continue fiber t0. */
hal_fiber_continue:
	LREG	sp, F_SP(t0)
	LREG	s0, F_S0(t0)
	LREG	t1, F_PC(t0)
	jr	t1
3:	li	a1, WHY_GUARD
	/* a0 = f, a1 = why: f->slow(f, why) names the fiber to continue. It
	 * runs on f's stack below the saved sp, as a C call. */
2:	LREG	t1, F_SLOW(a0)
	jalr	t1
	mv	t0, a0
	j	hal_fiber_continue

	/* a0 = self, a1 = first: save the caller in self, continue first. */
	.globl hal_fiber_run_
hal_fiber_run_:
	SREG	sp, F_SP(a0)
	SREG	ra, F_PC(a0)
	SREG	s0, F_S0(a0)
	mv	t0, a1
	j	hal_fiber_continue

	/* A new fiber starts here: s0 = the fiber, sp = its stack's top. */
	.globl hal_fiber_entry_
hal_fiber_entry_:
	mv	a0, s0
	LREG	t1, F_ENTRY(a0)
	jalr	t1
	mv	t0, a0
	j	hal_fiber_continue

	/* A finished fiber that is continued (hal_fiber_finish). */
	.globl hal_fiber_dead_
hal_fiber_dead_:
	mv	a0, s0
	li	a1, WHY_DEAD
	j	2b
