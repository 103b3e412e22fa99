// SPDX-License-Identifier: MIT
/* test_stress, raw packets for the malformed families and where they may
 * point (stress.h). */
#include "stress.h"

#include <hartpool_raw.h>
#include <string.h>

void pk_dispatch(pkt *k, uint32_t kernel, uint64_t n, const void *args,
		 uint32_t asz)
{
	memset(k, 0, sizeof(*k));
	k->p.dispatch.header = HP_PKT_KERNEL_DISPATCH;
	k->p.dispatch.setup = 1;
	k->p.dispatch.kernel = kernel;
	k->p.dispatch.global[0] = n;
	k->ka.args_size = asz;
	memcpy(k->ka.args, args, asz);
}

void pk_tally(pkt *k, hp_buffer counts, uint64_t base, uint64_t n)
{
	hp_tally_args a = {counts, base};
	pk_dispatch(k, k_tally, n, &a, sizeof(a));
}

void pk_mem(pkt *k, unsigned type, uint64_t dst, uint64_t src, uint64_t size,
	    uint64_t pattern, unsigned ps)
{
	memset(k, 0, sizeof(*k));
	k->p.mem.header = (uint16_t)type;
	k->p.mem.dst = dst;
	k->p.mem.src = src;
	k->p.mem.size = size;
	k->p.mem.pattern = pattern;
	k->p.mem.pattern_size = (uint16_t)ps;
}

unsigned send_packet(unsigned q, pkt *k, uint8_t kind, int want,
		     const char *what)
{
	hp_event ev;
	make_room(q);
	if (trace) {
		const uint8_t *b = k->p.bytes;
		fprintf(stderr, "  packet");
		for (unsigned i = 0; i < 64; i++)
			fprintf(stderr, "%s%02x", i % 8 ? "" : " ", b[i]);
		fprintf(stderr, "\n  kernarg");
		b = (const uint8_t *)&k->ka;
		for (unsigned i = 0; i < 160; i++)
			fprintf(stderr, "%s%02x", i % 8 ? "" : " ", b[i]);
		fprintf(stderr, "\n");
	}
	/* The whole kernarg block every time: nothing left over from the
	 * slot's previous packet. */
	MUST(hp_enqueue_raw(Q[q], &k->p, &k->ka, &ev));
	return record(q, ev, kind, (uint8_t)HP_PKT_TYPE(k->p.header), want,
		      what);
}

/* Counters no valid launch touches: an exact-family tally aims there. */
uint64_t victim_counters(uint64_t n)
{
	static uint64_t next_top;
	if (!next_top)
		next_top = B.ncnt;
	if (next_top - n < B.ncnt / 2)
		next_top = B.ncnt; /* reuse: they all stay 0 */
	next_top -= n;
	return next_top;
}

/* A pointer outside every buffer: firmware memory, the mailbox, past the
 * heap, a 64-bit alias of a buffer (the same low 32 bits: one on rv32),
 * or null. 4-byte aligned. */
uint64_t outside_ptr(hp_buffer near)
{
	switch (below(7)) {
	case 0:
		return 0;
	case 1:
		return E2E_DRAM_BASE + 4 * below(0x100000);
	case 2:
		return E2E_MBOX_BASE + 4 * below(E2E_MBOX_SIZE / 4 - 64);
	case 3:
		return heap_hi + 4 * below(1u << 20);
	case 4:
		return near + (1ull << 32);
	case 5:
		return near | 1ull << 63;
	default:
		return (rnd() | 1ull << 40) & ~3ull;
	}
}

/* An event that cannot be waited for, from queue q's packet: no such
 * queue, never submitted, itself or later. */
uint64_t bogus_event(unsigned q)
{
	switch (below(4)) {
	case 0:
		return HP_EVENT(HP_MBOX_QUEUES + below(256 - HP_MBOX_QUEUES),
				below(1000));
	case 1: {
		unsigned o = (unsigned)below(NQ);
		return HP_EVENT(qid[o],
				qnext[o] + (1u << 24) + below(1u << 24));
	}
	case 2:
		return HP_EVENT(qid[q], qnext[q]);
	default:
		return HP_EVENT(qid[q], qnext[q] + 1 + below(8));
	}
}
