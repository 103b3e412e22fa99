// SPDX-License-Identifier: MIT
/*
 * The buffer heap's dirty map (mailbox/heap.c, "Nothing left over"): over
 * memory that is not zero, a new buffer reads as zeros, an allocation
 * clears only its own bytes (a live neighbour in the same chunk keeps its
 * data), freed and region memory comes back dirty, idle-hart steps clear
 * whole chunks no buffer touches and then report nothing to do.
 */
#include "check.h"
#include <hartpool/mbox.h>
#include <mailbox/heap.h>
#include <stdlib.h>
#include <string.h>

#define SIZE (8u << 20)

static uint8_t *mem;

/* Bytes of [p, p + n) that are not v. */
static size_t not_v(uint64_t addr, size_t n, uint8_t v)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)addr;
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += p[i] != v;
	return bad;
}

static uint64_t c0; /* the chunk x and y share: stays dirty */

/* Bytes of [addr, addr + n) in chunk c0. */
static uint64_t in_c0(uint64_t addr, uint64_t n)
{
	uint64_t lo = addr > c0 ? addr : c0;
	uint64_t hi = addr + n < c0 + MBOX_HEAP_CHUNK ? addr + n
						      : c0 + MBOX_HEAP_CHUNK;
	return hi > lo ? hi - lo : 0;
}

static uint64_t alloc(unsigned sess, uint64_t size)
{
	bool changed;
	char why[160];
	uint64_t a = mbox_heap_alloc(sess, size, &changed, why, sizeof(why));
	CHECK_MSG(a != 0, "alloc %llu: %s", (unsigned long long)size, why);
	return a;
}

/* Idle-hart steps until there is nothing; returns how many cleared. */
static unsigned sweep(void)
{
	unsigned n = 0;
	while (mbox_heap_clear_step())
		n++;
	CHECK(!mbox_heap_clear_pending());
	return n;
}

static uint64_t at(unsigned sess, uint64_t addr, uint64_t size, char *why)
{
	bool changed;
	return mbox_heap_alloc_at(sess, addr, size, &changed, why, 160);
}

/* ALLOC at an address (an SVM allocation's range on a second device):
 * exactly there, zeroed, or refused with the reason. */
static void alloc_at_checks(uint64_t base)
{
	char why[160];
	uint64_t hi = base + SIZE - 16 * 4096;
	memset((void *)(uintptr_t)hi, 0x77, 4096);
	mbox_heap_mark_dirty(hi, 4096);
	CHECK_EQ(at(3, hi, 1024, why), hi);
	CHECK_EQ(not_v(hi, 1024, 0), 0);
	CHECK(mbox_heap_holds(3, hi, 1024));
	CHECK_EQ(at(3, hi + 512, 64, why), 0); /* on a buffer */
	CHECK(strstr(why, "another buffer") != NULL);
	CHECK_EQ(at(4, hi + 2048, 64, why), 0); /* in session 3's granule */
	CHECK(strstr(why, "another session") != NULL);
	CHECK_EQ(at(3, hi + 4096 + 8, 64, why), 0); /* misaligned */
	CHECK(strstr(why, "aligned") != NULL);
	CHECK_EQ(at(3, base + SIZE - 128, 256, why), 0); /* past the end */
	CHECK_EQ(at(3, base + 2 * (uint64_t)SIZE, 64, why), 0); /* beyond it */
	CHECK_EQ(at(3, base - 4096, 64, why), 0);		/* below it */
	CHECK_EQ(at(3, hi + 4096, 64, why), hi + 4096); /* its own granule */
	/* a session has at most its regions (4 here) */
	CHECK_EQ(at(3, hi + 3 * 4096, 64, why), hi + 3 * 4096);
	CHECK_EQ(at(3, hi + 5 * 4096, 64, why), hi + 5 * 4096);
	CHECK_EQ(at(3, hi + 7 * 4096, 64, why), hi + 7 * 4096);
	uint64_t rb[MBOX_HEAP_REGIONS_MAX], rs[MBOX_HEAP_REGIONS_MAX];
	CHECK_EQ(mbox_heap_regions(3, rb, rs, MBOX_HEAP_REGIONS_MAX), 4);
	CHECK_EQ(at(3, hi + 9 * 4096, 64, why), 0);
	CHECK(strstr(why, "regions") != NULL);
	CHECK_EQ(mbox_heap_regions(3, rb, rs, MBOX_HEAP_REGIONS_MAX), 4);
	CHECK_EQ(mbox_heap_free_session(3), 5);
}

int main(void)
{
	mem = aligned_alloc(1u << 20, SIZE);
	memset(mem, 0xab, SIZE); /* a board whose RAM is not zero */
	uint64_t base = (uintptr_t)mem;
	CHECK_EQ(mbox_heap_init(base, SIZE, 4096, 4), 0);
	CHECK(!mbox_heap_clear_pending());
	CHECK(!mbox_heap_clear_step()); /* clean: nothing to do */
	mbox_heap_mark_dirty(base, SIZE);
	mbox_heap_stats st;
	mbox_heap_stats_get(&st);
	CHECK_EQ(st.dirty, SIZE);

	/* Dirty memory: a new buffer is zero, its neighbours' bytes not
	 * touched (the heap clears only the buffer's own bytes). */
	uint64_t x = alloc(0, 100);
	CHECK_EQ(not_v(x, 100, 0), 0);
	memset((void *)(uintptr_t)x, 0x11, 100);
	uint64_t y = alloc(0, 1000);
	CHECK(y / MBOX_HEAP_CHUNK == x / MBOX_HEAP_CHUNK); /* one chunk */
	CHECK_EQ(not_v(y, 1000, 0), 0);
	CHECK_EQ(not_v(x, 100, 0x11), 0);
	mbox_heap_stats_get(&st);
	CHECK_EQ(st.cleared_alloc, 1100);

	/* Idle harts clear every chunk but the one the buffers touch. */
	unsigned steps = sweep();
	CHECK_EQ(steps, SIZE / MBOX_HEAP_CHUNK - 1);
	mbox_heap_stats_get(&st);
	CHECK_EQ(st.dirty, MBOX_HEAP_CHUNK);
	CHECK_EQ(st.cleared_idle, SIZE - MBOX_HEAP_CHUNK);
	CHECK_EQ(not_v(x, 100, 0x11), 0);
	c0 = x / MBOX_HEAP_CHUNK * MBOX_HEAP_CHUNK;
	CHECK_EQ(not_v(c0 + MBOX_HEAP_CHUNK,
		       SIZE - MBOX_HEAP_CHUNK - (size_t)(c0 - base), 0),
		 0);

	/* Clean memory costs an allocation nothing (but its bytes in the
	 * dirty chunk it shares with x and y). */
	uint64_t big = alloc(0, 1u << 20);
	mbox_heap_stats_get(&st);
	CHECK_EQ(st.cleared_alloc, 1100 + in_c0(big, 1u << 20));
	CHECK_EQ(not_v(big, 1u << 20, 0), 0);

	/* A freed buffer's data never comes back: at once (the allocation
	 * clears it) or after the idle harts. */
	memset((void *)(uintptr_t)big, 0x22, 1u << 20);
	mbox_heap_free(big);
	CHECK(mbox_heap_clear_pending());
	uint64_t again = alloc(0, 1u << 20);
	CHECK_EQ(not_v(again, 1u << 20, 0), 0);
	memset((void *)(uintptr_t)again, 0x33, 1u << 20);
	mbox_heap_free(again);
	CHECK_EQ(sweep(), (1u << 20) / MBOX_HEAP_CHUNK);
	mbox_heap_stats_get(&st);
	uint64_t before = st.cleared_alloc;
	again = alloc(0, 1u << 20);
	CHECK_EQ(not_v(again, 1u << 20, 0), 0);
	mbox_heap_stats_get(&st);
	/* all cleared beforehand, but in c0 */
	CHECK_EQ(st.cleared_alloc, before + in_c0(again, 1u << 20));

	/* A buffer being freed (FREE read, not complete) is live: the idle
	 * harts leave it alone. */
	uint64_t z = alloc(0, 2 * MBOX_HEAP_CHUNK);
	memset((void *)(uintptr_t)z, 0x44, 2 * MBOX_HEAP_CHUNK);
	CHECK(mbox_heap_mark_free(0, z));
	sweep();
	CHECK_EQ(not_v(z, 2 * MBOX_HEAP_CHUNK, 0x44), 0);
	mbox_heap_free(z);
	sweep();
	/* the chunks only z touched are clear (the others wait for an
	 * allocation) */
	uint64_t zlo =
		(z + MBOX_HEAP_CHUNK - 1) / MBOX_HEAP_CHUNK * MBOX_HEAP_CHUNK;
	uint64_t zhi =
		(z + 2 * MBOX_HEAP_CHUNK) / MBOX_HEAP_CHUNK * MBOX_HEAP_CHUNK;
	CHECK(zhi > zlo);
	CHECK_EQ(not_v(zlo, (size_t)(zhi - zlo), 0), 0);
	uint64_t z2 = alloc(0, 2 * MBOX_HEAP_CHUNK);
	CHECK_EQ(z2, z);
	CHECK_EQ(not_v(z2, 2 * MBOX_HEAP_CHUNK, 0), 0);

	/* A session's region is dirty when it goes: its kernels could have
	 * written anywhere in it, not only in its buffers. */
	uint64_t s1 = alloc(1, 3 * MBOX_HEAP_CHUNK);
	uint64_t rb[MBOX_HEAP_REGIONS_MAX], rs[MBOX_HEAP_REGIONS_MAX];
	unsigned nr = mbox_heap_regions(1, rb, rs, MBOX_HEAP_REGIONS_MAX);
	CHECK(nr >= 1);
	memset((void *)(uintptr_t)rb[0], 0x55, (size_t)rs[0]);
	CHECK_EQ(mbox_heap_free_session(1), 1);
	sweep();
	CHECK_EQ(not_v(rb[0], (size_t)rs[0], 0), 0);
	(void)s1;

	/* So is what a trim takes from a region. */
	uint64_t t1 = alloc(2, 4 * MBOX_HEAP_CHUNK);
	uint64_t t2 = alloc(2, 4096);
	nr = mbox_heap_regions(2, rb, rs, MBOX_HEAP_REGIONS_MAX);
	memset((void *)(uintptr_t)rb[0], 0x66, (size_t)rs[0]);
	mbox_heap_free(t1);
	CHECK(mbox_heap_trim(2));
	sweep();
	CHECK_EQ(not_v(t1, 4 * MBOX_HEAP_CHUNK, 0),
		 in_c0(t1, 4 * MBOX_HEAP_CHUNK));
	CHECK_EQ(not_v(t2, 4096, 0x66), 0); /* the live one is kept */
	alloc_at_checks(base);
	free(mem);
	return check_report("test_heap");
}
