// SPDX-License-Identifier: MIT
/*
 * The buffer heap (heap.h): a table of the allocated buffers, sorted by
 * address, searched by bisection; allocation is first fit over the gaps
 * between them. Every function that reads the table takes the heap's
 * lock, but mbox_heap_holds_locked(), whose caller holds it.
 */
#include "heap.h"
#include <hal/lock.h>
#include <hartpool/mbox.h>
#include <stdio.h>
#include <string.h>

typedef struct mbox_buf {
	uint64_t addr, size;
	bool freeing; /* a FREE for it is on its way */
} mbox_buf;

static struct {
	hal_lock lock;
	uint64_t base, size;
	mbox_buf bufs[HP_MBOX_BUFFERS_MAX]; /* sorted by address */
	unsigned num_bufs;
} H = {.lock = HAL_LOCK_INIT};

static uint64_t align_up(uint64_t v)
{
	return (v + HP_MBOX_BUFFER_ALIGN - 1) &
	       ~(uint64_t)(HP_MBOX_BUFFER_ALIGN - 1);
}

void mbox_heap_init(uint64_t base, uint64_t size)
{
	uint64_t b0 = align_up(base);
	H.size = size > b0 - base
			 ? (size - (b0 - base)) &
				   ~(uint64_t)(HP_MBOX_BUFFER_ALIGN - 1)
			 : 0;
	H.base = b0;
	H.num_bufs = 0;
}

uint64_t mbox_heap_base(void)
{
	return H.base;
}

uint64_t mbox_heap_size(void)
{
	return H.size;
}

/* The buffer containing [addr, addr + len) (len may be 0), or NULL. Lock
 * held. */
static mbox_buf *find(uint64_t addr, uint64_t len)
{
	unsigned lo = 0, hi = H.num_bufs;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (H.bufs[mid].addr + H.bufs[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == H.num_bufs)
		return NULL;
	mbox_buf *b = &H.bufs[lo];
	if (addr < b->addr || len > b->size - (addr - b->addr))
		return NULL;
	if (len == 0 && addr == b->addr + b->size)
		return NULL;
	return b;
}

uint64_t mbox_heap_alloc(uint64_t size, char *why, size_t n)
{
	unsigned long long ask = size;
	if (size == 0) {
		snprintf(why, n, "a buffer of 0 bytes");
		return 0;
	}
	uint64_t need = size > H.size ? UINT64_MAX : align_up(size);
	uint64_t addr = 0, largest = 0, used = 0;
	hal_lock_acquire(&H.lock);
	unsigned nb = H.num_bufs, i = 0;
	bool full = nb >= HP_MBOX_BUFFERS_MAX; /* no gaps to look at then */
	for (uint64_t at = H.base; !full; i++) {
		uint64_t end = i < nb ? H.bufs[i].addr : H.base + H.size;
		if (end - at >= need) {
			addr = at;
			break;
		}
		if (end - at > largest)
			largest = end - at;
		if (i == nb)
			break;
		used += H.bufs[i].size;
		at = align_up(H.bufs[i].addr + H.bufs[i].size);
	}
	if (addr) {
		memmove(&H.bufs[i + 1], &H.bufs[i],
			(nb - i) * sizeof(mbox_buf));
		H.bufs[i] = (mbox_buf){addr, size, false};
		H.num_bufs++;
	}
	hal_lock_release(&H.lock);
	if (full)
		snprintf(why, n,
			 "a buffer of %llu bytes: all %u buffers in use", ask,
			 HP_MBOX_BUFFERS_MAX);
	else if (!addr)
		snprintf(why, n,
			 "a buffer of %llu bytes: largest free block %llu of "
			 "%llu (%llu in use)",
			 ask, (unsigned long long)largest,
			 (unsigned long long)H.size, (unsigned long long)used);
	return addr;
}

void mbox_heap_lock(void)
{
	hal_lock_acquire(&H.lock);
}

void mbox_heap_unlock(void)
{
	hal_lock_release(&H.lock);
}

bool mbox_heap_holds_locked(uint64_t addr, uint64_t len)
{
	return find(addr, len) != NULL;
}

bool mbox_heap_holds(uint64_t addr, uint64_t len)
{
	hal_lock_acquire(&H.lock);
	bool ok = find(addr, len) != NULL;
	hal_lock_release(&H.lock);
	return ok;
}

bool mbox_heap_mark_free(uint64_t addr)
{
	hal_lock_acquire(&H.lock);
	mbox_buf *b = find(addr, 0);
	bool ok = b && b->addr == addr && !b->freeing;
	if (ok)
		b->freeing = true;
	hal_lock_release(&H.lock);
	return ok;
}

void mbox_heap_unmark(uint64_t addr)
{
	hal_lock_acquire(&H.lock);
	mbox_buf *b = find(addr, 0);
	if (b && b->addr == addr)
		b->freeing = false;
	hal_lock_release(&H.lock);
}

void mbox_heap_free(uint64_t addr)
{
	hal_lock_acquire(&H.lock);
	mbox_buf *b = find(addr, 0);
	if (b && b->addr == addr) {
		unsigned i = (unsigned)(b - H.bufs);
		memmove(b, b + 1, (H.num_bufs - i - 1) * sizeof(mbox_buf));
		H.num_bufs--;
	}
	hal_lock_release(&H.lock);
}
