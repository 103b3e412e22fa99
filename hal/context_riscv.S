/* SPDX-License-Identifier: MIT */
/* Context switch for RISC-V (see hal/include/hal/context.h): the callee-saved
 * registers (ra, s0-s11 and fs0-fs11 where there is an FPU) go on the stack
 * being left; its sp goes to from->sp (offset 0 of hal_context). */
#if __riscv_xlen == 64
#define LREG ld
#define SREG sd
#define R 8
#else
#define LREG lw
#define SREG sw
#define R 4
#endif
#ifdef __riscv_flen
#define FRAME (((13 * R + 12 * 8) + 15) & ~15)
#else
#define FRAME (((13 * R) + 15) & ~15)
#endif

	.text
	.globl hal_context_switch_raw
	/* void hal_context_switch_raw(void **save_sp, void *new_sp) */
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
	fsd	fs0, 13 * R + 0(sp)
	fsd	fs1, 13 * R + 8(sp)
	fsd	fs2, 13 * R + 16(sp)
	fsd	fs3, 13 * R + 24(sp)
	fsd	fs4, 13 * R + 32(sp)
	fsd	fs5, 13 * R + 40(sp)
	fsd	fs6, 13 * R + 48(sp)
	fsd	fs7, 13 * R + 56(sp)
	fsd	fs8, 13 * R + 64(sp)
	fsd	fs9, 13 * R + 72(sp)
	fsd	fs10, 13 * R + 80(sp)
	fsd	fs11, 13 * R + 88(sp)
#endif
	SREG	sp, 0(a0)
	mv	sp, a1
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
#ifdef __riscv_flen
	fld	fs0, 13 * R + 0(sp)
	fld	fs1, 13 * R + 8(sp)
	fld	fs2, 13 * R + 16(sp)
	fld	fs3, 13 * R + 24(sp)
	fld	fs4, 13 * R + 32(sp)
	fld	fs5, 13 * R + 40(sp)
	fld	fs6, 13 * R + 48(sp)
	fld	fs7, 13 * R + 56(sp)
	fld	fs8, 13 * R + 64(sp)
	fld	fs9, 13 * R + 72(sp)
	fld	fs10, 13 * R + 80(sp)
	fld	fs11, 13 * R + 88(sp)
#endif
	addi	sp, sp, FRAME
	ret

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
