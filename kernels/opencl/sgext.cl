// SPDX-License-Identifier: MIT
/*
 * cl_khr_subgroup_shuffle, cl_khr_subgroup_shuffle_relative and
 * cl_khr_subgroup_clustered_reduce, built on the run-time's sub-group
 * shuffle (rt.c: int, uint, long, ulong, float; double through ulong;
 * char and short through int). A lane past the sub-group gives the item
 * its own value, so xor, up and down are shuffles of the item's lane ^
 * mask, - delta, + delta. A clustered reduction folds its cluster's lanes
 * in lane order, one shuffle each (every item calls the shuffle the same
 * number of times, as the fibers need), so every lane of a cluster gets
 * the same result; lanes past a partial sub-group are left out.
 */
#include "clc.h"

uint OVC get_sub_group_local_id(void);
uint OVC get_sub_group_size(void);

#define SGX_DECL_(T) T OVL sub_group_shuffle(T x, uint lane);
SGX_DECL_(int)
SGX_DECL_(uint)
SGX_DECL_(long)
SGX_DECL_(ulong)
SGX_DECL_(float)

/* the narrow types through a 32-bit shuffle */
#define SGX_NARROW_(T, W)                                                      \
	T OVL sub_group_shuffle(T x, uint lane)                                \
	{                                                                      \
		return (T)sub_group_shuffle((W)x, lane);                       \
	}
SGX_NARROW_(char, int)
SGX_NARROW_(uchar, uint)
SGX_NARROW_(short, int)
SGX_NARROW_(ushort, uint)
#if HPCL_FP64
double OVL sub_group_shuffle(double x, uint lane)
{
	return __builtin_bit_cast(
		double, sub_group_shuffle(__builtin_bit_cast(ulong, x), lane));
}
#endif

#define SGX_REL_(T)                                                            \
	T OVL sub_group_shuffle_xor(T x, uint mask)                            \
	{                                                                      \
		return sub_group_shuffle(x, get_sub_group_local_id() ^ mask);  \
	}                                                                      \
	T OVL sub_group_shuffle_up(T x, uint delta)                            \
	{                                                                      \
		return sub_group_shuffle(x, get_sub_group_local_id() - delta); \
	}                                                                      \
	T OVL sub_group_shuffle_down(T x, uint delta)                          \
	{                                                                      \
		return sub_group_shuffle(x, get_sub_group_local_id() + delta); \
	}

/* reduce_NAME over the item's cluster of @p cs lanes; OP(a, v) */
#define SGX_CLU_(T, NAME, OP)                                                  \
	T OVL sub_group_clustered_reduce_##NAME(T x, uint cs)                  \
	{                                                                      \
		uint me = get_sub_group_local_id();                            \
		uint n = get_sub_group_size(), base = me - me % cs;            \
		T a = sub_group_shuffle(x, base);                              \
		for (uint l = 1; l < cs; l++) {                                \
			T v = sub_group_shuffle(x, base + l);                  \
			if (base + l < n)                                      \
				a = OP;                                        \
		}                                                              \
		return a;                                                      \
	}
/* integers: add and mul wrap (in the unsigned type) */
#define SGX_INT_(T, UT, BITS, SIGNED, X)                                       \
	SGX_REL_(T)                                                            \
	SGX_CLU_(T, add, (T)((UT)a + (UT)v))                                   \
	SGX_CLU_(T, mul, (T)((UT)a * (UT)v))                                   \
	SGX_CLU_(T, min, a < v ? a : v)                                        \
	SGX_CLU_(T, max, a > v ? a : v)                                        \
	SGX_CLU_(T, and, a & v)                                                \
	SGX_CLU_(T, or, a | v)                                                 \
	SGX_CLU_(T, xor, a ^ v)
HP_INTS(SGX_INT_, )
#define SGX_FLT_(T)                                                            \
	SGX_REL_(T)                                                            \
	SGX_CLU_(T, add, a + v)                                                \
	SGX_CLU_(T, mul, a * v)                                                \
	SGX_CLU_(T, min, __builtin_fmin(a, v))                                 \
	SGX_CLU_(T, max, __builtin_fmax(a, v))
SGX_FLT_(float)
#if HPCL_FP64
SGX_FLT_(double)
#endif
/* the logical ones on int predicates: 0 or 1 */
SGX_CLU_(int, logical_and, (a != 0) & (v != 0))
SGX_CLU_(int, logical_or, (a != 0) | (v != 0))
SGX_CLU_(int, logical_xor, (a != 0) ^ (v != 0))
