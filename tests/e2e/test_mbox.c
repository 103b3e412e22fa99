// SPDX-License-Identifier: MIT
/*
 * End-to-end mailbox tests: libhartpool against the firmware in QEMU,
 * through the real shared-memory rings. Every scenario checks values:
 * dependency chains and a diamond (order-sensitive kernels), an
 * out-of-order queue, two queues at once, 10,000 small kernels with none
 * lost or duplicated, a full ring, bad packets mixed with good ones,
 * device memory commands and buffer bounds.
 *
 *   test_mbox [--connect C | --harts N --board B] [--quick]
 *   test_mbox --connect C --hog     claim every queue, keep them busy and
 *                                   wait to be killed (reconnect test)
 *
 * Ends with "e2e: N checks, M failed"; exit status 1 if any failed.
 */
#define _GNU_SOURCE
#include "e2e_check.h"
#include <hartpool.h>
#include <hartpool/kernels/diag.h>
#include <hartpool_raw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static hp_device *D;

/* A kernel's id, a zeroed buffer (e2e_check.h). */
#define K(name) e2e_kernel(D, name)
#define buf(size) e2e_buffer(D, size, NULL)

static hp_ndrange r1(uint64_t n)
{
	return (hp_ndrange){.work_dim = 1, .global = {n}};
}

static hp_event affine(hp_queue *q, hp_buffer y, uint64_t n, uint32_t mul,
		       uint32_t add, const hp_event *wait, unsigned nw)
{
	hp_affine_args a = {y, mul, add};
	hp_ndrange r = r1(n);
	hp_event ev;
	MUST(hp_enqueue_kernel(q, K("affine"), &r, &a, sizeof(a), wait, nw,
			       &ev));
	return ev;
}

static int status_of(hp_event ev)
{
	hp_event_info i;
	MUST(hp_event_wait(D, ev, &i));
	return i.status;
}

static void read_u32(hp_buffer b, uint32_t *out, uint64_t n)
{
	MUST(hp_buffer_read(D, b, 0, out, n * sizeof(uint32_t)));
}

/* A chain of order-sensitive steps through events on an out-of-order
 * queue, and the same on an in-order queue without events. */
static void test_chain(void)
{
	enum { N = 300, STEPS = 12 };
	hp_queue *ooo, *ino;
	MUST(hp_queue_create(D, 0, &ooo));
	MUST(hp_queue_create(D, HP_QUEUE_IN_ORDER, &ino));
	hp_buffer y1 = buf(N * 4), y2 = buf(N * 4);
	hp_event ev = 0, ev2 = 0;
	MUST(hp_enqueue_fill(ooo, y1, N * 4, 7, 4, NULL, 0, &ev));
	MUST(hp_enqueue_fill(ino, y2, N * 4, 7, 4, NULL, 0, &ev2));
	uint32_t want = 7;
	for (unsigned s = 0; s < STEPS; s++) {
		uint32_t mul = 3 + s, add = 11 * s + 1;
		ev = affine(ooo, y1, N, mul, add, &ev, 1);
		ev2 = affine(ino, y2, N, mul, add, NULL, 0);
		want = want * mul + add;
	}
	CHECK(status_of(ev) == 0 && status_of(ev2) == 0, "chain status");
	uint32_t got[N], got2[N];
	read_u32(y1, got, N);
	read_u32(y2, got2, N);
	unsigned bad = 0;
	for (unsigned i = 0; i < N; i++)
		bad += got[i] != want || got2[i] != want;
	CHECK(bad == 0, "chain: %u of %u values wrong (want %u, got %u/%u)",
	      bad, N, want, got[0], got2[0]);
	MUST(hp_queue_release(ooo));
	MUST(hp_queue_release(ino));
	MUST(hp_buffer_free(D, y1));
	MUST(hp_buffer_free(D, y2));
}

/* A -> (B, C) -> D: B and C transform copies of A, D adds them after a
 * barrier-AND packet. */
static void test_diamond(void)
{
	enum { N = 1000 };
	hp_queue *q;
	MUST(hp_queue_create(D, 0, &q));
	hp_buffer a = buf(N * 4), b = buf(N * 4), c = buf(N * 4),
		  d = buf(N * 4);
	uint32_t init[N];
	for (unsigned i = 0; i < N; i++)
		init[i] = i * 7 + 1;
	MUST(hp_buffer_write(D, a, 0, init, sizeof(init)));
	hp_event ea = affine(q, a, N, 2, 1, NULL, 0);
	hp_event eb, ec, j;
	MUST(hp_enqueue_copy(q, b, a, N * 4, &ea, 1, &eb));
	MUST(hp_enqueue_copy(q, c, a, N * 4, &ea, 1, &ec));
	eb = affine(q, b, N, 3, 0, &eb, 1);
	ec = affine(q, c, N, 1, 5, &ec, 1);
	hp_event both[2] = {eb, ec};
	MUST(hp_enqueue_barrier_and(q, both, 2, &j));
	hp_add_args aa = {b, c, d};
	hp_ndrange r = r1(N);
	hp_event ed;
	MUST(hp_enqueue_kernel(q, K("add"), &r, &aa, sizeof(aa), &j, 1, &ed));
	CHECK(status_of(ed) == 0, "diamond status");
	uint32_t got[N];
	read_u32(d, got, N);
	unsigned bad = 0;
	for (unsigned i = 0; i < N; i++) {
		uint32_t x = init[i] * 2 + 1;
		bad += got[i] != x * 3 + (x + 5);
	}
	CHECK(bad == 0, "diamond: %u values wrong", bad);
	MUST(hp_queue_release(q));
	hp_buffer all[4] = {a, b, c, d};
	for (unsigned i = 0; i < 4; i++)
		MUST(hp_buffer_free(D, all[i]));
}

/* A gate kernel over one item that stays shut until gate_open(). */
static hp_gate_args gate_args(hp_buffer out, hp_buffer flag)
{
	uint32_t shut = 0;
	MUST(hp_buffer_write(D, flag, 0, &shut, sizeof(shut)));
	/* Bounded so that a scheduler that never lets the host's next
	 * command by still ends the test (with a failure, not a hang). */
	return (hp_gate_args){out, flag, 400000000};
}

static void gate_open(hp_buffer flag)
{
	uint32_t open = 1;
	MUST(hp_buffer_write(D, flag, 0, &open, sizeof(open)));
}

static bool gate_saw_open(hp_buffer out)
{
	uint32_t saw;
	read_u32(out, &saw, 1);
	return saw == 1;
}

/* Out of order: a short kernel enqueued after a long one finishes first;
 * in order it does not. A marker waits for both. A failed dependency
 * aborts its dependents. The long kernel is a gate the host opens once it
 * has seen the short one end: nothing depends on how fast either runs. */
static void test_out_of_order(void)
{
	hp_queue *q, *io;
	MUST(hp_queue_create(D, 0, &q));
	MUST(hp_queue_create(D, HP_QUEUE_IN_ORDER, &io));
	hp_buffer out = buf(64), cnt = buf(64), flag = buf(64);
	hp_spin_args sa = {out, 20000000};
	hp_gate_args ga = gate_args(out, flag);
	hp_tally_args ta = {cnt, 0};
	hp_ndrange one = r1(1);
	hp_event slow, fast, mark;
	MUST(hp_enqueue_kernel(q, K("gate"), &one, &ga, sizeof(ga), NULL, 0,
			       &slow));
	MUST(hp_enqueue_kernel(q, K("tally"), &one, &ta, sizeof(ta), NULL, 0,
			       &fast));
	MUST(hp_enqueue_marker(q, &mark));
	/* Overtaking needs a worker free while the gate runs: with one or
	 * two harts, the gate may hold the only one; it is opened at once. */
	bool overtake = hp_info(D)->harts > 2;
	if (!overtake)
		gate_open(flag);
	CHECK(status_of(fast) == 0, "fast kernel status");
	if (overtake) {
		CHECK(hp_event_query(D, slow, NULL) == 1,
		      "out-of-order: the short kernel waited for the long "
		      "one (which gave up waiting for its gate)");
		CHECK(hp_event_query(D, mark, NULL) == 1,
		      "marker completed before the earlier long kernel");
		gate_open(flag);
	}
	CHECK(status_of(mark) == 0 && hp_event_query(D, slow, NULL) == 0,
	      "marker status / order");
	CHECK(!overtake || gate_saw_open(out),
	      "the gate gave up before the host opened it");
	/* In order: the short one waits. */
	MUST(hp_enqueue_kernel(io, K("spin"), &one, &sa, sizeof(sa), NULL, 0,
			       &slow));
	MUST(hp_enqueue_kernel(io, K("tally"), &one, &ta, sizeof(ta), NULL, 0,
			       &fast));
	CHECK(status_of(fast) == 0, "in-order fast status");
	CHECK(hp_event_query(D, slow, NULL) == 0,
	      "in-order: the short kernel overtook the long one");
	/* A failing command (bad local size) aborts what waits for it, but
	 * an in-order successor still runs. */
	hp_ndrange bad = {.work_dim = 1,
			  .global = {10},
			  .local = {3},
			  .local_given = true,
			  .uniform = true};
	hp_event f, dep;
	MUST(hp_enqueue_kernel(q, K("tally"), &bad, &ta, sizeof(ta), NULL, 0,
			       &f));
	MUST(hp_enqueue_kernel(q, K("tally"), &one, &ta, sizeof(ta), &f, 1,
			       &dep));
	CHECK(status_of(f) == HP_INVALID_WORK_GROUP_SIZE, "uniform 10/3: %s",
	      hp_error_name(status_of(f)));
	CHECK(status_of(dep) == HP_ABORTED, "dependent of a failure: %s",
	      hp_error_name(status_of(dep)));
	uint32_t n;
	read_u32(cnt, &n, 1);
	CHECK(n == 2, "tally ran %u times, expected 2", n);
	MUST(hp_queue_release(q));
	MUST(hp_queue_release(io));
	MUST(hp_buffer_free(D, out));
	MUST(hp_buffer_free(D, cnt));
	MUST(hp_buffer_free(D, flag));
}

/* Two queues interleaved, and `total` tiny kernels spread over them: every
 * one runs exactly once. */
static void test_many(unsigned total)
{
	hp_queue *q[2];
	MUST(hp_queue_create(D, 0, &q[0]));
	MUST(hp_queue_create(D, HP_QUEUE_IN_ORDER, &q[1]));
	hp_buffer cnt = buf(total * 4);
	MUST(hp_enqueue_fill(q[0], cnt, total * 4, 0, 4, NULL, 0, NULL));
	MUST(hp_queue_finish(q[0]));
	hp_ndrange one = r1(1);
	for (unsigned k = 0; k < total; k++) {
		hp_tally_args ta = {cnt, k};
		MUST(hp_enqueue_kernel(q[k & 1], K("tally"), &one, &ta,
				       sizeof(ta), NULL, 0, NULL));
	}
	MUST(hp_queue_finish(q[0]));
	MUST(hp_queue_finish(q[1]));
	uint32_t *c = calloc(total, 4);
	read_u32(cnt, c, total);
	unsigned lost = 0, dup = 0;
	for (unsigned k = 0; k < total; k++)
		lost += c[k] == 0, dup += c[k] > 1;
	CHECK(lost == 0 && dup == 0,
	      "%u kernels over two queues: %u lost, %u duplicated", total, lost,
	      dup);
	printf("e2e: %u kernels over two queues: %u lost, %u duplicated\n",
	       total, lost, dup);
	free(c);
	MUST(hp_queue_release(q[0]));
	MUST(hp_queue_release(q[1]));
	MUST(hp_buffer_free(D, cnt));
}

/* A ring held up by a long kernel fills: a no-wait enqueue says so, a
 * waiting one gets in once a slot frees; nothing is overwritten. */
static void test_ring_full(void)
{
	hp_queue *q;
	MUST(hp_queue_create(D, HP_QUEUE_IN_ORDER | HP_QUEUE_NO_WAIT, &q));
	hp_buffer out = buf(64), cnt = buf(HP_MBOX_RING_SIZE * 4),
		  flag = buf(64);
	hp_gate_args ga = gate_args(out, flag);
	hp_ndrange one = r1(1);
	MUST(hp_enqueue_kernel(q, K("gate"), &one, &ga, sizeof(ga), NULL, 0,
			       NULL));
	unsigned k = 1;
	int rc = 0;
	for (; k < HP_MBOX_RING_SIZE + 8; k++) {
		hp_tally_args ta = {cnt, k - 1};
		rc = hp_enqueue_kernel(q, K("tally"), &one, &ta, sizeof(ta),
				       NULL, 0, NULL);
		if (rc)
			break;
	}
	CHECK(rc == HP_OUT_OF_RESOURCES && k == HP_MBOX_RING_SIZE,
	      "full ring: %s after %u packets (%s)", hp_error_name(rc), k,
	      hp_last_error());
	CHECK(strstr(hp_last_error(), "full") != NULL, "message: %s",
	      hp_last_error());
	gate_open(flag);
	MUST(hp_queue_release(q));
	MUST(hp_queue_create(D, HP_QUEUE_IN_ORDER, &q));
	hp_tally_args ta = {cnt, 0};
	hp_event last;
	MUST(hp_enqueue_kernel(q, K("tally"), &one, &ta, sizeof(ta), NULL, 0,
			       &last));
	CHECK(status_of(last) == 0, "after the full ring");
	uint32_t c[HP_MBOX_RING_SIZE];
	read_u32(cnt, c, HP_MBOX_RING_SIZE);
	unsigned bad = 0;
	for (unsigned i = 0; i < HP_MBOX_RING_SIZE - 1; i++)
		bad += c[i] != (i == 0 ? 2u : 1u);
	CHECK(bad == 0, "full ring: %u counts wrong", bad);
	MUST(hp_queue_release(q));
	MUST(hp_buffer_free(D, out));
	MUST(hp_buffer_free(D, cnt));
	MUST(hp_buffer_free(D, flag));
}

/* Malformed packets between good ones: each bad one completes with its
 * error, every good one runs exactly once, the queue keeps serving. */
static void test_bad_packets(void)
{
	hp_queue *q;
	MUST(hp_queue_create(D, 0, &q));
	hp_buffer cnt = buf(64 * 4);
	uint64_t bad0, p0, bad1, p1;
	MUST(hp_counters(D, &p0, &bad0));
	uint32_t tally = K("tally");
	hp_ndrange one = r1(1);
	struct {
		const char *what;
		int want;
		hp_packet p;
		hp_kernarg ka;
		bool use_ka;
	} cases[16];
	unsigned n = 0;
	memset(cases, 0, sizeof(cases));
#define CASE(w, e) (cases[n].what = (w), cases[n].want = (e), &cases[n++])
	hp_tally_args ta = {cnt, 0};
	/* A valid dispatch packet to mutate. */
	hp_packet good;
	memset(&good, 0, sizeof(good));
	good.dispatch.header = HP_PKT_KERNEL_DISPATCH;
	good.dispatch.setup = 1;
	good.dispatch.kernel = tally;
	good.dispatch.global[0] = 1;
	hp_kernarg gka;
	memset(&gka, 0, sizeof(gka));
	gka.args_size = sizeof(ta);
	memcpy(gka.args, &ta, sizeof(ta));

	typeof(&cases[0]) c;
	c = CASE("unknown type", HP_INVALID_VALUE);
	c->p = good, c->p.header = 0x7f;
	c = CASE("reserved header bits", HP_INVALID_VALUE);
	c->p = good, c->p.header |= 0x8000, c->ka = gka, c->use_ka = true;
	c = CASE("no such kernel", HP_INVALID_KERNEL);
	c->p = good, c->p.dispatch.kernel = 999, c->ka = gka, c->use_ka = true;
	c = CASE("args too large", HP_INVALID_KERNEL_ARGS);
	c->p = good, c->ka = gka, c->ka.args_size = 4096, c->use_ka = true;
	c = CASE("args size differs", HP_INVALID_KERNEL_ARGS);
	c->p = good, c->ka = gka, c->ka.args_size = 8, c->use_ka = true;
	c = CASE("work_dim 0", HP_INVALID_WORK_DIMENSION);
	c->p = good, c->p.dispatch.setup = 0, c->ka = gka, c->use_ka = true;
	c = CASE("buffer outside the heap", HP_INVALID_KERNEL_ARGS);
	c->p = good, c->ka = gka, c->use_ka = true;
	((hp_tally_args *)c->ka.args)->counts = 0x80000000u;
	c = CASE("buffer too small", HP_INVALID_KERNEL_ARGS);
	c->p = good, c->p.dispatch.global[0] = 65, c->ka = gka,
	c->use_ka = true;
	c = CASE("9 events", HP_INVALID_EVENT_WAIT_LIST);
	c->p = good, c->ka = gka, c->ka.num_wait = 9, c->use_ka = true;
	c = CASE("event not submitted", HP_INVALID_EVENT_WAIT_LIST);
	c->p = good, c->ka = gka, c->ka.num_wait = 1, c->use_ka = true;
	c->ka.wait[0] = HP_EVENT(hp_queue_id(q), 1u << 30);
	c = CASE("event of no queue", HP_INVALID_EVENT_WAIT_LIST);
	c->p = good, c->ka = gka, c->ka.num_wait = 1, c->use_ka = true;
	c->ka.wait[0] = HP_EVENT(200, 0);
	c = CASE("barrier-AND with 8 deps", HP_INVALID_EVENT_WAIT_LIST);
	c->p.barrier.header = HP_PKT_BARRIER_AND, c->p.barrier.num_deps = 8;
	c = CASE("fill pattern size 3", HP_INVALID_VALUE);
	c->p.mem.header = HP_PKT_FILL, c->p.mem.dst = cnt, c->p.mem.size = 12,
	c->p.mem.pattern_size = 3, c->use_ka = true;
	c = CASE("overlapping copy", HP_INVALID_VALUE);
	c->p.mem.header = HP_PKT_COPY, c->p.mem.dst = cnt,
	c->p.mem.src = cnt + 4, c->p.mem.size = 16, c->use_ka = true;
	c = CASE("free of no buffer", HP_INVALID_VALUE);
	c->p.mem.header = HP_PKT_FREE, c->p.mem.dst = cnt + 64,
	c->use_ka = true;
	c = CASE("zero-sized alloc", HP_INVALID_VALUE);
	c->p.mem.header = HP_PKT_ALLOC;
#undef CASE
	hp_event evs[16], goods[17];
	for (unsigned i = 0; i < n; i++) {
		ta.base = i;
		MUST(hp_enqueue_kernel(q, tally, &one, &ta, sizeof(ta), NULL, 0,
				       &goods[i]));
		MUST(hp_enqueue_raw(q, &cases[i].p,
				    cases[i].use_ka ? &cases[i].ka : NULL,
				    &evs[i]));
	}
	ta.base = n;
	MUST(hp_enqueue_kernel(q, tally, &one, &ta, sizeof(ta), NULL, 0,
			       &goods[n]));
	for (unsigned i = 0; i < n; i++) {
		hp_event_info info;
		MUST(hp_event_wait(D, evs[i], &info));
		CHECK(info.status == cases[i].want, "%s: %s (%s), expected %s",
		      cases[i].what, hp_error_name(info.status), info.detail,
		      hp_error_name(cases[i].want));
		CHECK(info.status == 0 || info.detail[0], "%s: no detail",
		      cases[i].what);
	}
	for (unsigned i = 0; i <= n; i++)
		CHECK(status_of(goods[i]) == 0, "good packet %u", i);
	uint32_t c32[64];
	read_u32(cnt, c32, 64);
	unsigned wrong = 0;
	for (unsigned i = 0; i <= n; i++)
		wrong += c32[i] != 1;
	CHECK(wrong == 0, "good packets between bad ones: %u wrong", wrong);
	MUST(hp_counters(D, &p1, &bad1));
	CHECK(bad1 - bad0 == n && p1 - p0 >= 2 * n + 1,
	      "device counted %llu bad of %llu packets, expected %u",
	      (unsigned long long)(bad1 - bad0), (unsigned long long)(p1 - p0),
	      n);
	printf("e2e: %u malformed packets among %u good ones: all rejected "
	       "with the right error, all good ones ran once\n",
	       n, n + 1);
	MUST(hp_queue_release(q));
	MUST(hp_buffer_free(D, cnt));
}

/* Device memory commands, buffer bookkeeping, the INFO packet. */
static void test_memory(void)
{
	hp_queue *q;
	MUST(hp_queue_create(D, HP_QUEUE_IN_ORDER, &q));
	enum { N = 50000 };
	hp_buffer a = buf(N), b = buf(N);
	static uint8_t host[N], back[N];
	for (unsigned i = 0; i < N; i++)
		host[i] = (uint8_t)(i * 37 + 5);
	MUST(hp_buffer_write(D, a, 0, host, N));
	hp_event e;
	MUST(hp_enqueue_copy(q, b, a, N, NULL, 0, &e));
	CHECK(status_of(e) == 0, "copy");
	MUST(hp_buffer_read(D, b, 0, back, N));
	CHECK(memcmp(host, back, N) == 0, "copy contents");
	MUST(hp_enqueue_fill(q, b + 6, 1002, 0xabcd, 2, NULL, 0, &e));
	CHECK(status_of(e) == 0, "fill");
	MUST(hp_buffer_read(D, b, 0, back, 1010));
	unsigned bad = 0;
	for (unsigned i = 0; i < 1010; i++) {
		uint8_t want = i < 6 || i >= 1008 ? host[i]
			       : (i % 2)	  ? 0xab
						  : 0xcd;
		bad += back[i] != want;
	}
	CHECK(bad == 0, "fill contents: %u bytes wrong", bad);
	/* Freed buffers are no longer valid kernel arguments. */
	MUST(hp_buffer_free(D, a));
	CHECK(hp_buffer_free(D, a) == HP_INVALID_VALUE, "double free");
	hp_tally_args ta = {a, 0};
	hp_ndrange one = r1(1);
	MUST(hp_enqueue_kernel(q, K("tally"), &one, &ta, sizeof(ta), NULL, 0,
			       &e));
	CHECK(status_of(e) == HP_INVALID_KERNEL_ARGS,
	      "kernel on a freed buffer: %s", hp_error_name(status_of(e)));
	hp_buffer huge;
	CHECK(hp_buffer_alloc(D, 1ull << 40, &huge) == HP_OUT_OF_RESOURCES,
	      "1 TiB allocation");
	hp_device_info info;
	MUST(hp_device_query(D, &info));
	CHECK(info.harts == hp_info(D)->harts &&
		      info.max_work_group_size == 256,
	      "INFO packet");
	MUST(hp_buffer_free(D, b));
	MUST(hp_queue_release(q));
}

/* Each kernel's largest work-group through the library (as
 * CL_KERNEL_WORK_GROUP_SIZE), and the errors of opening no device. */
static void test_kernels_and_open(void)
{
	const hp_device_info *di = hp_info(D);
	unsigned rows = 0;
	for (unsigned k = 0; k < hp_kernel_count(D); k++) {
		const hp_mbox_kernel *m = hp_kernel_at(D, k);
		uint32_t id, wg = 0;
		if (!m || m->flags & HP_KFLAG_LOADED)
			continue;
		MUST(hp_kernel_find(D, m->name, &id));
		MUST(hp_kernel_work_group_size(D, id, &wg));
		CHECK(wg == m->work_group_size && wg >= 1 &&
			      wg <= di->max_work_group_size,
		      "%s: work-group size %u (row %u, device %u)", m->name, wg,
		      m->work_group_size, di->max_work_group_size);
		rows++;
	}
	CHECK(rows >= 20, "%u built-in kernels", rows);
	uint32_t wg = 7;
	CHECK(hp_kernel_work_group_size(D, HP_MBOX_KERNELS_MAX + 5, &wg) ==
			      HP_INVALID_KERNEL &&
		      wg == 7,
	      "work-group size of no kernel");
	CHECK(di->dram_size && di->global_mem_size <= di->dram_size &&
		      di->max_mem_alloc_size <= di->global_mem_size &&
		      di->max_mem_alloc_size > 0,
	      "memory: dram %llu, global %llu, largest %llu",
	      (unsigned long long)di->dram_size,
	      (unsigned long long)di->global_mem_size,
	      (unsigned long long)di->max_mem_alloc_size);

	hp_device *none = NULL;
	hp_open_options o = {.connect = "shm:/nonexistent/hartpool"};
	CHECK(hp_open(&o, &none) == HP_DEVICE_NOT_FOUND && !none &&
		      strstr(hp_last_error(),
			     "no device at shm:/nonexistent/hartpool"),
	      "open of no device: %s", hp_last_error());
	o.connect = "serial:/nonexistent/hartpool.sock";
	CHECK(hp_open(&o, &none) == HP_DEVICE_NOT_FOUND && !none,
	      "open of no serial device: %s", hp_last_error());
	o.connect = hp_connect_string(D);
	o.mem_size = 1ull << 30;
	CHECK(hp_open(&o, &none) == HP_INVALID_VALUE && !none,
	      "mem_size with connect: %s", hp_last_error());
	o.connect = NULL;
	o.mem_size = (1ull << 30) + 1;
	CHECK(hp_open(&o, &none) == HP_INVALID_VALUE && !none &&
		      strstr(hp_last_error(), "1073741825"),
	      "mem_size not in MiB: %s", hp_last_error());
}

/* Claim every queue, keep them busy, wait to be killed. */
static int hog(void)
{
	hp_queue *q[HP_MBOX_QUEUES];
	hp_buffer out = buf(64);
	hp_spin_args sa = {out, 2000000};
	hp_ndrange one = r1(1);
	unsigned n = 0;
	while (n < HP_MBOX_QUEUES && hp_queue_create(D, 0, &q[n]) == 0)
		n++;
	for (unsigned k = 0; k < n; k++)
		for (unsigned i = 0; i < 20; i++)
			MUST(hp_enqueue_kernel(q[k], K("spin"), &one, &sa,
					       sizeof(sa), NULL, 0, NULL));
	printf("hog: holding %u queues\n", n);
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	hp_open_options o = {.harts = 8};
	bool quick = false, hogging = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--connect") && i + 1 < argc)
			o.connect = argv[++i];
		else if (!strcmp(argv[i], "--harts") && i + 1 < argc)
			o.harts = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--board") && i + 1 < argc)
			o.board = argv[++i];
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--hog"))
			hogging = true;
		else {
			fprintf(stderr, "test_mbox: unknown argument %s\n",
				argv[i]);
			return 2;
		}
	}
	MUST(hp_open(&o, &D));
	if (hogging)
		return hog();
	printf("e2e: device %s, %u harts (%s)\n", hp_info(D)->board,
	       hp_info(D)->harts, hp_connect_string(D));
	test_chain();
	test_diamond();
	test_out_of_order();
	test_memory();
	test_kernels_and_open();
	test_bad_packets();
	test_ring_full();
	test_many(quick ? 2000 : 10000);
	MUST(hp_close(D));
	return e2e_report();
}
