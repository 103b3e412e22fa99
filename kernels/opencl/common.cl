// SPDX-License-Identifier: MIT
/*
 * Common functions (OpenCL 3.0 C 6.15.4) for float and double: clamp,
 * degrees, max, min, mix, radians, step, smoothstep, sign.
 */
#include "clc.h"

/* Vector forms whose first (or first two) arguments are scalars. */
#define SV_(n, F, T)                                                           \
	T##n OVC F(T##n x, T y)                                                \
	{                                                                      \
		return F(x, (T##n)y);                                          \
	}
#define SSV3_(n, F, T)                                                         \
	T##n OVC F(T##n x, T y, T z)                                           \
	{                                                                      \
		return F(x, (T##n)y, (T##n)z);                                 \
	}
#define VVS3_(n, F, T)                                                         \
	T##n OVC F(T##n x, T##n y, T z)                                        \
	{                                                                      \
		return F(x, y, (T##n)z);                                       \
	}
#define S1V_(n, F, T)                                                          \
	T##n OVC F(T e, T##n x)                                                \
	{                                                                      \
		return F((T##n)e, x);                                          \
	}
#define S2V_(n, F, T)                                                          \
	T##n OVC F(T e0, T e1, T##n x)                                         \
	{                                                                      \
		return F((T##n)e0, (T##n)e1, x);                               \
	}

#define COMMON_(T, S, DEG, RAD)                                                \
	T OVC clamp(T x, T lo, T hi)                                           \
	{                                                                      \
		return __builtin_fmin##S(__builtin_fmax##S(x, lo), hi);        \
	}                                                                      \
	HP_V3(T, T, clamp)                                                     \
	HP_VEC(SSV3_, clamp, T)                                                \
	T OVC degrees(T r)                                                     \
	{                                                                      \
		return r * DEG;                                                \
	}                                                                      \
	HP_V1(T, T, degrees)                                                   \
	T OVC radians(T d)                                                     \
	{                                                                      \
		return d * RAD;                                                \
	}                                                                      \
	HP_V1(T, T, radians)                                                   \
	T OVC max(T x, T y)                                                    \
	{                                                                      \
		return __builtin_fmax##S(x, y);                                \
	}                                                                      \
	HP_V2(T, T, max)                                                       \
	HP_VEC(SV_, max, T)                                                    \
	T OVC min(T x, T y)                                                    \
	{                                                                      \
		return __builtin_fmin##S(x, y);                                \
	}                                                                      \
	HP_V2(T, T, min)                                                       \
	HP_VEC(SV_, min, T)                                                    \
	T OVC mix(T x, T y, T a)                                               \
	{                                                                      \
		return x + (y - x) * a;                                        \
	}                                                                      \
	HP_V3(T, T, mix)                                                       \
	HP_VEC(VVS3_, mix, T)                                                  \
	T OVC step(T e, T x)                                                   \
	{                                                                      \
		return x < e ? (T)0 : (T)1;                                    \
	}                                                                      \
	HP_V2(T, T, step)                                                      \
	HP_VEC(S1V_, step, T)                                                  \
	T OVC smoothstep(T e0, T e1, T x)                                      \
	{                                                                      \
		T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                 \
		return t * t * (3 - 2 * t);                                    \
	}                                                                      \
	HP_V3(T, T, smoothstep)                                                \
	HP_VEC(S2V_, smoothstep, T)                                            \
	T OVC sign(T x)                                                        \
	{                                                                      \
		if (__builtin_isnan(x))                                        \
			return 0;                                              \
		if (x == 0)                                                    \
			return x;                                              \
		return x > 0 ? (T)1 : (T)-1;                                   \
	}                                                                      \
	HP_V1(T, T, sign)

COMMON_(float, f, 57.295779513082320877f, 0.017453292519943295769f)
#if HPCL_FP64
COMMON_(double, , 57.295779513082320877, 0.017453292519943295769)
#endif
