/* SPDX-License-Identifier: MIT */
/*
 * Inside the buffer heap: what heap.c (the buffer table and the regions)
 * and heap_clear.c (the dirty map and its clearing) share. Only those two
 * include this; the rest of the mailbox sees heap.h.
 */
#ifndef MAILBOX_HEAP_INT_H
#define MAILBOX_HEAP_INT_H

#include "heap.h"
#include <hal/lock.h>
#include <hartpool/mbox.h>

typedef struct mbox_buf {
	uint64_t addr, size;
	uint8_t sess;
	bool freeing; /* a FREE for it is on its way */
} mbox_buf;

typedef struct heap_region {
	uint64_t lo, hi;
} heap_region;

/* Every region of every session, sorted by address (gaps, neighbours). */
#define ALL_REGIONS (HP_MBOX_SESSIONS * MBOX_HEAP_REGIONS_MAX)

typedef struct heap_state {
	hal_lock lock;
	uint64_t base, size, granule;
	unsigned max_regions;
	mbox_buf *bufs; /* HP_MBOX_BUFFERS_MAX, sorted by address */
	unsigned num_bufs;
	uint64_t used;
	heap_region reg[HP_MBOX_SESSIONS][MBOX_HEAP_REGIONS_MAX];
	unsigned nreg[HP_MBOX_SESSIONS];
	uint64_t sess_bytes[HP_MBOX_SESSIONS];
	unsigned sess_bufs[HP_MBOX_SESSIONS];
	heap_region all[ALL_REGIONS]; /* all_regions()'s scratch (lock held) */
	/* The dirty map (heap.c, at the top): chunk c is [base + c * CHUNK, +
	 * CHUNK). */
	unsigned long *dirty;
	size_t dirty_words, dirty_cap, chunks;
	uint64_t ndirty; /* chunks dirty */
	size_t rotor;	 /* where mbox_heap_clear_step looks first */
	unsigned sweep;	 /* 1: a dirty chunk may be clearable */
	uint64_t cleared_idle, cleared_alloc; /* bytes, since init */
} heap_state;

#define CHUNK ((uint64_t)MBOX_HEAP_CHUNK)
#define WBITS (8u * sizeof(unsigned long))

/* The heap (heap.c). */
extern heap_state mbox_heap;

static inline uint64_t heap_end(void)
{
	return mbox_heap.base + mbox_heap.size;
}

/* heap_clear.c, with the lock held but heap_clear_new (heap.c's comment
 * at the top says why it needs none). */
int heap_dirty_init(void);
void heap_dirty_set(uint64_t lo, uint64_t hi);
void heap_clear_new(uint64_t addr, uint64_t size);

#endif
