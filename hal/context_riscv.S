/* SPDX-License-Identifier: MIT */
/* Context switch for RISC-V (see hal/include/hal/context.h): ra and s0-s11
 * go on the stack being left and its sp to from->sp (offset 0 of
 * hal_context).
 *
 * Floating point, lazily: fs0-fs11 are saved (into from->fregs) only when
 * the status CSR's FS (mstatus, or sstatus in S-mode) says the registers were written since they were last saved or
 * restored (Dirty), and then FS is set to Clean; they are restored only into
 * a context that has saved ones. A context that never writes an FP register
 * cannot depend on their values across a switch (it never set them), so
 * integer-only work-items switch with the integer registers alone. A U-mode
 * context (hal_context.user) cannot read the status CSR: it always saves them,
 * unless it is marked HAL_CONTEXT_NO_FPU (a hart without an FPU, where
 * every FP instruction is illegal; in M-mode its FS reads Off). */
#include <hal/asm.h>
#include <hal/csr.h>

#define R REGBYTES
#define FRAME (((13 * R) + 15) & ~15)
/* Offsets in hal_context: sp, stack_lo, stack_size, entry, arg, san_fiber,
 * san_fake, fp_saved, fregs[12] (unsigned long long, 8-byte aligned). */
#define FP_SAVED (7 * R)
#define FREGS (((8 * R) + 7) & ~7)
#define USER (FREGS + 96)
/* hal_context.user's HAL_CONTEXT_NO_FPU (hal/context.h; context.c checks). */
#define NO_FPU 2
/* Clearing this bit turns FS Dirty (11) into Clean (10). */
#define FS_DIRTY_TO_CLEAN (MSTATUS_FS_DIRTY ^ MSTATUS_FS_CLEAN)

	.text
	.globl hal_context_switch_raw
	/* void hal_context_switch_raw(hal_context *from, hal_context *to) */
hal_context_switch_raw:
	addi	sp, sp, -FRAME
	SREG	ra, 0 * R(sp)
	SREG	s0, 1 * R(sp)
	SREG	s1, 2 * R(sp)
	SREG	s2, 3 * R(sp)
	SREG	s3, 4 * R(sp)
	SREG	s4, 5 * R(sp)
	SREG	s5, 6 * R(sp)
	SREG	s6, 7 * R(sp)
	SREG	s7, 8 * R(sp)
	SREG	s8, 9 * R(sp)
	SREG	s9, 10 * R(sp)
	SREG	s10, 11 * R(sp)
	SREG	s11, 12 * R(sp)
#ifdef __riscv_flen
	LREG	t2, USER(a0)
	bnez	t2, 4f
	csrr	t0, CSR_STATUS
	li	t1, SR_FS
	and	t0, t0, t1
	bne	t0, t1, 1f
3:	fsd	fs0, FREGS + 0(a0)
	fsd	fs1, FREGS + 8(a0)
	fsd	fs2, FREGS + 16(a0)
	fsd	fs3, FREGS + 24(a0)
	fsd	fs4, FREGS + 32(a0)
	fsd	fs5, FREGS + 40(a0)
	fsd	fs6, FREGS + 48(a0)
	fsd	fs7, FREGS + 56(a0)
	fsd	fs8, FREGS + 64(a0)
	fsd	fs9, FREGS + 72(a0)
	fsd	fs10, FREGS + 80(a0)
	fsd	fs11, FREGS + 88(a0)
	li	t0, 1
	SREG	t0, FP_SAVED(a0)
	bnez	t2, 1f
	li	t1, FS_DIRTY_TO_CLEAN
	csrc	CSR_STATUS, t1
1:
#endif
	SREG	sp, 0(a0)
	LREG	sp, 0(a1)
#ifdef __riscv_flen
	LREG	t0, FP_SAVED(a1)
	beqz	t0, 2f
	fld	fs0, FREGS + 0(a1)
	fld	fs1, FREGS + 8(a1)
	fld	fs2, FREGS + 16(a1)
	fld	fs3, FREGS + 24(a1)
	fld	fs4, FREGS + 32(a1)
	fld	fs5, FREGS + 40(a1)
	fld	fs6, FREGS + 48(a1)
	fld	fs7, FREGS + 56(a1)
	fld	fs8, FREGS + 64(a1)
	fld	fs9, FREGS + 72(a1)
	fld	fs10, FREGS + 80(a1)
	fld	fs11, FREGS + 88(a1)
	LREG	t0, USER(a1)
	bnez	t0, 2f
	li	t1, FS_DIRTY_TO_CLEAN
	csrc	CSR_STATUS, t1
2:
#endif
	LREG	ra, 0 * R(sp)
	LREG	s0, 1 * R(sp)
	LREG	s1, 2 * R(sp)
	LREG	s2, 3 * R(sp)
	LREG	s3, 4 * R(sp)
	LREG	s4, 5 * R(sp)
	LREG	s5, 6 * R(sp)
	LREG	s6, 7 * R(sp)
	LREG	s7, 8 * R(sp)
	LREG	s8, 9 * R(sp)
	LREG	s9, 10 * R(sp)
	LREG	s10, 11 * R(sp)
	LREG	s11, 12 * R(sp)
	addi	sp, sp, FRAME
	ret
#ifdef __riscv_flen
	/* U-mode context (t2 = user): save, unless the hart has no FPU. */
4:	andi	t3, t2, NO_FPU
	beqz	t3, 3b
	j	1b
#endif

	/* First switch into a new context lands here: s0 = arg, s1 = entry. */
	.globl hal_context_start
hal_context_start:
	mv	a0, s0
	jalr	s1
	unimp			/* entry must not return */

	.section .rodata
	.globl hal_context_frame_size
	.align 2
hal_context_frame_size:
	.word FRAME
