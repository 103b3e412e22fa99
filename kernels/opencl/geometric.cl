// SPDX-License-Identifier: MIT
/*
 * Geometric functions (OpenCL 3.0 C 6.15.5) for scalars and vectors of 2, 3
 * and 4: dot, cross, length, distance, normalize and the fast_ forms
 * (float only; the same as the full ones). length and normalize scale by
 * a power of two first so that the squares neither overflow nor vanish.
 */
#include "clc.h"

#define GEO_N_(T, S, V, N)                                                     \
	T OVC dot(V x, V y)                                                    \
	{                                                                      \
		T s = 0;                                                       \
		for (int i = 0; i < N; i++)                                    \
			s += x[i] * y[i];                                      \
		return s;                                                      \
	}                                                                      \
	T OVC length(V x)                                                      \
	{                                                                      \
		T m = 0;                                                       \
		for (int i = 0; i < N; i++)                                    \
			m = __builtin_fmax##S(m, __builtin_fabs##S(x[i]));     \
		if (m == 0 || __builtin_isinf(m) || __builtin_isnan(m))        \
			return m;                                              \
		int e = __builtin_ilogb##S(m);                                 \
		V y;                                                           \
		for (int i = 0; i < N; i++)                                    \
			y[i] = __builtin_ldexp##S(x[i], -e);                   \
		return __builtin_ldexp##S(__builtin_sqrt##S(dot(y, y)), e);    \
	}                                                                      \
	T OVC distance(V x, V y)                                               \
	{                                                                      \
		return length(x - y);                                          \
	}                                                                      \
	V OVC normalize(V x)                                                   \
	{                                                                      \
		T m = 0;                                                       \
		for (int i = 0; i < N; i++)                                    \
			m = __builtin_fmax##S(m, __builtin_fabs##S(x[i]));     \
		if (m == 0 || __builtin_isnan(m))                              \
			return x;                                              \
		V y;                                                           \
		if (__builtin_isinf(m)) {                                      \
			for (int i = 0; i < N; i++)                            \
				y[i] = __builtin_isinf(x[i])                   \
					       ? __builtin_copysign##S(1,      \
								       x[i])   \
					       : 0;                            \
		} else {                                                       \
			int e = __builtin_ilogb##S(m);                         \
			for (int i = 0; i < N; i++)                            \
				y[i] = __builtin_ldexp##S(x[i], -e);           \
		}                                                              \
		T l = __builtin_sqrt##S(dot(y, y));                            \
		for (int i = 0; i < N; i++)                                    \
			y[i] /= l;                                             \
		return y;                                                      \
	}
/* Scalars: vectors of one component for the loops above. */
#define GEO_(T, S)                                                             \
	T OVC dot(T x, T y)                                                    \
	{                                                                      \
		return x * y;                                                  \
	}                                                                      \
	T OVC length(T x)                                                      \
	{                                                                      \
		return __builtin_fabs##S(x);                                   \
	}                                                                      \
	T OVC distance(T x, T y)                                               \
	{                                                                      \
		return __builtin_fabs##S(x - y);                               \
	}                                                                      \
	T OVC normalize(T x)                                                   \
	{                                                                      \
		if (x == 0 || __builtin_isnan(x))                              \
			return x;                                              \
		return __builtin_copysign##S(1, x);                            \
	}                                                                      \
	GEO_N_(T, S, T##2, 2)                                                  \
	GEO_N_(T, S, T##3, 3)                                                  \
	GEO_N_(T, S, T##4, 4)                                                  \
	T##3 OVC cross(T##3 a, T##3 b)                                         \
	{                                                                      \
		return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,    \
			      a.x * b.y - a.y * b.x);                          \
	}                                                                      \
	T##4 OVC cross(T##4 a, T##4 b)                                         \
	{                                                                      \
		return (T##4)(cross(a.xyz, b.xyz), 0);                         \
	}

GEO_(float, f)
#if HPCL_FP64
GEO_(double, )
#endif

#define FAST_(V)                                                               \
	float OVC fast_length(V x)                                             \
	{                                                                      \
		return length(x);                                              \
	}                                                                      \
	float OVC fast_distance(V x, V y)                                      \
	{                                                                      \
		return distance(x, y);                                         \
	}                                                                      \
	V OVC fast_normalize(V x)                                              \
	{                                                                      \
		return normalize(x);                                           \
	}
FAST_(float)
FAST_(float2)
FAST_(float3)
FAST_(float4)
