// SPDX-License-Identifier: MIT
/*
 * shuffle and shuffle2 (OpenCL 3.0 C 6.15.12.2): for every element type,
 * input width n and mask width m of 2, 4, 8, 16.
 */
#include "clc.h"

#define SHUF_(m, n, T, U)                                                      \
	T##m OVC shuffle(T##n x, U##m mask)                                    \
	{                                                                      \
		T##m r;                                                        \
		for (int i = 0; i < m; i++)                                    \
			r[i] = x[mask[i] % n];                                 \
		return r;                                                      \
	}                                                                      \
	T##m OVC shuffle2(T##n x, T##n y, U##m mask)                           \
	{                                                                      \
		T##m r;                                                        \
		for (int i = 0; i < m; i++) {                                  \
			uint k = mask[i] % (2 * n);                            \
			r[i] = k < n ? x[k] : y[k - n];                        \
		}                                                              \
		return r;                                                      \
	}
#define SHUF_N_(n, T, U)                                                       \
	SHUF_(2, n, T, U)                                                      \
	SHUF_(4, n, T, U) SHUF_(8, n, T, U) SHUF_(16, n, T, U)
#define SHUF_T_(T, U)                                                          \
	SHUF_N_(2, T, U)                                                       \
	SHUF_N_(4, T, U) SHUF_N_(8, T, U) SHUF_N_(16, T, U)
#define SHUF_I_(T, UT, BITS, SG, X) SHUF_T_(T, UT)
HP_INTS(SHUF_I_, )
SHUF_T_(float, uint)
#if HPCL_FP64
SHUF_T_(double, ulong)
#endif
