// SPDX-License-Identifier: MIT
/*
 * The buffer heap's dirty map and its clearing (heap.c, at the top, says
 * what the map holds and why its bits are atomic): freed memory is marked
 * here, a new buffer's dirty bytes are cleared by its allocation, and idle
 * harts clear the dirty chunks no buffer touches, one per step.
 */
#include "heap_int.h"
#include "words.h"
#include <hal/atomic.h>
#include <hal/heap.h>
#include <string.h>

/* The dirty map for the heap's size, all clean. Nonzero: no memory. */
int heap_dirty_init(void)
{
	mbox_heap.chunks = (size_t)((mbox_heap.size + CHUNK - 1) / CHUNK);
	mbox_heap.dirty_words = (mbox_heap.chunks + WBITS - 1) / WBITS;
	if (mbox_heap.dirty_words > mbox_heap.dirty_cap) {
		mbox_heap.dirty = hal_heap_alloc_private(
			mbox_heap.dirty_words * sizeof(unsigned long), 64);
		mbox_heap.dirty_cap =
			mbox_heap.dirty ? mbox_heap.dirty_words : 0;
	}
	if (mbox_heap.dirty_words && !mbox_heap.dirty)
		return -1;
	for (size_t w = 0; w < mbox_heap.dirty_words; w++)
		hal_store_relaxed(&mbox_heap.dirty[w], 0ul);
	mbox_heap.ndirty = 0;
	mbox_heap.rotor = 0;
	hal_store_relaxed(&mbox_heap.sweep, 0u);
	mbox_heap.cleared_idle = 0;
	mbox_heap.cleared_alloc = 0;
	return 0;
}

/* ---- the dirty map ---- */

static bool chunk_dirty(size_t c)
{
	return hal_load_relaxed(&mbox_heap.dirty[c / WBITS]) >> (c % WBITS) &
	       1u;
}

/* Mark every chunk that touches [lo, hi) dirty (lock held). */
void heap_dirty_set(uint64_t lo, uint64_t hi)
{
	if (lo < mbox_heap.base)
		lo = mbox_heap.base;
	if (hi > heap_end())
		hi = heap_end();
	if (lo >= hi)
		return;
	size_t c = (size_t)((lo - mbox_heap.base) / CHUNK);
	size_t last = (size_t)((hi - 1 - mbox_heap.base) / CHUNK);
	while (c <= last) {
		size_t w = c / WBITS, b = c % WBITS;
		size_t n = WBITS - b;
		if (n > last - c + 1)
			n = last - c + 1;
		unsigned long m = n == WBITS ? ~0ul : ((1ul << n) - 1) << b;
		unsigned long old = hal_load_relaxed(&mbox_heap.dirty[w]);
		mbox_heap.ndirty += (uint64_t)__builtin_popcountl(m & ~old);
		hal_store_relaxed(&mbox_heap.dirty[w], old | m);
		c += n;
	}
	hal_store_relaxed(&mbox_heap.sweep, 1u);
}

void mbox_heap_mark_dirty(uint64_t addr, uint64_t len)
{
	if (len > UINT64_MAX - addr)
		len = UINT64_MAX - addr;
	hal_lock_acquire(&mbox_heap.lock);
	heap_dirty_set(addr, addr + len);
	hal_lock_release(&mbox_heap.lock);
}

/* Clear [addr, addr + size) where it lies in dirty chunks: a new buffer,
 * which no one else touches (see above; no lock). */
void heap_clear_new(uint64_t addr, uint64_t size)
{
	uint64_t end = addr + size, cleared = 0;
	size_t c = (size_t)((addr - mbox_heap.base) / CHUNK);
	size_t last = (size_t)((end - 1 - mbox_heap.base) / CHUNK);
	while (c <= last) {
		if (!hal_load_relaxed(&mbox_heap.dirty[c / WBITS])) {
			c = (c / WBITS + 1) * WBITS; /* a clean word */
			continue;
		}
		/* A run of dirty chunks, cleared with one memset. */
		size_t r = c;
		while (r <= last && chunk_dirty(r))
			r++;
		if (r > c) {
			uint64_t lo = mbox_heap.base + c * CHUNK,
				 hi = mbox_heap.base + r * CHUNK;
			if (lo < addr)
				lo = addr;
			if (hi > end)
				hi = end;
			memset(mbox_ptr(lo), 0, (size_t)(hi - lo));
			cleared += hi - lo;
		}
		c = r + 1;
	}
	if (cleared) {
		hal_lock_acquire(&mbox_heap.lock);
		mbox_heap.cleared_alloc += cleared;
		hal_lock_release(&mbox_heap.lock);
	}
}

/* ---- background clearing ---- */

/* The first dirty chunk in [from, to), or `to`. */
static size_t next_dirty(size_t from, size_t to)
{
	while (from < to) {
		unsigned long w =
			hal_load_relaxed(&mbox_heap.dirty[from / WBITS]) >>
			(from % WBITS);
		if (w) {
			size_t c = from + (size_t)__builtin_ctzl(w);
			return c < to ? c : to;
		}
		from = (from / WBITS + 1) * WBITS;
	}
	return to;
}

/* A dirty chunk in [from, to) that no buffer touches, or `to`. */
static size_t clearable(size_t from, size_t to)
{
	for (size_t c = next_dirty(from, to); c < to; c = next_dirty(c, to)) {
		uint64_t lo = mbox_heap.base + c * CHUNK;
		uint64_t hi = lo + CHUNK < heap_end() ? lo + CHUNK : heap_end();
		/* The first buffer that ends after lo. */
		unsigned a = 0, b = mbox_heap.num_bufs;
		while (a < b) {
			unsigned mid = (a + b) / 2;
			if (mbox_heap.bufs[mid].addr +
				    mbox_heap.bufs[mid].size <=
			    lo)
				a = mid + 1;
			else
				b = mid;
		}
		if (a == mbox_heap.num_bufs || mbox_heap.bufs[a].addr >= hi)
			return c;
		/* Touched: on past the chunk its buffer ends in. */
		const mbox_buf *u = &mbox_heap.bufs[a];
		size_t after =
			(size_t)((u->addr + u->size - 1 - mbox_heap.base) /
				 CHUNK) +
			1;
		c = after > c ? after : c + 1;
	}
	return to;
}

bool mbox_heap_clear_pending(void)
{
	return hal_load_relaxed(&mbox_heap.sweep) != 0;
}

bool mbox_heap_clear_step(void)
{
	/* Held: by the hart clearing now (one at a time is all the lock
	 * allows; this one stays free for kernels and sleeps), or by an
	 * allocation (the dispatcher wakes a hart again after it). */
	if (!hal_load_relaxed(&mbox_heap.sweep) ||
	    !hal_lock_try(&mbox_heap.lock))
		return false;
	size_t c = clearable(mbox_heap.rotor, mbox_heap.chunks);
	if (c == mbox_heap.chunks) {
		size_t to = mbox_heap.rotor < mbox_heap.chunks
				    ? mbox_heap.rotor
				    : mbox_heap.chunks;
		c = clearable(0, to);
		if (c == to)
			c = mbox_heap.chunks;
	}
	if (c >= mbox_heap.chunks) {
		/* Every dirty chunk is touched by a buffer: nothing until
		 * one is freed. */
		hal_store_relaxed(&mbox_heap.sweep, 0u);
		hal_lock_release(&mbox_heap.lock);
		return false;
	}
	uint64_t lo = mbox_heap.base + c * CHUNK;
	uint64_t hi = lo + CHUNK < heap_end() ? lo + CHUNK : heap_end();
	memset(mbox_ptr(lo), 0, (size_t)(hi - lo));
	hal_store_relaxed(&mbox_heap.dirty[c / WBITS],
			  hal_load_relaxed(&mbox_heap.dirty[c / WBITS]) &
				  ~(1ul << (c % WBITS)));
	mbox_heap.ndirty--;
	mbox_heap.rotor = c + 1;
	mbox_heap.cleared_idle += hi - lo;
	hal_lock_release(&mbox_heap.lock);
	return true;
}
