// SPDX-License-Identifier: MIT
/*
 * The run-time core of OpenCL kernels (docs/opencl.md): the entry's enter
 * and leave, kernel-scope __local variables (__tls_get_addr), the
 * work-item functions, barriers and sub-group functions (printf:
 * printf.c). Built as
 * LLVM bitcode and linked into every OpenCL kernel object; the names are
 * the Itanium-mangled OpenCL built-ins, defined from C.
 */
#include "rt.h"
#include <stdarg.h>

_Static_assert(sizeof(hpcl_ctx) <= HPCL_CTX_BYTES, "hpcl_ctx size");

/* Before the kernel: @p dyn_off is where the __local arguments start (the
 * kernel's own local memory, rounded). */
static inline __attribute__((always_inline)) void
hpcl_enter(hpcl_ctx *c, const hp_item *it, size_t dyn_off)
{
	/* volatile: not the same asm as hpcl_cur()'s, which the optimizer
	 * would otherwise take for this one's value after tp changed */
	__asm__ volatile("mv %0, tp" : "=r"(c->fw_tp));
	c->it = it;
	c->local = it->g->local_mem;
	c->dyn_local = c->local + dyn_off;
	hpcl_set_tp(c);
}
/* The generated entries (hp_cl_build): @p n work-items along dimension 0
 * from @p it (1: the per-item entry, it as it is; more: a row of a
 * barrier-free kernel, the context set up once), each by @p body, which
 * loads the arguments and calls the kernel (inlined here by the link-time
 * optimisation). */
void __hpcl_run(const hp_item *it, const void *args, size_t n, size_t dyn_off,
		void (*body)(const void *));
__attribute__((always_inline)) void __hpcl_run(const hp_item *it,
					       const void *args, size_t n,
					       size_t dyn_off,
					       void (*body)(const void *))
{
	hpcl_ctx c;
	if (n == 1) {
		hpcl_enter(&c, it, dyn_off);
		body(args);
	} else {
		hp_item i = *it;
		hpcl_enter(&c, &i, dyn_off);
		for (size_t k = 0; k < n; k++) {
			body(args);
			i.global_id[0]++;
			i.local_id[0]++;
			i.local_linear_id++;
			/* The kernel reads the item through tp, which the
			 * optimiser cannot follow: the increments must stay
			 * (the entry keeps the kernel a call of its own: its
			 * work-item functions are `const` to the compiler). */
			__asm__ volatile("" : : "r"(&i) : "memory");
		}
	}
	hpcl_set_tp(c.fw_tp);
}
/* The row loop of a barrier-free kernel (host/clc/rowloop.c): the
 * context set up once for the row from its first item @p it, which the
 * work-item functions read; the loop adds the item's index itself. */
void __hpcl_row_enter(hpcl_ctx *c, const hp_item *it, size_t dyn_off);
__attribute__((always_inline)) void
__hpcl_row_enter(hpcl_ctx *c, const hp_item *it, size_t dyn_off)
{
	hpcl_enter(c, it, dyn_off);
}
void __hpcl_row_leave(hpcl_ctx *c);
__attribute__((always_inline)) void __hpcl_row_leave(hpcl_ctx *c)
{
	hpcl_set_tp(c->fw_tp);
}
/* Work-group functions (host/clc/wgfn.c), entered as the row loop is,
 * with the group's first item: its sizes, the scratch the executor gives
 * (hp_kernel.row_is_group), and the report of divergent barriers. */
size_t __hpcl_wg_size(unsigned d);
__attribute__((always_inline)) size_t __hpcl_wg_size(unsigned d)
{
	return hpcl_cur()->it->g->local_size[d];
}
void *__hpcl_wg_scratch(void);
__attribute__((always_inline)) void *__hpcl_wg_scratch(void)
{
	return hpcl_cur()->it->fiber;
}
void __hpcl_wg_diverged(void);
void __hpcl_wg_diverged(void)
{
	hpcl_ctx *c = hpcl_cur();
	HPCL_FW(c, hp_api_ptr->wg_diverged(c->it));
}
/* A __local argument: its offset in the dynamic local memory. */
void *__hpcl_local_arg(uint64_t off);
void *__hpcl_local_arg(uint64_t off)
{
	return hpcl_cur()->dyn_local + off;
}

/* General-dynamic TLS: the linker's GOT pair (module, offset - 0x800) of a
 * kernel-scope __local variable. */
typedef struct {
	unsigned long module, offset;
} hpcl_tls_index;
void *__tls_get_addr(const hpcl_tls_index *ti);
void *__tls_get_addr(const hpcl_tls_index *ti)
{
	return hpcl_cur()->local + ti->offset + 0x800;
}

/* ---- work-item functions (OpenCL 3.0 6.15.1) ---- */
#define IT (hpcl_cur()->it)
unsigned _Z12get_work_dimv(void);
unsigned _Z12get_work_dimv(void)
{
	return hp_work_dim(IT);
}
#define WI_(mangled, fn)                                                       \
	size_t mangled(unsigned d);                                            \
	size_t mangled(unsigned d)                                             \
	{                                                                      \
		return fn(IT, d);                                              \
	}
WI_(_Z15get_global_sizej, hp_global_size)
WI_(_Z13get_global_idj, hp_global_id)
WI_(_Z14get_local_sizej, hp_local_size)
WI_(_Z23get_enqueued_local_sizej, hp_enqueued_local_size)
WI_(_Z12get_local_idj, hp_local_id)
WI_(_Z14get_num_groupsj, hp_num_groups)
WI_(_Z12get_group_idj, hp_group_id)
WI_(_Z17get_global_offsetj, hp_global_offset)
#undef WI_
size_t _Z20get_global_linear_idv(void);
size_t _Z20get_global_linear_idv(void)
{
	return hp_global_linear_id(IT);
}
size_t _Z19get_local_linear_idv(void);
size_t _Z19get_local_linear_idv(void)
{
	return hp_local_linear_id(IT);
}
#define SGQ_(mangled, fn)                                                      \
	unsigned mangled(void);                                                \
	unsigned mangled(void)                                                 \
	{                                                                      \
		return fn(IT);                                                 \
	}
SGQ_(_Z18get_sub_group_sizev, hp_sub_group_size)
SGQ_(_Z22get_max_sub_group_sizev, hp_max_sub_group_size)
SGQ_(_Z18get_num_sub_groupsv, hp_num_sub_groups)
SGQ_(_Z27get_enqueued_num_sub_groupsv, hp_enqueued_num_sub_groups)
SGQ_(_Z16get_sub_group_idv, hp_sub_group_id)
SGQ_(_Z22get_sub_group_local_idv, hp_sub_group_local_id)
#undef SGQ_

/* ---- barriers (the executor's barrier fences global and local memory) */
void _Z7barrierj(unsigned flags);
void _Z7barrierj(unsigned flags)
{
	hpcl_ctx *c = hpcl_cur();
	(void)flags;
	HPCL_FW(c, hp_barrier(c->it));
}
void _Z18work_group_barrierj(unsigned flags);
void _Z18work_group_barrierj(unsigned flags)
{
	_Z7barrierj(flags);
}
void _Z18work_group_barrierj12memory_scope(unsigned flags, int scope);
void _Z18work_group_barrierj12memory_scope(unsigned flags, int scope)
{
	(void)scope;
	_Z7barrierj(flags);
}
void _Z17sub_group_barrierj(unsigned flags);
void _Z17sub_group_barrierj(unsigned flags)
{
	hpcl_ctx *c = hpcl_cur();
	(void)flags;
	HPCL_FW(c, hp_sub_group_barrier(c->it));
}
void _Z17sub_group_barrierj12memory_scope(unsigned flags, int scope);
void _Z17sub_group_barrierj12memory_scope(unsigned flags, int scope)
{
	(void)scope;
	_Z17sub_group_barrierj(flags);
}
void _Z9mem_fencej(unsigned flags);
void _Z9mem_fencej(unsigned flags)
{
	(void)flags;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
void _Z14read_mem_fencej(unsigned flags);
void _Z14read_mem_fencej(unsigned flags)
{
	_Z9mem_fencej(flags);
}
void _Z15write_mem_fencej(unsigned flags);
void _Z15write_mem_fencej(unsigned flags)
{
	_Z9mem_fencej(flags);
}

/* ---- sub-group collectives (cl_khr_subgroups) ----
 * Itanium codes: i int, j uint, l long, m ulong, f float. */
#define SG_ONE_(mangled, T, fn)                                                \
	T mangled(T x);                                                        \
	T mangled(T x)                                                         \
	{                                                                      \
		hpcl_ctx *c = hpcl_cur();                                      \
		T r;                                                           \
		HPCL_FW(c, r = fn(c->it, x));                                  \
		return r;                                                      \
	}
#define SG_LANE_(mangled, T, fn)                                               \
	T mangled(T x, unsigned lane);                                         \
	T mangled(T x, unsigned lane)                                          \
	{                                                                      \
		hpcl_ctx *c = hpcl_cur();                                      \
		T r;                                                           \
		HPCL_FW(c, r = fn(c->it, x, lane));                            \
		return r;                                                      \
	}
#define SG_TYPE_(code, tn, T)                                                  \
	SG_LANE_(_Z19sub_group_broadcast##code##j, T,                          \
		 hp_sub_group_broadcast_##tn)                                  \
	SG_LANE_(_Z17sub_group_shuffle##code##j, T, hp_sub_group_shuffle_##tn) \
	SG_ONE_(_Z20sub_group_reduce_add##code, T,                             \
		hp_sub_group_reduce_add_##tn)                                  \
	SG_ONE_(_Z20sub_group_reduce_min##code, T,                             \
		hp_sub_group_reduce_min_##tn)                                  \
	SG_ONE_(_Z20sub_group_reduce_max##code, T,                             \
		hp_sub_group_reduce_max_##tn)                                  \
	SG_ONE_(_Z28sub_group_scan_inclusive_add##code, T,                     \
		hp_sub_group_scan_inclusive_add_##tn)                          \
	SG_ONE_(_Z28sub_group_scan_inclusive_min##code, T,                     \
		hp_sub_group_scan_inclusive_min_##tn)                          \
	SG_ONE_(_Z28sub_group_scan_inclusive_max##code, T,                     \
		hp_sub_group_scan_inclusive_max_##tn)                          \
	SG_ONE_(_Z28sub_group_scan_exclusive_add##code, T,                     \
		hp_sub_group_scan_exclusive_add_##tn)                          \
	SG_ONE_(_Z28sub_group_scan_exclusive_min##code, T,                     \
		hp_sub_group_scan_exclusive_min_##tn)                          \
	SG_ONE_(_Z28sub_group_scan_exclusive_max##code, T,                     \
		hp_sub_group_scan_exclusive_max_##tn)
SG_TYPE_(i, int, int32_t)
SG_TYPE_(j, uint, uint32_t)
SG_TYPE_(l, long, int64_t)
SG_TYPE_(m, ulong, uint64_t)
SG_TYPE_(f, float, float)
#undef SG_TYPE_
#undef SG_ONE_
#undef SG_LANE_
int _Z13sub_group_alli(int p);
int _Z13sub_group_alli(int p)
{
	hpcl_ctx *c = hpcl_cur();
	int r;
	HPCL_FW(c, r = hp_sub_group_all(c->it, p != 0));
	return r;
}
int _Z13sub_group_anyi(int p);
int _Z13sub_group_anyi(int p)
{
	hpcl_ctx *c = hpcl_cur();
	int r;
	HPCL_FW(c, r = hp_sub_group_any(c->it, p != 0));
	return r;
}

/* ---- the generic address space (generic.cl) ---- */

/* Which space address @p a is in: the work-group's local memory, the device's
 * global memory (its buffer heap), else private (the work-item's stack:
 * __constant data cannot become a generic pointer). 0 global, 1 local,
 * 2 private: generic.cl's HPCL_SPACE_*. */
int hpcl_space(uintptr_t a);
int hpcl_space(uintptr_t a)
{
	hpcl_ctx *c = hpcl_cur();
	const hp_launch *l = c->it->g->l;
	uintptr_t loc = (uintptr_t)c->local;
	if (a - loc < l->local_bytes)
		return 1;
	if (a - l->global_base < l->global_bytes)
		return 0;
	return 2;
}
