/* SPDX-License-Identifier: MIT */
/* Into U-mode and the ecalls back (hal/include/hal/isolation.h). */
#include <hal/csr.h>
#include <hal/isolation.h>

	/* void hal_user_enter(void (*fn)(void *), void *arg, void *stack_top):
	 * xRET into U-mode at hal_user_start with sp = stack_top. The
	 * callee-saved registers are cleared: U-mode gets no firmware
	 * addresses. In the S-mode build the kernels' page table goes live
	 * here (hal/mmu_sv39.c), so this runs from .text.tramp, the code
	 * S-mode may still execute under that table. */
	.section .text.tramp, "ax"
	.globl hal_user_enter
hal_user_enter:
	csrci	CSR_STATUS, SR_IE	/* no trap between satp and xRET */
	li	t0, SR_PP | SR_PIE
	csrc	CSR_STATUS, t0		/* to U, and interrupts off after xRET */
	la	t0, hal_user_start
	csrw	CSR_EPC, t0
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
#ifdef HAL_SMODE
	/* This hart's table (a TLS word: tp is still the firmware's). */
	lui	t0, %tprel_hi(hal_user_satp)
	add	t0, t0, tp, %tprel_add(hal_user_satp)
	ld	t0, %tprel_lo(hal_user_satp)(t0)
	csrw	satp, t0
	sfence.vma
	li	t0, 0
#endif
	XRET

	/* U-mode from here on. */
	.text
hal_user_start:
	mv	t0, a0
	mv	a0, a1
	jalr	t0			/* fn(arg) */
	li	a7, HAL_SYS_EXIT
	ecall
	unimp				/* EXIT does not come back */

	.globl hal_user_team_arrive
hal_user_team_arrive:
	li	a7, HAL_SYS_TEAM_ARRIVE
	ecall
	ret

	.globl hal_user_team_leave
hal_user_team_leave:
	li	a7, HAL_SYS_TEAM_LEAVE
	ecall
	ret
