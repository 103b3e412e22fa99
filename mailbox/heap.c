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
 * The dirty map: one bit per MBOX_HEAP_CHUNK chunk, set when a buffer is
 * freed or a session's region shrinks or goes (its kernels could write
 * anywhere in it), over every chunk that touches the range; cleared when an
 * idle hart has cleared the whole chunk, which it does only while no
 * buffer touches it (with the lock held, so no allocation lands there
 * meanwhile). A new buffer's bytes in dirty chunks are cleared by the
 * allocation after the lock is released: its chunks stay dirty (the other
 * bytes of a chunk it shares may not be clear), no idle hart touches them
 * while it lives, and the dirty bits of its range can only be set
 * meanwhile, never cleared. The bits are read there without the lock, so
 * every access to them is atomic.
 */
#include "heap.h"
#include "words.h"
#include <hal/atomic.h>
#include <hal/heap.h>
#include <hal/lock.h>
#include <hartpool/error.h>
#include <hartpool/mbox.h>
#include <stdio.h>
#include <string.h>

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

static struct {
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
	/* The dirty map (above): chunk c is [base + c * CHUNK, + CHUNK). */
	unsigned long *dirty;
	size_t dirty_words, dirty_cap, chunks;
	uint64_t ndirty; /* chunks dirty */
	size_t rotor;	 /* where mbox_heap_clear_step looks first */
	unsigned sweep;	 /* 1: a dirty chunk may be clearable */
	uint64_t cleared_idle, cleared_alloc; /* bytes, since init */
} H = {.lock = HAL_LOCK_INIT};

#define CHUNK ((uint64_t)MBOX_HEAP_CHUNK)
#define WBITS (8u * sizeof(unsigned long))

static uint64_t align_up(uint64_t v)
{
	return (v + HP_MBOX_BUFFER_ALIGN - 1) &
	       ~(uint64_t)(HP_MBOX_BUFFER_ALIGN - 1);
}

static uint64_t gran_up(uint64_t v)
{
	return (v + H.granule - 1) & ~(H.granule - 1);
}

static uint64_t gran_down(uint64_t v)
{
	return v & ~(H.granule - 1);
}

static uint64_t heap_end(void)
{
	return H.base + H.size;
}

int mbox_heap_init(uint64_t base, uint64_t size, uint64_t granule,
		   unsigned max_regions)
{
	if (granule < HP_MBOX_BUFFER_ALIGN)
		granule = HP_MBOX_BUFFER_ALIGN;
	H.granule = granule;
	uint64_t b0 = gran_up(base), end = gran_down(base + size);
	H.base = b0;
	H.size = end > b0 ? end - b0 : 0;
	H.max_regions = max_regions < 1 ? 1
			: max_regions > MBOX_HEAP_REGIONS_MAX
				? MBOX_HEAP_REGIONS_MAX
				: max_regions;
	H.num_bufs = 0;
	H.used = 0;
	memset(H.nreg, 0, sizeof(H.nreg));
	memset(H.sess_bytes, 0, sizeof(H.sess_bytes));
	memset(H.sess_bufs, 0, sizeof(H.sess_bufs));
	if (!H.bufs)
		H.bufs = hal_heap_alloc_private(
			HP_MBOX_BUFFERS_MAX * sizeof(mbox_buf), 64);
	H.chunks = (size_t)((H.size + CHUNK - 1) / CHUNK);
	H.dirty_words = (H.chunks + WBITS - 1) / WBITS;
	if (H.dirty_words > H.dirty_cap) {
		H.dirty = hal_heap_alloc_private(
			H.dirty_words * sizeof(unsigned long), 64);
		H.dirty_cap = H.dirty ? H.dirty_words : 0;
	}
	if (H.dirty_words && !H.dirty)
		return HP_OUT_OF_RESOURCES;
	for (size_t w = 0; w < H.dirty_words; w++)
		hal_store_relaxed(&H.dirty[w], 0ul);
	H.ndirty = 0;
	H.rotor = 0;
	hal_store_relaxed(&H.sweep, 0u);
	H.cleared_idle = 0;
	H.cleared_alloc = 0;
	return H.bufs ? 0 : HP_OUT_OF_RESOURCES;
}

uint64_t mbox_heap_base(void)
{
	return H.base;
}

uint64_t mbox_heap_size(void)
{
	return H.size;
}

/* ---- the dirty map ---- */

static bool chunk_dirty(size_t c)
{
	return hal_load_relaxed(&H.dirty[c / WBITS]) >> (c % WBITS) & 1u;
}

/* Mark every chunk that touches [lo, hi) dirty (lock held). */
static void dirty_set(uint64_t lo, uint64_t hi)
{
	if (lo < H.base)
		lo = H.base;
	if (hi > heap_end())
		hi = heap_end();
	if (lo >= hi)
		return;
	size_t c = (size_t)((lo - H.base) / CHUNK);
	size_t last = (size_t)((hi - 1 - H.base) / CHUNK);
	while (c <= last) {
		size_t w = c / WBITS, b = c % WBITS;
		size_t n = WBITS - b;
		if (n > last - c + 1)
			n = last - c + 1;
		unsigned long m = n == WBITS ? ~0ul : ((1ul << n) - 1) << b;
		unsigned long old = hal_load_relaxed(&H.dirty[w]);
		H.ndirty += (uint64_t)__builtin_popcountl(m & ~old);
		hal_store_relaxed(&H.dirty[w], old | m);
		c += n;
	}
	hal_store_relaxed(&H.sweep, 1u);
}

void mbox_heap_mark_dirty(uint64_t addr, uint64_t len)
{
	if (len > UINT64_MAX - addr)
		len = UINT64_MAX - addr;
	hal_lock_acquire(&H.lock);
	dirty_set(addr, addr + len);
	hal_lock_release(&H.lock);
}

/* Clear [addr, addr + size) where it lies in dirty chunks: a new buffer,
 * which no one else touches (see above; no lock). */
static void clear_new(uint64_t addr, uint64_t size)
{
	uint64_t end = addr + size, cleared = 0;
	size_t c = (size_t)((addr - H.base) / CHUNK);
	size_t last = (size_t)((end - 1 - H.base) / CHUNK);
	while (c <= last) {
		if (!hal_load_relaxed(&H.dirty[c / WBITS])) {
			c = (c / WBITS + 1) * WBITS; /* a clean word */
			continue;
		}
		/* A run of dirty chunks, cleared with one memset. */
		size_t r = c;
		while (r <= last && chunk_dirty(r))
			r++;
		if (r > c) {
			uint64_t lo = H.base + c * CHUNK,
				 hi = H.base + r * CHUNK;
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
		hal_lock_acquire(&H.lock);
		H.cleared_alloc += cleared;
		hal_lock_release(&H.lock);
	}
}

/* ---- the buffer table (lock held) ---- */

/* Index of the first buffer that starts at or after addr. */
static unsigned first_from(uint64_t addr)
{
	unsigned lo = 0, hi = H.num_bufs;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (H.bufs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The buffer containing [addr, addr + len) (len may be 0), or NULL. */
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

static void insert(unsigned sess, uint64_t addr, uint64_t size)
{
	unsigned i = first_from(addr);
	memmove(&H.bufs[i + 1], &H.bufs[i],
		(H.num_bufs - i) * sizeof(mbox_buf));
	H.bufs[i] = (mbox_buf){addr, size, (uint8_t)sess, false};
	H.num_bufs++;
	H.used += size;
	H.sess_bytes[sess] += size;
	H.sess_bufs[sess]++;
}

static void remove_at(unsigned i)
{
	mbox_buf *b = &H.bufs[i];
	H.used -= b->size;
	H.sess_bytes[b->sess] -= b->size;
	H.sess_bufs[b->sess]--;
	memmove(b, b + 1, (H.num_bufs - i - 1) * sizeof(mbox_buf));
	H.num_bufs--;
}

/* ---- regions (lock held) ---- */

/* The lowest start of any region at or after x (the heap's end if none). */
static uint64_t next_region_lo(uint64_t x)
{
	uint64_t best = heap_end();
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		for (unsigned r = 0; r < H.nreg[s]; r++)
			if (H.reg[s][r].lo >= x && H.reg[s][r].lo < best)
				best = H.reg[s][r].lo;
	return best;
}

/* The highest end of any region at or before x (the heap's base if
 * none). */
static uint64_t prev_region_hi(uint64_t x)
{
	uint64_t best = H.base;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		for (unsigned r = 0; r < H.nreg[s]; r++)
			if (H.reg[s][r].hi <= x && H.reg[s][r].hi > best)
				best = H.reg[s][r].hi;
	return best;
}

/* Every region, sorted by address, into all[]; returns how many. */
static unsigned all_regions(heap_region *all)
{
	unsigned n = 0;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		for (unsigned r = 0; r < H.nreg[s]; r++) {
			heap_region x = H.reg[s][r];
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
	heap_region *rg = H.reg[sess];
	unsigned n = H.nreg[sess];
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
	H.nreg[sess] = m;
}

/* Room for `need` bytes among session sess's buffers in region r: the
 * address, or 0. */
static uint64_t fit_in(const heap_region *r, uint64_t need)
{
	uint64_t at = r->lo;
	for (unsigned i = first_from(r->lo);; i++) {
		bool last = i >= H.num_bufs || H.bufs[i].addr >= r->hi;
		uint64_t end = last ? r->hi : H.bufs[i].addr;
		if (end >= at && end - at >= need)
			return at;
		if (last)
			return 0;
		at = align_up(H.bufs[i].addr + H.bufs[i].size);
	}
}

/* Grow one of sess's regions so `need` bytes fit at its top or its
 * bottom: the address, or 0. */
static uint64_t fit_growing(unsigned sess, uint64_t need)
{
	for (unsigned k = 0; k < H.nreg[sess]; k++) {
		heap_region *r = &H.reg[sess][k];
		/* Up: from the end of its last buffer (or its start). */
		unsigned i = first_from(r->hi);
		uint64_t tail = r->lo;
		if (i > 0 && H.bufs[i - 1].addr >= r->lo)
			tail = align_up(H.bufs[i - 1].addr +
					H.bufs[i - 1].size);
		uint64_t limit = next_region_lo(r->hi);
		if (tail <= limit && limit - tail >= need) {
			uint64_t hi = gran_up(tail + need);
			r->hi = hi < limit ? hi : limit;
			return tail;
		}
		/* Down: ending where its first buffer starts (or its end). */
		unsigned f = first_from(r->lo);
		uint64_t head = f < H.num_bufs && H.bufs[f].addr < r->hi
					? H.bufs[f].addr
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
	if (H.nreg[sess] >= H.max_regions)
		return 0;
	uint64_t want = gran_up(need);
	if (want < need)
		return 0; /* wraps */
	heap_region *all = H.all;
	unsigned n = all_regions(all);
	uint64_t best_lo = 0, best_size = UINT64_MAX;
	bool best_after_region = false;
	uint64_t at = H.base;
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
	H.reg[sess][H.nreg[sess]++] = (heap_region){lo, lo + want};
	return lo;
}

/* The largest gap in no region. */
static uint64_t largest_gap(void)
{
	heap_region *all = H.all;
	unsigned n = all_regions(all);
	uint64_t at = H.base, largest = 0;
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
	uint64_t need = size > H.size ? UINT64_MAX : align_up(size);
	uint64_t addr = 0;
	hal_lock_acquire(&H.lock);
	bool full = H.num_bufs >= HP_MBOX_BUFFERS_MAX;
	if (!full && need != UINT64_MAX) {
		for (unsigned k = 0; k < H.nreg[sess] && !addr; k++)
			addr = fit_in(&H.reg[sess][k], need);
		if (!addr && (addr = fit_growing(sess, need)))
			*regions_changed = true;
		if (!addr && (addr = fit_new_region(sess, need)))
			*regions_changed = true;
		if (*regions_changed)
			regions_tidy(sess);
		if (addr)
			insert(sess, addr, size);
	}
	uint64_t largest = largest_gap(), used = H.used;
	unsigned nreg = H.nreg[sess];
	hal_lock_release(&H.lock);
	if (addr)
		clear_new(addr, size);
	if (full)
		snprintf(why, n,
			 "a buffer of %llu bytes: all %u buffers in use", ask,
			 HP_MBOX_BUFFERS_MAX);
	else if (!addr)
		snprintf(why, n,
			 "a buffer of %llu bytes: largest free block %llu of "
			 "%llu (%llu in use; the session has %u of %u regions)",
			 ask, (unsigned long long)largest,
			 (unsigned long long)H.size, (unsigned long long)used,
			 nreg, H.max_regions);
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

bool mbox_heap_holds_locked(unsigned sess, uint64_t addr, uint64_t len)
{
	const mbox_buf *b = find(addr, len);
	return b && b->sess == sess;
}

bool mbox_heap_holds(unsigned sess, uint64_t addr, uint64_t len)
{
	hal_lock_acquire(&H.lock);
	bool ok = mbox_heap_holds_locked(sess, addr, len);
	hal_lock_release(&H.lock);
	return ok;
}

int mbox_heap_owner(uint64_t addr, uint64_t len)
{
	hal_lock_acquire(&H.lock);
	const mbox_buf *b = find(addr, len);
	int sess = b ? b->sess : -1;
	hal_lock_release(&H.lock);
	return sess;
}

bool mbox_heap_mark_free(unsigned sess, uint64_t addr)
{
	hal_lock_acquire(&H.lock);
	mbox_buf *b = find(addr, 0);
	bool ok = b && b->addr == addr && b->sess == sess && !b->freeing;
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
		dirty_set(b->addr, b->addr + b->size);
		remove_at((unsigned)(b - H.bufs));
	}
	hal_lock_release(&H.lock);
}

unsigned mbox_heap_free_session(unsigned sess)
{
	unsigned gone = 0, m = 0;
	hal_lock_acquire(&H.lock);
	for (unsigned i = 0; i < H.num_bufs; i++) {
		if (H.bufs[i].sess == sess) {
			dirty_set(H.bufs[i].addr,
				  H.bufs[i].addr + H.bufs[i].size);
			H.used -= H.bufs[i].size;
			gone++;
			continue;
		}
		H.bufs[m++] = H.bufs[i];
	}
	H.num_bufs = m;
	H.sess_bytes[sess] = 0;
	H.sess_bufs[sess] = 0;
	/* Its kernels could write anywhere in its regions. */
	for (unsigned k = 0; k < H.nreg[sess]; k++)
		dirty_set(H.reg[sess][k].lo, H.reg[sess][k].hi);
	H.nreg[sess] = 0;
	hal_lock_release(&H.lock);
	return gone;
}

bool mbox_heap_trim(unsigned sess)
{
	bool changed = false;
	hal_lock_acquire(&H.lock);
	heap_region *rg = H.reg[sess];
	unsigned m = 0;
	for (unsigned k = 0; k < H.nreg[sess]; k++) {
		heap_region r = rg[k];
		unsigned i = first_from(r.lo);
		uint64_t lo = UINT64_MAX, hi = 0;
		for (; i < H.num_bufs && H.bufs[i].addr < r.hi; i++) {
			if (lo == UINT64_MAX)
				lo = H.bufs[i].addr;
			if (H.bufs[i].addr + H.bufs[i].size > hi)
				hi = H.bufs[i].addr + H.bufs[i].size;
		}
		/* What leaves the region is dirty: the session's kernels
		 * could write anywhere in it. */
		if (lo == UINT64_MAX) {
			dirty_set(r.lo, r.hi);
			changed = true; /* empty: it goes */
			continue;
		}
		heap_region t = {gran_down(lo), gran_up(hi)};
		dirty_set(r.lo, t.lo);
		dirty_set(t.hi, r.hi);
		changed |= t.lo != r.lo || t.hi != r.hi;
		rg[m++] = t;
	}
	H.nreg[sess] = m;
	hal_lock_release(&H.lock);
	return changed;
}

unsigned mbox_heap_regions(unsigned sess, uint64_t *base, uint64_t *size,
			   unsigned max)
{
	hal_lock_acquire(&H.lock);
	unsigned n = H.nreg[sess] < max ? H.nreg[sess] : max;
	for (unsigned k = 0; k < n; k++) {
		base[k] = H.reg[sess][k].lo;
		size[k] = H.reg[sess][k].hi - H.reg[sess][k].lo;
	}
	hal_lock_release(&H.lock);
	return n;
}

void mbox_heap_stats_get(mbox_heap_stats *st)
{
	hal_lock_acquire(&H.lock);
	st->used = H.used;
	st->buffers = H.num_bufs;
	st->largest = largest_gap();
	st->dirty = H.ndirty * CHUNK;
	st->cleared_alloc = H.cleared_alloc;
	st->cleared_idle = H.cleared_idle;
	hal_lock_release(&H.lock);
}

/* ---- background clearing ---- */

/* The first dirty chunk in [from, to), or `to`. */
static size_t next_dirty(size_t from, size_t to)
{
	while (from < to) {
		unsigned long w = hal_load_relaxed(&H.dirty[from / WBITS]) >>
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
		uint64_t lo = H.base + c * CHUNK;
		uint64_t hi = lo + CHUNK < heap_end() ? lo + CHUNK : heap_end();
		/* The first buffer that ends after lo. */
		unsigned a = 0, b = H.num_bufs;
		while (a < b) {
			unsigned mid = (a + b) / 2;
			if (H.bufs[mid].addr + H.bufs[mid].size <= lo)
				a = mid + 1;
			else
				b = mid;
		}
		if (a == H.num_bufs || H.bufs[a].addr >= hi)
			return c;
		/* Touched: on past the chunk its buffer ends in. */
		const mbox_buf *u = &H.bufs[a];
		size_t after =
			(size_t)((u->addr + u->size - 1 - H.base) / CHUNK) + 1;
		c = after > c ? after : c + 1;
	}
	return to;
}

bool mbox_heap_clear_pending(void)
{
	return hal_load_relaxed(&H.sweep) != 0;
}

bool mbox_heap_clear_step(void)
{
	/* Held: by the hart clearing now (one at a time is all the lock
	 * allows; this one stays free for kernels and sleeps), or by an
	 * allocation (the dispatcher wakes a hart again after it). */
	if (!hal_load_relaxed(&H.sweep) || !hal_lock_try(&H.lock))
		return false;
	size_t c = clearable(H.rotor, H.chunks);
	if (c == H.chunks) {
		size_t to = H.rotor < H.chunks ? H.rotor : H.chunks;
		c = clearable(0, to);
		if (c == to)
			c = H.chunks;
	}
	if (c >= H.chunks) {
		/* Every dirty chunk is touched by a buffer: nothing until
		 * one is freed. */
		hal_store_relaxed(&H.sweep, 0u);
		hal_lock_release(&H.lock);
		return false;
	}
	uint64_t lo = H.base + c * CHUNK;
	uint64_t hi = lo + CHUNK < heap_end() ? lo + CHUNK : heap_end();
	memset(mbox_ptr(lo), 0, (size_t)(hi - lo));
	hal_store_relaxed(&H.dirty[c / WBITS],
			  hal_load_relaxed(&H.dirty[c / WBITS]) &
				  ~(1ul << (c % WBITS)));
	H.ndirty--;
	H.rotor = c + 1;
	H.cleared_idle += hi - lo;
	hal_lock_release(&H.lock);
	return true;
}

void mbox_heap_session_stats(unsigned sess, uint64_t *buffers, uint64_t *bytes,
			     unsigned *regions)
{
	hal_lock_acquire(&H.lock);
	*buffers = H.sess_bufs[sess];
	*bytes = H.sess_bytes[sess];
	*regions = H.nreg[sess];
	hal_lock_release(&H.lock);
}
