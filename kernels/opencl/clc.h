/* SPDX-License-Identifier: MIT */
/*
 * Shared by the OpenCL C files of the built-in library
 * (docs/opencl-builtins.md). They are compiled with -cl-no-stdinc: clang's
 * opencl-c-base.h gives the types and constants, and the library declares
 * (and defines) its own overloads, which mangle like the declarations
 * kernels see.
 */
#ifndef HPCL_CLC_H
#define HPCL_CLC_H

#include <opencl-c-base.h>

#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define HPCL_FP64 1
#endif
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#define HPCL_ATOM64 1
#endif

/* An overloaded built-in; OVC: one without side effects. */
#define OVL __attribute__((overloadable))
#define OVC __attribute__((overloadable, const))

/* Run-time core (rt.c) functions the library uses. */
size_t OVC get_local_linear_id(void);
size_t OVC get_local_size(uint);
void OVL barrier(cl_mem_fence_flags);

/* Vector variants, componentwise: M(n, ...) for every width. */
#define HP_VEC(M, ...)                                                         \
	M(2, __VA_ARGS__)                                                      \
	M(3, __VA_ARGS__)                                                      \
	M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

/* R F(T x) / R F(T x, T y) / R F(T x, T y, T z) over vectors of the scalar
 * overload (R: the scalar result type; its vectors have the same width). */
#define HP_V1_(n, R, T, F)                                                     \
	R##n OVC F(T##n x)                                                     \
	{                                                                      \
		R##n r;                                                        \
		for (int i = 0; i < n; i++)                                    \
			r[i] = F(x[i]);                                        \
		return r;                                                      \
	}
#define HP_V2_(n, R, T, F)                                                     \
	R##n OVC F(T##n x, T##n y)                                             \
	{                                                                      \
		R##n r;                                                        \
		for (int i = 0; i < n; i++)                                    \
			r[i] = F(x[i], y[i]);                                  \
		return r;                                                      \
	}
#define HP_V3_(n, R, T, F)                                                     \
	R##n OVC F(T##n x, T##n y, T##n z)                                     \
	{                                                                      \
		R##n r;                                                        \
		for (int i = 0; i < n; i++)                                    \
			r[i] = F(x[i], y[i], z[i]);                            \
		return r;                                                      \
	}
/* The second argument of F is a scalar S also for vectors (ldexp(floatn,
 * int), fmax(floatn, float)...). */
#define HP_V2S_(n, R, T, S, F)                                                 \
	R##n OVC F(T##n x, S y)                                                \
	{                                                                      \
		R##n r;                                                        \
		for (int i = 0; i < n; i++)                                    \
			r[i] = F(x[i], y);                                     \
		return r;                                                      \
	}
/* F(T x, T2 y) with a vector of a different element type as y. */
#define HP_V2M_(n, R, T, T2, F)                                                \
	R##n OVC F(T##n x, T2##n y)                                            \
	{                                                                      \
		R##n r;                                                        \
		for (int i = 0; i < n; i++)                                    \
			r[i] = F(x[i], y[i]);                                  \
		return r;                                                      \
	}
#define HP_V1(R, T, F) HP_VEC(HP_V1_, R, T, F)
#define HP_V2(R, T, F) HP_VEC(HP_V2_, R, T, F)
#define HP_V3(R, T, F) HP_VEC(HP_V3_, R, T, F)
#define HP_V2S(R, T, S, F) HP_VEC(HP_V2S_, R, T, S, F)
#define HP_V2M(R, T, T2, F) HP_VEC(HP_V2M_, R, T, T2, F)

/* The integer types: M(T, unsigned T, Itanium code letter, bits, signed). */
#define HP_INT32(M, ...)                                                       \
	M(char, uchar, 8, 1, __VA_ARGS__)                                      \
	M(uchar, uchar, 8, 0, __VA_ARGS__)                                     \
	M(short, ushort, 16, 1, __VA_ARGS__)                                   \
	M(ushort, ushort, 16, 0, __VA_ARGS__)                                  \
	M(int, uint, 32, 1, __VA_ARGS__) M(uint, uint, 32, 0, __VA_ARGS__)
#define HP_INTS(M, ...)                                                        \
	HP_INT32(M, __VA_ARGS__)                                               \
	M(long, ulong, 64, 1, __VA_ARGS__) M(ulong, ulong, 64, 0, __VA_ARGS__)

#endif
