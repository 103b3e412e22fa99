// SPDX-License-Identifier: MIT
/* test_stress, valid work with exact, checkable results (stress.h). */
#include "stress.h"

#include <string.h>

/* Up to `max` recent valid events, none so old that its slot may have
 * been reused (the library drops those already complete). */
static unsigned good_deps(hp_event *w, unsigned max)
{
	unsigned n = 0, want = (unsigned)below(max + 1);
	unsigned have = nrecent < 32 ? nrecent : 32;
	for (unsigned t = 0; t < 2 * want && n < want && have; t++) {
		hp_event e = recent_good[below(have)];
		unsigned q = 0;
		while (q < NQ && qid[q] != HP_EVENT_QUEUE(e))
			q++;
		if (qnext[q] - HP_EVENT_INDEX(e) < RING / 2)
			w[n++] = e;
	}
	nlast_deps = n;
	memcpy(last_deps, w, n * sizeof(*w));
	if (trace)
		for (unsigned i = 0; i < n; i++)
			fprintf(stderr, "  dep %u:%llu\n", HP_EVENT_QUEUE(w[i]),
				(unsigned long long)HP_EVENT_INDEX(w[i]));
	return n;
}

static uint64_t divisor_upto(uint64_t g, uint64_t cap)
{
	uint64_t d = 1 + below(cap < g ? cap : g);
	while (g % d)
		d--;
	return d;
}

/* A random valid NDRange of at most ~300 items for tally. */
static uint64_t good_range(hp_ndrange *r)
{
	memset(r, 0, sizeof(*r));
	unsigned w = 1 + (unsigned)below(3);
	r->work_dim = w;
	uint64_t items = 1;
	for (unsigned d = 0; d < 3; d++) {
		r->global[d] = d >= w		  ? 1
			       : d == 0 && w == 1 ? 1 + below(300)
			       : d == 0		  ? 1 + below(40)
			       : d == 1		  ? 1 + below(10)
						  : 1 + below(4);
		items *= r->global[d];
	}
	if (chance(25))
		for (unsigned d = 0; d < w; d++)
			r->offset[d] = below(1u << 20);
	if (chance(40)) {
		r->local_given = true;
		r->uniform = chance(40);
		uint64_t budget = INFO->max_work_group_size;
		for (unsigned d = 0; d < 3; d++) {
			uint64_t cap = INFO->max_work_item_sizes[d];
			if (cap > budget)
				cap = budget;
			uint64_t e =
				d >= w ? 1
				: r->uniform
					? divisor_upto(r->global[d], cap)
					: 1 + below(cap < r->global[d] + 3
							    ? cap
							    : r->global[d] + 3);
			r->local[d] = e;
			budget /= e;
		}
		if (chance(25))
			for (unsigned d = 0; d < 3; d++)
				r->reqd[d] = (uint32_t)r->local[d];
	}
	if (chance(25)) {
		unsigned s = 1u << below(7);
		if (INFO->sub_group_sizes & s)
			r->sub_group_size = s;
	}
	if (chance(15) && workers >= 2)
		r->team_size =
			2 + (unsigned)below(workers - 1 < 3 ? workers - 1 : 3);
	if (chance(15))
		r->timeout_us = 30000000; /* generous: must not trigger */
	return items;
}

static void good_tally(unsigned q)
{
	hp_ndrange r;
	uint64_t items = good_range(&r);
	if (cnt_next + items > B.ncnt / 2) /* the rest: rejected ones */
		return;
	uint64_t base = cnt_next;
	cnt_next += items;
	hp_tally_args a = {B.cnt, base};
	hp_event w[3], ev;
	unsigned nw = good_deps(w, 3);
	make_room(q);
	MUST(hp_enqueue_kernel(Q[q], k_tally, &r, &a, sizeof(a), w, nw, &ev));
	unsigned id = record(q, ev, GOOD, HP_PKT_KERNEL_DISPATCH, 0, "tally");
	for (uint64_t i = 0; i < items; i++)
		cnt_want[base + i] = 1, cnt_owner[base + i] = id;
}

static void good_vadd(unsigned q)
{
	if (vseg_next == nvseg - 8) /* the last 8: exact-family targets */
		return good_tally(q);
	uint64_t seg = vseg_next++, off = seg * SEG_V;
	uint32_t n = 1 + (uint32_t)below(SEG_V);
	hp_vadd_args a = {B.va + off * 4, B.vb + off * 4, B.vc + off * 4, n};
	/* vadd computes every work-item of its range (no guard on n). */
	hp_ndrange r = {.work_dim = 1, .global = {n}};
	if (chance(30)) {
		r.local_given = true;
		r.local[0] = 1 + below(INFO->max_work_item_sizes[0]);
	}
	if (chance(20)) {
		unsigned s = 1u << below(7);
		if (INFO->sub_group_sizes & s)
			r.sub_group_size = s;
	}
	hp_event w[3], ev;
	unsigned nw = good_deps(w, 3);
	make_room(q);
	MUST(hp_enqueue_kernel(Q[q], k_vadd, &r, &a, sizeof(a), w, nw, &ev));
	vseg_n[seg] = n;
	record(q, ev, GOOD, HP_PKT_KERNEL_DISPATCH, 0, "vadd");
}

static void good_fill(unsigned q)
{
	if (fseg_next == nfseg - 8) /* the last 8: exact-family targets */
		return good_tally(q);
	uint64_t seg = fseg_next++;
	unsigned ps = 1u << below(4);
	uint64_t size = ps * (1 + below(SEG_B / ps)), pat = rnd();
	hp_event w[3], ev;
	unsigned nw = good_deps(w, 3);
	make_room(q);
	MUST(hp_enqueue_fill(Q[q], B.fil + seg * SEG_B, size, pat, ps, w, nw,
			     &ev));
	record(q, ev, GOOD, HP_PKT_FILL, 0, "fill");
	for (uint64_t i = 0; i < size; i++)
		fil_want[seg * SEG_B + i] = (uint8_t)(pat >> (8 * (i % ps)));
}

static void good_copy(unsigned q)
{
	if (cseg_next == ncseg)
		return good_tally(q);
	uint64_t seg = cseg_next++;
	uint64_t size = 1 + below(SEG_B), from = below(B.ncsrc - SEG_B);
	hp_event w[3], ev;
	unsigned nw = good_deps(w, 3);
	make_room(q);
	MUST(hp_enqueue_copy(Q[q], B.cdst + seg * SEG_B, B.csrc + from, size, w,
			     nw, &ev));
	record(q, ev, GOOD, HP_PKT_COPY, 0, "copy");
	memcpy(cdst_want + seg * SEG_B, csrc_host + from, size);
}

static void good_sync(unsigned q)
{
	hp_event ev;
	make_room(q);
	if (chance(50)) {
		MUST(hp_enqueue_marker(Q[q], &ev));
		record(q, ev, GOOD, HP_PKT_MARKER, 0, "marker");
	} else {
		hp_event w[HP_MBOX_BARRIER_DEPS];
		unsigned nw = good_deps(w, HP_MBOX_BARRIER_DEPS);
		MUST(hp_enqueue_barrier_and(Q[q], w, nw, &ev));
		record(q, ev, GOOD, HP_PKT_BARRIER_AND, 0, "barrier-AND");
	}
}

void good(unsigned q)
{
	unsigned c = (unsigned)below(100);
	if (c < 45)
		good_tally(q);
	else if (c < 65)
		good_vadd(q);
	else if (c < 78)
		good_fill(q);
	else if (c < 91)
		good_copy(q);
	else
		good_sync(q);
}
