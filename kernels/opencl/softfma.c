// SPDX-License-Identifier: MIT
/*
 * fma(float) without an FPU (rv32imac): picolibc's soft fmaf is off by one
 * ulp for some inputs, so the library computes it here. The product of two
 * floats is exact in double; the sum is rounded to odd (Boldo and
 * Melquiond: the exact error from TwoSum decides the last bit), which makes
 * the final rounding to float the correctly rounded fma.
 */
#include <stdint.h>

#pragma STDC FP_CONTRACT OFF

float __hpcl_fmaf(float a, float b, float c);
float __hpcl_fmaf(float a, float b, float c)
{
	double p = (double)a * (double)b, s = p + (double)c;
	if (s - s != 0) /* inf or NaN */
		return (float)s;
	double bp = s - p, e = (p - (s - bp)) + ((double)c - bp);
	union {
		double d;
		uint64_t u;
	} v = {.d = s};
	if (e != 0 && !(v.u & 1))
		v.u += (e > 0) == (s > 0) ? 1 : (uint64_t)-1;
	return (float)v.d;
}
