/* SPDX-License-Identifier: MIT */
/* Into U-mode and the ecalls back (hal/include/hal/isolation.h). */
#include <hal/csr.h>
#include <hal/isolation.h>

	.text
	/* void hal_user_enter(void (*fn)(void *), void *arg, void *stack_top):
	 * mret into U-mode at .Luser with sp = stack_top. The callee-saved
	 * registers are cleared: U-mode gets no firmware addresses. */
	.globl hal_user_enter
hal_user_enter:
	li	t0, MSTATUS_MPP | MSTATUS_MPIE
	csrc	mstatus, t0		/* MPP = U, and MIE = 0 after mret */
	la	t0, .Luser
	csrw	mepc, t0
	mv	sp, a2
	li	ra, 0
	li	s0, 0
	li	s1, 0
	li	s2, 0
	li	s3, 0
	li	s4, 0
	li	s5, 0
	li	s6, 0
	li	s7, 0
	li	s8, 0
	li	s9, 0
	li	s10, 0
	li	s11, 0
	mret

	/* U-mode from here on. */
.Luser:
	mv	t0, a0
	mv	a0, a1
	jalr	t0			/* fn(arg) */
	li	a7, HAL_SYS_EXIT
	ecall
	unimp				/* EXIT does not come back */

	.globl hal_user_sleep
hal_user_sleep:
	li	a7, HAL_SYS_SLEEP
	ecall
	ret

	.globl hal_user_wake
hal_user_wake:
	li	a7, HAL_SYS_WAKE
	ecall
	ret
