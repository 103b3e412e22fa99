// SPDX-License-Identifier: MIT
/* test_stress, the random family: mutations of packets aimed at scratch
 * memory (stress.h). */
#include "stress.h"

/* A pointer a mutation may set: anywhere but checked memory (what lands
 * there is moved away by sanitize()). Any alignment. */
static uint64_t wild_ptr(void)
{
	switch (below(9)) {
	case 0:
		return 0;
	case 1:
		return E2E_DRAM_BASE + below(0x400000);
	case 2:
		return E2E_MBOX_BASE + below(E2E_MBOX_SIZE);
	case 3:
		return heap_hi - below(64) + below(1u << 16);
	case 4:
		return rnd();
	case 5:
		return B.scr + below(SCR_BYTES);
	case 6:
		return B.scr2 + below(SCR_BYTES);
	case 7:
		return (B.scr + below(SCR_BYTES)) + (1ull << 32);
	default:
		return B.scr + 4 * below(SCR_BYTES / 4);
	}
}

static uint64_t wild_count(void)
{
	static const uint64_t v[] = {0,
				     1,
				     2,
				     3,
				     63,
				     64,
				     255,
				     256,
				     257,
				     4096,
				     65535,
				     65536,
				     0xffffffffull,
				     0x100000000ull,
				     0x7fffffffffffffffull,
				     0x8000000000000000ull,
				     UINT64_MAX};
	switch (below(4)) {
	case 0:
		return v[below(sizeof(v) / sizeof(v[0]))];
	case 1:
		return below(1000);
	case 2:
		return below(SCR_BYTES + 100);
	default:
		return rnd() >> below(64);
	}
}

/* Any event: bogus, or one the host has submitted (old, perhaps too old,
 * or recent). Never one of another queue that is not submitted yet but may
 * be by the time the dispatcher reads this packet: such a forward
 * reference can make it reject a valid packet (mbox.h, Events). */
static uint64_t wild_event(unsigned q)
{
	unsigned o = (unsigned)below(NQ);
	uint64_t n = qnext[o];
	switch (below(4)) {
	case 0:
		return bogus_event(q);
	case 1:
		return n ? HP_EVENT(qid[o], below(n)) : bogus_event(q);
	case 2:
		return n ? HP_EVENT(qid[o], n - 1 - below(n < 20 ? n : 20))
			 : bogus_event(q);
	default:
		return rnd(); /* an index far beyond any submitted */
	}
}

static void mutate(pkt *k, unsigned q)
{
	hp_packet *p = &k->p;
	hp_kernarg *ka = &k->ka;
	switch (below(31)) {
	case 0:
		p->header = (uint16_t)rnd();
		break;
	case 1:
		p->header = (uint16_t)((p->header & 0xff00) | between(1, 12));
		break;
	case 2:
		p->header ^= (uint16_t)(1u << between(9, 15));
		break;
	case 3:
		p->header ^= HP_PKT_BARRIER;
		break;
	case 4:
		p->dispatch.setup = (uint16_t)rnd();
		break;
	case 5:
		p->dispatch.setup =
			(uint16_t)((p->dispatch.setup & ~7u) | below(8));
		break;
	case 6:
		p->dispatch.setup ^=
			chance(50) ? HP_SETUP_LOCAL : HP_SETUP_UNIFORM;
		break;
	case 7:
		p->dispatch.reserved = (uint16_t)rnd();
		break;
	case 8:
		p->dispatch.kernel = (uint32_t)below(nkern);
		break;
	case 9:
		p->dispatch.kernel = (uint32_t)rnd();
		break;
	case 10:
		p->dispatch.global[below(3)] = wild_count();
		break;
	case 11:
		p->dispatch.offset[below(3)] = wild_count();
		break;
	case 12:
		p->dispatch.local[below(3)] =
			(uint16_t)(chance(50) ? below(300) : wild_count());
		break;
	case 13: {
		uint32_t s = ka->args_size;
		static const int dv[] = {-8, -4, -1, 1, 4, 8};
		ka->args_size =
			(uint32_t)(chance(30)	? s + (uint32_t)dv[below(6)]
				   : chance(50) ? below(HP_MBOX_ARGS_MAX + 2)
						: wild_count());
		break;
	}
	case 14:
		ka->num_wait =
			(uint16_t)(chance(70) ? below(HP_MBOX_MAX_WAIT + 1)
					      : wild_count());
		break;
	case 15:
		for (unsigned i = 0, n = 1 + (unsigned)below(3); i < n; i++)
			ka->wait[below(HP_MBOX_MAX_WAIT)] = wild_event(q);
		if (!ka->num_wait)
			ka->num_wait = (uint16_t)between(1, HP_MBOX_MAX_WAIT);
		break;
	case 16:
		ka->reqd[below(3)] =
			(uint32_t)(chance(50) ? below(300) : wild_count());
		break;
	case 17:
		ka->sub_group_size =
			(uint16_t)(chance(50) ? 1u << below(9) : wild_count());
		break;
	case 18:
		ka->team_size = (uint32_t)(chance(60) ? below(INFO->harts + 2)
						      : wild_count());
		break;
	case 19:
		ka->timeout_us = chance(50) ? below(2000) : wild_count();
		break;
	case 20:
		((uint64_t *)ka->args)[below(6)] =
			chance(50) ? wild_ptr() : wild_count();
		break;
	case 21:
		ka->args[below(48)] = (uint8_t)rnd();
		break;
	case 22:
		p->bytes[between(2, 63)] = (uint8_t)rnd();
		break;
	case 23:
		p->mem.dst = wild_ptr();
		break;
	case 24:
		p->mem.src = wild_ptr();
		break;
	case 25:
		p->mem.size = wild_count();
		break;
	case 26:
		p->mem.pattern_size =
			(uint16_t)(chance(70) ? below(10) : wild_count());
		break;
	case 27:
		if (chance(50))
			p->mem.reserved = (uint32_t)rnd();
		else
			p->mem.reserved2[below(3)] = rnd();
		break;
	case 28:
		p->barrier.num_deps =
			(uint16_t)(chance(70) ? below(9) : wild_count());
		break;
	case 29:
		p->barrier.deps[below(HP_MBOX_BARRIER_DEPS)] = wild_event(q);
		break;
	default:
		for (unsigned i = 0; i < sizeof(*ka); i++)
			((uint8_t *)ka)[i] = (uint8_t)rnd();
		break;
	}
}

/* Events of the test's other queues that are not submitted yet but may be
 * before the dispatcher reads queue q's packet (a mutated byte, a field
 * reused as a dependency) become never-submitted ones (mbox.h, Events). */
static void no_forward_events(uint64_t *ev, unsigned n, unsigned q)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned o = 0; o < NQ; o++)
			if (o != q && HP_EVENT_QUEUE(ev[i]) == qid[o] &&
			    HP_EVENT_INDEX(ev[i]) >= qnext[o])
				ev[i] |= 1ull << 40;
}

/* Keep a random packet for queue q harmless whatever it turned into: a
 * packet type (type 0 means "not written yet": a queue would wait for it
 * forever), pointers out of checked memory, a time limit on every launch,
 * no FREE of a buffer this test owns, no ALLOC small enough for the freed
 * hole, no dependency on a later packet of another queue. */
static void sanitize(pkt *k, unsigned q)
{
	hp_packet *p = &k->p;
	if (!HP_PKT_TYPE(p->header))
		p->header |= (uint16_t)between(1, 255);
	unsigned type = HP_PKT_TYPE(p->header);
	uint64_t *pw = (uint64_t *)p->bytes, *aw = (uint64_t *)k->ka.args;
	for (unsigned i = 0; i < HP_MBOX_ARGS_MAX / 8; i++)
		if (aw[i] >= prot_lo && aw[i] < prot_hi && !in_scratch(aw[i]))
			aw[i] ^= 1ull << 62;
	for (unsigned i = 1; i < 8; i++) {
		/* A copy may read checked memory (into scratch). */
		if (type == HP_PKT_COPY && i == 2)
			continue;
		if (pw[i] >= prot_lo && pw[i] < prot_hi && !in_scratch(pw[i]))
			pw[i] ^= 1ull << 62;
	}
	uint64_t *tmo = &k->ka.timeout_us;
	if (type == HP_PKT_KERNEL_DISPATCH && *tmo <= HP_MBOX_TIMEOUT_MAX_US &&
	    (*tmo == 0 || *tmo > CAP_US))
		*tmo = *tmo ? 1 + *tmo % CAP_US : CAP_US;
	if (type == HP_PKT_FREE) {
		if (is_buffer_start(p->mem.dst))
			p->mem.dst += 64;
		else if (p->mem.dst >= E2E_HEAP_BASE && p->mem.dst < heap_hi &&
			 !inside_own_buffer(p->mem.dst))
			p->mem.dst ^= 1ull << 62;
	}
	if (type == HP_PKT_ALLOC && p->mem.size &&
	    p->mem.size <= 2 * GUARD_BYTES)
		p->mem.size += 2 * GUARD_BYTES;
	no_forward_events(p->barrier.deps, HP_MBOX_BARRIER_DEPS, q);
	no_forward_events(k->ka.wait, HP_MBOX_MAX_WAIT, q);
}

/* Scratch arguments for any kernel: pointers into scratch, small sizes. */
static void scratch_args(uint8_t *args)
{
	uint64_t *w = (uint64_t *)args;
	for (unsigned i = 0; i < 12; i++)
		w[i] = chance(50) ? (chance(50) ? B.scr : B.scr2) +
					    4 * below(SCR_BYTES / 16)
				  : below(chance(50) ? 16 : 1024);
}

void random_packet(unsigned q)
{
	pkt k;
	const char *what;
	unsigned c = (unsigned)below(100);
	if (c < 20) {
		what = "mutated tally";
		pk_tally(&k, B.scr, below(1024), 1 + below(1000));
	} else if (c < 30) {
		what = "mutated vadd";
		uint64_t n = below(SCR_BYTES / 8);
		hp_vadd_args a = {B.scr, B.scr + 4 * below(SCR_BYTES / 8),
				  B.scr2 + 4 * below(SCR_BYTES / 8), n};
		pk_dispatch(&k, k_vadd, n + below(64), &a, sizeof(a));
	} else if (c < 45) {
		what = "random kernel on scratch";
		uint32_t kid = (uint32_t)below(nkern);
		const hp_mbox_kernel *mk = hp_kernel_at(D, kid);
		uint8_t args[HP_MBOX_ARGS_MAX];
		scratch_args(args);
		pk_dispatch(&k, kid, 1 + below(512), args,
			    mk && mk->args_size ? mk->args_size : 16);
		unsigned w = 1 + (unsigned)below(3);
		k.p.dispatch.setup = (uint16_t)w;
		for (unsigned d = 1; d < w; d++)
			k.p.dispatch.global[d] = 1 + below(8);
	} else if (c < 53) {
		what = "mutated fill";
		unsigned ps = 1u << below(4);
		pk_mem(&k, HP_PKT_FILL, B.scr + ps * below(SCR_BYTES / 2 / ps),
		       0, ps * below(SCR_BYTES / 2 / ps), rnd(), ps);
	} else if (c < 61) {
		what = "mutated copy";
		uint64_t size = below(SCR_BYTES / 2);
		pk_mem(&k, HP_PKT_COPY, B.scr2 + below(SCR_BYTES / 2),
		       chance(50) ? B.scr + below(SCR_BYTES / 2)
				  : B.csrc + below(B.ncsrc - SCR_BYTES / 2),
		       size, 0, 0);
	} else if (c < 65) {
		what = "mutated info";
		pk_mem(&k, HP_PKT_INFO, B.scr + 8 * below(SCR_BYTES / 16), 0, 0,
		       0, 0);
	} else if (c < 69) {
		what = "mutated alloc";
		pk_mem(&k, HP_PKT_ALLOC, 0, 0, between(1, 65536), 0, 0);
	} else if (c < 73) {
		what = "mutated free";
		pk_mem(&k, HP_PKT_FREE, B.scr + between(1, SCR_BYTES - 1), 0, 0,
		       0, 0);
	} else if (c < 80) {
		what = "mutated barrier-AND";
		pk_mem(&k, HP_PKT_BARRIER_AND, 0, 0, 0, 0, 0);
		unsigned nd = (unsigned)below(HP_MBOX_BARRIER_DEPS + 1);
		k.p.barrier.num_deps = (uint16_t)nd;
		for (unsigned i = 0; i < nd; i++)
			k.p.barrier.deps[i] = wild_event(q);
	} else if (c < 82) {
		what = "mutated marker";
		pk_mem(&k, HP_PKT_MARKER, 0, 0, 0, 0, 0);
	} else {
		/* Random bytes; half of them kept closer to a valid packet
		 * so they get past the first checks. */
		what = "random bytes";
		for (unsigned i = 0; i < sizeof(k.p); i++)
			k.p.bytes[i] = (uint8_t)rnd();
		for (unsigned i = 0; i < sizeof(k.ka); i++)
			((uint8_t *)&k.ka)[i] = (uint8_t)rnd();
		if (chance(50)) {
			k.p.header = (uint16_t)between(1, HP_PKT_TYPES);
			k.p.dispatch.setup &= ~HP_SETUP_RESERVED;
			k.p.dispatch.reserved = 0;
			k.p.dispatch.kernel %= nkern;
			k.ka.args_size %= HP_MBOX_ARGS_MAX + 1;
			k.ka.num_wait %= HP_MBOX_MAX_WAIT + 1;
			k.ka.timeout_us %= CAP_US;
		}
		sanitize(&k, q);
		send_packet(q, &k, RANDOM, 0, what);
		return;
	}
	if (HP_PKT_TYPE(k.p.header) == HP_PKT_KERNEL_DISPATCH)
		k.ka.timeout_us = CAP_US;
	for (unsigned i = 0, n = 1 + (unsigned)below(4); i < n; i++)
		mutate(&k, q);
	sanitize(&k, q);
	send_packet(q, &k, RANDOM, 0, what);
}
