/* SPDX-License-Identifier: MIT */
/* hal_setjmp / hal_longjmp (hal/include/hal/jump.h). hal_longjmp needs no
 * stack: a trap handler may enter it with any sp. fs0-fs11 only where the
 * hart has an FPU: on one without (an E51 monitor core) FS reads Off and
 * every FP instruction is illegal. */
#include <hal/asm.h>
#include <hal/csr.h>

#define R REGBYTES
#define FOFF ((15 * R + 7) & ~7)

	.text
	.globl hal_setjmp
hal_setjmp:
	SREG	ra, 0 * R(a0)
	SREG	sp, 1 * R(a0)
	SREG	s0, 2 * R(a0)
	SREG	s1, 3 * R(a0)
	SREG	s2, 4 * R(a0)
	SREG	s3, 5 * R(a0)
	SREG	s4, 6 * R(a0)
	SREG	s5, 7 * R(a0)
	SREG	s6, 8 * R(a0)
	SREG	s7, 9 * R(a0)
	SREG	s8, 10 * R(a0)
	SREG	s9, 11 * R(a0)
	SREG	s10, 12 * R(a0)
	SREG	s11, 13 * R(a0)
	SREG	tp, 14 * R(a0)
#ifdef __riscv_flen
	csrr	t0, CSR_STATUS
	li	t1, SR_FS
	and	t0, t0, t1
	beqz	t0, 1f
	fsd	fs0, FOFF + 0 * 8(a0)
	fsd	fs1, FOFF + 1 * 8(a0)
	fsd	fs2, FOFF + 2 * 8(a0)
	fsd	fs3, FOFF + 3 * 8(a0)
	fsd	fs4, FOFF + 4 * 8(a0)
	fsd	fs5, FOFF + 5 * 8(a0)
	fsd	fs6, FOFF + 6 * 8(a0)
	fsd	fs7, FOFF + 7 * 8(a0)
	fsd	fs8, FOFF + 8 * 8(a0)
	fsd	fs9, FOFF + 9 * 8(a0)
	fsd	fs10, FOFF + 10 * 8(a0)
	fsd	fs11, FOFF + 11 * 8(a0)
1:
#endif
	li	a0, 0
	ret

	.globl hal_longjmp
hal_longjmp:
	LREG	ra, 0 * R(a0)
	LREG	sp, 1 * R(a0)
	LREG	s0, 2 * R(a0)
	LREG	s1, 3 * R(a0)
	LREG	s2, 4 * R(a0)
	LREG	s3, 5 * R(a0)
	LREG	s4, 6 * R(a0)
	LREG	s5, 7 * R(a0)
	LREG	s6, 8 * R(a0)
	LREG	s7, 9 * R(a0)
	LREG	s8, 10 * R(a0)
	LREG	s9, 11 * R(a0)
	LREG	s10, 12 * R(a0)
	LREG	s11, 13 * R(a0)
	LREG	tp, 14 * R(a0)
#ifdef __riscv_flen
	csrr	t0, CSR_STATUS
	li	t2, SR_FS
	and	t0, t0, t2
	beqz	t0, 1f
	fld	fs0, FOFF + 0 * 8(a0)
	fld	fs1, FOFF + 1 * 8(a0)
	fld	fs2, FOFF + 2 * 8(a0)
	fld	fs3, FOFF + 3 * 8(a0)
	fld	fs4, FOFF + 4 * 8(a0)
	fld	fs5, FOFF + 5 * 8(a0)
	fld	fs6, FOFF + 6 * 8(a0)
	fld	fs7, FOFF + 7 * 8(a0)
	fld	fs8, FOFF + 8 * 8(a0)
	fld	fs9, FOFF + 9 * 8(a0)
	fld	fs10, FOFF + 10 * 8(a0)
	fld	fs11, FOFF + 11 * 8(a0)
1:
#endif
	seqz	a0, a1
	add	a0, a0, a1	/* never 0 */
	ret
