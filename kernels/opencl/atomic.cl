// SPDX-License-Identifier: MIT
/*
 * Atomic functions: the OpenCL 1.x atomic_* (cl_khr_*_int32_*_atomics),
 * atom_* (and the 64-bit ones with cl_khr_int64_*_atomics: RV64 only,
 * RV32 has no 64-bit AMOs) and the OpenCL 2.0 / 3.0 *_explicit functions
 * the compiler declares for the device's features (memory_order and
 * memory_scope arguments; named address spaces, no generic one). Every
 * operation is sequentially consistent (an AMO with .aqrl, LR/SC for
 * compare-exchange), which satisfies any memory_order and scope asked for.
 */
#include "clc.h"

#define SC __ATOMIC_SEQ_CST

/* OpenCL 1.x names (P: atomic_ or atom_) on one type and address space. */
#define OLD_(P, T, AS)                                                         \
	T OVL P##add(volatile AS T *p, T v)                                    \
	{                                                                      \
		return __atomic_fetch_add(p, v, SC);                           \
	}                                                                      \
	T OVL P##sub(volatile AS T *p, T v)                                    \
	{                                                                      \
		return __atomic_fetch_sub(p, v, SC);                           \
	}                                                                      \
	T OVL P##xchg(volatile AS T *p, T v)                                   \
	{                                                                      \
		return __atomic_exchange_n(p, v, SC);                          \
	}                                                                      \
	T OVL P##inc(volatile AS T *p)                                         \
	{                                                                      \
		return __atomic_fetch_add(p, 1, SC);                           \
	}                                                                      \
	T OVL P##dec(volatile AS T *p)                                         \
	{                                                                      \
		return __atomic_fetch_sub(p, 1, SC);                           \
	}                                                                      \
	T OVL P##cmpxchg(volatile AS T *p, T cmp, T v)                         \
	{                                                                      \
		__atomic_compare_exchange_n(p, &cmp, v, 0, SC, SC);            \
		return cmp;                                                    \
	}                                                                      \
	T OVL P##min(volatile AS T *p, T v)                                    \
	{                                                                      \
		return __atomic_fetch_min(p, v, SC);                           \
	}                                                                      \
	T OVL P##max(volatile AS T *p, T v)                                    \
	{                                                                      \
		return __atomic_fetch_max(p, v, SC);                           \
	}                                                                      \
	T OVL P## and (volatile AS T * p, T v)                                 \
	{                                                                      \
		return __atomic_fetch_and(p, v, SC);                           \
	}                                                                      \
	T OVL P## or (volatile AS T * p, T v)                                  \
	{                                                                      \
		return __atomic_fetch_or(p, v, SC);                            \
	}                                                                      \
	T OVL P## xor (volatile AS T * p, T v) {                               \
		return __atomic_fetch_xor(p, v, SC);                           \
	}
#define OLD2_(P, T) OLD_(P, T, __global) OLD_(P, T, __local)
OLD2_(atomic_, int)
OLD2_(atomic_, uint)
OLD2_(atom_, int)
OLD2_(atom_, uint)
#if HPCL_ATOM64
OLD2_(atom_, long)
OLD2_(atom_, ulong)
#endif
float OVL atomic_xchg(volatile __global float *p, float v)
{
	uint r = __atomic_exchange_n((volatile __global uint *)p,
				     __builtin_bit_cast(uint, v), SC);
	return __builtin_bit_cast(float, r);
}
float OVL atomic_xchg(volatile __local float *p, float v)
{
	uint r = __atomic_exchange_n((volatile __local uint *)p,
				     __builtin_bit_cast(uint, v), SC);
	return __builtin_bit_cast(float, r);
}

/* ---- OpenCL 2.0 / 3.0 ---- */
#define MO memory_order
#define MS memory_scope
/* compare-exchange with `expected` in address space EAS */
#define CAS_(T, AS, EAS)                                                       \
	bool OVL atomic_compare_exchange_strong_explicit(                      \
		volatile AS atomic_##T *p, EAS T *e, T v, MO s, MO f, MS sc)   \
	{                                                                      \
		T x = *e;                                                      \
		bool ok = __c11_atomic_compare_exchange_strong(p, &x, v, SC,   \
							       SC);            \
		*e = x;                                                        \
		return ok;                                                     \
	}                                                                      \
	bool OVL atomic_compare_exchange_weak_explicit(                        \
		volatile AS atomic_##T *p, EAS T *e, T v, MO s, MO f, MS sc)   \
	{                                                                      \
		return atomic_compare_exchange_strong_explicit(p, e, v, s, f,  \
							       sc);            \
	}
#define NEW_(T, AS)                                                            \
	void OVL atomic_init(volatile AS atomic_##T *p, T v)                   \
	{                                                                      \
		__c11_atomic_init(p, v);                                       \
	}                                                                      \
	T OVL atomic_load_explicit(volatile AS atomic_##T *p, MO o, MS s)      \
	{                                                                      \
		return __c11_atomic_load(p, SC);                               \
	}                                                                      \
	void OVL atomic_store_explicit(volatile AS atomic_##T *p, T v, MO o,   \
				       MS s)                                   \
	{                                                                      \
		__c11_atomic_store(p, v, SC);                                  \
	}                                                                      \
	T OVL atomic_exchange_explicit(volatile AS atomic_##T *p, T v, MO o,   \
				       MS s)                                   \
	{                                                                      \
		return __c11_atomic_exchange(p, v, SC);                        \
	}                                                                      \
	CAS_(T, AS, __global) CAS_(T, AS, __local) CAS_(T, AS, __private)
#define FETCH1_(F, T, AS)                                                      \
	T OVL atomic_fetch_##F##_explicit(volatile AS atomic_##T *p, T v,      \
					  MO o, MS s)                          \
	{                                                                      \
		return __c11_atomic_fetch_##F(p, v, SC);                       \
	}
#define FETCH_OPS_(M, T, AS)                                                   \
	M(add, T, AS)                                                          \
	M(sub, T, AS)                                                          \
	M(and, T, AS)                                                          \
	M(or, T, AS) M(xor, T, AS) M(min, T, AS) M(max, T, AS)

/* The forms without a scope, or without an order (OpenCL C 3.0 with
 * __opencl_c_atomic_order_seq_cst and __opencl_c_atomic_scope_device,
 * which hp_cl_build defines): sequentially consistent like the rest. */
#define SCAS1_(name, T, AS, EAS, ...)                                          \
	bool OVL name(volatile AS atomic_##T *p, EAS T *e, T v __VA_ARGS__)    \
	{                                                                      \
		T x = *e;                                                      \
		bool ok = __c11_atomic_compare_exchange_strong(p, &x, v, SC,   \
							       SC);            \
		*e = x;                                                        \
		return ok;                                                     \
	}
#define SCAS_(T, AS, EAS)                                                      \
	SCAS1_(atomic_compare_exchange_strong, T, AS, EAS)                     \
	SCAS1_(atomic_compare_exchange_strong_explicit, T, AS, EAS, , MO s,    \
	       MO f)                                                           \
	SCAS1_(atomic_compare_exchange_weak, T, AS, EAS)                       \
	SCAS1_(atomic_compare_exchange_weak_explicit, T, AS, EAS, , MO s, MO f)
#define SNEW_(T, AS)                                                           \
	T OVL atomic_load(volatile AS atomic_##T *p)                           \
	{                                                                      \
		return __c11_atomic_load(p, SC);                               \
	}                                                                      \
	T OVL atomic_load_explicit(volatile AS atomic_##T *p, MO o)            \
	{                                                                      \
		return __c11_atomic_load(p, SC);                               \
	}                                                                      \
	void OVL atomic_store(volatile AS atomic_##T *p, T v)                  \
	{                                                                      \
		__c11_atomic_store(p, v, SC);                                  \
	}                                                                      \
	void OVL atomic_store_explicit(volatile AS atomic_##T *p, T v, MO o)   \
	{                                                                      \
		__c11_atomic_store(p, v, SC);                                  \
	}                                                                      \
	T OVL atomic_exchange(volatile AS atomic_##T *p, T v)                  \
	{                                                                      \
		return __c11_atomic_exchange(p, v, SC);                        \
	}                                                                      \
	T OVL atomic_exchange_explicit(volatile AS atomic_##T *p, T v, MO o)   \
	{                                                                      \
		return __c11_atomic_exchange(p, v, SC);                        \
	}                                                                      \
	SCAS_(T, AS, __global) SCAS_(T, AS, __local) SCAS_(T, AS, __private)
#define SFETCH1_(F, T, AS)                                                     \
	T OVL atomic_fetch_##F(volatile AS atomic_##T *p, T v)                 \
	{                                                                      \
		return __c11_atomic_fetch_##F(p, v, SC);                       \
	}                                                                      \
	T OVL atomic_fetch_##F##_explicit(volatile AS atomic_##T *p, T v,      \
					  MO o)                                \
	{                                                                      \
		return __c11_atomic_fetch_##F(p, v, SC);                       \
	}
/* every form, for both address spaces */
#define NEW2_(T)                                                               \
	NEW_(T, __global) NEW_(T, __local) SNEW_(T, __global) SNEW_(T, __local)
#define FETCH2_(T)                                                             \
	FETCH_OPS_(FETCH1_, T, __global)                                       \
	FETCH_OPS_(FETCH1_, T, __local)                                        \
	FETCH_OPS_(SFETCH1_, T, __global) FETCH_OPS_(SFETCH1_, T, __local)
NEW2_(int)
NEW2_(uint)
NEW2_(float)
FETCH2_(int)
FETCH2_(uint)
#if HPCL_ATOM64
NEW2_(long)
NEW2_(ulong)
FETCH2_(long)
FETCH2_(ulong)
#endif
#if HPCL_ATOM64 && HPCL_FP64
NEW2_(double)
#endif
/* atomic_uintptr_t moved by a ptrdiff_t (32-bit on rv32; 64-bit with the
 * 64-bit atomics) */
#if HPCL_ATOM64 || __SIZEOF_POINTER__ == 4
#define PTRDIFF1_(F, AS)                                                       \
	uintptr_t OVL atomic_fetch_##F##_explicit(                             \
		volatile AS atomic_uintptr_t *p, ptrdiff_t v, MO o, MS s)      \
	{                                                                      \
		return __c11_atomic_fetch_##F(p, (uintptr_t)v, SC);            \
	}                                                                      \
	uintptr_t OVL atomic_fetch_##F##_explicit(                             \
		volatile AS atomic_uintptr_t *p, ptrdiff_t v, MO o)            \
	{                                                                      \
		return __c11_atomic_fetch_##F(p, (uintptr_t)v, SC);            \
	}                                                                      \
	uintptr_t OVL atomic_fetch_##F(volatile AS atomic_uintptr_t *p,        \
				       ptrdiff_t v)                            \
	{                                                                      \
		return __c11_atomic_fetch_##F(p, (uintptr_t)v, SC);            \
	}
PTRDIFF1_(add, __global)
PTRDIFF1_(sub, __global)
PTRDIFF1_(add, __local)
PTRDIFF1_(sub, __local)
#endif

#define FLAG_(AS)                                                              \
	bool OVL atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, \
						   MO o, MS s)                 \
	{                                                                      \
		return __c11_atomic_exchange(p, 1, SC) != 0;                   \
	}                                                                      \
	void OVL atomic_flag_clear_explicit(volatile AS atomic_flag *p, MO o,  \
					    MS s)                              \
	{                                                                      \
		__c11_atomic_store(p, 0, SC);                                  \
	}
FLAG_(__global)
FLAG_(__local)
#define SFLAG_(AS)                                                             \
	bool OVL atomic_flag_test_and_set(volatile AS atomic_flag *p)          \
	{                                                                      \
		return __c11_atomic_exchange(p, 1, SC) != 0;                   \
	}                                                                      \
	bool OVL atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, \
						   MO o)                       \
	{                                                                      \
		return __c11_atomic_exchange(p, 1, SC) != 0;                   \
	}                                                                      \
	void OVL atomic_flag_clear(volatile AS atomic_flag *p)                 \
	{                                                                      \
		__c11_atomic_store(p, 0, SC);                                  \
	}                                                                      \
	void OVL atomic_flag_clear_explicit(volatile AS atomic_flag *p, MO o)  \
	{                                                                      \
		__c11_atomic_store(p, 0, SC);                                  \
	}
SFLAG_(__global)
SFLAG_(__local)
void OVL atomic_work_item_fence(cl_mem_fence_flags f, MO o)
{
	if (o != memory_order_relaxed)
		__atomic_thread_fence(SC);
}

void OVL atomic_work_item_fence(cl_mem_fence_flags f, MO o, MS s)
{
	if (o != memory_order_relaxed)
		__atomic_thread_fence(SC);
}
