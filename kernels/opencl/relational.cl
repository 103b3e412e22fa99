// SPDX-License-Identifier: MIT
/*
 * Relational functions (OpenCL 3.0 C 6.15.6): scalars return 0 or 1,
 * vectors 0 or -1 per component (the vector comparison operators do);
 * any, all, bitselect, select.
 */
#include "clc.h"

/* Comparisons: scalar int, vectors of I (int for float, long for double). */
#define CMPV_(n, F, T, I, OP)                                                  \
	I##n OVC F(T##n x, T##n y)                                             \
	{                                                                      \
		return OP;                                                     \
	}
#define CMP_(F, T, I, OP)                                                      \
	int OVC F(T x, T y)                                                    \
	{                                                                      \
		return OP;                                                     \
	}                                                                      \
	HP_VEC(CMPV_, F, T, I, OP)
/* Classification: scalar E(x) for both; vectors componentwise. */
#define CLSV_(n, F, T, I)                                                      \
	I##n OVC F(T##n x)                                                     \
	{                                                                      \
		I##n r;                                                        \
		for (int i = 0; i < n; i++)                                    \
			r[i] = -(I)F(x[i]);                                    \
		return r;                                                      \
	}
#define CLS_(F, T, I, E)                                                       \
	int OVC F(T x)                                                         \
	{                                                                      \
		return E;                                                      \
	}                                                                      \
	HP_VEC(CLSV_, F, T, I)

#define REL_(T, I)                                                             \
	CMP_(isequal, T, I, x == y)                                            \
	CMP_(isnotequal, T, I, x != y)                                         \
	CMP_(isgreater, T, I, x > y)                                           \
	CMP_(isgreaterequal, T, I, x >= y)                                     \
	CMP_(isless, T, I, x < y)                                              \
	CMP_(islessequal, T, I, x <= y)                                        \
	CMP_(islessgreater, T, I, (x < y) | (x > y))                           \
	CMP_(isordered, T, I, (x == x) & (y == y))                             \
	CMP_(isunordered, T, I, (x != x) | (y != y))                           \
	CLS_(isfinite, T, I, __builtin_isfinite(x))                            \
	CLS_(isinf, T, I, __builtin_isinf(x))                                  \
	CLS_(isnan, T, I, __builtin_isnan(x))                                  \
	CLS_(isnormal, T, I, __builtin_isnormal(x))                            \
	CLS_(signbit, T, I, __builtin_signbit(x))

REL_(float, int)
#if HPCL_FP64
REL_(double, long)
#endif

/* any / all: the most significant bit of signed integer components. */
#define ANYV_(n, T)                                                            \
	int OVC any(T##n x)                                                    \
	{                                                                      \
		for (int i = 0; i < n; i++)                                    \
			if (x[i] < 0)                                          \
				return 1;                                      \
		return 0;                                                      \
	}                                                                      \
	int OVC all(T##n x)                                                    \
	{                                                                      \
		for (int i = 0; i < n; i++)                                    \
			if (x[i] >= 0)                                         \
				return 0;                                      \
		return 1;                                                      \
	}
#define ANY_(T)                                                                \
	int OVC any(T x)                                                       \
	{                                                                      \
		return x < 0;                                                  \
	}                                                                      \
	int OVC all(T x)                                                       \
	{                                                                      \
		return x < 0;                                                  \
	}                                                                      \
	HP_VEC(ANYV_, T)
ANY_(char)
ANY_(short)
ANY_(int)
ANY_(long)

/* bitselect(a, b, c): the bits of b where c has ones, else of a; select(a,
 * b, c): b where c (scalar: non-zero; vector: its top bit), else a. */
#define SELV_(n, T, I)                                                         \
	T##n OVC select(T##n a, T##n b, I##n c)                                \
	{                                                                      \
		T##n r;                                                        \
		for (int i = 0; i < n; i++)                                    \
			r[i] = c[i] >> (sizeof(I) * 8 - 1) ? b[i] : a[i];      \
		return r;                                                      \
	}
#define SEL_(T, I)                                                             \
	T OVC select(T a, T b, I c)                                            \
	{                                                                      \
		return c ? b : a;                                              \
	}                                                                      \
	HP_VEC(SELV_, T, I)
#define BSELV_(n, T, U)                                                        \
	T##n OVC bitselect(T##n a, T##n b, T##n c)                             \
	{                                                                      \
		T##n r;                                                        \
		for (int i = 0; i < n; i++)                                    \
			r[i] = bitselect(a[i], b[i], c[i]);                    \
		return r;                                                      \
	}
#define BSEL_(T, U)                                                            \
	T OVC bitselect(T a, T b, T c)                                         \
	{                                                                      \
		U ua = __builtin_bit_cast(U, a),                               \
		  ub = __builtin_bit_cast(U, b),                               \
		  uc = __builtin_bit_cast(U, c);                               \
		return __builtin_bit_cast(T, (U)((ua & ~uc) | (ub & uc)));     \
	}                                                                      \
	HP_VEC(BSELV_, T, U)
/* per type T: its signed and unsigned select types, its bits type */
#define SELT_(T, SI, UI)                                                       \
	SEL_(T, SI)                                                            \
	SEL_(T, UI)                                                            \
	BSEL_(T, UI)
SELT_(char, char, uchar)
SELT_(uchar, char, uchar)
SELT_(short, short, ushort)
SELT_(ushort, short, ushort)
SELT_(int, int, uint)
SELT_(uint, int, uint)
SELT_(long, long, ulong)
SELT_(ulong, long, ulong)
SELT_(float, int, uint)
#if HPCL_FP64
SELT_(double, long, ulong)
#endif
