// SPDX-License-Identifier: MIT
/*
 * Sub-group functions. A sub-group is a run of S consecutive local linear
 * ids on one hart, executed as fibers (wg.c). A collective writes each
 * work-item's value to its slot, meets at the sub-group barrier, computes
 * its own result from the slots in lane order (so float results do not
 * depend on scheduling), and meets again before the slots are reused.
 */
#include "wg.h"
#include <string.h>

/* Publish x; returns the sub-group's slots, or NULL when the kernel runs
 * without fibers (then the sub-group is this one work-item, or the kernel
 * broke the uses_barriers rule, which hp_sub_group_barrier reports). */
static const uint64_t *sg_enter(const hp_item *it, const void *x, size_t size,
				unsigned *n, unsigned *me)
{
	if (!it->g->wg) {
		hp_sub_group_barrier(it);
		return NULL;
	}
	unsigned first;
	uint64_t *slots = exec_sg_slots(it, &first);
	uint64_t v = 0;
	memcpy(&v, x, size);
	*me = hp_sub_group_local_id(it);
	slots[first + *me] = v;
	hp_sub_group_barrier(it);
	*n = hp_sub_group_size(it);
	return slots + first;
}

static void sg_leave(const hp_item *it)
{
	if (it->g->wg)
		hp_sub_group_barrier(it);
}

bool hp_sub_group_any(const hp_item *it, bool pred)
{
	unsigned n, me;
	uint64_t v = pred;
	const uint64_t *s = sg_enter(it, &v, sizeof(v), &n, &me);
	if (!s)
		return pred;
	bool r = false;
	for (unsigned i = 0; i < n; i++)
		r = r || s[i];
	sg_leave(it);
	return r;
}

bool hp_sub_group_all(const hp_item *it, bool pred)
{
	unsigned n, me;
	uint64_t v = pred;
	const uint64_t *s = sg_enter(it, &v, sizeof(v), &n, &me);
	if (!s)
		return pred;
	bool r = true;
	for (unsigned i = 0; i < n; i++)
		r = r && s[i];
	sg_leave(it);
	return r;
}

#define OP_ADD(T, U, a, b) ((T)((U)(a) + (U)(b)))
#define OP_MIN(T, U, a, b) ((b) < (a) ? (b) : (a))
#define OP_MAX(T, U, a, b) ((b) > (a) ? (b) : (a))

#define SG_OPS(tn, T, U, op, OP, IDENT)                                        \
	T hp_sub_group_reduce_##op##_##tn(const hp_item *it, T x)              \
	{                                                                      \
		unsigned n, me;                                                \
		const uint64_t *s = sg_enter(it, &x, sizeof(x), &n, &me);      \
		if (!s)                                                        \
			return x;                                              \
		T r = get_##tn(s, 0);                                          \
		for (unsigned i = 1; i < n; i++)                               \
			r = OP(T, U, r, get_##tn(s, i));                       \
		sg_leave(it);                                                  \
		return r;                                                      \
	}                                                                      \
	T hp_sub_group_scan_inclusive_##op##_##tn(const hp_item *it, T x)      \
	{                                                                      \
		unsigned n, me;                                                \
		const uint64_t *s = sg_enter(it, &x, sizeof(x), &n, &me);      \
		if (!s)                                                        \
			return x;                                              \
		T r = get_##tn(s, 0);                                          \
		for (unsigned i = 1; i <= me; i++)                             \
			r = OP(T, U, r, get_##tn(s, i));                       \
		sg_leave(it);                                                  \
		return r;                                                      \
	}                                                                      \
	T hp_sub_group_scan_exclusive_##op##_##tn(const hp_item *it, T x)      \
	{                                                                      \
		unsigned n, me;                                                \
		const uint64_t *s = sg_enter(it, &x, sizeof(x), &n, &me);      \
		if (!s)                                                        \
			return IDENT;                                          \
		T r = IDENT;                                                   \
		for (unsigned i = 0; i < me; i++)                              \
			r = OP(T, U, r, get_##tn(s, i));                       \
		sg_leave(it);                                                  \
		return r;                                                      \
	}

#define SG_TYPE(tn, T, U, LOWEST, HIGHEST)                                     \
	static T get_##tn(const uint64_t *s, unsigned i)                       \
	{                                                                      \
		T v;                                                           \
		memcpy(&v, &s[i], sizeof(v));                                  \
		return v;                                                      \
	}                                                                      \
	T hp_sub_group_broadcast_##tn(const hp_item *it, T x, unsigned lane)   \
	{                                                                      \
		unsigned n, me;                                                \
		const uint64_t *s = sg_enter(it, &x, sizeof(x), &n, &me);      \
		if (!s)                                                        \
			return x;                                              \
		T r = lane < n ? get_##tn(s, lane) : x;                        \
		sg_leave(it);                                                  \
		return r;                                                      \
	}                                                                      \
	T hp_sub_group_shuffle_##tn(const hp_item *it, T x, unsigned lane)     \
	{                                                                      \
		return hp_sub_group_broadcast_##tn(it, x, lane);               \
	}                                                                      \
	SG_OPS(tn, T, U, add, OP_ADD, (T)0)                                    \
	SG_OPS(tn, T, U, min, OP_MIN, HIGHEST)                                 \
	SG_OPS(tn, T, U, max, OP_MAX, LOWEST)

SG_TYPE(int, int32_t, uint32_t, INT32_MIN, INT32_MAX)
SG_TYPE(uint, uint32_t, uint32_t, 0, UINT32_MAX)
SG_TYPE(long, int64_t, uint64_t, INT64_MIN, INT64_MAX)
SG_TYPE(ulong, uint64_t, uint64_t, 0, UINT64_MAX)
SG_TYPE(float, float, float, -__builtin_inff(), __builtin_inff())
