/* SPDX-License-Identifier: MIT */
/**
 * @file Non-local return for fault recovery: hal_setjmp() marks a point,
 * hal_longjmp() (called from a trap that the handler redirected) returns
 * there a second time with a non-zero value, abandoning whatever ran in
 * between (a kernel that trapped or ran out of time). The callee-saved
 * registers, sp, ra and tp come back; on the host this is setjmp/longjmp.
 */
#ifndef HAL_JUMP_H
#define HAL_JUMP_H

#if defined(__riscv)
typedef struct hal_jmp_buf {
	unsigned long r[15]; /* ra, sp, s0-s11, tp */
#ifdef __riscv_flen
	unsigned long long f[12]; /* fs0-fs11 */
#endif
} hal_jmp_buf;

/** Returns 0 when called, the value given to hal_longjmp() on return. */
int hal_setjmp(hal_jmp_buf *b) __attribute__((returns_twice));
/** Return from the hal_setjmp() that filled @p b with @p v (non-zero). */
__attribute__((noreturn)) void hal_longjmp(hal_jmp_buf *b, int v);
#else
#include <setjmp.h>
typedef struct hal_jmp_buf {
	jmp_buf jb;
} hal_jmp_buf;
#define hal_setjmp(b) setjmp((b)->jb)
#define hal_longjmp(b, v) longjmp((b)->jb, (v))
#endif

#endif
