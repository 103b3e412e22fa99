// SPDX-License-Identifier: MIT
/*
 * The double sub-group collectives (cl_khr_subgroups with cl_khr_fp64): the
 * run-time core (rt.c) has them for int, uint, long, ulong and float. These
 * go through its ulong broadcast: reductions and scans fold the lanes in
 * order, one broadcast per lane (the sub-group size is small), so every
 * lane gets the same sums.
 */
#include "clc.h"

#if HPCL_FP64
ulong OVL sub_group_broadcast(ulong x, uint lane);
uint OVC get_sub_group_size(void);
uint OVC get_sub_group_local_id(void);

double OVL sub_group_broadcast(double x, uint lane)
{
	return __builtin_bit_cast(
		double,
		sub_group_broadcast(__builtin_bit_cast(ulong, x), lane));
}

/* kind 0: reduce, 1: inclusive scan, 2: exclusive scan */
#define SGD_(NAME, KIND, OP, IDENT)                                            \
	double OVL NAME(double x)                                              \
	{                                                                      \
		uint n = get_sub_group_size(), me = get_sub_group_local_id();  \
		double acc = IDENT;                                            \
		for (uint l = 0; l < n; l++) {                                 \
			double v = sub_group_broadcast(x, l);                  \
			if (KIND == 0 || l < me || (KIND == 1 && l == me))     \
				acc = OP;                                      \
		}                                                              \
		return acc;                                                    \
	}
#define SGD3_(OPN, OP, IDENT)                                                  \
	SGD_(sub_group_reduce_##OPN, 0, OP, IDENT)                             \
	SGD_(sub_group_scan_inclusive_##OPN, 1, OP, IDENT)                     \
	SGD_(sub_group_scan_exclusive_##OPN, 2, OP, IDENT)
SGD3_(add, acc + v, 0)
SGD3_(min, __builtin_fmin(acc, v), INFINITY)
SGD3_(max, __builtin_fmax(acc, v), -INFINITY)
#endif
