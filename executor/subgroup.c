// SPDX-License-Identifier: MIT
/*
 * Sub-group functions as C entries: the API table's (kernel objects built
 * with older headers) and the host's. Kernels compiled with
 * hartpool/kernel.h inline the same code (there: how a collective works);
 * these functions are that code called through the C ABI.
 */
/* Firmware code: nothing in FP registers across a yield (api.h). */
#define HP_YIELD_INT_ONLY 1
#include "wg.h"

bool hp_sub_group_any_call(const hp_item *it, bool pred)
{
	return hp_sub_group_any(it, pred);
}

bool hp_sub_group_all_call(const hp_item *it, bool pred)
{
	return hp_sub_group_all(it, pred);
}

#define SG_ONE(tn, T, name)                                                    \
	T hp_sub_group_##name##_##tn##_call(const hp_item *it, T x)            \
	{                                                                      \
		return hp_sub_group_##name##_##tn(it, x);                      \
	}
#define SG_LANE(tn, T, name)                                                   \
	T hp_sub_group_##name##_##tn##_call(const hp_item *it, T x,            \
					    unsigned lane)                     \
	{                                                                      \
		return hp_sub_group_##name##_##tn(it, x, lane);                \
	}
#define SG_TYPE(tn, T)                                                         \
	SG_LANE(tn, T, broadcast)                                              \
	SG_LANE(tn, T, shuffle)                                                \
	SG_ONE(tn, T, reduce_add)                                              \
	SG_ONE(tn, T, reduce_min)                                              \
	SG_ONE(tn, T, reduce_max)                                              \
	SG_ONE(tn, T, scan_inclusive_add)                                      \
	SG_ONE(tn, T, scan_inclusive_min)                                      \
	SG_ONE(tn, T, scan_inclusive_max)                                      \
	SG_ONE(tn, T, scan_exclusive_add)                                      \
	SG_ONE(tn, T, scan_exclusive_min)                                      \
	SG_ONE(tn, T, scan_exclusive_max)

SG_TYPE(int, int32_t)
SG_TYPE(uint, uint32_t)
SG_TYPE(long, int64_t)
SG_TYPE(ulong, uint64_t)
SG_TYPE(float, float)
