/* SPDX-License-Identifier: MIT */
/**
 * @file Memory that lives for the rest of the run (executor arenas, tables).
 * Firmware: a bump allocator over the RAM after the stacks; host: the C
 * heap. Nothing is freed.
 */
#ifndef HAL_HEAP_H
#define HAL_HEAP_H

#include <stddef.h>

/** @p size bytes aligned to @p align (a power of two), zeroed; NULL if the
 * heap is exhausted. Thread-safe. */
void *hal_heap_alloc(size_t size, size_t align);

/** Bytes still free. */
size_t hal_heap_free_bytes(void);

#endif
