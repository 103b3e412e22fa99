// Built-in coverage: math functions (every float one, vectors, pointer
// outputs in every address space), double ones with cl_khr_fp64.
#define U1(f) r += f(x); v4 += f(a4); v16 += f(a16); v3 += f(a3);
#define U2(f) r += f(x, y); v4 += f(a4, b4); v8 += f(a8, a8); v2 += f(a2, a2);
__kernel void bm_float(__global float *o, __local float *l, float x, float y,
		       float4 a4, float4 b4, float16 a16)
{
	float r = 0;
	float2 v2 = 0, a2 = a4.xy;
	float3 v3 = 0, a3 = a4.xyz;
	float4 v4 = 0;
	float8 v8 = 0, a8 = a16.lo;
	float16 v16 = 0;
	U1(acos) U1(acosh) U1(acospi) U1(asin) U1(asinh) U1(asinpi) U1(atan)
	U1(atanh) U1(atanpi) U1(cbrt) U1(ceil) U1(cos) U1(cosh) U1(cospi)
	U1(erfc) U1(erf) U1(exp) U1(exp2) U1(exp10) U1(expm1) U1(fabs)
	U1(floor) U1(lgamma) U1(log) U1(log2) U1(log10) U1(log1p) U1(logb)
	U1(rint) U1(round) U1(rsqrt) U1(sin) U1(sinh) U1(sinpi) U1(sqrt)
	U1(tan) U1(tanh) U1(tanpi) U1(tgamma) U1(trunc)
	U1(half_cos) U1(half_exp) U1(half_exp2) U1(half_exp10) U1(half_log)
	U1(half_log2) U1(half_log10) U1(half_recip) U1(half_rsqrt)
	U1(half_sin) U1(half_sqrt) U1(half_tan)
	U1(native_cos) U1(native_exp) U1(native_exp2) U1(native_exp10)
	U1(native_log) U1(native_log2) U1(native_log10) U1(native_recip)
	U1(native_rsqrt) U1(native_sin) U1(native_sqrt) U1(native_tan)
	U2(atan2) U2(atan2pi) U2(copysign) U2(fdim) U2(fmax) U2(fmin)
	U2(fmod) U2(hypot) U2(maxmag) U2(minmag) U2(nextafter) U2(pow)
	U2(powr) U2(remainder) U2(half_divide) U2(half_powr)
	U2(native_divide) U2(native_powr)
	r += fma(x, y, x) + mad(x, y, x) + ldexp(x, 3) + pown(x, 2) +
	     rootn(x, 3) + ilogb(x) + nan(1u);
	v4 += fma(a4, b4, a4) + mad(a4, b4, b4) + ldexp(a4, (int4)3) +
	      ldexp(a4, 2) + pown(a4, (int4)2) + rootn(a4, (int4)3) +
	      convert_float4(ilogb(a4)) + nan((uint4)1) + fmax(a4, x) +
	      fmin(a4, y);
	float p;
	float4 p4;
	int e;
	int4 e4;
	r += fract(x, &p) + p + fract(x, &l[0]) + fract(x, &o[9]);
	r += frexp(x, &e) + e + modf(x, &p) + modf(x, &l[1]) + modf(y, &o[10]);
	r += remquo(x, y, &e) + sincos(x, &p) + sincos(x, &l[2]) +
	     lgamma_r(x, &e) + p;
	v4 += fract(a4, &p4) + p4 + frexp(a4, &e4) + convert_float4(e4);
	v4 += fract(a4, (__local float4 *)l) +
	      sincos(a4, (__global float4 *)o) +
	      remquo(a4, b4, (__local int4 *)l) +
	      lgamma_r(a4, (__global int4 *)o);
	v16 += modf(a16, (__local float16 *)l);
	o[0] = r;
	vstore4(v4, 1, o);
	vstore16(v16, 1, o);
	vstore8(v8, 5, o);
	vstore3(v3, 20, o);
	vstore2(v2, 40, o);
}

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void bm_double(__global double *o, __local double *l, double x,
			double y, double4 a4, double4 b4, double16 a16)
{
	double r = 0;
	double2 v2 = 0, a2 = a4.xy;
	double3 v3 = 0, a3 = a4.xyz;
	double4 v4 = 0;
	double8 v8 = 0, a8 = a16.lo;
	double16 v16 = 0;
	U1(acos) U1(acosh) U1(acospi) U1(asin) U1(asinh) U1(asinpi) U1(atan)
	U1(atanh) U1(atanpi) U1(cbrt) U1(ceil) U1(cos) U1(cosh) U1(cospi)
	U1(erfc) U1(erf) U1(exp) U1(exp2) U1(exp10) U1(expm1) U1(fabs)
	U1(floor) U1(lgamma) U1(log) U1(log2) U1(log10) U1(log1p) U1(logb)
	U1(rint) U1(round) U1(rsqrt) U1(sin) U1(sinh) U1(sinpi) U1(sqrt)
	U1(tan) U1(tanh) U1(tanpi) U1(tgamma) U1(trunc)
	U2(atan2) U2(atan2pi) U2(copysign) U2(fdim) U2(fmax) U2(fmin)
	U2(fmod) U2(hypot) U2(maxmag) U2(minmag) U2(nextafter) U2(pow)
	U2(powr) U2(remainder)
	r += fma(x, y, x) + mad(x, y, x) + ldexp(x, 3) + pown(x, 2) +
	     rootn(x, 3) + ilogb(x) + nan(1ul);
	double p;
	int e;
	r += fract(x, &p) + fract(x, &l[0]) + frexp(x, &e) + modf(x, &o[3]) +
	     remquo(x, y, &e) + sincos(x, &p) + lgamma_r(x, &e);
	v4 += fract(a4, (__local double4 *)l) + fmax(a4, x) +
	      ldexp(a4, (int4)2) + sincos(a4, (__global double4 *)o);
	o[0] = r;
	vstore4(v4, 1, o);
	vstore16(v16, 1, o);
	vstore8(v8, 5, o);
	vstore3(v3, 20, o);
	vstore2(v2, 40, o);
}
#endif
