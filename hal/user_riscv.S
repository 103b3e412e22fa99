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

#ifdef __riscv_flen
#if __riscv_flen == 64
#define FSTORE fsd
#define FLOAD fld
#else
#define FSTORE fsw
#define FLOAD flw
#endif
#endif

	/* void hal_user_ext_save(hal_user_regs *r, unsigned long status): the
	 * FP registers and fcsr into r when status has FS on (a hart without
	 * an FPU never has: FS reads Off there), the vector registers and
	 * their CSRs when it has VS on. */
	.text
	.globl hal_user_ext_save
hal_user_ext_save:
	li	t0, 0
#ifdef __riscv_flen
	li	t1, SR_FS
	and	t1, a1, t1
	beqz	t1, 1f
	FSTORE	f0, HAL_UREGS_F(0)(a0)
	FSTORE	f1, HAL_UREGS_F(1)(a0)
	FSTORE	f2, HAL_UREGS_F(2)(a0)
	FSTORE	f3, HAL_UREGS_F(3)(a0)
	FSTORE	f4, HAL_UREGS_F(4)(a0)
	FSTORE	f5, HAL_UREGS_F(5)(a0)
	FSTORE	f6, HAL_UREGS_F(6)(a0)
	FSTORE	f7, HAL_UREGS_F(7)(a0)
	FSTORE	f8, HAL_UREGS_F(8)(a0)
	FSTORE	f9, HAL_UREGS_F(9)(a0)
	FSTORE	f10, HAL_UREGS_F(10)(a0)
	FSTORE	f11, HAL_UREGS_F(11)(a0)
	FSTORE	f12, HAL_UREGS_F(12)(a0)
	FSTORE	f13, HAL_UREGS_F(13)(a0)
	FSTORE	f14, HAL_UREGS_F(14)(a0)
	FSTORE	f15, HAL_UREGS_F(15)(a0)
	FSTORE	f16, HAL_UREGS_F(16)(a0)
	FSTORE	f17, HAL_UREGS_F(17)(a0)
	FSTORE	f18, HAL_UREGS_F(18)(a0)
	FSTORE	f19, HAL_UREGS_F(19)(a0)
	FSTORE	f20, HAL_UREGS_F(20)(a0)
	FSTORE	f21, HAL_UREGS_F(21)(a0)
	FSTORE	f22, HAL_UREGS_F(22)(a0)
	FSTORE	f23, HAL_UREGS_F(23)(a0)
	FSTORE	f24, HAL_UREGS_F(24)(a0)
	FSTORE	f25, HAL_UREGS_F(25)(a0)
	FSTORE	f26, HAL_UREGS_F(26)(a0)
	FSTORE	f27, HAL_UREGS_F(27)(a0)
	FSTORE	f28, HAL_UREGS_F(28)(a0)
	FSTORE	f29, HAL_UREGS_F(29)(a0)
	FSTORE	f30, HAL_UREGS_F(30)(a0)
	FSTORE	f31, HAL_UREGS_F(31)(a0)
	frcsr	t1
	SREG	t1, HAL_UREGS_FCSR(a0)
	li	t0, 1
1:
#endif
	SREG	t0, HAL_UREGS_FP(a0)
#if HAL_VLENB_MAX
	li	t0, 0
	li	t1, SR_VS
	and	t1, a1, t1
	beqz	t1, 2f
	csrr	t1, vl
	SREG	t1, HAL_UREGS_VL(a0)
	csrr	t1, vtype
	SREG	t1, HAL_UREGS_VTYPE(a0)
	csrr	t1, vstart
	SREG	t1, HAL_UREGS_VSTART(a0)
	csrr	t1, vcsr
	SREG	t1, HAL_UREGS_VCSR(a0)
	/* Eight registers at a time (vl and vtype are saved above). */
	addi	t2, a0, HAL_UREGS_V
	csrr	t3, vlenb
	slli	t3, t3, 3
	vsetvli	t1, zero, e8, m8, ta, ma
	vs8r.v	v0, (t2)
	add	t2, t2, t3
	vs8r.v	v8, (t2)
	add	t2, t2, t3
	vs8r.v	v16, (t2)
	add	t2, t2, t3
	vs8r.v	v24, (t2)
	li	t0, 1
2:
	SREG	t0, HAL_UREGS_VS(a0)
#endif
	ret

	/* void hal_user_ext_clear(void): the FP registers and fcsr (FS on),
	 * the vector registers and vcsr (VS on) to zero: what another owner's
	 * kernel left there is not the next one's to read. */
	.globl hal_user_ext_clear
hal_user_ext_clear:
#ifdef __riscv_flen
	csrr	t0, CSR_STATUS
	li	t1, SR_FS
	and	t0, t0, t1
	beqz	t0, 1f
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
#if __riscv_flen == 64 && __riscv_xlen == 64
	fmv.d.x	f\n, zero
#elif __riscv_flen == 64
	fcvt.d.w f\n, zero
#else
	fmv.w.x	f\n, zero
#endif
	.endr
	fscsr	zero
1:
#endif
#if HAL_VLENB_MAX
	csrr	t0, CSR_STATUS
	li	t1, SR_VS
	and	t0, t0, t1
	beqz	t0, 2f
	vsetvli	t0, zero, e8, m8, ta, ma
	vmv.v.i	v0, 0
	vmv.v.i	v8, 0
	vmv.v.i	v16, 0
	vmv.v.i	v24, 0
	csrw	vcsr, zero
2:
#endif
	ret

	/* void hal_user_resume_enter(const hal_user_regs *r): xRET into
	 * U-mode with every register of r (hal_user_resume in hal/user.c puts
	 * r where S-mode still reaches it under a kernel's page table: the
	 * hart's trap area). From .text.tramp, like hal_user_enter. */
	.section .text.tramp, "ax"
	.globl hal_user_resume_enter
hal_user_resume_enter:
	csrci	CSR_STATUS, SR_IE	/* no trap between satp and xRET */
	li	t0, SR_PP | SR_PIE
	csrc	CSR_STATUS, t0		/* to U, and interrupts off after xRET */
	LREG	t0, HAL_UREGS_X(0)(a0)
	csrw	CSR_EPC, t0
#ifdef __riscv_flen
	LREG	t0, HAL_UREGS_FP(a0)
	beqz	t0, 1f
	FLOAD	f0, HAL_UREGS_F(0)(a0)
	FLOAD	f1, HAL_UREGS_F(1)(a0)
	FLOAD	f2, HAL_UREGS_F(2)(a0)
	FLOAD	f3, HAL_UREGS_F(3)(a0)
	FLOAD	f4, HAL_UREGS_F(4)(a0)
	FLOAD	f5, HAL_UREGS_F(5)(a0)
	FLOAD	f6, HAL_UREGS_F(6)(a0)
	FLOAD	f7, HAL_UREGS_F(7)(a0)
	FLOAD	f8, HAL_UREGS_F(8)(a0)
	FLOAD	f9, HAL_UREGS_F(9)(a0)
	FLOAD	f10, HAL_UREGS_F(10)(a0)
	FLOAD	f11, HAL_UREGS_F(11)(a0)
	FLOAD	f12, HAL_UREGS_F(12)(a0)
	FLOAD	f13, HAL_UREGS_F(13)(a0)
	FLOAD	f14, HAL_UREGS_F(14)(a0)
	FLOAD	f15, HAL_UREGS_F(15)(a0)
	FLOAD	f16, HAL_UREGS_F(16)(a0)
	FLOAD	f17, HAL_UREGS_F(17)(a0)
	FLOAD	f18, HAL_UREGS_F(18)(a0)
	FLOAD	f19, HAL_UREGS_F(19)(a0)
	FLOAD	f20, HAL_UREGS_F(20)(a0)
	FLOAD	f21, HAL_UREGS_F(21)(a0)
	FLOAD	f22, HAL_UREGS_F(22)(a0)
	FLOAD	f23, HAL_UREGS_F(23)(a0)
	FLOAD	f24, HAL_UREGS_F(24)(a0)
	FLOAD	f25, HAL_UREGS_F(25)(a0)
	FLOAD	f26, HAL_UREGS_F(26)(a0)
	FLOAD	f27, HAL_UREGS_F(27)(a0)
	FLOAD	f28, HAL_UREGS_F(28)(a0)
	FLOAD	f29, HAL_UREGS_F(29)(a0)
	FLOAD	f30, HAL_UREGS_F(30)(a0)
	FLOAD	f31, HAL_UREGS_F(31)(a0)
	LREG	t0, HAL_UREGS_FCSR(a0)
	fscsr	t0
1:
#endif
#if HAL_VLENB_MAX
	LREG	t0, HAL_UREGS_VS(a0)
	beqz	t0, 2f
	addi	t1, a0, HAL_UREGS_V
	csrr	t2, vlenb
	slli	t2, t2, 3
	vsetvli	t0, zero, e8, m8, ta, ma
	vl8re8.v v0, (t1)
	add	t1, t1, t2
	vl8re8.v v8, (t1)
	add	t1, t1, t2
	vl8re8.v v16, (t1)
	add	t1, t1, t2
	vl8re8.v v24, (t1)
	LREG	t0, HAL_UREGS_VL(a0)
	LREG	t1, HAL_UREGS_VTYPE(a0)
	vsetvl	zero, t0, t1
	LREG	t0, HAL_UREGS_VSTART(a0)
	csrw	vstart, t0
	LREG	t0, HAL_UREGS_VCSR(a0)
	csrw	vcsr, t0
2:
#endif
#ifdef HAL_SMODE
	lui	t0, %tprel_hi(hal_user_satp)
	add	t0, t0, tp, %tprel_add(hal_user_satp)
	ld	t0, %tprel_lo(hal_user_satp)(t0)
	csrw	satp, t0
	sfence.vma
#endif
	LREG	x1, HAL_UREGS_X(1)(a0)
	LREG	x2, HAL_UREGS_X(2)(a0)
	LREG	x3, HAL_UREGS_X(3)(a0)
	LREG	x4, HAL_UREGS_X(4)(a0)
	LREG	x5, HAL_UREGS_X(5)(a0)
	LREG	x6, HAL_UREGS_X(6)(a0)
	LREG	x7, HAL_UREGS_X(7)(a0)
	LREG	x8, HAL_UREGS_X(8)(a0)
	LREG	x9, HAL_UREGS_X(9)(a0)
	LREG	x11, HAL_UREGS_X(11)(a0)
	LREG	x12, HAL_UREGS_X(12)(a0)
	LREG	x13, HAL_UREGS_X(13)(a0)
	LREG	x14, HAL_UREGS_X(14)(a0)
	LREG	x15, HAL_UREGS_X(15)(a0)
	LREG	x16, HAL_UREGS_X(16)(a0)
	LREG	x17, HAL_UREGS_X(17)(a0)
	LREG	x18, HAL_UREGS_X(18)(a0)
	LREG	x19, HAL_UREGS_X(19)(a0)
	LREG	x20, HAL_UREGS_X(20)(a0)
	LREG	x21, HAL_UREGS_X(21)(a0)
	LREG	x22, HAL_UREGS_X(22)(a0)
	LREG	x23, HAL_UREGS_X(23)(a0)
	LREG	x24, HAL_UREGS_X(24)(a0)
	LREG	x25, HAL_UREGS_X(25)(a0)
	LREG	x26, HAL_UREGS_X(26)(a0)
	LREG	x27, HAL_UREGS_X(27)(a0)
	LREG	x28, HAL_UREGS_X(28)(a0)
	LREG	x29, HAL_UREGS_X(29)(a0)
	LREG	x30, HAL_UREGS_X(30)(a0)
	LREG	x31, HAL_UREGS_X(31)(a0)
	LREG	a0, HAL_UREGS_X(10)(a0)
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
