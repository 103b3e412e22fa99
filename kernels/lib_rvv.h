/* SPDX-License-Identifier: MIT */
/*
 * The vector loops of the library kernels on boards with V
 * (docs/vector.md): the firmware is GCC 12's, which has no RVV intrinsics
 * and no vectoriser but assembles the instructions, so the loops are
 * inline assembly, strip-mined by vsetvli at LMUL 8. Only with
 * __riscv_vector (the board's -march has v); a kernel's vector entry
 * checks hp_launch.vector_bytes first (0: the harts keep V off, and the
 * scalar code runs). GCC 12 allocates no vector registers and these loops
 * call nothing, so the assembly names the registers it uses and a value
 * may stay in one from one statement to the next (hp_rvv_isum's v24).
 */
#ifndef KERNELS_LIB_RVV_H
#define KERNELS_LIB_RVV_H
#ifdef __riscv_vector
#include <stddef.h>
#include <stdint.h>

/** z[i] = x[i] + y[i] for i < n. */
static inline void hp_rvv_fadd(float *z, const float *x, const float *y,
			       size_t n)
{
	while (n) {
		size_t vl;
		__asm__ volatile("vsetvli %0, %4, e32, m8, ta, ma\n\t"
				 "vle32.v v8, (%1)\n\t"
				 "vle32.v v16, (%2)\n\t"
				 "vfadd.vv v8, v8, v16\n\t"
				 "vse32.v v8, (%3)"
				 : "=&r"(vl)
				 : "r"(x), "r"(y), "r"(z), "r"(n)
				 : "memory");
		x += vl;
		y += vl;
		z += vl;
		n -= vl;
	}
}

/** y[i] = a * x[i] + y[i] for i < n, fused (as GCC contracts the scalar
 * loop: the same bits). */
static inline void hp_rvv_saxpy(float *y, const float *x, float a, size_t n)
{
	while (n) {
		size_t vl;
		__asm__ volatile("vsetvli %0, %3, e32, m8, ta, ma\n\t"
				 "vle32.v v8, (%1)\n\t"
				 "vle32.v v16, (%2)\n\t"
				 "vfmacc.vf v16, %4, v8\n\t"
				 "vse32.v v16, (%2)"
				 : "=&r"(vl)
				 : "r"(x), "r"(y), "r"(n), "f"(a)
				 : "memory");
		x += vl;
		y += vl;
		n -= vl;
	}
}

/** The sum of p[0..n), wrapping; n >= 1. One pass of the loop for n up
 * to 8 registers' lanes (a sub-group). */
static inline int32_t hp_rvv_isum(const int32_t *p, size_t n)
{
	int32_t r;
	size_t vl, t;
	__asm__ volatile("vsetvli %[vl], %[n], e32, m8, ta, ma\n\t"
			 "vmv.s.x v24, zero\n"
			 "1:\n\t"
			 "vle32.v v8, (%[p])\n\t"
			 "vredsum.vs v24, v8, v24\n\t"
			 "sub %[n], %[n], %[vl]\n\t"
			 "slli %[t], %[vl], 2\n\t"
			 "add %[p], %[p], %[t]\n\t"
			 "vsetvli %[vl], %[n], e32, m8, ta, ma\n\t"
			 "bnez %[n], 1b\n\t"
			 "vmv.x.s %[r], v24"
			 : [r] "=r"(r), [vl] "=&r"(vl), [t] "=&r"(t),
			   [p] "+r"(p), [n] "+r"(n)
			 :
			 : "memory");
	return r;
}

#endif
#endif
