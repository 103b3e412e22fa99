// SPDX-License-Identifier: MIT
/*
 * OpenCL C 2.0 / 3.0 work-group collective functions
 * (__opencl_c_work_group_collective_functions): all, any, broadcast,
 * reduce and inclusive / exclusive scans of add, min, max for int, uint,
 * long, ulong, float and (RV64) double.
 *
 * Every work-item writes its value to its slot of a scratch array in the
 * work-group's local memory (a runtime-owned thread-local variable, which
 * hp_cl_build places with the kernel's __local variables), a barrier, work-
 * item 0 folds the slots in local-id order (results do not depend on
 * scheduling, floats included), a barrier, each reads its result, and a
 * last barrier keeps the next collective from writing slots still being
 * read. Kernels calling these run as fibers (hp_cl_build sees the names).
 */
#include "rt.h"
#include <string.h>

/* One slot per work-item of the largest work-group, and the total. */
static _Thread_local uint64_t hpcl_wg_scratch[HP_SG_BANK_STRIDE + 1];

static void wg_barrier(hpcl_ctx *c)
{
	HPCL_FW(c, hp_barrier(c->it));
}

/* Slots hold any of the types bit for bit. */
#define WG_PUT_(T, slot, v)                                                    \
	do {                                                                   \
		T v_ = (v);                                                    \
		memcpy((slot), &v_, sizeof(T));                                \
	} while (0)
#define WG_GET_(T, slot)                                                       \
	({                                                                     \
		T g_;                                                          \
		memcpy(&g_, (slot), sizeof(T));                                \
		g_;                                                            \
	})

#define WG_ADD_(a, b) ((a) + (b))
#define WG_MIN_(a, b) ((b) < (a) ? (b) : (a))
#define WG_MAX_(a, b) ((b) > (a) ? (b) : (a))

/* kind 0: reduce, 1: inclusive scan, 2: exclusive scan. */
#define WG_FOLD_(mangled, T, kind, OP, IDENT)                                  \
	T mangled(T x);                                                        \
	T mangled(T x)                                                         \
	{                                                                      \
		hpcl_ctx *c = hpcl_cur();                                      \
		uint64_t *s = hpcl_wg_scratch;                                 \
		size_t n = c->it->g->linear_size, me = c->it->local_linear_id; \
		WG_PUT_(T, &s[me], x);                                         \
		wg_barrier(c);                                                 \
		if (me == 0) {                                                 \
			T acc = (IDENT);                                       \
			for (size_t i = 0; i < n; i++) {                       \
				T v = WG_GET_(T, &s[i]);                       \
				T next = i ? OP(acc, v) : v;                   \
				if ((kind) == 1)                               \
					WG_PUT_(T, &s[i], next);               \
				else if ((kind) == 2)                          \
					WG_PUT_(T, &s[i], acc);                \
				acc = next;                                    \
			}                                                      \
			WG_PUT_(T, &s[n], acc);                                \
		}                                                              \
		wg_barrier(c);                                                 \
		T r = WG_GET_(T, &s[(kind) == 0 ? n : me]);                    \
		wg_barrier(c);                                                 \
		return r;                                                      \
	}

/* broadcast from the work-item with local id (x, y, z) */
#define WG_BCAST_BODY_(T, lin)                                                 \
	hpcl_ctx *c = hpcl_cur();                                              \
	uint64_t *s = hpcl_wg_scratch;                                         \
	if (c->it->local_linear_id == (lin))                                   \
		WG_PUT_(T, &s[0], v);                                          \
	wg_barrier(c);                                                         \
	T r = WG_GET_(T, &s[0]);                                               \
	wg_barrier(c);                                                         \
	return r;
#define WG_BCAST_(code, T, sz)                                                 \
	T _Z20work_group_broadcast##code##sz(T v, size_t x);                   \
	T _Z20work_group_broadcast##code##sz(T v, size_t x){WG_BCAST_BODY_(    \
		T, x)} T _Z20work_group_broadcast##code##sz##sz(T v, size_t x, \
								size_t y);     \
	T _Z20work_group_broadcast##code##sz##sz(T v, size_t x, size_t y)      \
	{                                                                      \
		const hp_group *g = hpcl_cur()->it->g;                         \
		WG_BCAST_BODY_(T, x + y * g->local_size[0])                    \
	}                                                                      \
	T _Z20work_group_broadcast##code##sz##sz##sz(T v, size_t x, size_t y,  \
						     size_t z);                \
	T _Z20work_group_broadcast##code##sz##sz##sz(T v, size_t x, size_t y,  \
						     size_t z)                 \
	{                                                                      \
		const hp_group *g = hpcl_cur()->it->g;                         \
		WG_BCAST_BODY_(T, x + (y + z * g->local_size[1]) *             \
						  g->local_size[0])            \
	}

/* size_t's Itanium code: unsigned long on RV64, unsigned int on RV32 */
#if __riscv_xlen == 64
#define WG_SIZE_T_ m
#else
#define WG_SIZE_T_ j
#endif
/* paste after expansion */
#define WG_BCAST_X_(code, T, sz) WG_BCAST_(code, T, sz)
#define WG_TYPE_(code, T, ADD, LOW, HIGH)                                      \
	WG_FOLD_(_Z21work_group_reduce_add##code, T, 0, ADD, 0)                \
	WG_FOLD_(_Z21work_group_reduce_min##code, T, 0, WG_MIN_, HIGH)         \
	WG_FOLD_(_Z21work_group_reduce_max##code, T, 0, WG_MAX_, LOW)          \
	WG_FOLD_(_Z29work_group_scan_inclusive_add##code, T, 1, ADD, 0)        \
	WG_FOLD_(_Z29work_group_scan_inclusive_min##code, T, 1, WG_MIN_, HIGH) \
	WG_FOLD_(_Z29work_group_scan_inclusive_max##code, T, 1, WG_MAX_, LOW)  \
	WG_FOLD_(_Z29work_group_scan_exclusive_add##code, T, 2, ADD, 0)        \
	WG_FOLD_(_Z29work_group_scan_exclusive_min##code, T, 2, WG_MIN_, HIGH) \
	WG_FOLD_(_Z29work_group_scan_exclusive_max##code, T, 2, WG_MAX_, LOW)  \
	WG_BCAST_X_(code, T, WG_SIZE_T_)

#define WG_ADD_I_(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define WG_ADD_L_(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
WG_TYPE_(i, int32_t, WG_ADD_I_, INT32_MIN, INT32_MAX)
WG_TYPE_(j, uint32_t, WG_ADD_, 0, UINT32_MAX)
WG_TYPE_(l, int64_t, WG_ADD_L_, INT64_MIN, INT64_MAX)
WG_TYPE_(m, uint64_t, WG_ADD_, 0, UINT64_MAX)
WG_TYPE_(f, float, WG_ADD_, -__builtin_inff(), __builtin_inff())
#if __riscv_xlen == 64
WG_TYPE_(d, double, WG_ADD_, -__builtin_inf(), __builtin_inf())
#endif

/* all / any: the fold of the predicates */
#define WG_AND_(a, b) ((a) && (b))
#define WG_OR_(a, b) ((a) || (b))
static int wg_pred(int p, int all)
{
	hpcl_ctx *c = hpcl_cur();
	uint64_t *s = hpcl_wg_scratch;
	size_t n = c->it->g->linear_size, me = c->it->local_linear_id;
	s[me] = p != 0;
	wg_barrier(c);
	if (me == 0) {
		uint64_t acc = (uint64_t)all;
		for (size_t i = 0; i < n; i++)
			acc = all ? WG_AND_(acc, s[i]) : WG_OR_(acc, s[i]);
		s[n] = acc;
	}
	wg_barrier(c);
	int r = s[n] != 0;
	wg_barrier(c);
	return r;
}
int _Z14work_group_alli(int p);
int _Z14work_group_alli(int p)
{
	return wg_pred(p, 1);
}
int _Z14work_group_anyi(int p);
int _Z14work_group_anyi(int p)
{
	return wg_pred(p, 0);
}
