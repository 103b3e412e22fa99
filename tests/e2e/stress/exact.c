// SPDX-License-Identifier: MIT
/* test_stress, the exact family: one broken property, a known error
 * (stress.h). */
#include "stress.h"

/* Sends an exact-family packet; one that is not to end HP_ABORTED becomes
 * queue q's latest rejection (what the "waits for a rejected packet" cases
 * point at). */
static void send_exact(unsigned q, pkt *k, int want, const char *what)
{
	unsigned id = send_packet(q, k, EXACT, want, what);
	if (want != HP_ABORTED)
		last_reject[q] = (int64_t)HP_EVENT_INDEX(R[id].ev);
}

/* k waits for queue q's latest rejected packet, still in its slot: it
 * must end HP_ABORTED (returned). */
static int wait_for_reject(pkt *k, unsigned q)
{
	k->ka.num_wait = 1;
	k->ka.wait[0] = HP_EVENT(qid[q], (uint64_t)last_reject[q]);
	return HP_ABORTED;
}

static void exact_tally(unsigned q, unsigned c)
{
	pkt k;
	uint64_t n = 1 + below(64), base = victim_counters(n);
	pk_tally(&k, B.cnt, base, n);
	hp_packet_dispatch *d = &k.p.dispatch;
	hp_tally_args *a = (hp_tally_args *)k.ka.args;
	const char *what;
	int want;
	switch (c) {
	case 0:
		what = "reserved header bits";
		d->header |= (uint16_t)((1 + below(127)) << 9);
		want = HP_INVALID_VALUE;
		break;
	case 1:
		what = "unknown packet type";
		d->header = (uint16_t)between(HP_PKT_TYPES, 255);
		want = HP_INVALID_VALUE;
		break;
	case 2:
		what = "reserved setup bits";
		d->setup |= (uint16_t)((1 + below(2047)) << 5);
		want = HP_INVALID_VALUE;
		break;
	case 3:
		what = "reserved dispatch field";
		d->reserved = (uint16_t)(1 + below(65535));
		want = HP_INVALID_VALUE;
		break;
	case 4:
		what = "no such kernel";
		d->kernel = (uint32_t)between(nkern, UINT32_MAX);
		want = HP_INVALID_KERNEL;
		break;
	case 5:
		what = "argument block over 384 bytes";
		k.ka.args_size =
			(uint32_t)between(HP_MBOX_ARGS_MAX + 1, UINT32_MAX);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	case 6:
		what = "argument block of the wrong size";
		do
			k.ka.args_size = (uint32_t)below(HP_MBOX_ARGS_MAX + 1);
		while (k.ka.args_size == sizeof(hp_tally_args));
		want = HP_INVALID_KERNEL_ARGS;
		break;
	case 7:
		what = "time limit over an hour";
		k.ka.timeout_us = between(3600000001ull, UINT64_MAX);
		want = HP_INVALID_VALUE;
		break;
	case 8: {
		static const uint16_t dims[] = {0, 4, 5, 6, 7};
		what = "work_dim 0 or over 3";
		d->setup = dims[below(5)];
		want = HP_INVALID_WORK_DIMENSION;
		break;
	}
	case 9:
		what = "global size over size_t";
		if (size_max != UINT64_MAX && chance(50)) {
			d->global[0] = between(size_max + 1, UINT64_MAX);
		} else {
			/* Items overflow size_t. */
			unsigned half = INFO->address_bits / 2;
			d->setup = 2;
			d->global[0] = between(1ull << half, size_max);
			d->global[1] = between((1ull << half) + 1, size_max);
		}
		want = HP_INVALID_GLOBAL_WORK_SIZE;
		break;
	case 10:
		what = "offset + global size over size_t";
		d->offset[0] = between(size_max - n + 1, size_max);
		want = HP_INVALID_GLOBAL_OFFSET;
		break;
	case 11:
		what = "local size 0";
		d->setup = 2 | HP_SETUP_LOCAL;
		d->global[0] = 1, d->global[1] = n;
		d->local[0] = 1;
		d->local[below(2)] = 0;
		want = HP_INVALID_WORK_GROUP_SIZE;
		break;
	case 12:
		what = "local size over the max work-item size";
		d->setup |= HP_SETUP_LOCAL;
		d->local[0] = (uint16_t)between(
			INFO->max_work_item_sizes[0] + 1, 65535);
		want = HP_INVALID_WORK_ITEM_SIZE;
		break;
	case 13: {
		what = "work-group over the max size";
		uint64_t l0 = between(2, INFO->max_work_item_sizes[0]);
		uint64_t l1 = INFO->max_work_group_size / l0 + 1;
		if (l1 > INFO->max_work_item_sizes[1])
			l0 = INFO->max_work_item_sizes[0], l1 = 2;
		d->setup = 2 | HP_SETUP_LOCAL;
		d->global[0] = n, d->global[1] = 1;
		d->local[0] = (uint16_t)l0, d->local[1] = (uint16_t)l1;
		want = HP_INVALID_WORK_GROUP_SIZE;
		break;
	}
	case 14: {
		what = "uniform work-groups with a remainder";
		uint64_t l = between(2, 16);
		d->setup = 1 | HP_SETUP_LOCAL | HP_SETUP_UNIFORM;
		d->global[0] = l * below(4) + between(1, l - 1);
		d->local[0] = (uint16_t)l;
		a->base = victim_counters(d->global[0]);
		want = HP_INVALID_WORK_GROUP_SIZE;
		break;
	}
	case 15:
		what = "reqd_work_group_size partly 0";
		k.ka.reqd[0] = (uint32_t)between(1, 64);
		k.ka.reqd[1 + below(2)] = 0;
		want = HP_INVALID_VALUE;
		break;
	case 16: {
		what = "local size differs from reqd_work_group_size";
		uint32_t r0 = (uint32_t)between(1, 64), l0;
		do
			l0 = (uint32_t)between(1, 64);
		while (l0 == r0);
		k.ka.reqd[0] = r0, k.ka.reqd[1] = k.ka.reqd[2] = 1;
		d->setup |= HP_SETUP_LOCAL;
		d->local[0] = (uint16_t)l0;
		want = HP_INVALID_WORK_GROUP_SIZE;
		break;
	}
	case 17: {
		what = "unsupported sub-group size";
		unsigned s;
		do
			s = chance(50) ? (unsigned)between(3, 65535)
				       : 1u << below(16);
		while (!(s & (s - 1)) && (INFO->sub_group_sizes & s));
		k.ka.sub_group_size = (uint16_t)s;
		want = HP_INVALID_VALUE;
		break;
	}
	case 18:
		what = "team larger than the workers";
		k.ka.team_size = (uint32_t)between(INFO->harts + 1, UINT32_MAX);
		want = HP_INVALID_VALUE;
		break;
	case 19:
		what = "counters past the buffer's end";
		a->base = B.ncnt - n + between(1, 16);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	case 20:
		what = "counters misaligned";
		a->counts += between(1, 3);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	case 21: {
		what = "counters straddling the buffer's start";
		uint64_t before = between(1, 16);
		a->counts -= 4 * before;
		a->base = 0;
		d->global[0] = before + between(1, 32);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	}
	case 22:
		what = "counters outside the heap";
		a->counts = outside_ptr(B.cnt);
		a->base = below(64);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	case 23:
		what = "counters in a freed buffer";
		a->counts = B.hole + 4 * below(GUARD_BYTES / 4 - 64);
		a->base = 0;
		want = HP_INVALID_KERNEL_ARGS;
		break;
	case 24:
		what = "counter base overflowing the extent";
		a->base = between(1ull << 62, UINT64_MAX - 64);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	case 25:
		what = "more than 8 events to wait for";
		k.ka.num_wait = (uint16_t)between(HP_MBOX_MAX_WAIT + 1, 65535);
		want = HP_INVALID_EVENT_WAIT_LIST;
		break;
	case 26: {
		what = "a bogus event in the wait list";
		unsigned nw = 1 + (unsigned)below(HP_MBOX_MAX_WAIT);
		k.ka.num_wait = (uint16_t)nw;
		for (unsigned i = 0; i < nw; i++)
			k.ka.wait[i] = bogus_event(q);
		want = HP_INVALID_EVENT_WAIT_LIST;
		break;
	}
	case 27:
		/* Its slot was reused by a later packet of the same queue,
		 * all of which the dispatcher read before this one. */
		what = "an event too old (slot reused)";
		k.ka.num_wait = 1;
		k.ka.wait[0] = HP_EVENT(qid[q], below(qnext[q] - RING + 1));
		want = HP_INVALID_EVENT_WAIT_LIST;
		break;
	default:
		/* A rejected packet a few packets back on the same queue:
		 * still in its slot, failed. */
		what = "waits for a rejected packet";
		want = wait_for_reject(&k, q);
		break;
	}
	send_exact(q, &k, want, what);
}

static bool reject_recent(unsigned q)
{
	return last_reject[q] >= 0 &&
	       qnext[q] - (uint64_t)last_reject[q] < RING / 2;
}

/* A checked buffer (or a guard): FREE packets aimed at one must fail. */
static hp_buffer some_buffer(void)
{
	return bufs[below(nbufs)].addr;
}

/* vadd of SEG_V elements at one of the last 8 vadd segments (no valid
 * vadd writes there; *off: its first element), for a case to break. */
static hp_vadd_args last_vseg(uint64_t *off)
{
	*off = B.nv - SEG_V * (1 + below(8));
	return (hp_vadd_args){B.va + 4 * *off, B.vb + 4 * *off, B.vc + 4 * *off,
			      SEG_V};
}

static void exact_other(unsigned q, unsigned c)
{
	pkt k;
	const char *what;
	int want;
	uint64_t fseg = B.fil + SEG_B * (nfseg - 1 - below(8));
	switch (c) {
	case 0:
		what = "barrier-AND with more than 7 dependencies";
		pk_mem(&k, HP_PKT_BARRIER_AND, 0, 0, 0, 0, 0);
		k.p.barrier.num_deps = (uint16_t)between(8, 65535);
		want = HP_INVALID_EVENT_WAIT_LIST;
		break;
	case 1:
		what = "barrier-AND with a reserved field";
		pk_mem(&k, HP_PKT_BARRIER_AND, 0, 0, 0, 0, 0);
		k.p.barrier.reserved = (uint32_t)between(1, UINT32_MAX);
		want = HP_INVALID_EVENT_WAIT_LIST;
		break;
	case 2: {
		what = "barrier-AND with a bogus dependency";
		pk_mem(&k, HP_PKT_BARRIER_AND, 0, 0, 0, 0, 0);
		unsigned nd = 1 + (unsigned)below(HP_MBOX_BARRIER_DEPS);
		k.p.barrier.num_deps = (uint16_t)nd;
		for (unsigned i = 0; i < nd; i++)
			k.p.barrier.deps[i] = bogus_event(q);
		want = HP_INVALID_EVENT_WAIT_LIST;
		break;
	}
	case 3: {
		static const uint16_t ps[] = {0, 3, 5, 6, 7, 9, 16, 65535};
		what = "fill pattern size not 1, 2, 4 or 8";
		pk_mem(&k, HP_PKT_FILL, fseg, 0, 8, rnd(), 0);
		k.p.mem.pattern_size = ps[below(8)];
		want = HP_INVALID_VALUE;
		break;
	}
	case 4: {
		what = "fill not aligned to its pattern";
		unsigned ps = 2u << below(3);
		bool dst = chance(50);
		pk_mem(&k, HP_PKT_FILL, fseg + (dst ? between(1, ps - 1) : 0),
		       0, ps * 4 + (dst ? 0 : between(1, ps - 1)), rnd(), ps);
		want = HP_INVALID_VALUE;
		break;
	}
	case 5:
		what = "fill with reserved fields";
		pk_mem(&k, HP_PKT_FILL, fseg, 0, 16, rnd(), 4);
		if (chance(50))
			k.p.mem.reserved = (uint32_t)between(1, UINT32_MAX);
		else
			k.p.mem.reserved2[below(3)] = between(1, UINT64_MAX);
		want = HP_INVALID_VALUE;
		break;
	case 6: {
		what = "fill past its buffer's end";
		uint64_t x = 8 * between(1, 8);
		pk_mem(&k, HP_PKT_FILL, B.fil + B.nfill - x, 0,
		       x + 8 * between(1, 64), rnd(), 8);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	}
	case 7:
		what = "fill outside the heap";
		pk_mem(&k, HP_PKT_FILL, outside_ptr(fseg), 0, between(1, 4096),
		       rnd(), 1);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	case 8: {
		what = "overlapping copy";
		uint64_t size = between(2, SEG_B / 2),
			 sh = between(1, size - 1);
		bool up = chance(50);
		pk_mem(&k, HP_PKT_COPY, fseg + (up ? sh : 0),
		       fseg + (up ? 0 : sh), size, 0, 0);
		want = HP_INVALID_VALUE;
		break;
	}
	case 9:
		what = "copy with pattern fields";
		pk_mem(&k, HP_PKT_COPY, fseg, B.csrc, 64, 0, 0);
		if (chance(50))
			k.p.mem.pattern = between(1, UINT64_MAX);
		else
			k.p.mem.pattern_size = (uint16_t)between(1, 65535);
		want = HP_INVALID_VALUE;
		break;
	case 10: {
		what = "copy from past a buffer's end";
		uint64_t x = between(1, 64);
		pk_mem(&k, HP_PKT_COPY, fseg, B.csrc + B.ncsrc - x, 0, 0, 0);
		k.p.mem.size = x + between(1, 64);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	}
	case 11:
		what = "copy from outside the heap";
		pk_mem(&k, HP_PKT_COPY, fseg, outside_ptr(B.csrc), 0, 0, 0);
		k.p.mem.size = between(1, SEG_B);
		want = HP_INVALID_KERNEL_ARGS;
		break;
	case 12: {
		what = "free of a buffer's interior";
		hp_buffer b = some_buffer();
		pk_mem(&k, HP_PKT_FREE,
		       b + 64 * between(1, GUARD_BYTES / 64 - 1), 0, 0, 0, 0);
		want = HP_INVALID_VALUE;
		break;
	}
	case 13:
		/* A live buffer: the packet must fail without freeing it
		 * (every buffer is freed at the end). */
		what = "free of a live buffer with a bad wait list";
		pk_mem(&k, HP_PKT_FREE, some_buffer(), 0, 0, 0, 0);
		if (chance(30)) {
			k.ka.num_wait = (uint16_t)between(9, 65535);
		} else {
			k.ka.num_wait = (uint16_t)between(1, 8);
			for (unsigned i = 0; i < k.ka.num_wait; i++)
				k.ka.wait[i] = bogus_event(q);
		}
		want = HP_INVALID_EVENT_WAIT_LIST;
		break;
	case 14:
		what = "info not 8-byte aligned";
		pk_mem(&k, HP_PKT_INFO, fseg + between(1, 7), 0, 0, 0, 0);
		want = HP_INVALID_VALUE;
		break;
	case 15:
		what = "info past its buffer's end";
		pk_mem(&k, HP_PKT_INFO,
		       B.fil + B.nfill -
			       8 * between(1, sizeof(hp_device_info) / 8 - 1),
		       0, 0, 0, 0);
		want = HP_INVALID_VALUE;
		break;
	case 16:
		what = "alloc of 0 bytes";
		pk_mem(&k, HP_PKT_ALLOC, 0, 0, 0, 0, 0);
		want = HP_INVALID_VALUE;
		break;
	case 17:
		what = "alloc larger than the heap";
		pk_mem(&k, HP_PKT_ALLOC, 0, 0,
		       between(INFO->global_mem_size + 1, UINT64_MAX), 0, 0);
		want = HP_OUT_OF_RESOURCES;
		break;
	case 18: {
		what = "vadd past its buffers' end";
		uint64_t off;
		hp_vadd_args a = last_vseg(&off);
		a.n = B.nv - off + between(1, 64);
		pk_dispatch(&k, k_vadd, a.n, &a, sizeof(a));
		want = HP_INVALID_KERNEL_ARGS;
		break;
	}
	case 19: {
		what = "vadd output misaligned";
		uint64_t off;
		hp_vadd_args a = last_vseg(&off);
		a.c += between(1, 3);
		pk_dispatch(&k, k_vadd, SEG_V, &a, sizeof(a));
		want = HP_INVALID_KERNEL_ARGS;
		break;
	}
	case 20: {
		what = "vadd output outside the heap";
		uint64_t off;
		hp_vadd_args a = last_vseg(&off);
		a.c = outside_ptr(B.vc);
		a.n = between(1, SEG_V);
		pk_dispatch(&k, k_vadd, SEG_V, &a, sizeof(a));
		want = HP_INVALID_KERNEL_ARGS;
		break;
	}
	default:
		/* The FREE waits for a failed packet: it must end aborted
		 * and leave the buffer allocated. */
		what = "free of a live buffer waiting for a rejected packet";
		pk_mem(&k, HP_PKT_FREE, some_buffer(), 0, 0, 0, 0);
		want = wait_for_reject(&k, q);
		break;
	}
	send_exact(q, &k, want, what);
}

void exact(unsigned q)
{
	/* Tally cases 0-27 and 28 (needs a recent rejection); others 0-20
	 * and 21 (the same). Case 27 needs a ring's worth of history. */
	for (;;) {
		if (chance(60)) {
			unsigned c = (unsigned)below(29);
			if ((c == 23 && !hole_ok) ||
			    (c == 27 && qnext[q] < RING + 1))
				continue;
			if (c == 28 && !reject_recent(q))
				continue;
			return exact_tally(q, c);
		}
		unsigned c = (unsigned)below(22);
		if (c == 21 && !reject_recent(q))
			continue;
		return exact_other(q, c);
	}
}
