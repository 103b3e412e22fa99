// SPDX-License-Identifier: MIT
/* Bump allocator over [__heap_start, __heap_end) (linker/common.ld). */
#include <hal/atomic.h>
#include <hal/heap.h>
#include <stdint.h>
#include <string.h>

extern char __heap_start[], __heap_end[];
static uintptr_t heap_next;

void *hal_heap_alloc(size_t size, size_t align)
{
	uintptr_t cur = hal_load_relaxed(&heap_next);
	for (;;) {
		uintptr_t base = cur ? cur : (uintptr_t)__heap_start;
		uintptr_t p = (base + align - 1) & ~(uintptr_t)(align - 1);
		if (p > (uintptr_t)__heap_end ||
		    size > (uintptr_t)__heap_end - p)
			return NULL;
		if (hal_cas(&heap_next, &cur, p + size)) {
			memset((void *)p, 0, size);
			return (void *)p;
		}
	}
}

size_t hal_heap_free_bytes(void)
{
	uintptr_t cur = hal_load_relaxed(&heap_next);
	return (uintptr_t)__heap_end - (cur ? cur : (uintptr_t)__heap_start);
}
