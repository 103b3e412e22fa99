// SPDX-License-Identifier: MIT
/*
 * The generic address space (OpenCL C 3.0 __opencl_c_generic_address_space;
 * this file alone is compiled with it): the built-ins that take a pointer,
 * in their __generic overloads, which a kernel built with the feature calls
 * (clang declares no named ones then), and to_global, to_local,
 * to_private, get_fence.
 *
 * Every address space is one flat memory on the device, so a generic
 * pointer is used as it is: the output-pointer math functions write through
 * it from a private temporary (calling the __private overload), vload and
 * vstore and the half forms go through it as a __global pointer, the
 * atomics are the same AMOs on it. Which space an address is in
 * (to_*, get_fence) the run-time core answers (rt.c, hpcl_space).
 */
#include "clc.h"

#define G __generic

/* ---- math: fract, frexp, modf, lgamma_r, sincos, remquo ---- */

#define GPTR_V_(n, F, T, P)                                                    \
	T##n OVL F(T##n x, __private P##n *p);                                 \
	T##n OVL F(T##n x, G P##n *p)                                          \
	{                                                                      \
		__private P##n t;                                              \
		T##n r = F(x, &t);                                             \
		*p = t;                                                        \
		return r;                                                      \
	}
#define GPTR_(F, T, P)                                                         \
	T OVL F(T x, __private P *p);                                          \
	T OVL F(T x, G P *p)                                                   \
	{                                                                      \
		__private P t;                                                 \
		T r = F(x, &t);                                                \
		*p = t;                                                        \
		return r;                                                      \
	}                                                                      \
	HP_VEC(GPTR_V_, F, T, P)
#define GREMQUO_V_(n, T)                                                       \
	T##n OVL remquo(T##n x, T##n y, __private int##n *p);                  \
	T##n OVL remquo(T##n x, T##n y, G int##n *p)                           \
	{                                                                      \
		__private int##n t;                                            \
		T##n r = remquo(x, y, &t);                                     \
		*p = t;                                                        \
		return r;                                                      \
	}
#define GMATH_(T)                                                              \
	GPTR_(fract, T, T)                                                     \
	GPTR_(frexp, T, int)                                                   \
	GPTR_(modf, T, T)                                                      \
	GPTR_(lgamma_r, T, int)                                                \
	GPTR_(sincos, T, T)                                                    \
	T OVL remquo(T x, T y, __private int *p);                              \
	T OVL remquo(T x, T y, G int *p)                                       \
	{                                                                      \
		__private int t;                                               \
		T r = remquo(x, y, &t);                                        \
		*p = t;                                                        \
		return r;                                                      \
	}                                                                      \
	HP_VEC(GREMQUO_V_, T)
GMATH_(float)
#if HPCL_FP64
GMATH_(double)
#endif

/* ---- vloadn, vstoren, the half forms ---- */

#define GVL_(n, T)                                                             \
	T##n OVL vload##n(size_t o, const __global T *p);                      \
	T##n OVL vload##n(size_t o, const G T *p)                              \
	{                                                                      \
		return vload##n(o, (const __global T *)p);                     \
	}                                                                      \
	void OVL vstore##n(T##n v, size_t o, __global T *p);                   \
	void OVL vstore##n(T##n v, size_t o, G T *p)                           \
	{                                                                      \
		vstore##n(v, o, (__global T *)p);                              \
	}
#define GVLI_(T, UT, BITS, SG, X) HP_VEC(GVL_, T)
HP_INTS(GVLI_, )
HP_VEC(GVL_, float)
#if HPCL_FP64
HP_VEC(GVL_, double)
#endif

#define GVLH_(n, X)                                                            \
	float##n OVL vload_half##n(size_t o, const __global half *p);          \
	float##n OVL vload_half##n(size_t o, const G half *p)                  \
	{                                                                      \
		return vload_half##n(o, (const __global half *)p);             \
	}                                                                      \
	float##n OVL vloada_half##n(size_t o, const __global half *p);         \
	float##n OVL vloada_half##n(size_t o, const G half *p)                 \
	{                                                                      \
		return vloada_half##n(o, (const __global half *)p);            \
	}
float OVL vload_half(size_t o, const __global half *p);
float OVL vload_half(size_t o, const G half *p)
{
	return vload_half(o, (const __global half *)p);
}
HP_VEC(GVLH_, )

#define GVSH_(n, T, R)                                                         \
	void OVL vstore_half##n##R(T##n v, size_t o, __global half *p);        \
	void OVL vstore_half##n##R(T##n v, size_t o, G half *p)                \
	{                                                                      \
		vstore_half##n##R(v, o, (__global half *)p);                   \
	}                                                                      \
	void OVL vstorea_half##n##R(T##n v, size_t o, __global half *p);       \
	void OVL vstorea_half##n##R(T##n v, size_t o, G half *p)               \
	{                                                                      \
		vstorea_half##n##R(v, o, (__global half *)p);                  \
	}
#define GVSH1_(T, R)                                                           \
	void OVL vstore_half##R(T v, size_t o, __global half *p);              \
	void OVL vstore_half##R(T v, size_t o, G half *p)                      \
	{                                                                      \
		vstore_half##R(v, o, (__global half *)p);                      \
	}                                                                      \
	HP_VEC(GVSH_, T, R)
#define GVSHT_(T)                                                              \
	GVSH1_(T, )                                                            \
	GVSH1_(T, _rte) GVSH1_(T, _rtz) GVSH1_(T, _rtp) GVSH1_(T, _rtn)
GVSHT_(float)
#if HPCL_FP64
GVSHT_(double)
#endif

/* ---- OpenCL C 2.0 / 3.0 atomics on generic objects ---- */

#define SC __ATOMIC_SEQ_CST
#define MO memory_order
#define MS memory_scope
#define GCAS1_(name, T, ...)                                                   \
	bool OVL name(volatile G atomic_##T *p, G T *e, T v __VA_ARGS__)       \
	{                                                                      \
		T x = *e;                                                      \
		bool ok = __c11_atomic_compare_exchange_strong(p, &x, v, SC,   \
							       SC);            \
		*e = x;                                                        \
		return ok;                                                     \
	}
#define GNEW_(T)                                                               \
	void OVL atomic_init(volatile G atomic_##T *p, T v)                    \
	{                                                                      \
		__c11_atomic_init(p, v);                                       \
	}                                                                      \
	T OVL atomic_load(volatile G atomic_##T *p)                            \
	{                                                                      \
		return __c11_atomic_load(p, SC);                               \
	}                                                                      \
	T OVL atomic_load_explicit(volatile G atomic_##T *p, MO o)             \
	{                                                                      \
		return __c11_atomic_load(p, SC);                               \
	}                                                                      \
	T OVL atomic_load_explicit(volatile G atomic_##T *p, MO o, MS s)       \
	{                                                                      \
		return __c11_atomic_load(p, SC);                               \
	}                                                                      \
	void OVL atomic_store(volatile G atomic_##T *p, T v)                   \
	{                                                                      \
		__c11_atomic_store(p, v, SC);                                  \
	}                                                                      \
	void OVL atomic_store_explicit(volatile G atomic_##T *p, T v, MO o)    \
	{                                                                      \
		__c11_atomic_store(p, v, SC);                                  \
	}                                                                      \
	void OVL atomic_store_explicit(volatile G atomic_##T *p, T v, MO o,    \
				       MS s)                                   \
	{                                                                      \
		__c11_atomic_store(p, v, SC);                                  \
	}                                                                      \
	T OVL atomic_exchange(volatile G atomic_##T *p, T v)                   \
	{                                                                      \
		return __c11_atomic_exchange(p, v, SC);                        \
	}                                                                      \
	T OVL atomic_exchange_explicit(volatile G atomic_##T *p, T v, MO o)    \
	{                                                                      \
		return __c11_atomic_exchange(p, v, SC);                        \
	}                                                                      \
	T OVL atomic_exchange_explicit(volatile G atomic_##T *p, T v, MO o,    \
				       MS s)                                   \
	{                                                                      \
		return __c11_atomic_exchange(p, v, SC);                        \
	}                                                                      \
	GCAS1_(atomic_compare_exchange_strong, T)                              \
	GCAS1_(atomic_compare_exchange_strong_explicit, T, , MO s, MO f)       \
	GCAS1_(atomic_compare_exchange_strong_explicit, T, , MO s, MO f, MS c) \
	GCAS1_(atomic_compare_exchange_weak, T)                                \
	GCAS1_(atomic_compare_exchange_weak_explicit, T, , MO s, MO f)         \
	GCAS1_(atomic_compare_exchange_weak_explicit, T, , MO s, MO f, MS c)
#define GFETCH1_(F, T, M)                                                      \
	T OVL atomic_fetch_##F(volatile G atomic_##T *p, M v)                  \
	{                                                                      \
		return __c11_atomic_fetch_##F(p, v, SC);                       \
	}                                                                      \
	T OVL atomic_fetch_##F##_explicit(volatile G atomic_##T *p, M v,       \
					  MO o)                                \
	{                                                                      \
		return __c11_atomic_fetch_##F(p, v, SC);                       \
	}                                                                      \
	T OVL atomic_fetch_##F##_explicit(volatile G atomic_##T *p, M v, MO o, \
					  MS s)                                \
	{                                                                      \
		return __c11_atomic_fetch_##F(p, v, SC);                       \
	}
#define GFETCH_(T)                                                             \
	GFETCH1_(add, T, T)                                                    \
	GFETCH1_(sub, T, T)                                                    \
	GFETCH1_(and, T, T)                                                    \
	GFETCH1_(or, T, T)                                                     \
	GFETCH1_(xor, T, T) GFETCH1_(min, T, T) GFETCH1_(max, T, T)
GNEW_(int)
GNEW_(uint)
GNEW_(float)
GFETCH_(int)
GFETCH_(uint)
#if HPCL_ATOM64
GNEW_(long)
GNEW_(ulong)
GFETCH_(long)
GFETCH_(ulong)
#endif
#if HPCL_ATOM64 && HPCL_FP64
GNEW_(double)
#endif
#if HPCL_ATOM64 || __SIZEOF_POINTER__ == 4
/* atomic_uintptr_t moved by a ptrdiff_t */
GFETCH1_(add, uintptr_t, ptrdiff_t)
GFETCH1_(sub, uintptr_t, ptrdiff_t)
#endif

bool OVL atomic_flag_test_and_set(volatile G atomic_flag *p)
{
	return __c11_atomic_exchange(p, 1, SC) != 0;
}
bool OVL atomic_flag_test_and_set_explicit(volatile G atomic_flag *p, MO o)
{
	return __c11_atomic_exchange(p, 1, SC) != 0;
}
bool OVL atomic_flag_test_and_set_explicit(volatile G atomic_flag *p, MO o,
					   MS s)
{
	return __c11_atomic_exchange(p, 1, SC) != 0;
}
void OVL atomic_flag_clear(volatile G atomic_flag *p)
{
	__c11_atomic_store(p, 0, SC);
}
void OVL atomic_flag_clear_explicit(volatile G atomic_flag *p, MO o)
{
	__c11_atomic_store(p, 0, SC);
}
void OVL atomic_flag_clear_explicit(volatile G atomic_flag *p, MO o, MS s)
{
	__c11_atomic_store(p, 0, SC);
}

/* ---- which space an address is in ---- */

/* The run-time core's answer (rt.c), by the address: HPCL_SPACE_*. */
int hpcl_space(uintptr_t a);
#define HPCL_SPACE_GLOBAL 0
#define HPCL_SPACE_LOCAL 1
#define HPCL_SPACE_PRIVATE 2

/* clang calls these for to_global, to_local, to_private */
__global void *__to_global(G void *p)
{
	return p && hpcl_space((uintptr_t)p) == HPCL_SPACE_GLOBAL ? (__global void *)p
						       : (__global void *)0;
}
__local void *__to_local(G void *p)
{
	return p && hpcl_space((uintptr_t)p) == HPCL_SPACE_LOCAL ? (__local void *)p
						      : (__local void *)0;
}
__private void *__to_private(G void *p)
{
	return p && hpcl_space((uintptr_t)p) == HPCL_SPACE_PRIVATE ? (__private void *)p
							: (__private void *)0;
}

cl_mem_fence_flags OVL get_fence(const G void *p)
{
	int s = hpcl_space((uintptr_t)p);
	return s == HPCL_SPACE_LOCAL	 ? CLK_LOCAL_MEM_FENCE
	       : s == HPCL_SPACE_GLOBAL ? CLK_GLOBAL_MEM_FENCE
					 : 0;
}
cl_mem_fence_flags OVL get_fence(G void *p)
{
	return get_fence((const G void *)p);
}
