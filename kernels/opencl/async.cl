// SPDX-License-Identifier: MIT
/*
 * Async copies (OpenCL 3.0 C 6.15.13), done at once: every work-item of the
 * group copies its share (elements local_linear_id, + local size, ...);
 * wait_group_events (events.c) is a barrier, after which the whole copy is
 * visible. The event returned is the one given (0 or an earlier one).
 * prefetch does nothing.
 */
#include "clc.h"

static size_t wg_size(void)
{
	return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

/* The copies proper, for an item @p lid of @p step: what the work-group
 * functions call (host/clc/wglead.c), where an item's ids are its loop's
 * values; the names are the async functions' with these two appended. */
#define ASYNC_(T, D, S)                                                        \
	event_t OVL __hpcl_async_items(D T *dst, const S T *src, size_t n,     \
				       event_t e, size_t lid, size_t step)     \
	{                                                                      \
		for (size_t i = lid; i < n; i += step)                         \
			dst[i] = src[i];                                       \
		return e;                                                      \
	}                                                                      \
	event_t OVL async_work_group_copy(D T *dst, const S T *src, size_t n,  \
					  event_t e)                           \
	{                                                                      \
		return __hpcl_async_items(dst, src, n, e,                      \
					  get_local_linear_id(), wg_size());   \
	}
#define ASYNC_S_(T, D, S, DI, SI)                                              \
	event_t OVL __hpcl_async_items(D T *dst, const S T *src, size_t n,     \
				       size_t stride, event_t e, size_t lid,   \
				       size_t step)                            \
	{                                                                      \
		for (size_t i = lid; i < n; i += step)                         \
			dst[DI] = src[SI];                                     \
		return e;                                                      \
	}                                                                      \
	event_t OVL async_work_group_strided_copy(                             \
		D T *dst, const S T *src, size_t n, size_t stride, event_t e)  \
	{                                                                      \
		return __hpcl_async_items(dst, src, n, stride, e,              \
					  get_local_linear_id(), wg_size());   \
	}
#define ASYNC_T_(T)                                                            \
	ASYNC_(T, __local, __global)                                           \
	ASYNC_(T, __global, __local)                                           \
	ASYNC_S_(T, __local, __global, i, i *stride)                           \
	ASYNC_S_(T, __global, __local, i *stride, i)                           \
	void OVL prefetch(const __global T *p, size_t n) {}
#define ASYNC_V_(n, T) ASYNC_T_(T##n)
#define ASYNC_ALL_(T) ASYNC_T_(T) HP_VEC(ASYNC_V_, T)
#define ASYNC_I_(T, UT, BITS, SG, X) ASYNC_ALL_(T)
HP_INTS(ASYNC_I_, )
ASYNC_ALL_(float)
#if HPCL_FP64
ASYNC_ALL_(double)
#endif

/* The compiler's own declaration of wait_group_events takes a __generic
 * event_t * (events.c defines that one); this is the __private one
 * opencl-c.h would declare. */
void OVL wait_group_events(int n, event_t *ev)
{
	barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
