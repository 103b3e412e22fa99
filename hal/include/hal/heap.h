/* SPDX-License-Identifier: MIT */
/**
 * @file Memory that lives for the rest of the run (executor arenas, tables).
 * Firmware: bump allocators over the RAM after the stacks (one part kernels
 * may reach, one private to the firmware); host: the C heap. Nothing is
 * freed.
 */
#ifndef HAL_HEAP_H
#define HAL_HEAP_H

#include <stddef.h>

/** @p size bytes aligned to @p align (a power of two), zeroed; NULL if the
 * heap is exhausted. Thread-safe. */
void *hal_heap_alloc(size_t size, size_t align);

/** Like hal_heap_alloc(), from memory kernels can never reach (with
 * isolation on, hal/isolation.h): firmware tables, anything holding code
 * addresses or state the firmware trusts. Host: the C heap. */
void *hal_heap_alloc_private(size_t size, size_t align);

/** Bytes still free (the kernel-visible heap). */
size_t hal_heap_free_bytes(void);

#endif
