// SPDX-License-Identifier: MIT
/*
 * libm functions whose float version errs past OpenCL's limit, computed in
 * double: the arguments convert exactly, and one rounding to float of a
 * result within a few ulp of double is within 0.51 ulp of float. The CTS's
 * math_brute_force found picolibc's float versions off: cbrtf by 2.06 ulp
 * (limit 2), powf by 20-28 ulp (limit 16), pown(x, n) with the sign of an
 * odd n lost when n has more than 24 bits, rootn by 17 ulp, tgammaf by 16.4
 * ulp and erfcf by 47.9 ulp (limit 16). libm's double tgamma errs by up to
 * 1,200 ulp of a double near 140, 2^-42 relatively: nothing in a float (the
 * library's own double tgamma is in math.cl).
 */
#include <math.h>

float __hpcl_cbrtf(float x);
float __hpcl_powf(float x, float y);
float __hpcl_pownf(float x, int n);
float __hpcl_rootnf(float ax, int n);
float __hpcl_tgammaf(float x);
float __hpcl_erfcf(float x);

float __hpcl_cbrtf(float x)
{
	return (float)cbrt((double)x);
}

float __hpcl_powf(float x, float y)
{
	return (float)pow((double)x, (double)y);
}

float __hpcl_pownf(float x, int n)
{
	return (float)pow((double)x, (double)n);
}

/* |x|^(1/n) of ax = |x| > 0: 1/n in double errs by 2^-53 relatively, which
 * moves the result by |ln r| 2^-53, far below a float ulp. */
float __hpcl_rootnf(float ax, int n)
{
	return (float)pow((double)ax, 1.0 / (double)n);
}

float __hpcl_tgammaf(float x)
{
	return (float)tgamma((double)x);
}

float __hpcl_erfcf(float x)
{
	return (float)erfc((double)x);
}
