// SPDX-License-Identifier: MIT
/*
 * The buffer heap (heap.h): a table of the allocated buffers, sorted by
 * address and searched by bisection, and per session a few regions (whole
 * granules) that hold all of its buffers and nobody else's. Allocation
 * looks, in this order, for room in the session's regions (first fit), for
 * a region that can grow into the free space beside it, and for a new
 * region in a free gap (best fit; in the middle of a large gap that
 * follows another session's region, so both can grow). Every function
 * that reads the table takes the heap's lock, but the _locked ones, whose
 * caller holds it.
 *
 * The dirty map (heap_clear.c): one bit per MBOX_HEAP_CHUNK chunk, set when a
 * buffer is freed or a session's region shrinks or goes (its kernels could
 * write anywhere in it), over every chunk that touches the range; cleared when
 * an idle hart has cleared the whole chunk, which it does only while no buffer
 * touches it (with the lock held, so no allocation lands there meanwhile). A
 * new buffer's bytes in dirty chunks are cleared by the allocation after the
 * lock is released: its chunks stay dirty (the other bytes of a chunk it shares
 * may not be clear), no idle hart touches them while it lives, and the dirty
 * bits of its range can only be set meanwhile, never cleared. The bits are read
 * there without the lock, so every access to them is atomic.
 */
#include "heap_int.h"
#include "words.h"
#include <hal/atomic.h>
#include <hal/heap.h>
#include <hal/lock.h>
#include <hartpool/error.h>
#include <hartpool/mbox.h>
#include <stdio.h>
#include <string.h>

heap_state mbox_heap = {.lock = HAL_LOCK_INIT};

static uint64_t align_up(uint64_t v)
{
	return (v + HP_MBOX_BUFFER_ALIGN - 1) &
	       ~(uint64_t)(HP_MBOX_BUFFER_ALIGN - 1);
}

static uint64_t gran_up(uint64_t v)
{
	return (v + mbox_heap.granule - 1) & ~(mbox_heap.granule - 1);
}

static uint64_t gran_down(uint64_t v)
{
	return v & ~(mbox_heap.granule - 1);
}

int mbox_heap_init(uint64_t base, uint64_t size, uint64_t granule,
		   unsigned max_regions)
{
	if (granule < HP_MBOX_BUFFER_ALIGN)
		granule = HP_MBOX_BUFFER_ALIGN;
	mbox_heap.granule = granule;
	uint64_t b0 = gran_up(base), end = gran_down(base + size);
	mbox_heap.base = b0;
	mbox_heap.size = end > b0 ? end - b0 : 0;
	mbox_heap.max_regions = max_regions < 1 ? 1
				: max_regions > MBOX_HEAP_REGIONS_MAX
					? MBOX_HEAP_REGIONS_MAX
					: max_regions;
	mbox_heap.num_bufs = 0;
	mbox_heap.used = 0;
	memset(mbox_heap.nreg, 0, sizeof(mbox_heap.nreg));
	memset(mbox_heap.sess_bytes, 0, sizeof(mbox_heap.sess_bytes));
	memset(mbox_heap.sess_bufs, 0, sizeof(mbox_heap.sess_bufs));
	if (!mbox_heap.bufs)
		mbox_heap.bufs = hal_heap_alloc_private(
			HP_MBOX_BUFFERS_MAX * sizeof(mbox_buf), 64);
	if (heap_dirty_init())
		return HP_OUT_OF_RESOURCES;
	return mbox_heap.bufs ? 0 : HP_OUT_OF_RESOURCES;
}

uint64_t mbox_heap_base(void)
{
	return mbox_heap.base;
}

uint64_t mbox_heap_size(void)
{
	return mbox_heap.size;
}

/* ---- the buffer table (lock held) ---- */

/* Index of the first buffer that starts at or after addr. */
static unsigned first_from(uint64_t addr)
{
	unsigned lo = 0, hi = mbox_heap.num_bufs;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (mbox_heap.bufs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The buffer containing [addr, addr + len) (len may be 0), or NULL. */
static mbox_buf *find(uint64_t addr, uint64_t len)
{
	unsigned lo = 0, hi = mbox_heap.num_bufs;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (mbox_heap.bufs[mid].addr + mbox_heap.bufs[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == mbox_heap.num_bufs)
		return NULL;
	mbox_buf *b = &mbox_heap.bufs[lo];
	if (addr < b->addr || len > b->size - (addr - b->addr))
		return NULL;
	if (len == 0 && addr == b->addr + b->size)
		return NULL;
	return b;
}

static void insert(unsigned sess, uint64_t addr, uint64_t size)
{
	unsigned i = first_from(addr);
	memmove(&mbox_heap.bufs[i + 1], &mbox_heap.bufs[i],
		(mbox_heap.num_bufs - i) * sizeof(mbox_buf));
	mbox_heap.bufs[i] = (mbox_buf){addr, size, (uint8_t)sess, false};
	mbox_heap.num_bufs++;
	mbox_heap.used += size;
	mbox_heap.sess_bytes[sess] += size;
	mbox_heap.sess_bufs[sess]++;
}

static void remove_at(unsigned i)
{
	mbox_buf *b = &mbox_heap.bufs[i];
	mbox_heap.used -= b->size;
	mbox_heap.sess_bytes[b->sess] -= b->size;
	mbox_heap.sess_bufs[b->sess]--;
	memmove(b, b + 1, (mbox_heap.num_bufs - i - 1) * sizeof(mbox_buf));
	mbox_heap.num_bufs--;
}

/* ---- regions (lock held) ---- */

/* The lowest start of any region at or after x (the heap's end if none). */
static uint64_t next_region_lo(uint64_t x)
{
	uint64_t best = heap_end();
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		for (unsigned r = 0; r < mbox_heap.nreg[s]; r++)
			if (mbox_heap.reg[s][r].lo >= x &&
			    mbox_heap.reg[s][r].lo < best)
				best = mbox_heap.reg[s][r].lo;
	return best;
}

/* The highest end of any region at or before x (the heap's base if
 * none). */
static uint64_t prev_region_hi(uint64_t x)
{
	uint64_t best = mbox_heap.base;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		for (unsigned r = 0; r < mbox_heap.nreg[s]; r++)
			if (mbox_heap.reg[s][r].hi <= x &&
			    mbox_heap.reg[s][r].hi > best)
				best = mbox_heap.reg[s][r].hi;
	return best;
}

/* Every region, sorted by address, into all[]; returns how many. */
static unsigned all_regions(heap_region *all)
{
	unsigned n = 0;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		for (unsigned r = 0; r < mbox_heap.nreg[s]; r++) {
			heap_region x = mbox_heap.reg[s][r];
			unsigned j = n++;
			while (j && all[j - 1].lo > x.lo) {
				all[j] = all[j - 1];
				j--;
			}
			all[j] = x;
		}
	return n;
}

/* Session sess's regions sorted, touching ones merged. */
static void regions_tidy(unsigned sess)
{
	heap_region *rg = mbox_heap.reg[sess];
	unsigned n = mbox_heap.nreg[sess];
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j && rg[j - 1].lo > rg[j].lo; j--) {
			heap_region t = rg[j];
			rg[j] = rg[j - 1];
			rg[j - 1] = t;
		}
	unsigned m = 0;
	for (unsigned i = 0; i < n; i++) {
		if (m && rg[m - 1].hi >= rg[i].lo) {
			if (rg[i].hi > rg[m - 1].hi)
				rg[m - 1].hi = rg[i].hi;
		} else {
			rg[m++] = rg[i];
		}
	}
	mbox_heap.nreg[sess] = m;
}

/* Room for `need` bytes among session sess's buffers in region r: the
 * address, or 0. */
static uint64_t fit_in(const heap_region *r, uint64_t need)
{
	uint64_t at = r->lo;
	for (unsigned i = first_from(r->lo);; i++) {
		bool last = i >= mbox_heap.num_bufs ||
			    mbox_heap.bufs[i].addr >= r->hi;
		uint64_t end = last ? r->hi : mbox_heap.bufs[i].addr;
		if (end >= at && end - at >= need)
			return at;
		if (last)
			return 0;
		at = align_up(mbox_heap.bufs[i].addr + mbox_heap.bufs[i].size);
	}
}

/* Grow one of sess's regions so `need` bytes fit at its top or its
 * bottom: the address, or 0. */
static uint64_t fit_growing(unsigned sess, uint64_t need)
{
	for (unsigned k = 0; k < mbox_heap.nreg[sess]; k++) {
		heap_region *r = &mbox_heap.reg[sess][k];
		/* Up: from the end of its last buffer (or its start). */
		unsigned i = first_from(r->hi);
		uint64_t tail = r->lo;
		if (i > 0 && mbox_heap.bufs[i - 1].addr >= r->lo)
			tail = align_up(mbox_heap.bufs[i - 1].addr +
					mbox_heap.bufs[i - 1].size);
		uint64_t limit = next_region_lo(r->hi);
		if (tail <= limit && limit - tail >= need) {
			uint64_t hi = gran_up(tail + need);
			r->hi = hi < limit ? hi : limit;
			return tail;
		}
		/* Down: ending where its first buffer starts (or its end). */
		unsigned f = first_from(r->lo);
		uint64_t head =
			f < mbox_heap.num_bufs && mbox_heap.bufs[f].addr < r->hi
				? mbox_heap.bufs[f].addr
				: r->hi;
		uint64_t floor = prev_region_hi(r->lo);
		if (head >= floor + need) {
			uint64_t at = (head - need) &
				      ~(uint64_t)(HP_MBOX_BUFFER_ALIGN - 1);
			if (at >= floor) {
				if (gran_down(at) < r->lo)
					r->lo = gran_down(at);
				return at;
			}
		}
	}
	return 0;
}

/* A new region for sess holding `need` bytes: its start, or 0. */
static uint64_t fit_new_region(unsigned sess, uint64_t need)
{
	if (mbox_heap.nreg[sess] >= mbox_heap.max_regions)
		return 0;
	uint64_t want = gran_up(need);
	if (want < need)
		return 0; /* wraps */
	heap_region *all = mbox_heap.all;
	unsigned n = all_regions(all);
	uint64_t best_lo = 0, best_size = UINT64_MAX;
	bool best_after_region = false;
	uint64_t at = mbox_heap.base;
	for (unsigned i = 0; i <= n; i++) {
		uint64_t end = i < n ? all[i].lo : heap_end();
		if (end > at && end - at >= want && end - at < best_size) {
			best_lo = at;
			best_size = end - at;
			best_after_region = i > 0;
		}
		if (i < n && all[i].hi > at)
			at = all[i].hi;
	}
	if (best_size == UINT64_MAX)
		return 0;
	uint64_t lo = best_lo;
	/* After another session's region, leave it room to grow. */
	if (best_after_region && best_size / 4 >= want)
		lo = gran_down(best_lo + (best_size - want) / 2);
	mbox_heap.reg[sess][mbox_heap.nreg[sess]++] =
		(heap_region){lo, lo + want};
	return lo;
}

/* The largest gap in no region. */
static uint64_t largest_gap(void)
{
	heap_region *all = mbox_heap.all;
	unsigned n = all_regions(all);
	uint64_t at = mbox_heap.base, largest = 0;
	for (unsigned i = 0; i <= n; i++) {
		uint64_t end = i < n ? all[i].lo : heap_end();
		if (end > at && end - at > largest)
			largest = end - at;
		if (i < n && all[i].hi > at)
			at = all[i].hi;
	}
	return largest;
}

uint64_t mbox_heap_alloc(unsigned sess, uint64_t size, bool *regions_changed,
			 char *why, size_t n)
{
	unsigned long long ask = size;
	*regions_changed = false;
	if (size == 0) {
		snprintf(why, n, "a buffer of 0 bytes");
		return 0;
	}
	if (sess >= HP_MBOX_SESSIONS) {
		snprintf(why, n, "no session");
		return 0;
	}
	uint64_t need = size > mbox_heap.size ? UINT64_MAX : align_up(size);
	uint64_t addr = 0;
	hal_lock_acquire(&mbox_heap.lock);
	bool full = mbox_heap.num_bufs >= HP_MBOX_BUFFERS_MAX;
	if (!full && need != UINT64_MAX) {
		for (unsigned k = 0; k < mbox_heap.nreg[sess] && !addr; k++)
			addr = fit_in(&mbox_heap.reg[sess][k], need);
		if (!addr && (addr = fit_growing(sess, need)))
			*regions_changed = true;
		if (!addr && (addr = fit_new_region(sess, need)))
			*regions_changed = true;
		if (*regions_changed)
			regions_tidy(sess);
		if (addr)
			insert(sess, addr, size);
	}
	uint64_t largest = largest_gap(), used = mbox_heap.used;
	unsigned nreg = mbox_heap.nreg[sess];
	hal_lock_release(&mbox_heap.lock);
	if (addr)
		heap_clear_new(addr, size);
	if (full)
		snprintf(why, n,
			 "a buffer of %llu bytes: all %u buffers in use", ask,
			 HP_MBOX_BUFFERS_MAX);
	else if (!addr)
		snprintf(why, n,
			 "a buffer of %llu bytes: largest free block %llu of "
			 "%llu (%llu in use; the session has %u of %u regions)",
			 ask, (unsigned long long)largest,
			 (unsigned long long)mbox_heap.size,
			 (unsigned long long)used, nreg, mbox_heap.max_regions);
	return addr;
}

/* Does any buffer overlap [addr, addr + need)? */
static bool range_taken(uint64_t addr, uint64_t need)
{
	unsigned i = first_from(addr);
	if (i < mbox_heap.num_bufs && mbox_heap.bufs[i].addr - addr < need)
		return true;
	return i > 0 &&
	       mbox_heap.bufs[i - 1].addr + mbox_heap.bufs[i - 1].size > addr;
}

/* Session sess's regions to cover [lo, hi), whole granules no other
 * session's region touches: 1 if they grew, 0 if they covered it already,
 * -1 (nothing changed) if another's touches it or sess would need more
 * than its regions. */
static int regions_take(unsigned sess, uint64_t lo, uint64_t hi)
{
	heap_region *rg = mbox_heap.reg[sess], keep[MBOX_HEAP_REGIONS_MAX];
	unsigned n = mbox_heap.nreg[sess];
	for (unsigned r = 0; r < n; r++)
		if (rg[r].lo <= lo && hi <= rg[r].hi)
			return 0;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		for (unsigned r = 0; s != sess && r < mbox_heap.nreg[s]; r++)
			if (mbox_heap.reg[s][r].lo < hi &&
			    lo < mbox_heap.reg[s][r].hi)
				return -1;
	if (n == MBOX_HEAP_REGIONS_MAX)
		return -1;
	memcpy(keep, rg, n * sizeof(*rg));
	rg[n] = (heap_region){lo, hi};
	mbox_heap.nreg[sess] = n + 1;
	regions_tidy(sess);
	if (mbox_heap.nreg[sess] <= mbox_heap.max_regions)
		return 1;
	memcpy(rg, keep, n * sizeof(*rg));
	mbox_heap.nreg[sess] = n;
	return -1;
}

uint64_t mbox_heap_alloc_at(unsigned sess, uint64_t addr, uint64_t size,
			    bool *regions_changed, char *why, size_t n)
{
	*regions_changed = false;
	unsigned long long a = addr, ask = size;
	if (!size || sess >= HP_MBOX_SESSIONS || addr % HP_MBOX_BUFFER_ALIGN ||
	    addr < mbox_heap.base || addr >= heap_end() ||
	    size > heap_end() - addr) {
		snprintf(why, n,
			 "a buffer of %llu bytes at 0x%llx: not a %u-aligned "
			 "range of the heap [0x%llx, 0x%llx)",
			 ask, a, HP_MBOX_BUFFER_ALIGN,
			 (unsigned long long)mbox_heap.base,
			 (unsigned long long)heap_end());
		return 0;
	}
	uint64_t need = align_up(size);
	if (need > heap_end() - addr)
		need = heap_end() - addr;
	uint64_t lo = gran_down(addr), hi = gran_up(addr + need);
	const char *no = NULL;
	int grew = 0;
	hal_lock_acquire(&mbox_heap.lock);
	if (mbox_heap.num_bufs >= HP_MBOX_BUFFERS_MAX)
		no = "all buffers are in use";
	else if (range_taken(addr, need))
		no = "another buffer lies there";
	else if ((grew = regions_take(sess, lo, hi)) < 0)
		no = "another session's memory is there, or the session has "
		     "all its regions";
	if (!no) {
		insert(sess, addr, size);
		*regions_changed = grew > 0;
	}
	hal_lock_release(&mbox_heap.lock);
	if (no) {
		snprintf(why, n, "a buffer of %llu bytes at 0x%llx: %s", ask, a,
			 no);
		return 0;
	}
	heap_clear_new(addr, size);
	return addr;
}

void mbox_heap_lock(void)
{
	hal_lock_acquire(&mbox_heap.lock);
}

void mbox_heap_unlock(void)
{
	hal_lock_release(&mbox_heap.lock);
}

bool mbox_heap_holds_locked(unsigned sess, uint64_t addr, uint64_t len)
{
	const mbox_buf *b = find(addr, len);
	return b && b->sess == sess;
}

bool mbox_heap_holds(unsigned sess, uint64_t addr, uint64_t len)
{
	hal_lock_acquire(&mbox_heap.lock);
	bool ok = mbox_heap_holds_locked(sess, addr, len);
	hal_lock_release(&mbox_heap.lock);
	return ok;
}

int mbox_heap_owner(uint64_t addr, uint64_t len)
{
	hal_lock_acquire(&mbox_heap.lock);
	const mbox_buf *b = find(addr, len);
	int sess = b ? b->sess : -1;
	hal_lock_release(&mbox_heap.lock);
	return sess;
}

bool mbox_heap_mark_free(unsigned sess, uint64_t addr)
{
	hal_lock_acquire(&mbox_heap.lock);
	mbox_buf *b = find(addr, 0);
	bool ok = b && b->addr == addr && b->sess == sess && !b->freeing;
	if (ok)
		b->freeing = true;
	hal_lock_release(&mbox_heap.lock);
	return ok;
}

void mbox_heap_unmark(uint64_t addr)
{
	hal_lock_acquire(&mbox_heap.lock);
	mbox_buf *b = find(addr, 0);
	if (b && b->addr == addr)
		b->freeing = false;
	hal_lock_release(&mbox_heap.lock);
}

void mbox_heap_free(uint64_t addr)
{
	hal_lock_acquire(&mbox_heap.lock);
	mbox_buf *b = find(addr, 0);
	if (b && b->addr == addr) {
		heap_dirty_set(b->addr, b->addr + b->size);
		remove_at((unsigned)(b - mbox_heap.bufs));
	}
	hal_lock_release(&mbox_heap.lock);
}

unsigned mbox_heap_free_session(unsigned sess)
{
	unsigned gone = 0, m = 0;
	hal_lock_acquire(&mbox_heap.lock);
	for (unsigned i = 0; i < mbox_heap.num_bufs; i++) {
		if (mbox_heap.bufs[i].sess == sess) {
			heap_dirty_set(mbox_heap.bufs[i].addr,
				       mbox_heap.bufs[i].addr +
					       mbox_heap.bufs[i].size);
			mbox_heap.used -= mbox_heap.bufs[i].size;
			gone++;
			continue;
		}
		mbox_heap.bufs[m++] = mbox_heap.bufs[i];
	}
	mbox_heap.num_bufs = m;
	mbox_heap.sess_bytes[sess] = 0;
	mbox_heap.sess_bufs[sess] = 0;
	/* Its kernels could write anywhere in its regions. */
	for (unsigned k = 0; k < mbox_heap.nreg[sess]; k++)
		heap_dirty_set(mbox_heap.reg[sess][k].lo,
			       mbox_heap.reg[sess][k].hi);
	mbox_heap.nreg[sess] = 0;
	hal_lock_release(&mbox_heap.lock);
	return gone;
}

bool mbox_heap_trim(unsigned sess)
{
	bool changed = false;
	hal_lock_acquire(&mbox_heap.lock);
	heap_region *rg = mbox_heap.reg[sess];
	unsigned m = 0;
	for (unsigned k = 0; k < mbox_heap.nreg[sess]; k++) {
		heap_region r = rg[k];
		unsigned i = first_from(r.lo);
		uint64_t lo = UINT64_MAX, hi = 0;
		for (; i < mbox_heap.num_bufs && mbox_heap.bufs[i].addr < r.hi;
		     i++) {
			if (lo == UINT64_MAX)
				lo = mbox_heap.bufs[i].addr;
			if (mbox_heap.bufs[i].addr + mbox_heap.bufs[i].size >
			    hi)
				hi = mbox_heap.bufs[i].addr +
				     mbox_heap.bufs[i].size;
		}
		/* What leaves the region is dirty: the session's kernels
		 * could write anywhere in it. */
		if (lo == UINT64_MAX) {
			heap_dirty_set(r.lo, r.hi);
			changed = true; /* empty: it goes */
			continue;
		}
		heap_region t = {gran_down(lo), gran_up(hi)};
		heap_dirty_set(r.lo, t.lo);
		heap_dirty_set(t.hi, r.hi);
		changed |= t.lo != r.lo || t.hi != r.hi;
		rg[m++] = t;
	}
	mbox_heap.nreg[sess] = m;
	hal_lock_release(&mbox_heap.lock);
	return changed;
}

unsigned mbox_heap_regions(unsigned sess, uint64_t *base, uint64_t *size,
			   unsigned max)
{
	hal_lock_acquire(&mbox_heap.lock);
	unsigned n = mbox_heap.nreg[sess] < max ? mbox_heap.nreg[sess] : max;
	for (unsigned k = 0; k < n; k++) {
		base[k] = mbox_heap.reg[sess][k].lo;
		size[k] = mbox_heap.reg[sess][k].hi - mbox_heap.reg[sess][k].lo;
	}
	hal_lock_release(&mbox_heap.lock);
	return n;
}

void mbox_heap_stats_get(mbox_heap_stats *st)
{
	hal_lock_acquire(&mbox_heap.lock);
	st->used = mbox_heap.used;
	st->buffers = mbox_heap.num_bufs;
	st->largest = largest_gap();
	st->dirty = mbox_heap.ndirty * CHUNK;
	st->cleared_alloc = mbox_heap.cleared_alloc;
	st->cleared_idle = mbox_heap.cleared_idle;
	hal_lock_release(&mbox_heap.lock);
}

void mbox_heap_session_stats(unsigned sess, uint64_t *buffers, uint64_t *bytes,
			     unsigned *regions)
{
	hal_lock_acquire(&mbox_heap.lock);
	*buffers = mbox_heap.sess_bufs[sess];
	*bytes = mbox_heap.sess_bytes[sess];
	*regions = mbox_heap.nreg[sess];
	hal_lock_release(&mbox_heap.lock);
}
