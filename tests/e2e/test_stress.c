// SPDX-License-Identifier: MIT
/*
 * Hostile mailbox stress: libhartpool against the firmware in QEMU, with a
 * seeded random mix of valid work and malformed packets on three queues
 * (two out of order, one in order), packets interleaved across them.
 *
 *   test_stress [--seed N] [--iterations N] [--harts N] [--board B]
 *               [--connect C] [--timeout-ms N] [--only KIND] [--trace]
 *
 * The seed is printed first (default: from the clock); the same seed
 * sends the same packets. --iterations: packets (default 60,000, about
 * 30 s on 8 harts under TCG on 2 host cores). --only good|exact|no-op|
 * random: valid packets and that one family; --trace: every packet on
 * stderr. On a fatal error (a command that never completes, the device
 * gone) the end of the device's console is printed.
 *
 * Valid work has exact, checkable results: tally launches (each adds 1 to
 * its own range of counters: nothing lost, nothing duplicated) of random
 * shapes (1-3 dimensions, offsets, local sizes, uniform, reqd sizes,
 * sub-group sizes, teams), vadd against the host's float sums, fills and
 * copies against a host mirror, markers and barrier-ANDs; most wait for
 * up to 3 (barrier-ANDs 7) recent valid events of any queue.
 *
 * Malformed packets come in three families:
 *   exact    one property of an otherwise valid packet aimed at checked
 *            memory is broken (header, type, kernel, argument sizes, time
 *            limit, NDRange, sub-group and team sizes, buffers outside the
 *            heap, in the mailbox or firmware memory, a 64-bit alias of a
 *            buffer, misaligned, past a buffer's end, in a freed buffer;
 *            wait lists: too long, no such queue, not submitted, itself,
 *            later, too old, a failed packet; fill/copy/free/info/alloc
 *            fields; FREE of a live buffer with a bad wait list): it must
 *            end with that property's error and change nothing;
 *   random   1-4 random mutations of a valid packet aimed at scratch
 *            buffers (any field: header, setup, kernel id, sizes 0 and
 *            huge, offsets, local sizes, argument bytes and pointers, wait
 *            lists, time limit, memory packet fields), or random bytes:
 *            any error, or success if that made it valid. Pointers a
 *            mutation makes are kept out of every checked buffer, so one
 *            valid by chance only touches scratch memory; every launch
 *            has a time limit (a random kernel may be `hang`); the type
 *            byte is never 0 (that means "not written yet": the queue
 *            would wait for it); events never name a packet of another
 *            queue that is not submitted yet but may be by the time the
 *            dispatcher reads this one (mbox.h, Events);
 *   no-op    valid-looking packets that must not write (empty ranges,
 *            zero sizes), aimed at checked memory.
 * Every nonzero status must have a name and a detail. At the end: every
 * valid packet completed with status 0, every counter exactly 1 (0 where
 * only rejected or empty launches pointed), vadd/fill/copy results exact,
 * the inputs and the guard buffers around every buffer unchanged, the
 * device's packet and bad-packet counters equal to what was sent and
 * rejected, every buffer still freeable once, and a final kernel runs.
 *
 * Completion records are read before the ring reuses them. Exit status 0
 * on success, 1 with the reasons (and the seed) otherwise; every wait is
 * bounded (hp_open_options.timeout_ms, default 30 s here).
 */
#define _GNU_SOURCE
#include <hartpool/kernels/diag.h>
#include <hartpool/kernels/lib.h>
#include <hartpool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The QEMU boards' memory map (board/qemu-virt/board.h, also used by
 * qemu-virt32): firmware RAM, the mailbox, then the buffer heap. */
#define DRAM_BASE 0x80000000ull
#define MBOX_BASE 0x90000000ull
#define MBOX_SIZE 0x00400000ull
#define HEAP_BASE 0x90400000ull

#define NQ 3
#define RING HP_MBOX_RING_SIZE
#define GUARD_BYTES 4096u
#define SEG_V 256u	 /* floats per vadd segment */
#define SEG_B 256u	 /* bytes per fill / copy segment */
#define SCR_BYTES 65536u /* each scratch buffer */
#define CAP_US 250000u	 /* time limit of every random dispatch */
#define GUARD_BYTE 0xe7u
#define FILL_INIT 0x5au
#define CDST_INIT 0xc3u
#define VC_SENTINEL 0x7fbadbadu /* a NaN no sum produces */

static hp_device *D;
static const hp_device_info *INFO;
static uint64_t seed, size_max, heap_hi;
static uint32_t k_tally, k_vadd, nkern;
static unsigned workers;

static bool booted; /* D is a device this test booted */

/* The end of the device's console (a firmware trap report), then the
 * device stopped and its files removed (bounded: hp_down kills QEMU after
 * 10 s). */
static void device_last_words(void)
{
	const char *c = hp_connect_string(D);
	char path[320], line[256], tail[8][256];
	unsigned n = 0;
	snprintf(path, sizeof(path), "%s.log", c + strlen("shm:"));
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		snprintf(tail[n++ % 8], sizeof(tail[0]), "%s", line);
	if (f)
		fclose(f);
	for (unsigned i = n > 8 ? n - 8 : 0; i < n; i++)
		printf("device: %s", tail[i % 8]);
	hp_down(D); /* the process ends: no hp_close */
}

static void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("FATAL: ");
	vprintf(fmt, ap);
	va_end(ap);
	printf(" (seed %llu: rerun with --seed %llu)\n",
	       (unsigned long long)seed, (unsigned long long)seed);
	fflush(stdout);
	if (booted) {
		booted = false; /* a MUST failing in there */
		device_last_words();
	}
	exit(1);
}

#define MUST(call)                                                             \
	do {                                                                   \
		int rc_ = (call);                                              \
		if (rc_)                                                       \
			fatal("%s:%d: %s: %s: %s", __FILE__, __LINE__, #call,  \
			      hp_error_name(rc_), hp_last_error());            \
	} while (0)

static unsigned failures;
static bool trace;    /* --trace: every packet on stderr */
static int only = -1; /* --only KIND: valid packets and one family */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	if (++failures > 40)
		return;
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL: ");
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ---- the generator: splitmix64 ---- */

static uint64_t rng;
static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}
static bool chance(unsigned pct)
{
	return below(100) < pct;
}
/* A random value in [lo, hi] (hi >= lo). */
static uint64_t between(uint64_t lo, uint64_t hi)
{
	uint64_t span = hi - lo + 1;
	return span ? lo + below(span) : rnd();
}

/* ---- buffers ---- */

static struct {
	hp_buffer cnt, va, vb, vc, fil, csrc, cdst, scr, scr2, hole;
	uint64_t ncnt, nv, nfill, ncsrc, ncdst; /* elements / bytes */
} B;
/* Every buffer this test made, in address order (guards included). */
static struct {
	hp_buffer addr;
	uint64_t size;
	const char *name;
} bufs[32];
static unsigned nbufs;
static uint64_t prot_lo, prot_hi; /* all of them */
static bool hole_ok;		  /* B.hole: a freed gap between guards */

static hp_buffer alloc(uint64_t size, const char *name)
{
	hp_buffer b;
	MUST(hp_buffer_alloc(D, size, &b));
	if (b < HEAP_BASE || b + size > heap_hi)
		fatal("buffer %s at 0x%llx is outside the heap this test "
		      "assumes (0x%llx..0x%llx): board memory map changed?",
		      name, (unsigned long long)b,
		      (unsigned long long)HEAP_BASE,
		      (unsigned long long)heap_hi);
	bufs[nbufs].addr = b;
	bufs[nbufs].size = size;
	bufs[nbufs++].name = name;
	if (!prot_lo || b < prot_lo)
		prot_lo = b;
	if (b + size > prot_hi)
		prot_hi = b + size;
	return b;
}

static void fill_buf(hp_buffer b, uint64_t size, uint8_t byte)
{
	uint8_t *m = malloc(size);
	memset(m, byte, size);
	MUST(hp_buffer_write(D, b, 0, m, size));
	free(m);
}

static hp_buffer guard(void)
{
	hp_buffer g = alloc(GUARD_BYTES, "guard");
	fill_buf(g, GUARD_BYTES, GUARD_BYTE);
	return g;
}

static bool in_scratch(uint64_t a)
{
	return (a >= B.scr && a < B.scr + SCR_BYTES) ||
	       (a >= B.scr2 && a < B.scr2 + SCR_BYTES);
}

static bool is_buffer_start(uint64_t a)
{
	for (unsigned i = 0; i < nbufs; i++)
		if (bufs[i].addr == a)
			return true;
	return a == B.hole;
}

static bool inside_own_buffer(uint64_t a)
{
	for (unsigned i = 0; i < nbufs; i++)
		if (a >= bufs[i].addr && a < bufs[i].addr + bufs[i].size)
			return true;
	return false;
}

/* ---- host mirrors of the checked buffers ---- */

static uint8_t *cnt_want;   /* per counter: 0 or 1 */
static uint32_t *cnt_owner; /* record that set it to 1 */
static uint64_t cnt_next;   /* next unused counter */
static float *va_host, *vb_host;
static uint32_t *vseg_n; /* per vadd segment: n written (0: none) */
static uint64_t vseg_next, nvseg;
static uint8_t *fil_want, *csrc_host, *cdst_want;
static uint64_t fseg_next, nfseg, cseg_next, ncseg;

/* ---- records: one per packet, by queue and index ---- */

enum kind { GOOD, EXACT, NOOP, RANDOM };
static const char *const kind_name[] = {"good", "exact", "no-op", "random"};

typedef struct {
	hp_event ev;
	const char *what;
	int want; /* exact family: the status expected */
	int status;
	uint8_t kind, type;
	bool done;
	uint8_t ndeps;			     /* valid packets: dependencies */
	hp_event deps[HP_MBOX_BARRIER_DEPS]; /* (diagnostics) */
} rec;

static rec *R;
static unsigned nrec, maxrec;
static hp_queue *Q[NQ];
static unsigned qid[NQ];
static uint32_t *qrec[NQ];	      /* record of packet qbase + i */
static uint64_t qbase[NQ];	      /* the queue's first index here */
static uint64_t qnext[NQ], qharv[NQ]; /* submitted, harvested */
/* Per queue: index of the latest packet rejected by validation (exact
 * family), for dependencies that must end HP_ABORTED. */
static int64_t last_reject[NQ] = {-1, -1, -1};

/* The dependencies of the valid packet being sent (diagnostics). */
static hp_event last_deps[HP_MBOX_BARRIER_DEPS];
static unsigned nlast_deps;

/* Recent valid events (dependencies of valid packets). */
static hp_event recent_good[32];
static unsigned nrecent;

/* Results of ALLOC packets that happened to be valid (freed at the end). */
static hp_buffer *allocs;
static unsigned nallocs, maxallocs;

/* Statistics. */
static unsigned by_kind[4], valid_random, runtime_err;
static uint64_t rejected; /* statuses the device counts as bad packets */
static struct {
	int code;
	unsigned n;
} errs[32];
static unsigned nerrs;

static bool runtime_error(int st)
{
	return st == HP_ABORTED || st == HP_KERNEL_FAULT || st == HP_TIMEOUT;
}

static void count_error(int st)
{
	for (unsigned i = 0; i < nerrs; i++)
		if (errs[i].code == st) {
			errs[i].n++;
			return;
		}
	if (nerrs < 32)
		errs[nerrs].code = st, errs[nerrs++].n = 1;
}

static rec *rec_of(hp_event e)
{
	for (unsigned q = 0; q < NQ; q++)
		if (qid[q] == HP_EVENT_QUEUE(e))
			return &R[qrec[q][HP_EVENT_INDEX(e) - qbase[q]]];
	return NULL;
}

static void judge(rec *r, const hp_event_info *in)
{
	int st = in->status;
	r->status = st;
	r->done = true;
	const char *name = hp_error_name(st);
	unsigned q = HP_EVENT_QUEUE(r->ev);
	unsigned long long idx = HP_EVENT_INDEX(r->ev);
	if (st) {
		count_error(st);
		if (strcmp(name, "HP_UNKNOWN_ERROR") == 0)
			fail("%s packet '%s' (queue %u, packet %llu): status "
			     "%d has no name",
			     kind_name[r->kind], r->what, q, idx, st);
		if (!in->detail[0])
			fail("%s packet '%s' (queue %u, packet %llu): %s "
			     "without a detail",
			     kind_name[r->kind], r->what, q, idx, name);
		if (runtime_error(st))
			runtime_err += r->kind != GOOD;
		else
			rejected++;
	}
	switch (r->kind) {
	case GOOD:
		if (st)
			fail("valid packet '%s' (queue %u, packet %llu): %s "
			     "(%s)",
			     r->what, q, idx, name, in->detail);
		break;
	case EXACT:
		if (st != r->want)
			fail("malformed packet '%s' (queue %u, packet %llu): "
			     "%s (%s), expected %s",
			     r->what, q, idx, name, st ? in->detail : "",
			     hp_error_name(r->want));
		break;
	default:
		if (st == 0) {
			valid_random++;
			if (r->type == HP_PKT_ALLOC && in->result) {
				if (nallocs == maxallocs) {
					maxallocs =
						maxallocs ? 2 * maxallocs : 64;
					allocs = realloc(
						allocs,
						maxallocs * sizeof(*allocs));
				}
				allocs[nallocs++] = in->result;
			}
		}
		break;
	}
}

/* After a wait that never ended: which packets are still incomplete. */
static void dump_incomplete(void)
{
	for (unsigned q = 0; q < NQ; q++) {
		unsigned shown = 0;
		printf("queue %u: harvested %llu of %llu\n", qid[q],
		       (unsigned long long)qharv[q],
		       (unsigned long long)qnext[q]);
		for (uint64_t i = qharv[q]; i < qnext[q] && shown < 8; i++) {
			rec *r = &R[qrec[q][i - qbase[q]]];
			if (hp_event_query(D, r->ev, NULL) != 1)
				continue;
			printf("  packet %llu (%s '%s') incomplete\n",
			       (unsigned long long)i, kind_name[r->kind],
			       r->what);
			shown++;
		}
	}
}

/* Read the completion record of queue q's oldest unharvested packet;
 * false if !block and it is not complete yet. */
static bool harvest_one(unsigned q, bool block)
{
	rec *r = &R[qrec[q][qharv[q] - qbase[q]]];
	hp_event_info info;
	int rc = block ? hp_event_wait(D, r->ev, &info)
		       : hp_event_query(D, r->ev, &info);
	if (rc == 1 && !block)
		return false;
	if (rc == HP_TIMEOUT)
		dump_incomplete();
	if (rc)
		fatal("%s packet '%s' (queue %u, packet %llu) never "
		      "completed: %s: %s",
		      kind_name[r->kind], r->what, HP_EVENT_QUEUE(r->ev),
		      (unsigned long long)HP_EVENT_INDEX(r->ev),
		      hp_error_name(rc), hp_last_error());
	judge(r, &info);
	qharv[q]++;
	return true;
}

/* A completion record is reused a ring later: read it before that. */
static void make_room(unsigned q)
{
	while (qnext[q] >= qharv[q] + RING)
		harvest_one(q, true);
}

static void harvest_ready(void)
{
	for (unsigned q = 0; q < NQ; q++)
		while (qharv[q] < qnext[q] && harvest_one(q, false))
			;
}

static unsigned record(unsigned q, hp_event ev, uint8_t kind, uint8_t type,
		       int want, const char *what)
{
	if (HP_EVENT_QUEUE(ev) != qid[q] || HP_EVENT_INDEX(ev) != qnext[q])
		fatal("event %u:%llu, expected %u:%llu", HP_EVENT_QUEUE(ev),
		      (unsigned long long)HP_EVENT_INDEX(ev), qid[q],
		      (unsigned long long)qnext[q]);
	if (nrec == maxrec)
		fatal("more packets than records");
	rec *r = &R[nrec];
	*r = (rec){.ev = ev,
		   .what = what,
		   .want = want,
		   .kind = kind,
		   .type = type};
	if (trace)
		fprintf(stderr, "%u: %s '%s' on queue %u packet %llu\n", nrec,
			kind_name[kind], what, qid[q],
			(unsigned long long)qnext[q]);
	qrec[q][qnext[q]++ - qbase[q]] = nrec;
	by_kind[kind]++;
	if (kind == GOOD) {
		r->ndeps = (uint8_t)nlast_deps;
		memcpy(r->deps, last_deps, nlast_deps * sizeof(hp_event));
		nlast_deps = 0;
		recent_good[nrecent % 32] = ev;
		nrecent++;
	}
	return nrec++;
}

/* ---- valid work ---- */

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
	hp_ndrange r = {.work_dim = 1, .global = {n + below(48)}};
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

static void good(unsigned q)
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

/* ---- raw packets ---- */

typedef struct {
	hp_packet p;
	hp_kernarg ka;
} pkt;

static void pk_dispatch(pkt *k, uint32_t kernel, uint64_t n, const void *args,
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

static void pk_tally(pkt *k, hp_buffer counts, uint64_t base, uint64_t n)
{
	hp_tally_args a = {counts, base};
	pk_dispatch(k, k_tally, n, &a, sizeof(a));
}

static void pk_mem(pkt *k, unsigned type, uint64_t dst, uint64_t src,
		   uint64_t size, uint64_t pattern, unsigned ps)
{
	memset(k, 0, sizeof(*k));
	k->p.mem.header = (uint16_t)type;
	k->p.mem.dst = dst;
	k->p.mem.src = src;
	k->p.mem.size = size;
	k->p.mem.pattern = pattern;
	k->p.mem.pattern_size = (uint16_t)ps;
}

static unsigned send(unsigned q, pkt *k, uint8_t kind, int want,
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
static uint64_t victim_counters(uint64_t n)
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
static uint64_t outside_ptr(hp_buffer near)
{
	switch (below(7)) {
	case 0:
		return 0;
	case 1:
		return DRAM_BASE + 4 * below(0x100000);
	case 2:
		return MBOX_BASE + 4 * below(MBOX_SIZE / 4 - 64);
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
static uint64_t bogus_event(unsigned q)
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

/* ---- the exact family: one broken property, a known error ---- */

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
		k.ka.num_wait = 1;
		k.ka.wait[0] = HP_EVENT(qid[q], (uint64_t)last_reject[q]);
		want = HP_ABORTED;
		break;
	}
	unsigned id = send(q, &k, EXACT, want, what);
	if (want != HP_ABORTED)
		last_reject[q] = (int64_t)HP_EVENT_INDEX(R[id].ev);
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
		uint64_t off = B.nv - SEG_V * (1 + below(8));
		hp_vadd_args a = {B.va + 4 * off, B.vb + 4 * off,
				  B.vc + 4 * off, B.nv - off + between(1, 64)};
		pk_dispatch(&k, k_vadd, a.n, &a, sizeof(a));
		want = HP_INVALID_KERNEL_ARGS;
		break;
	}
	case 19: {
		what = "vadd output misaligned";
		uint64_t off = B.nv - SEG_V * (1 + below(8));
		hp_vadd_args a = {B.va + 4 * off, B.vb + 4 * off,
				  B.vc + 4 * off + between(1, 3), SEG_V};
		pk_dispatch(&k, k_vadd, SEG_V, &a, sizeof(a));
		want = HP_INVALID_KERNEL_ARGS;
		break;
	}
	case 20: {
		what = "vadd output outside the heap";
		uint64_t off = B.nv - SEG_V * (1 + below(8));
		hp_vadd_args a = {B.va + 4 * off, B.vb + 4 * off,
				  outside_ptr(B.vc), between(1, SEG_V)};
		pk_dispatch(&k, k_vadd, SEG_V, &a, sizeof(a));
		want = HP_INVALID_KERNEL_ARGS;
		break;
	}
	default:
		/* The FREE waits for a failed packet: it must end aborted
		 * and leave the buffer allocated. */
		what = "free of a live buffer waiting for a rejected packet";
		pk_mem(&k, HP_PKT_FREE, some_buffer(), 0, 0, 0, 0);
		k.ka.num_wait = 1;
		k.ka.wait[0] = HP_EVENT(qid[q], (uint64_t)last_reject[q]);
		want = HP_ABORTED;
		break;
	}
	unsigned id = send(q, &k, EXACT, want, what);
	if (want != HP_ABORTED)
		last_reject[q] = (int64_t)HP_EVENT_INDEX(R[id].ev);
}

static void exact(unsigned q)
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

/* ---- the no-op family: valid-looking, must not write ---- */

static void noop(unsigned q)
{
	pkt k;
	const char *what;
	switch (below(5)) {
	case 0: {
		what = "tally over an empty range";
		pk_tally(&k, chance(50) ? B.cnt : outside_ptr(B.cnt),
			 below(B.ncnt), 0);
		unsigned w = 1 + (unsigned)below(3);
		k.p.dispatch.setup = (uint16_t)w;
		for (unsigned d = 0; d < w; d++)
			k.p.dispatch.global[d] = 1 + below(100);
		k.p.dispatch.global[below(w)] = 0;
		break;
	}
	case 1: {
		what = "vadd of 0 elements";
		uint64_t off = 4 * below(B.nv);
		hp_vadd_args a = {B.va + off, B.vb + off,
				  chance(50) ? B.vc + off : outside_ptr(B.vc),
				  0};
		pk_dispatch(&k, k_vadd, 1 + below(300), &a, sizeof(a));
		break;
	}
	case 2:
		what = "fill of 0 bytes";
		pk_mem(&k, HP_PKT_FILL,
		       chance(50) ? B.fil + 8 * below(B.nfill / 8)
				  : outside_ptr(B.fil) & ~7ull,
		       0, 0, rnd(), 1u << below(4));
		break;
	case 3:
		what = "copy of 0 bytes";
		pk_mem(&k, HP_PKT_COPY,
		       chance(50) ? B.cdst + below(B.ncdst)
				  : outside_ptr(B.cdst),
		       B.csrc + below(B.ncsrc), 0, 0, 0);
		break;
	default:
		what = chance(50) ? "marker" : "barrier-AND without deps";
		pk_mem(&k, what[0] == 'm' ? HP_PKT_MARKER : HP_PKT_BARRIER_AND,
		       0, 0, 0, 0, 0);
		break;
	}
	send(q, &k, NOOP, 0, what);
}

/* ---- the random family: mutations of packets aimed at scratch ---- */

/* A pointer a mutation may set: anywhere but checked memory (what lands
 * there is moved away by sanitize()). Any alignment. */
static uint64_t wild_ptr(void)
{
	switch (below(9)) {
	case 0:
		return 0;
	case 1:
		return DRAM_BASE + below(0x400000);
	case 2:
		return MBOX_BASE + below(MBOX_SIZE);
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
	if (type == HP_PKT_KERNEL_DISPATCH && *tmo <= 3600000000ull &&
	    (*tmo == 0 || *tmo > CAP_US))
		*tmo = *tmo ? 1 + *tmo % CAP_US : CAP_US;
	if (type == HP_PKT_FREE) {
		if (is_buffer_start(p->mem.dst))
			p->mem.dst += 64;
		else if (p->mem.dst >= HEAP_BASE && p->mem.dst < heap_hi &&
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

static void random_packet(unsigned q)
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
			k.p.dispatch.setup &= 0x1f;
			k.p.dispatch.reserved = 0;
			k.p.dispatch.kernel %= nkern;
			k.ka.args_size %= HP_MBOX_ARGS_MAX + 1;
			k.ka.num_wait %= HP_MBOX_MAX_WAIT + 1;
			k.ka.timeout_us %= CAP_US;
		}
		sanitize(&k, q);
		send(q, &k, RANDOM, 0, what);
		return;
	}
	if (HP_PKT_TYPE(k.p.header) == HP_PKT_KERNEL_DISPATCH)
		k.ka.timeout_us = CAP_US;
	for (unsigned i = 0, n = 1 + (unsigned)below(4); i < n; i++)
		mutate(&k, q);
	sanitize(&k, q);
	send(q, &k, RANDOM, 0, what);
}

/* ---- the run ---- */

static void setup_buffers(uint64_t iters)
{
	/* Expected packets of each kind, with room to spare. */
	nvseg = iters / 10 + 64;
	nfseg = iters / 15 + 64;
	ncseg = iters / 15 + 64;
	B.ncnt = (iters * 90 + 4096) / 16 * 16; /* halves: valid, victims */
	B.nv = nvseg * SEG_V;
	B.nfill = nfseg * SEG_B;
	B.ncsrc = 65536;
	B.ncdst = ncseg * SEG_B;

	guard();
	B.cnt = alloc(B.ncnt * 4, "counters");
	guard();
	B.va = alloc(B.nv * 4, "vadd a");
	guard();
	B.vb = alloc(B.nv * 4, "vadd b");
	guard();
	B.vc = alloc(B.nv * 4, "vadd c");
	guard();
	B.fil = alloc(B.nfill, "fill");
	guard();
	B.hole = alloc(GUARD_BYTES, "hole");
	guard();
	B.csrc = alloc(B.ncsrc, "copy source");
	guard();
	B.cdst = alloc(B.ncdst, "copy destination");
	guard();
	B.scr = alloc(SCR_BYTES, "scratch");
	guard();
	B.scr2 = alloc(SCR_BYTES, "scratch 2");
	guard();
	/* The hole becomes a gap between two guards, too small for any
	 * ALLOC a random packet may make (sanitize()); on a device used
	 * before, the heap may have put it elsewhere: then no packet aims
	 * there. */
	MUST(hp_buffer_free(D, B.hole));
	for (unsigned i = 0; i < nbufs; i++)
		if (bufs[i].addr == B.hole) {
			hole_ok = i > 0 && i + 1 < nbufs &&
				  bufs[i - 1].addr + GUARD_BYTES == B.hole &&
				  B.hole + GUARD_BYTES == bufs[i + 1].addr;
			memmove(&bufs[i], &bufs[i + 1],
				(nbufs - i - 1) * sizeof(bufs[0]));
			nbufs--;
			break;
		}

	cnt_want = calloc(B.ncnt, 1);
	cnt_owner = calloc(B.ncnt, 4);
	fill_buf(B.cnt, B.ncnt * 4, 0);
	va_host = malloc(B.nv * 4);
	vb_host = malloc(B.nv * 4);
	for (uint64_t i = 0; i < B.nv; i++) {
		va_host[i] =
			(float)(int64_t)(rnd() % 2000001 - 1000000) / 1024.0f;
		vb_host[i] = (float)(rnd() >> 40) * 0x1p-13f;
	}
	MUST(hp_buffer_write(D, B.va, 0, va_host, B.nv * 4));
	MUST(hp_buffer_write(D, B.vb, 0, vb_host, B.nv * 4));
	uint32_t *s = malloc(B.nv * 4);
	for (uint64_t i = 0; i < B.nv; i++)
		s[i] = VC_SENTINEL;
	MUST(hp_buffer_write(D, B.vc, 0, s, B.nv * 4));
	free(s);
	vseg_n = calloc(nvseg, 4);
	fil_want = malloc(B.nfill);
	memset(fil_want, FILL_INIT, B.nfill);
	fill_buf(B.fil, B.nfill, FILL_INIT);
	csrc_host = malloc(B.ncsrc);
	for (uint64_t i = 0; i < B.ncsrc; i++)
		csrc_host[i] = (uint8_t)rnd();
	MUST(hp_buffer_write(D, B.csrc, 0, csrc_host, B.ncsrc));
	cdst_want = malloc(B.ncdst);
	memset(cdst_want, CDST_INIT, B.ncdst);
	fill_buf(B.cdst, B.ncdst, CDST_INIT);
	fill_buf(B.scr, SCR_BYTES, 0);
	fill_buf(B.scr2, SCR_BYTES, 0);
}

static void *read_all(hp_buffer b, uint64_t size)
{
	void *m = malloc(size);
	MUST(hp_buffer_read(D, b, 0, m, size));
	return m;
}

static void check_results(void)
{
	uint32_t *c = read_all(B.cnt, B.ncnt * 4);
	unsigned lost = 0, dup = 0, stray = 0;
	for (uint64_t i = 0; i < B.ncnt; i++) {
		if (c[i] == cnt_want[i])
			continue;
		if (cnt_want[i] && c[i] == 0)
			lost++;
		else if (cnt_want[i])
			dup++;
		else
			stray++;
		if (lost + dup + stray <= 5)
			fail("counter %llu is %u, expected %u (%s)",
			     (unsigned long long)i, c[i], cnt_want[i],
			     cnt_want[i] ? R[cnt_owner[i]].what
					 : "no valid launch counts there");
	}
	if (lost + dup + stray)
		fail("counters: %u lost, %u duplicated, %u written where only "
		     "rejected or empty launches pointed",
		     lost, dup, stray);
	free(c);

	uint32_t *vc = read_all(B.vc, B.nv * 4);
	float *va = read_all(B.va, B.nv * 4), *vb = read_all(B.vb, B.nv * 4);
	unsigned bad = 0;
	for (uint64_t sg = 0; sg < nvseg; sg++)
		for (uint64_t j = 0; j < SEG_V; j++) {
			uint64_t i = sg * SEG_V + j;
			float sum = va_host[i] + vb_host[i];
			uint32_t want;
			if (j < vseg_n[sg])
				memcpy(&want, &sum, 4);
			else
				want = VC_SENTINEL;
			if (vc[i] != want && ++bad <= 5)
				fail("vadd c[%llu] = 0x%08x, expected 0x%08x "
				     "(segment %llu, n %u%s)",
				     (unsigned long long)i, vc[i], want,
				     (unsigned long long)sg, vseg_n[sg],
				     vseg_n[sg] ? ", written by a valid vadd"
						: ", no valid vadd");
		}
	if (bad)
		fail("vadd: %u results wrong", bad);
	if (memcmp(va, va_host, B.nv * 4) || memcmp(vb, vb_host, B.nv * 4))
		fail("vadd inputs changed");
	free(vc), free(va), free(vb);

	uint8_t *f = read_all(B.fil, B.nfill);
	bad = 0;
	for (uint64_t i = 0; i < B.nfill; i++)
		if (f[i] != fil_want[i] && ++bad <= 5)
			fail("fill byte %llu = 0x%02x, expected 0x%02x",
			     (unsigned long long)i, f[i], fil_want[i]);
	if (bad)
		fail("fill: %u bytes wrong", bad);
	free(f);
	uint8_t *cs = read_all(B.csrc, B.ncsrc),
		*cd = read_all(B.cdst, B.ncdst);
	if (memcmp(cs, csrc_host, B.ncsrc))
		fail("copy source changed");
	bad = 0;
	for (uint64_t i = 0; i < B.ncdst; i++)
		if (cd[i] != cdst_want[i] && ++bad <= 5)
			fail("copy destination byte %llu = 0x%02x, expected "
			     "0x%02x",
			     (unsigned long long)i, cd[i], cdst_want[i]);
	if (bad)
		fail("copy: %u bytes wrong", bad);
	free(cs), free(cd);

	for (unsigned i = 0; i < nbufs; i++) {
		if (strcmp(bufs[i].name, "guard"))
			continue;
		uint8_t *g = read_all(bufs[i].addr, GUARD_BYTES);
		unsigned n = 0;
		for (unsigned j = 0; j < GUARD_BYTES; j++)
			n += g[j] != GUARD_BYTE;
		if (n)
			fail("guard buffer after %s: %u bytes changed",
			     i ? bufs[i - 1].name : "nothing", n);
		free(g);
	}
}

/* The device still runs a checked kernel. */
static void final_kernel(void)
{
	enum { N = 5000 };
	hp_buffer a, b, c, t;
	MUST(hp_buffer_alloc(D, N * 4, &a));
	MUST(hp_buffer_alloc(D, N * 4, &b));
	MUST(hp_buffer_alloc(D, N * 4, &c));
	MUST(hp_buffer_alloc(D, N * 4, &t));
	static float x[N], y[N], z[N];
	static uint32_t n[N];
	for (unsigned i = 0; i < N; i++)
		x[i] = (float)i * 0.5f, y[i] = 3.0f - (float)i, n[i] = 0;
	MUST(hp_buffer_write(D, a, 0, x, sizeof(x)));
	MUST(hp_buffer_write(D, b, 0, y, sizeof(y)));
	MUST(hp_buffer_write(D, t, 0, n, sizeof(n)));
	hp_vadd_args va = {a, b, c, N};
	hp_tally_args ta = {t, 0};
	hp_ndrange r = {.work_dim = 1, .global = {N}};
	hp_event e1, e2;
	hp_event_info i1, i2;
	MUST(hp_enqueue_kernel(Q[0], k_vadd, &r, &va, sizeof(va), NULL, 0,
			       &e1));
	MUST(hp_enqueue_kernel(Q[1], k_tally, &r, &ta, sizeof(ta), &e1, 1,
			       &e2));
	MUST(hp_event_wait(D, e1, &i1));
	MUST(hp_event_wait(D, e2, &i2));
	MUST(hp_buffer_read(D, c, 0, z, sizeof(z)));
	MUST(hp_buffer_read(D, t, 0, n, sizeof(n)));
	unsigned bad = 0;
	for (unsigned i = 0; i < N; i++)
		bad += z[i] != x[i] + y[i] || n[i] != 1;
	if (i1.status || i2.status || bad)
		fail("final kernels: %s, %s, %u values wrong",
		     hp_error_name(i1.status), hp_error_name(i2.status), bad);
	hp_buffer all[4] = {a, b, c, t};
	for (unsigned i = 0; i < 4; i++)
		MUST(hp_buffer_free(D, all[i]));
}

/* What the first valid packets that failed waited for, and how that
 * ended: a failure of its own, or one it inherited (HP_ABORTED). */
static void report_failed_deps(void)
{
	unsigned shown = 0;
	for (unsigned i = 0; i < nrec && shown < 3; i++) {
		const rec *r = &R[i];
		if (r->kind != GOOD || !r->status)
			continue;
		shown++;
		printf("valid packet '%s' (queue %u, packet %llu) ended %s; it "
		       "waited for:%s\n",
		       r->what, HP_EVENT_QUEUE(r->ev),
		       (unsigned long long)HP_EVENT_INDEX(r->ev),
		       hp_error_name(r->status), r->ndeps ? "" : " nothing");
		for (unsigned k = 0; k < r->ndeps; k++) {
			const rec *d = rec_of(r->deps[k]);
			printf("  queue %u packet %llu (%s '%s'): %s\n",
			       HP_EVENT_QUEUE(r->deps[k]),
			       (unsigned long long)HP_EVENT_INDEX(r->deps[k]),
			       kind_name[d->kind], d->what,
			       hp_error_name(d->status));
		}
	}
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	hp_open_options o = {.harts = 8, .timeout_ms = 30000};
	uint64_t iters = 60000;
	seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
	seed %= 1000000000ull;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--connect") && i + 1 < argc)
			o.connect = argv[++i];
		else if (!strcmp(argv[i], "--harts") && i + 1 < argc)
			o.harts = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--board") && i + 1 < argc)
			o.board = argv[++i];
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
			iters = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--trace"))
			trace = true;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			const char *k = argv[++i];
			for (int j = 0; j < 4; j++)
				if (!strcmp(k, kind_name[j]))
					only = j;
			if (only < 0) {
				fprintf(stderr, "test_stress: --only good, "
						"exact, no-op or random\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--timeout-ms") && i + 1 < argc)
			o.timeout_ms = (unsigned)atoi(argv[++i]);
		else {
			fprintf(stderr,
				"usage: test_stress [--seed N] [--iterations "
				"N] "
				"[--harts N] [--board B] [--connect C] "
				"[--timeout-ms N] [--only KIND] [--trace]\n");
			return 2;
		}
	}
	rng = seed;
	printf("stress: seed %llu, %llu packets\n", (unsigned long long)seed,
	       (unsigned long long)iters);
	fflush(stdout);
	MUST(hp_open(&o, &D));
	booted = !o.connect;
	INFO = hp_info(D);
	size_max = INFO->address_bits >= 64 ? UINT64_MAX
					    : (1ull << INFO->address_bits) - 1;
	heap_hi = HEAP_BASE + INFO->global_mem_size;
	workers = INFO->harts > 1 ? INFO->harts - 1 : 1;
	nkern = hp_kernel_count(D);
	MUST(hp_kernel_find(D, "tally", &k_tally));
	MUST(hp_kernel_find(D, "vadd", &k_vadd));
	printf("stress: device %s, %u harts, %u kernels (%s)\n", INFO->board,
	       INFO->harts, nkern, hp_connect_string(D));

	setup_buffers(iters);
	for (unsigned q = 0; q < NQ; q++) {
		MUST(hp_queue_create(D, q == 1 ? HP_QUEUE_IN_ORDER : 0, &Q[q]));
		qid[q] = hp_queue_id(Q[q]);
		qrec[q] = malloc((iters + 16) * sizeof(uint32_t));
		/* A queue of a running device may have been used before:
		 * its indices go on from there. A marker tells where. */
		hp_event ev;
		MUST(hp_enqueue_marker(Q[q], &ev));
		MUST(hp_event_wait(D, ev, NULL));
		qbase[q] = qnext[q] = qharv[q] = HP_EVENT_INDEX(ev) + 1;
	}
	maxrec = (unsigned)iters + 16;
	R = calloc(maxrec, sizeof(rec));

	uint64_t p0, b0, p1, b1;
	MUST(hp_counters(D, &p0, &b0));
	double t0 = now_s();
	for (uint64_t i = 0; i < iters; i++) {
		unsigned q = (unsigned)below(NQ), c = (unsigned)below(100);
		if (only == GOOD)
			c = 0;
		else if (only >= 0 && c >= 45)
			c = only == EXACT ? 50 : only == NOOP ? 65 : 90;
		if (c < 45)
			good(q);
		else if (c < 62)
			exact(q);
		else if (c < 67)
			noop(q);
		else
			random_packet(q);
		if ((i & 15) == 15)
			harvest_ready();
	}
	for (unsigned q = 0; q < NQ; q++)
		while (qharv[q] < qnext[q])
			harvest_one(q, true);
	double secs = now_s() - t0;
	report_failed_deps();
	MUST(hp_counters(D, &p1, &b1));
	if (p1 - p0 != nrec || b1 - b0 != rejected)
		fail("device counted %llu packets (%llu bad), the test sent "
		     "%u (%llu rejected by validation)",
		     (unsigned long long)(p1 - p0),
		     (unsigned long long)(b1 - b0), nrec,
		     (unsigned long long)rejected);

	check_results();
	for (unsigned q = 0; q < NQ; q++)
		MUST(hp_queue_release(Q[q]));
	MUST(hp_queue_create(D, 0, &Q[0]));
	MUST(hp_queue_create(D, 0, &Q[1]));
	/* Every buffer is still allocated exactly once: each frees (the
	 * ones random ALLOCs made first: they may fill the heap). */
	for (unsigned i = 0; i < nallocs; i++) {
		int rc = hp_buffer_free(D, allocs[i]);
		if (rc)
			fail("freeing a buffer a random ALLOC made (0x%llx): "
			     "%s: %s",
			     (unsigned long long)allocs[i], hp_error_name(rc),
			     hp_last_error());
	}
	final_kernel();
	for (unsigned i = 0; i < nbufs; i++) {
		int rc = hp_buffer_free(D, bufs[i].addr);
		if (rc)
			fail("freeing buffer '%s' (0x%llx): %s: %s",
			     bufs[i].name, (unsigned long long)bufs[i].addr,
			     hp_error_name(rc), hp_last_error());
	}
	MUST(hp_queue_release(Q[0]));
	MUST(hp_queue_release(Q[1]));
	MUST(hp_close(D));

	unsigned bad_sent = by_kind[EXACT] + by_kind[NOOP] + by_kind[RANDOM];
	printf("stress: %u packets in %.1f s (%.0f/s): %u valid, %u malformed "
	       "(%u exact-error, %u no-op, %u random); of the malformed %llu "
	       "rejected by the device's checks, %u failed while running "
	       "(aborted, faulted, timed out), %u valid and harmless\n",
	       nrec, secs, nrec / secs, by_kind[GOOD], bad_sent, by_kind[EXACT],
	       by_kind[NOOP], by_kind[RANDOM], (unsigned long long)(rejected),
	       runtime_err, valid_random);
	if (failures) {
		printf("stress: seed %llu: %u failures (rerun with --seed "
		       "%llu)\n",
		       (unsigned long long)seed, failures,
		       (unsigned long long)seed);
		return 1;
	}
	/* The errors seen, most frequent first. */
	char list[1024] = "";
	size_t len = 0;
	for (unsigned i = 0; i < nerrs; i++) {
		unsigned m = i;
		for (unsigned j = i + 1; j < nerrs; j++)
			if (errs[j].n > errs[m].n)
				m = j;
		typeof(errs[0]) t = errs[i];
		errs[i] = errs[m], errs[m] = t;
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"%s%s x %u", i ? ", " : "",
					hp_error_name(errs[i].code), errs[i].n);
	}
	printf("stress: seed %llu, %u packets (%u good, %u malformed) on %u "
	       "queues: all good ones exact, all malformed rejected or "
	       "harmless (errors seen: %s)\n",
	       (unsigned long long)seed, nrec, by_kind[GOOD], bad_sent, NQ,
	       list);
	return 0;
}
