/* SPDX-License-Identifier: MIT */
/*
 * 64-bit words shared with the host, on any XLEN (mailbox-private). The
 * protocol's indices and counters are uint64_t (hartpool/mbox.h); an rv32
 * device reads and writes them as two halves.
 */
#ifndef MAILBOX_WORDS_H
#define MAILBOX_WORDS_H

#include <hal/atomic.h>
#include <stdint.h>

static inline uint64_t mbox_ld64(const uint64_t *p)
{
#if __SIZEOF_POINTER__ >= 8
	return hal_load_acquire(p);
#else
	/* Two halves; the high word read twice detects a carry between. */
	const uint32_t *w = (const uint32_t *)p;
	for (;;) {
		uint32_t hi = hal_load_acquire(&w[1]);
		uint32_t lo = hal_load_acquire(&w[0]);
		if (hal_load_acquire(&w[1]) == hi)
			return (uint64_t)hi << 32 | lo;
	}
#endif
}

static inline void mbox_st64(uint64_t *p, uint64_t v)
{
#if __SIZEOF_POINTER__ >= 8
	hal_store_release(p, v);
#else
	/* Low word first: a reader between the halves sees a smaller value,
	 * which only delays it (the counters only grow). */
	uint32_t *w = (uint32_t *)p;
	hal_store_release(&w[0], (uint32_t)v);
	hal_store_release(&w[1], (uint32_t)(v >> 32));
#endif
}

/* A device address as a pointer (the mailbox is identity-mapped). */
static inline void *mbox_ptr(uint64_t addr)
{
	return (void *)(uintptr_t)addr;
}

#endif
