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

/** c[j] = the sum over p < k of a[p] * b[p * ldb + j], for j < n: the
 * products added in p order from 0, each fused (the scalar kernels' bits:
 * GCC contracts `acc += x * y`); k >= 1. One k loop a strip of columns. */
static inline void hp_rvv_sgemm_row(float *c, const float *a, const float *b,
				    size_t k, size_t ldb, size_t n)
{
	while (n) {
		size_t vl, p = k;
		const float *ap = a, *bp = b;
		float t;
		__asm__ volatile(
			"vsetvli %[vl], %[n], e32, m8, ta, ma\n\t"
			"vmv.v.i v8, 0\n"
			"1:\n\t"
			"flw %[t], 0(%[ap])\n\t"
			"vle32.v v16, (%[bp])\n\t"
			"addi %[ap], %[ap], 4\n\t"
			"add %[bp], %[bp], %[ld]\n\t"
			"addi %[p], %[p], -1\n\t"
			"vfmacc.vf v8, %[t], v16\n\t"
			"bnez %[p], 1b\n\t"
			"vse32.v v8, (%[c])"
			: [vl] "=&r"(vl), [ap] "+r"(ap), [bp] "+r"(bp),
			  [p] "+r"(p), [t] "=&f"(t)
			: [n] "r"(n), [ld] "r"(ldb * sizeof(float)), [c] "r"(c)
			: "memory");
		b += vl;
		c += vl;
		n -= vl;
	}
}

/** out[i] = carry + in[0] + ... + in[i] for i < n, wrapping (in == out
 * works); returns carry + the sum of all n. Each strip a prefix sum in
 * the register by log2(vl) slides and adds. */
static inline int32_t hp_rvv_iscan(int32_t *out, const int32_t *in, size_t n,
				   int32_t carry)
{
	while (n) {
		size_t vl, d, t;
		__asm__ volatile("vsetvli %[vl], %[n], e32, m8, ta, ma\n\t"
				 "vle32.v v8, (%[in])\n\t"
				 "li %[d], 1\n"
				 "1:\n\t"
				 "bgeu %[d], %[vl], 2f\n\t"
				 "vmv.v.i v16, 0\n\t"
				 "vslideup.vx v16, v8, %[d]\n\t"
				 "vadd.vv v8, v8, v16\n\t"
				 "slli %[d], %[d], 1\n\t"
				 "j 1b\n"
				 "2:\n\t"
				 "vadd.vx v8, v8, %[c]\n\t"
				 "vse32.v v8, (%[out])\n\t"
				 "addi %[t], %[vl], -1\n\t"
				 "vslidedown.vx v16, v8, %[t]\n\t"
				 "vmv.x.s %[c], v16"
				 : [vl] "=&r"(vl), [d] "=&r"(d), [t] "=&r"(t),
				   [c] "+r"(carry)
				 : [n] "r"(n), [in] "r"(in), [out] "r"(out)
				 : "memory");
		in += vl;
		out += vl;
		n -= vl;
	}
	return carry;
}

/** p[i] += x for i < n, wrapping. */
static inline void hp_rvv_iaddx(int32_t *p, int32_t x, size_t n)
{
	while (n) {
		size_t vl;
		__asm__ volatile("vsetvli %0, %2, e32, m8, ta, ma\n\t"
				 "vle32.v v8, (%1)\n\t"
				 "vadd.vx v8, v8, %3\n\t"
				 "vse32.v v8, (%1)"
				 : "=&r"(vl)
				 : "r"(p), "r"(n), "r"(x)
				 : "memory");
		p += vl;
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
