// SPDX-License-Identifier: MIT
/*
 * Integer functions (OpenCL 3.0 C 6.15.3) for every integer type and width.
 * 64-bit high halves are computed from 32-bit halves (RV32 has no
 * __int128).
 */
#include "clc.h"

static ulong umulhi64(ulong a, ulong b)
{
	ulong al = (uint)a, ah = a >> 32, bl = (uint)b, bh = b >> 32;
	ulong ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	ulong mid = (ll >> 32) + (uint)lh + (uint)hl;
	return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static long smulhi64(long a, long b)
{
	ulong h = umulhi64((ulong)a, (ulong)b);
	if (a < 0)
		h -= (ulong)b;
	if (b < 0)
		h -= (ulong)a;
	return (long)h;
}

/* The largest and smallest value of T (unsigned UT). */
#define TMAX_(T, UT, SG) (SG ? (T)((UT) ~(UT)0 >> 1) : (T) ~(UT)0)
#define TMIN_(T, UT, SG) (SG ? (T)(-TMAX_(T, UT, SG) - 1) : (T)0)

/* Functions whose result type is T, with an expression of x, y, z. */
#define I1_(F, R, T, E)                                                        \
	R OVC F(T x)                                                           \
	{                                                                      \
		return E;                                                      \
	}                                                                      \
	HP_V1(R, T, F)
#define I2_(F, R, T, E)                                                        \
	R OVC F(T x, T y)                                                      \
	{                                                                      \
		return E;                                                      \
	}                                                                      \
	HP_V2(R, T, F)
#define I3_(F, T, E)                                                           \
	T OVC F(T x, T y, T z)                                                 \
	{                                                                      \
		return E;                                                      \
	}                                                                      \
	HP_V3(T, T, F)

/* clamp(xn, lo, hi) with scalar bounds. */
#define CLAMPS_(n, T)                                                          \
	T##n OVC clamp(T##n x, T lo, T hi)                                     \
	{                                                                      \
		return clamp(x, (T##n)lo, (T##n)hi);                           \
	}

#define MULHI_8_(T, x, y) ((T)(((int)(x) * (int)(y)) >> 8))
#define MULHI_16_(T, x, y) ((T)(((int)(x) * (int)(y)) >> 16))
#define MULHI_32_(T, x, y) ((T)(((long)(x) * (long)(y)) >> 32))
#define MULHI_64_(T, x, y)                                                     \
	((T)(T)0 - 1 < 0 ? (T)smulhi64(x, y) : (T)umulhi64(x, y))

#define INT_(T, UT, BITS, SG, X)                                               \
	I1_(abs, UT, T, (UT)(x < 0 ? -(UT)x : (UT)x))                          \
	I2_(abs_diff, UT, T,                                                   \
	    x > y ? (UT)((UT)x - (UT)y) : (UT)((UT)y - (UT)x))                 \
	I2_(add_sat, T, T, hp_add_sat_##T(x, y))                               \
	I2_(sub_sat, T, T, hp_sub_sat_##T(x, y))                               \
	I2_(hadd, T, T, (T)((x >> 1) + (y >> 1) + (x & y & 1)))                \
	I2_(rhadd, T, T, (T)((x >> 1) + (y >> 1) + ((x | y) & 1)))             \
	I2_(max, T, T, x > y ? x : y)                                          \
	I2_(min, T, T, x < y ? x : y)                                          \
	HP_V2S(T, T, T, max)                                                   \
	HP_V2S(T, T, T, min)                                                   \
	I3_(clamp, T, y > x ? y : z < x ? z : x)                               \
	HP_VEC(CLAMPS_, T)                                                     \
	I1_(clz, T, T, (T)__builtin_clzg((UT)x, BITS))                         \
	I1_(ctz, T, T, (T)__builtin_ctzg((UT)x, BITS))                         \
	I1_(popcount, T, T, (T)__builtin_popcountg((UT)x))                     \
	I2_(mul_hi, T, T, MULHI_##BITS##_(T, x, y))                            \
	I3_(mad_hi, T, (T)(mul_hi(x, y) + z))                                  \
	I3_(mad_sat, T, hp_mad_sat_##T(x, y, z))                               \
	I2_(rotate, T, T,                                                      \
	    (T)(((UT)x << ((UT)y % BITS)) |                                    \
		((UT)x >> ((BITS - (UT)y % BITS) % BITS))))

/* Helpers per type, before the catalogue. */
#define HELP_(T, UT, BITS, SG, X)                                              \
	static T hp_add_sat_##T(T x, T y)                                      \
	{                                                                      \
		T r;                                                           \
		if (!__builtin_add_overflow(x, y, &r))                         \
			return r;                                              \
		return SG && x < 0 ? TMIN_(T, UT, SG) : TMAX_(T, UT, SG);      \
	}                                                                      \
	static T hp_sub_sat_##T(T x, T y)                                      \
	{                                                                      \
		T r;                                                           \
		if (!__builtin_sub_overflow(x, y, &r))                         \
			return r;                                              \
		return SG && y < 0 ? TMAX_(T, UT, SG) : TMIN_(T, UT, SG);      \
	}

/* mad_sat: exact in a wider type up to 32 bits; 64 bits from the 128-bit
 * product (hi, lo) plus z. */
#define MADSAT_(T, UT, W)                                                      \
	static T hp_mad_sat_##T(T x, T y, T z)                                 \
	{                                                                      \
		W p = (W)x * (W)y + (W)z;                                      \
		if (p > (W)TMAX_(T, UT, (T)-1 < 0))                            \
			return TMAX_(T, UT, (T)-1 < 0);                        \
		if (p < (W)TMIN_(T, UT, (T)-1 < 0))                            \
			return TMIN_(T, UT, (T)-1 < 0);                        \
		return (T)p;                                                   \
	}
static long hp_mad_sat_long(long x, long y, long z)
{
	ulong lo = (ulong)x * (ulong)y, hi = (ulong)smulhi64(x, y);
	ulong lo2 = lo + (ulong)z;
	hi += (z < 0 ? ~0ul : 0) + (lo2 < lo);
	if ((long)hi == (long)lo2 >> 63)
		return (long)lo2;
	return (long)hi < 0 ? LONG_MIN : LONG_MAX;
}
static ulong hp_mad_sat_ulong(ulong x, ulong y, ulong z)
{
	ulong lo = x * y, hi = umulhi64(x, y);
	ulong lo2 = lo + z;
	hi += lo2 < lo;
	return hi ? ULONG_MAX : lo2;
}
MADSAT_(char, uchar, int)
MADSAT_(uchar, uchar, int)
MADSAT_(short, ushort, int)
MADSAT_(ushort, ushort, int)
MADSAT_(int, uint, long)
MADSAT_(uint, uint, long)

HP_INTS(HELP_, )
HP_INTS(INT_, )

/* upsample(hi, lo): twice the width. */
#define UPS_(H, L, R, BITS)                                                    \
	R OVC upsample(H x, L y)                                               \
	{                                                                      \
		return ((R)x << BITS) | (R)y;                                  \
	}                                                                      \
	HP_V2M(R, H, L, upsample)
UPS_(char, uchar, short, 8)
UPS_(uchar, uchar, ushort, 8)
UPS_(short, ushort, int, 16)
UPS_(ushort, ushort, uint, 16)
UPS_(int, uint, long, 32)
UPS_(uint, uint, ulong, 32)

/* 24-bit multiplies: the full 32-bit product (a valid result). */
I2_(mul24, int, int, x *y)
I2_(mul24, uint, uint, x *y)
I3_(mad24, int, x *y + z)
I3_(mad24, uint, x *y + z)
