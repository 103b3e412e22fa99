// SPDX-License-Identifier: MIT
/*
 * Sub-group functions inside work-group functions (host/clc/wgsg.c): the
 * build turns a sub-group collective r = F(x) of a kernel it makes a
 * work-group function into
 *
 *   __hpcl_sgw_put32/64(lid, x)        every item: its slot
 *   barrier                            (a cut between two item loops)
 *   __hpcl_sgw_KIND_T_once(wg)         once per group: every sub-group
 *                                      (wg: the whole group) folded
 *   r = __hpcl_sgw_KIND_T(lid, w, n)   every item: its result
 *
 * The once call starts the region after the barrier, which runs it
 * before its loop over the items (host/clc/wgregion.c): it folds every
 * sub-group's slots into the results (the reductions, scans, any and
 * all; broadcast and shuffle copy the slots), and each item then reads
 * its own in the loop, a load the vectoriser takes. An item writes its
 * own slot only, and the results are apart from the slots, so the next
 * collective's puts (in the same loop) never meet slots still to be
 * read. The folds go in lane order from lane 0, as the fibers'
 * (include/hartpool/kernel.h), so float results are the same bit for bit;
 * on V boards this library is built with V, and the loops over the lanes
 * (integer reductions, the result fills) are vectorised.
 */
#include "rt.h"

/* One slot and one result per work-item of the largest work-group, apart
 * for 32- and 64-bit types: an item's 64-bit put must not cover another
 * item's 32-bit slot still to be read. */
static _Thread_local uint32_t hpcl_sgw_slot32[HP_SG_BANK_STRIDE];
static _Thread_local uint32_t hpcl_sgw_res32[HP_SG_BANK_STRIDE];
static _Thread_local uint64_t hpcl_sgw_slot64[HP_SG_BANK_STRIDE];
static _Thread_local uint64_t hpcl_sgw_res64[HP_SG_BANK_STRIDE];
#define SGW_SLOTS_(T)                                                          \
	(sizeof(T) == 4 ? (T *)(void *)hpcl_sgw_slot32                         \
			: (T *)(void *)hpcl_sgw_slot64)
#define SGW_RES_(T)                                                            \
	(sizeof(T) == 4 ? (T *)(void *)hpcl_sgw_res32                          \
			: (T *)(void *)hpcl_sgw_res64)

/* The launch's sub-group size, and the group's items (both the same for
 * every item of a group: the build reads them once). */
size_t __hpcl_sgw_width(void);
size_t __hpcl_sgw_width(void)
{
	return hpcl_cur()->it->g->l->sub_group_size;
}
size_t __hpcl_sgw_items(void);
size_t __hpcl_sgw_items(void)
{
	return hpcl_cur()->it->g->linear_size;
}

void __hpcl_sgw_put32(size_t lid, uint32_t v);
__attribute__((always_inline)) void __hpcl_sgw_put32(size_t lid, uint32_t v)
{
	hpcl_sgw_slot32[lid] = v;
}
void __hpcl_sgw_put64(size_t lid, uint64_t v);
__attribute__((always_inline)) void __hpcl_sgw_put64(size_t lid, uint64_t v)
{
	hpcl_sgw_slot64[lid] = v;
}

#define SGW_ADD_(a, b) ((a) + (b))
#define SGW_MIN_(a, b) ((b) < (a) ? (b) : (a))
#define SGW_MAX_(a, b) ((b) > (a) ? (b) : (a))
#define SGW_OR_(a, b) ((a) | (b))
#define SGW_AND_(a, b) ((a) & (b))

/* The lanes of the sub-group whose first item is @p lid: w of them, or
 * what is left of the group. */
#define SGW_LANES_(lid, w, n) ((n) - (lid) < (w) ? (n) - (lid) : (w))

#if defined(__riscv_vector)
#include <riscv_vector.h>
/* On V boards the 32-bit sums are vector reductions (vredsum; vfredosum,
 * ordered, for floats: the lane order of the fibers, from -0.0, which
 * leaves lane 0's value as it is) and every fill is a vector store. */
#define SGW_VRED_(T, VT, LD, RED, SPLAT, EXTRACT, ZERO)                        \
	do {                                                                   \
		size_t vl_ = __riscv_vsetvl_e32m8(k);                          \
		if (vl_ == k) { /* one vector: from ZERO, lane 0 first */      \
			acc = EXTRACT(RED(LD(s, vl_), SPLAT(ZERO, 1), vl_));   \
			break;                                                 \
		}                                                              \
		VT##m1_t a_ = SPLAT(s[0], 1);                                  \
		for (size_t i_ = 1; i_ < k;) {                                 \
			vl_ = __riscv_vsetvl_e32m8(k - i_);                    \
			a_ = RED(LD(s + i_, vl_), a_, vl_);                    \
			i_ += vl_;                                             \
		}                                                              \
		acc = EXTRACT(a_);                                             \
	} while (0)
#define SGW_RED_ADD_int32_t(s, k)                                              \
	SGW_VRED_(int32_t, vint32, __riscv_vle32_v_i32m8,                      \
		  __riscv_vredsum_vs_i32m8_i32m1, __riscv_vmv_s_x_i32m1,       \
		  __riscv_vmv_x_s_i32m1_i32, 0)
#define SGW_RED_ADD_uint32_t(s, k)                                             \
	SGW_VRED_(uint32_t, vuint32, __riscv_vle32_v_u32m8,                    \
		  __riscv_vredsum_vs_u32m8_u32m1, __riscv_vmv_s_x_u32m1,       \
		  __riscv_vmv_x_s_u32m1_u32, 0)
#define SGW_RED_ADD_float(s, k)                                                \
	SGW_VRED_(float, vfloat32, __riscv_vle32_v_f32m8,                      \
		  __riscv_vfredosum_vs_f32m8_f32m1, __riscv_vfmv_s_f_f32m1,    \
		  __riscv_vfmv_f_s_f32m1_f32, -0.0f)
static inline void sgw_fill32(uint32_t *r, uint32_t v, size_t k)
{
	for (size_t i = 0; i < k;) {
		size_t vl = __riscv_vsetvl_e32m8(k - i);
		__riscv_vse32_v_u32m8(r + i, __riscv_vmv_v_x_u32m8(v, vl), vl);
		i += vl;
	}
}
#define SGW_FILL_(T, r, acc, k)                                                \
	do {                                                                   \
		if (sizeof(T) == 4) {                                          \
			uint32_t b_;                                           \
			__builtin_memcpy(&b_, &(acc), 4);                      \
			sgw_fill32((uint32_t *)(r), b_, (k));                  \
		} else {                                                       \
			for (size_t i_ = 0; i_ < (k); i_++)                    \
				(r)[i_] = (acc);                               \
		}                                                              \
	} while (0)
#else
#define SGW_FILL_(T, r, acc, k)                                                \
	do {                                                                   \
		for (size_t i_ = 0; i_ < (k); i_++)                            \
			(r)[i_] = (acc);                                       \
	} while (0)
#endif
/* The scalar fold of lanes 1.. into acc (OP in U). */
#define SGW_RED_LOOP_(T, U, OP, s, k)                                          \
	do {                                                                   \
		for (size_t i_ = 1; i_ < (k); i_++)                            \
			acc = (T)OP((U)acc, (U)(s)[i_]);                       \
	} while (0)
#if defined(__riscv_vector)
#define SGW_RADD_i(T, U, OP, s, k) SGW_RED_ADD_int32_t(s, k)
#define SGW_RADD_j(T, U, OP, s, k) SGW_RED_ADD_uint32_t(s, k)
#define SGW_RADD_f(T, U, OP, s, k) SGW_RED_ADD_float(s, k)
#else
#define SGW_RADD_i SGW_RED_LOOP_
#define SGW_RADD_j SGW_RED_LOOP_
#define SGW_RADD_f SGW_RED_LOOP_
#endif
#define SGW_RADD_l SGW_RED_LOOP_
#define SGW_RADD_m SGW_RED_LOOP_
#define SGW_RADD_d SGW_RED_LOOP_

/* The items of the full sub-groups whose 32-bit sums are made first, many
 * sub-groups at once (V: lane j of up to VLMAX sub-groups in one strided
 * vector; the sums go lane after lane from lane 0, each sub-group's in
 * the fibers' order, and are stored back to every lane the same way), 0
 * without V or with too few sub-groups; the rest is folded one sub-group
 * at a time. */
#define SGW_NOSUMS_(n, w) ((void)(n), (void)(w), (size_t)0)
#if defined(__riscv_vector)
#define SGW_VSUMS_(c, T, VT, LDS, STS, ADD)                                    \
	static size_t sgw_sums_##c(size_t n, size_t w)                         \
	{                                                                      \
		size_t m = n / w;                                              \
		if (w < 2 || m < 2)                                            \
			return 0;                                              \
		T *s = SGW_SLOTS_(T), *r = SGW_RES_(T);                        \
		ptrdiff_t st = (ptrdiff_t)(w * sizeof(T));                     \
		for (size_t g = 0; g < m;) {                                   \
			size_t vl = __riscv_vsetvl_e32m4(m - g);               \
			VT a = LDS(s + g * w, st, vl);                         \
			for (size_t j = 1; j < w; j++)                         \
				a = ADD(a, LDS(s + g * w + j, st, vl), vl);    \
			for (size_t j = 0; j < w; j++)                         \
				STS(r + g * w + j, st, a, vl);                 \
			g += vl;                                               \
		}                                                              \
		return m * w;                                                  \
	}
SGW_VSUMS_(i, int32_t, vint32m4_t, __riscv_vlse32_v_i32m4,
	   __riscv_vsse32_v_i32m4, __riscv_vadd_vv_i32m4)
SGW_VSUMS_(j, uint32_t, vuint32m4_t, __riscv_vlse32_v_u32m4,
	   __riscv_vsse32_v_u32m4, __riscv_vadd_vv_u32m4)
SGW_VSUMS_(f, float, vfloat32m4_t, __riscv_vlse32_v_f32m4,
	   __riscv_vsse32_v_f32m4, __riscv_vfadd_vv_f32m4)
#define SGW_SUMS_i sgw_sums_i
#define SGW_SUMS_j sgw_sums_j
#define SGW_SUMS_f sgw_sums_f
#else
#define SGW_SUMS_i SGW_NOSUMS_
#define SGW_SUMS_j SGW_NOSUMS_
#define SGW_SUMS_f SGW_NOSUMS_
#endif
#define SGW_SUMS_l SGW_NOSUMS_
#define SGW_SUMS_m SGW_NOSUMS_
#define SGW_SUMS_d SGW_NOSUMS_

/* kind 0: reduce (the fold in every lane's result), 1: inclusive scan,
 * 2: exclusive scan (each lane's prefix in its result). U: the type OP
 * computes in (the unsigned one for integer sums, which wrap). */
#define SGW_FOLD_(name, T, U, kind, OP, IDENT, RED, SUMS)                      \
	static inline __attribute__((always_inline)) void name##_fold(         \
		size_t first, size_t k)                                        \
	{                                                                      \
		T *s = SGW_SLOTS_(T) + first, *r = SGW_RES_(T) + first;        \
		T acc = s[0];                                                  \
		if ((kind) == 0) {                                             \
			RED(T, U, OP, s, k);                                   \
			SGW_FILL_(T, r, acc, k);                               \
		} else if ((kind) == 1) {                                      \
			r[0] = acc;                                            \
			for (size_t i = 1; i < k; i++)                         \
				r[i] = acc = (T)OP((U)acc, (U)s[i]);           \
		} else {                                                       \
			r[0] = (T)(IDENT);                                     \
			for (size_t i = 1; i < k; i++) {                       \
				r[i] = acc;                                    \
				acc = (T)OP((U)acc, (U)s[i]);                  \
			}                                                      \
		}                                                              \
	}                                                                      \
	void name##_once(uint32_t wg);                                         \
	void name##_once(uint32_t wg)                                          \
	{                                                                      \
		size_t n = __hpcl_sgw_items(),                                 \
		       w = wg ? n : __hpcl_sgw_width();                        \
		for (size_t f = SUMS(n, w); f < n; f += w)                     \
			name##_fold(f, SGW_LANES_(f, w, n));                   \
	}                                                                      \
	T name(size_t lid, size_t w, size_t n);                                \
	__attribute__((always_inline)) T name(size_t lid, size_t w, size_t n)  \
	{                                                                      \
		(void)w;                                                       \
		(void)n;                                                       \
		return (SGW_RES_(T))[lid];                                     \
	}

/* broadcast (lane the same for all items) and shuffle (any lane): the
 * group's slots copied once, each item reads its lane's copy; a lane past
 * the sub-group gives the item's own value, as the fibers. */
#define SGW_LANE_(name, T)                                                     \
	void name##_once(uint32_t wg);                                         \
	void name##_once(uint32_t wg)                                          \
	{                                                                      \
		(void)wg;                                                      \
		size_t n = __hpcl_sgw_items();                                 \
		T *s = SGW_SLOTS_(T), *r = SGW_RES_(T);                        \
		for (size_t i = 0; i < n; i++)                                 \
			r[i] = s[i];                                           \
	}                                                                      \
	T name(size_t lid, size_t w, size_t n, uint32_t lane);                 \
	__attribute__((always_inline)) T name(size_t lid, size_t w, size_t n,  \
					      uint32_t lane)                   \
	{                                                                      \
		size_t first = lid - lid % w, k = SGW_LANES_(first, w, n);     \
		return lane < k ? (SGW_RES_(T))[first + lane]                  \
				: (SGW_SLOTS_(T))[lid];                        \
	}

/* The three folds of one kind (0 reduce, 1 inclusive, 2 exclusive scan)
 * for type code c; RED: the add reduction's loop (the others fold in C). */
#define SGW_KIND_(pre, c, T, U, kind, LOWEST, HIGHEST, MIN, MAX, RED, SUMS)    \
	SGW_FOLD_(__hpcl_sgw_##pre##_add_##c, T, U, kind, SGW_ADD_, 0, RED,    \
		  SUMS)                                                        \
	SGW_FOLD_(__hpcl_sgw_##pre##_min_##c, T, T, kind, MIN, HIGHEST,        \
		  SGW_RED_LOOP_, SGW_NOSUMS_)                                  \
	SGW_FOLD_(__hpcl_sgw_##pre##_max_##c, T, T, kind, MAX, LOWEST,         \
		  SGW_RED_LOOP_, SGW_NOSUMS_)
/* MIN, MAX: as the fibers' (kernel.h; for double kernels/opencl/subgroup.cl's
 * fmin and fmax). */
#define SGW_TYPE_(c, T, U, LOWEST, HIGHEST, MIN, MAX)                          \
	SGW_KIND_(reduce, c, T, U, 0, LOWEST, HIGHEST, MIN, MAX, SGW_RADD_##c, \
		  SGW_SUMS_##c)                                                \
	SGW_KIND_(inclusive, c, T, U, 1, LOWEST, HIGHEST, MIN, MAX,            \
		  SGW_RED_LOOP_, SGW_NOSUMS_)                                  \
	SGW_KIND_(exclusive, c, T, U, 2, LOWEST, HIGHEST, MIN, MAX,            \
		  SGW_RED_LOOP_, SGW_NOSUMS_)                                  \
	SGW_LANE_(__hpcl_sgw_broadcast_##c, T)                                 \
	SGW_LANE_(__hpcl_sgw_shuffle_##c, T)
#define SGW_FMIN_(a, b) __builtin_fmin(a, b)
#define SGW_FMAX_(a, b) __builtin_fmax(a, b)
SGW_TYPE_(i, int32_t, uint32_t, INT32_MIN, INT32_MAX, SGW_MIN_, SGW_MAX_)
SGW_TYPE_(j, uint32_t, uint32_t, 0, UINT32_MAX, SGW_MIN_, SGW_MAX_)
SGW_TYPE_(l, int64_t, uint64_t, INT64_MIN, INT64_MAX, SGW_MIN_, SGW_MAX_)
SGW_TYPE_(m, uint64_t, uint64_t, 0, UINT64_MAX, SGW_MIN_, SGW_MAX_)
SGW_TYPE_(f, float, float, -__builtin_inff(), __builtin_inff(), SGW_MIN_,
	  SGW_MAX_)
#if __riscv_xlen == 64
SGW_TYPE_(d, double, double, -__builtin_inf(), __builtin_inf(), SGW_FMIN_,
	  SGW_FMAX_)
#endif

/* any / all over the predicates (put as 0 or 1). */
SGW_FOLD_(__hpcl_sgw_any, uint32_t, uint32_t, 0, SGW_OR_, 0, SGW_RED_LOOP_,
	  SGW_NOSUMS_)
SGW_FOLD_(__hpcl_sgw_all, uint32_t, uint32_t, 0, SGW_AND_, 1, SGW_RED_LOOP_,
	  SGW_NOSUMS_)
