/* SPDX-License-Identifier: MIT */
/*
 * The buffer heap (mailbox-private): the device memory the host's ALLOC and
 * FREE packets hand out, and the check that a range lies in one allocated
 * buffer. Its own lock: the dispatcher allocates and checks, the hart
 * that completes a FREE frees.
 */
#ifndef MAILBOX_HEAP_H
#define MAILBOX_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Take [base, base + size) as the heap, empty: the whole
 * HP_MBOX_BUFFER_ALIGN blocks inside it (the largest buffer is then all of
 * it). */
void mbox_heap_init(uint64_t base, uint64_t size);

/** The heap as mbox_heap_init() took it. */
uint64_t mbox_heap_base(void);
uint64_t mbox_heap_size(void);

/** A buffer of @p size bytes (first fit): its address, or 0 with the
 * reason and the numbers in @p why (@p n bytes). */
uint64_t mbox_heap_alloc(uint64_t size, char *why, size_t n);

/** Does [addr, addr + len) lie in one allocated buffer? (len 0: is addr
 * inside one, its end excluded.) */
bool mbox_heap_holds(uint64_t addr, uint64_t len);

/** Several mbox_heap_holds() under one lock (a launch's buffer arguments,
 * on every dispatch): mbox_heap_holds_locked() between mbox_heap_lock()
 * and mbox_heap_unlock(). */
void mbox_heap_lock(void);
void mbox_heap_unlock(void);
bool mbox_heap_holds_locked(uint64_t addr, uint64_t len);

/** A FREE read: mark the buffer that starts at @p addr as being freed.
 * False if no buffer starts there or a FREE for it is on its way. */
bool mbox_heap_mark_free(uint64_t addr);

/** A FREE that could not be read yet, or that failed: the mark goes. */
void mbox_heap_unmark(uint64_t addr);

/** A FREE that completed: the buffer at @p addr goes. */
void mbox_heap_free(uint64_t addr);

#endif
