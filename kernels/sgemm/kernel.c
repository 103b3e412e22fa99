// SPDX-License-Identifier: MIT
/* sgemm_naive and sgemm_tiled: C = A * B, one element of C per work-item
 * (dimension 0 the column, 1 the row). Both add the k products in the same
 * order, so they give the same bits. */
#include "../lib_rvv.h"
#include "args.h"
#include <hartpool/kernel.h>
#include <kernels/lib_util.h>

/* The shape fits the spans the mailbox checked. */
static inline bool sgemm_ok(const hp_sgemm_args *a)
{
	/* & rather than &&: one value the row loop keeps, not three
	 * branches (and reloads) per work-item. */
	return hp_lib_fits(a->m, a->k, a->a_len) &
	       hp_lib_fits(a->k, a->n, a->b_len) &
	       hp_lib_fits(a->m, a->n, a->c_len);
}

/* Everything that does not depend on the work-item is read and decided
 * before the first branch: the row loop then holds it in registers instead
 * of re-reading the arguments and re-checking the shape per item. The
 * checks fold into one bound, `lim` (n, or 0 when the shape does not fit or
 * k is 0), so an item of a good row costs one compare before its k loop,
 * which then needs no zero-trip test; k = 0 (C = 0) takes the cold path. */
HP_KERNEL(sgemm_naive, const hp_item *it, const void *args)
{
	const hp_sgemm_args *a = args;
	size_t m = (size_t)a->m, n = (size_t)a->n, k = (size_t)a->k;
	const float *A = (const float *)(uintptr_t)a->a;
	const float *B = (const float *)(uintptr_t)a->b;
	float *C = (float *)(uintptr_t)a->c;
	size_t j = hp_global_id(it, 0), i = hp_global_id(it, 1);
	bool row_ok = sgemm_ok(a) & (i < m); /* the same along a row */
	size_t lim = n & -(size_t)(row_ok & (k != 0));
	if (j >= lim) {
		if (row_ok & (k == 0) & (j < n))
			C[i * n + j] = 0.0f;
		return;
	}
	const float *arow = A + i * k, *aend = arow + k;
	const float *bcol = B + j;
	float acc = 0.0f;
	do {
		acc += *arow++ * *bcol;
		bcol += n;
	} while (arow != aend);
	C[i * n + j] = acc;
}
#define SGEMM_BUFS_                                                            \
	HP_BUFFERS(HP_BUF(hp_sgemm_args, a, float, ARG,                        \
			  offsetof(hp_sgemm_args, a_len)),                     \
		   HP_BUF(hp_sgemm_args, b, float, ARG,                        \
			  offsetof(hp_sgemm_args, b_len)),                     \
		   HP_BUF(hp_sgemm_args, c, float, ARG,                        \
			  offsetof(hp_sgemm_args, c_len)))
#ifdef __riscv_vector
/* C[i][j0 .. j0 + cnt) of a good shape with k >= 1, clipped to C. */
static void sgemm_row_v(const hp_sgemm_args *a, size_t i, size_t j0, size_t cnt)
{
	size_t m = (size_t)a->m, n = (size_t)a->n, k = (size_t)a->k;
	if (i >= m || j0 >= n)
		return;
	hp_rvv_sgemm_row(HP_PTR(float, a->c) + i * n + j0,
			 HP_PTR(const float, a->a) + i * k,
			 HP_PTR(const float, a->b) + j0, k, n,
			 n - j0 < cnt ? n - j0 : cnt);
}
/* With V: a group's row of items as one vector loop over its columns; the
 * scalar row where the harts keep V off, the shape does not fit or k is
 * 0. */
static void sgemm_naive_row_v(const hp_item *it, const void *args, size_t n)
{
	const hp_sgemm_args *a = args;
	if (!it->g->l->vector_bytes || !sgemm_ok(a) || !a->k) {
		hp_krow_sgemm_naive(it, args, n);
		return;
	}
	sgemm_row_v(a, hp_global_id(it, 1), hp_global_id(it, 0), n);
}
HP_REGISTER_ROW(sgemm_naive, sgemm_naive_row_v, .uses_fpu = true,
		.args_size = sizeof(hp_sgemm_args), SGEMM_BUFS_);
#else
HP_REGISTER(sgemm_naive, .uses_fpu = true, .args_size = sizeof(hp_sgemm_args),
	    SGEMM_BUFS_);
#endif

/*
 * Per step of T = HP_SGEMM_TILE k-values, the group stages the rows of A
 * it needs (ly x T) and the columns of B (T x lx) in local memory, then
 * every item reads only local memory. The items load the tiles together,
 * element e by item e mod the group size, so a remainder group (fewer
 * items) still fills them; loads outside A or B are skipped and never
 * read, because the k loop stops at k and items outside C do not sum.
 */
HP_KERNEL(sgemm_tiled, const hp_item *it, const void *args)
{
	enum { T = HP_SGEMM_TILE };
	const hp_sgemm_args *a = args;
	size_t lx = hp_local_id(it, 0), ly = hp_local_id(it, 1);
	size_t sx = hp_local_size(it, 0), sy = hp_local_size(it, 1);
	size_t j = hp_global_id(it, 0), i = hp_global_id(it, 1);
	size_t j0 = j - lx, i0 = i - ly;
	size_t me = hp_local_linear_id(it), items = sx * sy;
	/* The same decision in every item of the group (barriers below). */
	if (!sgemm_ok(a))
		return;
	size_t m = (size_t)a->m, n = (size_t)a->n, k = (size_t)a->k;
	const float *A = (const float *)(uintptr_t)a->a;
	const float *B = (const float *)(uintptr_t)a->b;
	float *As = hp_local_mem(it);			    /* [sy][T] */
	float *Bs = As + hp_enqueued_local_size(it, 1) * T; /* [T][sx] */
	bool inside = i < m && j < n;
	float acc = 0.0f;
	for (size_t k0 = 0; k0 < k; k0 += T) {
		size_t kt = k - k0 < T ? k - k0 : T;
		for (size_t e = me; e < sy * T; e += items) {
			size_t r = e / T, c = e % T;
			if (i0 + r < m && c < kt)
				As[e] = A[(i0 + r) * k + k0 + c];
		}
		for (size_t e = me; e < T * sx; e += items) {
			size_t r = e / sx, c = e % sx;
			if (r < kt && j0 + c < n)
				Bs[e] = B[(k0 + r) * n + j0 + c];
		}
		hp_barrier(it);
		if (inside)
			for (size_t p = 0; p < kt; p++)
				acc += As[ly * T + p] * Bs[p * sx + lx];
		hp_barrier(it);
	}
	if (inside)
		((float *)(uintptr_t)a->c)[i * n + j] = acc;
}
/* The two tiles take (lx + ly) * T floats: at most 257 * T, as lx * ly is
 * at most 256. */
#define SGEMM_TILED_ATTRS_                                                     \
	.uses_barriers = true, .uses_fpu = true,                               \
	.local_mem_bytes = 257 * HP_SGEMM_TILE * sizeof(float),                \
	.args_size = sizeof(hp_sgemm_args), SGEMM_BUFS_
#ifdef __riscv_vector
/* With V: a work-group function (row_is_group), each of the group's rows
 * one vector loop over its columns, the k products in the order of the
 * tiles' loop (the same bits); the tiles' staging is left out, as a hart
 * keeps nothing between items that it would save. Where the harts keep V
 * off, the same sums in a scalar loop. */
static void sgemm_tiled_group_v(const hp_item *it, const void *args,
				size_t items)
{
	(void)items; /* the group's rows are local_size[1] rows of [0] */
	const hp_sgemm_args *a = args;
	const hp_group *g = it->g;
	size_t sx = g->local_size[0], sy = g->local_size[1];
	size_t j0 = hp_global_id(it, 0), i0 = hp_global_id(it, 1);
	size_t m = (size_t)a->m, n = (size_t)a->n, k = (size_t)a->k;
	if (!sgemm_ok(a))
		return;
	for (size_t i = i0; i < i0 + sy && i < m; i++) {
		if (k && g->l->vector_bytes) {
			sgemm_row_v(a, i, j0, sx);
			continue;
		}
		for (size_t j = j0; j < j0 + sx && j < n; j++) {
			const float *A = HP_PTR(const float, a->a) + i * k;
			const float *B = HP_PTR(const float, a->b) + j;
			float acc = 0.0f;
			for (size_t p = 0; p < k; p++)
				acc += A[p] * B[p * n];
			HP_PTR(float, a->c)[i * n + j] = acc;
		}
	}
}
HP_REGISTER_ROW(sgemm_tiled, sgemm_tiled_group_v, .row_is_group = true,
		SGEMM_TILED_ATTRS_);
#else
HP_REGISTER(sgemm_tiled, SGEMM_TILED_ATTRS_);
#endif
