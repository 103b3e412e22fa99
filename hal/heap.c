// SPDX-License-Identifier: MIT
/* Bump allocators over the kernel-visible heap [__heap_start, __heap_end)
 * and the firmware-private one [__private_heap_start, __private_heap_end)
 * (linker/common.ld). */
#include <hal/atomic.h>
#include <hal/heap.h>
#include <stdint.h>
#include <string.h>

extern char __heap_start[], __heap_end[];
extern char __private_heap_start[], __private_heap_end[];

typedef struct {
	uintptr_t next;
} arena;

static arena heap, private_heap;

static void *bump(arena *a, uintptr_t lo, uintptr_t hi, size_t size,
		  size_t align)
{
	uintptr_t cur = hal_load_relaxed(&a->next);
	for (;;) {
		uintptr_t base = cur ? cur : lo;
		uintptr_t p = (base + align - 1) & ~(uintptr_t)(align - 1);
		if (p > hi || size > hi - p)
			return NULL;
		if (hal_cas(&a->next, &cur, p + size)) {
			memset((void *)p, 0, size);
			return (void *)p;
		}
	}
}

void *hal_heap_alloc(size_t size, size_t align)
{
	return bump(&heap, (uintptr_t)__heap_start, (uintptr_t)__heap_end, size,
		    align);
}

void *hal_heap_alloc_private(size_t size, size_t align)
{
	return bump(&private_heap, (uintptr_t)__private_heap_start,
		    (uintptr_t)__private_heap_end, size, align);
}

size_t hal_heap_free_bytes(void)
{
	uintptr_t cur = hal_load_relaxed(&heap.next);
	return (uintptr_t)__heap_end - (cur ? cur : (uintptr_t)__heap_start);
}
