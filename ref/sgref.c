// SPDX-License-Identifier: MIT
/* Reference results of the sg_ops diagnostic kernel (kernels/sg_ops.c),
 * computed from the sub-group's inputs in lane order with the same left
 * folds the OpenCL definitions give. */
#include "sgref.h"
#include <string.h>

/* One type's results for lane `me`. */
#define REF_TYPE(tn, T, U, LOWEST, HIGHEST)                                    \
	static void ref_##tn(const int32_t *lanes, unsigned n, unsigned me,    \
			     uint64_t *want)                                   \
	{                                                                      \
		T v[64] = {0}, res[HP_SG_PER_TYPE];                            \
		for (unsigned k = 0; k < n; k++)                               \
			v[k] = (T)lanes[k];                                    \
		res[HP_SG_BCAST0] = v[0];                                      \
		res[HP_SG_BCAST_LAST] = v[n - 1];                              \
		res[HP_SG_SHUFFLE] = v[(me + 1) % n];                          \
		T add = v[0], mn = v[0], mx = v[0];                            \
		for (unsigned k = 1; k < n; k++) {                             \
			add = (T)((U)add + (U)v[k]);                           \
			mn = v[k] < mn ? v[k] : mn;                            \
			mx = v[k] > mx ? v[k] : mx;                            \
		}                                                              \
		res[HP_SG_RED_ADD] = add;                                      \
		res[HP_SG_RED_MIN] = mn;                                       \
		res[HP_SG_RED_MAX] = mx;                                       \
		T ia = v[0], imn = v[0], imx = v[0];                           \
		T ea = 0, emn = HIGHEST, emx = LOWEST;                         \
		for (unsigned k = 1; k <= me; k++) {                           \
			ea = (T)((U)ea + (U)v[k - 1]);                         \
			emn = v[k - 1] < emn ? v[k - 1] : emn;                 \
			emx = v[k - 1] > emx ? v[k - 1] : emx;                 \
			ia = (T)((U)ia + (U)v[k]);                             \
			imn = v[k] < imn ? v[k] : imn;                         \
			imx = v[k] > imx ? v[k] : imx;                         \
		}                                                              \
		res[HP_SG_INC_ADD] = ia;                                       \
		res[HP_SG_INC_MIN] = imn;                                      \
		res[HP_SG_INC_MAX] = imx;                                      \
		res[HP_SG_EXC_ADD] = ea;                                       \
		res[HP_SG_EXC_MIN] = emn;                                      \
		res[HP_SG_EXC_MAX] = emx;                                      \
		for (unsigned k = 0; k < HP_SG_PER_TYPE; k++) {                \
			uint64_t bits = 0;                                     \
			memcpy(&bits, &res[k], sizeof(T));                     \
			want[k] = bits;                                        \
		}                                                              \
	}
REF_TYPE(int, int32_t, uint32_t, INT32_MIN, INT32_MAX)
REF_TYPE(uint, uint32_t, uint32_t, 0, UINT32_MAX)
REF_TYPE(long, int64_t, uint64_t, INT64_MIN, INT64_MAX)
REF_TYPE(ulong, uint64_t, uint64_t, 0, UINT64_MAX)
REF_TYPE(float, float, float, -__builtin_inff(), __builtin_inff())

void sgref_item(const int32_t *lanes, unsigned cnt, unsigned me,
		uint64_t want[HP_SG_OUTS])
{
	ref_int(lanes, cnt, me, want + 0 * HP_SG_PER_TYPE);
	ref_uint(lanes, cnt, me, want + 1 * HP_SG_PER_TYPE);
	ref_long(lanes, cnt, me, want + 2 * HP_SG_PER_TYPE);
	ref_ulong(lanes, cnt, me, want + 3 * HP_SG_PER_TYPE);
	ref_float(lanes, cnt, me, want + 4 * HP_SG_PER_TYPE);
	bool any = false, all = true;
	for (unsigned k = 0; k < cnt; k++) {
		any = any || lanes[k] > 0;
		all = all && lanes[k] > 0;
	}
	want[HP_SG_ANY] = any;
	want[HP_SG_ALL] = all;
	want[HP_SG_BARRIER] = (uint64_t)(int64_t)lanes[(me + 1) % cnt];
}
