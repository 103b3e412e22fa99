// SPDX-License-Identifier: MIT
/*
 * The mailbox dispatcher on the host: threads as harts (hart 0 the
 * dedicated dispatcher), a producer thread playing the host with the
 * protocol's atomics, over a plain memory block. Under TSan this checks
 * the ownership rules of include/hartpool/mbox.h; the values check
 * exactly-once, order through events across queues, a dependency cycle
 * between queues, bad packets, a full ring, sessions (one session's packets
 * never reach another's buffers or events; an ended session's commands are
 * cancelled and what it held comes back), and stopping.
 */
#include "check.h"
#include <executor/exec.h>
#include <hal/hart.h>
#include <hal_host.h>
#include <hartpool/kernel.h>
#include <hartpool/kernels/diag.h>
#include <hartpool/mbox.h>
#include <kernels/registry.h>
#include <mailbox/dispatch.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MBOX_SIZE (8u << 20) /* the boards' BOARD_MBOX_SIZE */
#define BUF_SIZE (16u << 20)

typedef uint64_t hp_event; /* as in host/include/hartpool.h */

static uint8_t *mbox, *bufmem;

/* ---- a minimal host ---- */

static hp_mbox_header *H;
static uint64_t next_idx[HP_MBOX_QUEUES];

static hp_mbox_queue *queue(unsigned q)
{
	return (hp_mbox_queue *)(uintptr_t)H->queues + q;
}

static hp_completion *record(unsigned q, uint64_t i)
{
	return (hp_completion *)(uintptr_t)queue(q)->completion +
	       i % HP_MBOX_RING_SIZE;
}

static bool done(hp_event ev)
{
	unsigned q = HP_EVENT_QUEUE(ev);
	uint64_t i = HP_EVENT_INDEX(ev);
	/* A later packet in the slot means this one completed long ago. */
	return __atomic_load_n(&record(q, i)->done, __ATOMIC_ACQUIRE) >= i + 1;
}

static int wait_ev(hp_event ev)
{
	while (!done(ev))
		sched_yield();
	return record(HP_EVENT_QUEUE(ev), HP_EVENT_INDEX(ev))->status;
}

/* Publish a packet: rule 1 (slot free), body + kernarg, header (release),
 * write index (release). Returns its event, or ~0 when the ring is full
 * and `nowait`. */
static hp_event submit(unsigned q, const hp_packet *p, const hp_kernarg *ka,
		       bool nowait)
{
	uint64_t i = next_idx[q];
	unsigned s = (unsigned)(i % HP_MBOX_RING_SIZE);
	if (i >= HP_MBOX_RING_SIZE) {
		while (__atomic_load_n(&record(q, s)->done, __ATOMIC_ACQUIRE) <
		       i - HP_MBOX_RING_SIZE + 1) {
			if (nowait)
				return ~0ull;
			sched_yield();
		}
	}
	hp_packet *ring = (hp_packet *)(uintptr_t)queue(q)->ring;
	hp_kernarg *kar = (hp_kernarg *)(uintptr_t)queue(q)->kernarg;
	if (ka)
		memcpy(&kar[s], ka, sizeof(*ka));
	memcpy(ring[s].bytes + 2, p->bytes + 2, sizeof(*p) - 2);
	__atomic_store_n(&ring[s].header, p->header, __ATOMIC_RELEASE);
	next_idx[q] = i + 1;
	__atomic_store_n(&queue(q)->write_index, i + 1, __ATOMIC_RELEASE);
	return HP_EVENT(q, i);
}

static uint32_t kernel_row(const char *name)
{
	const hp_mbox_kernel *k = (const hp_mbox_kernel *)(uintptr_t)H->kernels;
	for (uint32_t i = 0; i < H->num_kernels; i++)
		if (!strcmp(k[i].name, name))
			return i;
	return ~0u;
}

static hp_event dispatch(unsigned q, const char *kname, uint64_t n,
			 const void *args, uint32_t asz, const hp_event *wait,
			 unsigned nw, bool barrier)
{
	hp_packet p;
	hp_kernarg ka;
	memset(&p, 0, sizeof(p));
	memset(&ka, 0, sizeof(ka));
	p.dispatch.header =
		HP_PKT_KERNEL_DISPATCH | (barrier ? HP_PKT_BARRIER : 0);
	p.dispatch.setup = 1;
	p.dispatch.kernel = kernel_row(kname);
	p.dispatch.global[0] = n;
	ka.args_size = asz;
	memcpy(ka.args, args, asz);
	ka.num_wait = (uint16_t)nw;
	for (unsigned k = 0; k < nw; k++)
		ka.wait[k] = wait[k];
	return submit(q, &p, &ka, false);
}

static uint64_t alloc(uint64_t size)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_ALLOC;
	p.mem.size = size;
	hp_event ev = submit(7, &p, NULL, false);
	CHECK_MSG(wait_ev(ev) == 0, "alloc %llu", (unsigned long long)size);
	uint64_t a = record(7, HP_EVENT_INDEX(ev))->result;
	memset((void *)(uintptr_t)a, 0, size);
	return a;
}

static hp_event free_buf(unsigned q, uint64_t addr, const hp_event *wait,
			 unsigned nw)
{
	hp_packet p;
	hp_kernarg ka;
	memset(&p, 0, sizeof(p));
	memset(&ka, 0, sizeof(ka));
	p.mem.header = HP_PKT_FREE;
	p.mem.dst = addr;
	ka.num_wait = (uint16_t)nw;
	for (unsigned k = 0; k < nw; k++)
		ka.wait[k] = wait[k];
	return submit(q, &p, &ka, false);
}

/* ---- sessions ---- */

static hp_mbox_session *session(unsigned s)
{
	return (hp_mbox_session *)(uintptr_t)H->sessions + s;
}

/* Open session s for `token` and give it queues [q0, q1). */
static void session_open(unsigned s, uint64_t token, unsigned q0, unsigned q1)
{
	uint64_t zero = 0;
	CHECK_MSG(__atomic_compare_exchange_n(&session(s)->owner, &zero, token,
					      false, __ATOMIC_ACQ_REL,
					      __ATOMIC_ACQUIRE),
		  "session %u not free", s);
	while (__atomic_load_n(&session(s)->state, __ATOMIC_ACQUIRE) !=
		       HP_SESSION_OPEN ||
	       __atomic_load_n(&session(s)->dev_owner, __ATOMIC_ACQUIRE) !=
		       token)
		sched_yield();
	for (unsigned q = q0; q < q1; q++) {
		zero = 0;
		CHECK_MSG(__atomic_compare_exchange_n(
				  &queue(q)->owner, &zero, token, false,
				  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE),
			  "queue %u not free", q);
	}
}

/* End session s and wait until the device gave the slot back. */
static void session_end(unsigned s)
{
	__atomic_store_n(&session(s)->end_request, 1u, __ATOMIC_RELEASE);
	while (__atomic_load_n(&session(s)->owner, __ATOMIC_ACQUIRE))
		sched_yield();
}

static uint64_t alloc_on(unsigned q, uint64_t size)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_ALLOC;
	p.mem.size = size;
	hp_event ev = submit(q, &p, NULL, false);
	CHECK_MSG(wait_ev(ev) == 0, "alloc %llu on queue %u",
		  (unsigned long long)size, q);
	return record(q, HP_EVENT_INDEX(ev))->result;
}

/* The device's bell to the host (HP_DEV_HAS_HOST_BELL): rings counted. */
static unsigned bells_rung;
static void count_bell(void)
{
	__atomic_fetch_add(&bells_rung, 1u, __ATOMIC_RELAXED);
}

/* Session 1 (queues 9, 10) beside session 0 (every other queue). */
static void sessions_check(uint64_t cnt)
{
	session_open(1, 0x2222, 9, 11);
	/* Session 1 asks for the host bell, session 0 does not: a ring
	 * follows each of session 1's completion records (counted in its
	 * bells first, then rung), none of session 0's. */
	__atomic_store_n(&session(1)->host_flags, HP_SESSION_BELL,
			 __ATOMIC_RELEASE);
	unsigned rung = __atomic_load_n(&bells_rung, __ATOMIC_RELAXED);
	uint64_t b1 = alloc_on(9, 4096);
	for (unsigned k = 0;
	     k < 1000000 &&
	     __atomic_load_n(&bells_rung, __ATOMIC_ACQUIRE) == rung;
	     k++)
		sched_yield();
	unsigned b1s = __atomic_load_n(&session(1)->bells, __ATOMIC_ACQUIRE),
		 b0s = __atomic_load_n(&session(0)->bells, __ATOMIC_ACQUIRE),
		 now = __atomic_load_n(&bells_rung, __ATOMIC_RELAXED);
	CHECK_MSG(b1s == 1 && now == rung + 1,
		  "session 1's bells: %u, rings %u (from %u)", b1s, now, rung);
	CHECK_MSG(b0s == 0, "session 0 rang %u bells", b0s);
	/* Session 0's packets cannot name session 1's buffer or events. */
	hp_tally_args ta = {b1, 0};
	CHECK_MSG(wait_ev(dispatch(6, "tally", 1, &ta, sizeof(ta), NULL, 0,
				   0)) == HP_INVALID_KERNEL_ARGS,
		  "session 0 writes session 1's buffer");
	hp_event e1 = dispatch(9, "tally", 1, &ta, sizeof(ta), NULL, 0, 0);
	CHECK_MSG(wait_ev(e1) == 0, "session 1 writes its own buffer");
	hp_tally_args t0 = {cnt, 5};
	CHECK_MSG(wait_ev(dispatch(6, "tally", 1, &t0, sizeof(t0), &e1, 1,
				   0)) == HP_INVALID_EVENT_WAIT_LIST,
		  "session 0 waits for session 1's event");
	CHECK_MSG(wait_ev(free_buf(6, b1, NULL, 0)) == HP_INVALID_VALUE,
		  "session 0 frees session 1's buffer");
	/* Session 1 ends with a long kernel running and more queued
	 * behind it: the queued ones are cancelled, the running one stops
	 * (between work-groups here: no U-mode on the host), its buffers
	 * and queues come back. */
	uint64_t out = alloc_on(9, 256 * 4);
	hp_spin_args sp = {out, 2000000};
	hp_event run = dispatch(10, "spin", 256, &sp, sizeof(sp), NULL, 0, 1);
	hp_event later[4];
	for (unsigned k = 0; k < 4; k++)
		later[k] =
			dispatch(10, "spin", 256, &sp, sizeof(sp), NULL, 0, 1);
	/* Every packet read: the first runs, the others wait behind it. */
	while (__atomic_load_n(&queue(10)->read_index, __ATOMIC_ACQUIRE) !=
	       next_idx[10])
		sched_yield();
	uint64_t used = __atomic_load_n(&session(1)->buffers, __ATOMIC_ACQUIRE);
	session_end(1);
	int rs = wait_ev(run);

	CHECK_MSG(rs == 0 || rs == HP_ABORTED, "the running kernel: %s (%s)",
		  hp_error_name(rs),
		  record(HP_EVENT_QUEUE(run), HP_EVENT_INDEX(run))->detail);
	for (unsigned k = 0; k < 4; k++)
		CHECK_MSG(wait_ev(later[k]) == HP_ABORTED,
			  "queued kernel %u of the ended session: %s", k,
			  hp_error_name(wait_ev(later[k])));
	CHECK_MSG(__atomic_load_n(&queue(9)->owner, __ATOMIC_ACQUIRE) == 0 &&
			  __atomic_load_n(&queue(10)->owner,
					  __ATOMIC_ACQUIRE) == 0,
		  "queues of the ended session still owned");
	CHECK_MSG(__atomic_load_n(&session(1)->state, __ATOMIC_ACQUIRE) ==
				  HP_SESSION_FREE &&
			  used >= 1,
		  "session slot after the end (held %llu buffers)",
		  (unsigned long long)used);
}

static void *host_main(void *arg)
{
	(void)arg;
	H = (hp_mbox_header *)mbox;
	while (__atomic_load_n(&H->magic, __ATOMIC_ACQUIRE) != HP_MBOX_MAGIC)
		sched_yield();
	/* Session 0 holds every queue but 9 and 10 (session 1's, later). */
	session_open(0, 0x1111, 0, 9);
	for (unsigned q = 11; q < HP_MBOX_QUEUES; q++)
		__atomic_store_n(&queue(q)->owner, 0x1111, __ATOMIC_RELEASE);

	/* Exactly once, over two queues (one in order). */
	enum { T = 3000 };
	uint64_t cnt = alloc(T * 4);
	hp_event last[2] = {0, 0};
	for (unsigned k = 0; k < T; k++) {
		hp_tally_args ta = {cnt, k};
		last[k & 1] = dispatch(k & 1, "tally", 1, &ta, sizeof(ta), NULL,
				       0, k & 1);
	}
	wait_ev(last[1]);
	/* Queue 0 is out of order: wait for its last ring's worth (older
	 * slots are reused only after completion). */
	for (unsigned k = 1; k <= HP_MBOX_RING_SIZE; k++)
		wait_ev(HP_EVENT(0, next_idx[0] - k));
	unsigned bad = 0;
	for (unsigned k = 0; k < T; k++)
		bad += ((uint32_t *)(uintptr_t)cnt)[k] != 1;
	CHECK_MSG(bad == 0, "%u of %u tallies not exactly once", bad, T);

	/* A chain hopping between queues 2 and 3 through events. */
	uint64_t y = alloc(64 * 4);
	hp_event ev = 0;
	uint32_t want = 0;
	for (unsigned s = 0; s < 40; s++) {
		hp_affine_args aa = {y, 3, s};
		ev = dispatch(2 + (s & 1), "affine", 64, &aa, sizeof(aa), &ev,
			      s ? 1 : 0, false);
		want = want * 3 + s;
	}
	CHECK_MSG(wait_ev(ev) == 0, "chain status");
	bad = 0;
	for (unsigned i = 0; i < 64; i++)
		bad += ((uint32_t *)(uintptr_t)y)[i] != want;
	CHECK_MSG(bad == 0, "chain across queues: %u values wrong", bad);

	/* A cycle between queues 4 and 5: both packets are written before
	 * either index is published. */
	hp_packet p;
	hp_kernarg ka;
	memset(&p, 0, sizeof(p));
	memset(&ka, 0, sizeof(ka));
	p.header = HP_PKT_BARRIER_AND;
	p.barrier.num_deps = 1;
	p.barrier.deps[0] = HP_EVENT(5, next_idx[5]);
	hp_packet p2 = p;
	p2.barrier.deps[0] = HP_EVENT(4, next_idx[4]);
	hp_packet *r4 = (hp_packet *)(uintptr_t)queue(4)->ring;
	hp_packet *r5 = (hp_packet *)(uintptr_t)queue(5)->ring;
	memcpy(&r4[next_idx[4] % HP_MBOX_RING_SIZE], &p, sizeof(p));
	memcpy(&r5[next_idx[5] % HP_MBOX_RING_SIZE], &p2, sizeof(p2));
	hp_event e4 = HP_EVENT(4, next_idx[4]++),
		 e5 = HP_EVENT(5, next_idx[5]++);
	__atomic_store_n(&queue(4)->write_index, next_idx[4], __ATOMIC_RELEASE);
	__atomic_store_n(&queue(5)->write_index, next_idx[5], __ATOMIC_RELEASE);
	int s4 = wait_ev(e4), s5 = wait_ev(e5);
	CHECK_MSG((s4 == HP_INVALID_EVENT_WAIT_LIST && s5 == HP_ABORTED) ||
			  (s5 == HP_INVALID_EVENT_WAIT_LIST &&
			   s4 == HP_ABORTED) ||
			  (s4 == HP_INVALID_EVENT_WAIT_LIST &&
			   s5 == HP_INVALID_EVENT_WAIT_LIST),
		  "cycle: %s / %s", hp_error_name(s4), hp_error_name(s5));

	/* Bad packets between good ones on queue 6. */
	hp_tally_args ta = {cnt, 0};
	memset(&p, 0, sizeof(p));
	p.header = 0x42;
	hp_event b1 = submit(6, &p, NULL, false);
	hp_event g1 = dispatch(6, "tally", 1, &ta, sizeof(ta), NULL, 0, 0);
	hp_tally_args out = {0x1000, 0};
	hp_event b2 = dispatch(6, "tally", 1, &out, sizeof(out), NULL, 0, 0);
	hp_event b3 = dispatch(6, "tally", 1, &ta, 8, NULL, 0, 0);
	CHECK_MSG(wait_ev(b1) == HP_INVALID_VALUE, "bad type");
	CHECK_MSG(wait_ev(g1) == 0, "good between bad");
	CHECK_MSG(wait_ev(b2) == HP_INVALID_KERNEL_ARGS, "buffer outside");
	CHECK_MSG(wait_ev(b3) == HP_INVALID_KERNEL_ARGS, "args size");
	CHECK_MSG(((uint32_t *)(uintptr_t)cnt)[0] == 2, "tally count %u",
		  ((uint32_t *)(uintptr_t)cnt)[0]);

	/* A FREE that fails (a bad wait list, a failed dependency) leaves
	 * its buffer allocated: a later FREE frees it, once. */
	uint64_t f = alloc(128);
	hp_event never = HP_EVENT(6, 1ull << 40);
	CHECK_MSG(wait_ev(free_buf(8, f, &never, 1)) ==
			  HP_INVALID_EVENT_WAIT_LIST,
		  "free with a bad wait list");
	CHECK_MSG(wait_ev(free_buf(8, f, &b1, 1)) == HP_ABORTED,
		  "free after a failed packet");
	CHECK_MSG(wait_ev(free_buf(8, f, NULL, 0)) == 0,
		  "free after failed frees");
	CHECK_MSG(wait_ev(free_buf(8, f, NULL, 0)) == HP_INVALID_VALUE,
		  "double free");

	/* A full ring: a marker waiting on a never-submitted event... is
	 * invalid, so block with a long in-order chain instead and check a
	 * no-wait submit sees the ring full at some point. */
	unsigned full = 0;
	for (unsigned k = 0; k < 2 * HP_MBOX_RING_SIZE; k++) {
		hp_affine_args aa = {y, 1, 1};
		hp_packet dp;
		memset(&dp, 0, sizeof(dp));
		dp.dispatch.header = HP_PKT_KERNEL_DISPATCH | HP_PKT_BARRIER;
		dp.dispatch.setup = 1;
		dp.dispatch.kernel = kernel_row("affine");
		dp.dispatch.global[0] = 64;
		memset(&ka, 0, sizeof(ka));
		ka.args_size = sizeof(aa);
		memcpy(ka.args, &aa, sizeof(aa));
		if (submit(1, &dp, &ka, true) == ~0ull) {
			full++;
			k--;
			sched_yield();
		}
	}
	memset(&p, 0, sizeof(p));
	p.header = HP_PKT_MARKER;
	CHECK_MSG(wait_ev(submit(1, &p, NULL, false)) == 0, "marker");
	bad = 0;
	for (unsigned i = 0; i < 64; i++)
		bad += ((uint32_t *)(uintptr_t)y)[i] !=
		       want + 2 * HP_MBOX_RING_SIZE;
	CHECK_MSG(bad == 0, "in-order chain through a full ring: %u wrong",
		  bad);
	printf("test_dispatch: ring full %u times, nothing lost\n", full);

	sessions_check(cnt);
	session_end(0);
	uint64_t left = __atomic_load_n(&H->heap_used, __ATOMIC_ACQUIRE);
	unsigned nleft = __atomic_load_n(&H->heap_buffers, __ATOMIC_ACQUIRE);
	CHECK_MSG(left == 0 && nleft == 0,
		  "every session ended: %llu bytes in %u buffers left",
		  (unsigned long long)left, nleft);

	__atomic_store_n(&H->stop_request, 1u, __ATOMIC_RELEASE);
	return NULL;
}

/* The serial agent's claim of a free session slot and of a free queue:
 * access_ok allows it (the word is 0), then an shm host claims the word
 * first; the agent's store must not overwrite that claim. Without a host
 * in between, the agent's claim is stored. Before the device serves. */
static void link_claims(void)
{
	H = (hp_mbox_header *)mbox;
	uint64_t *words[2] = {&session(5)->owner, &queue(12)->owner};
	for (unsigned k = 0; k < 2; k++) {
		uint64_t a = (uintptr_t)words[k], mine = 0x5e51a1,
			 theirs = 0x5b3;
		CHECK(dispatch_access_ok(a, 8, true));
		__atomic_store_n(words[k], theirs, __ATOMIC_RELEASE);
		CHECK(dispatch_link_claim(a, &mine, 8));
		CHECK_MSG(
			*words[k] == theirs,
			"%s: the shm host's claim 0x%llx overwritten by 0x%llx",
			k ? "queue" : "session", (unsigned long long)theirs,
			(unsigned long long)*words[k]);
		__atomic_store_n(words[k], 0, __ATOMIC_RELEASE);
		CHECK(dispatch_link_claim(a, &mine, 8));
		CHECK(*words[k] == mine);
		__atomic_store_n(words[k], 0, __ATOMIC_RELEASE);
		/* Not an owner word: the caller stores. */
		CHECK(!dispatch_link_claim(a + 8, &mine, 8));
	}
}

static void body(void *arg)
{
	(void)arg;
	if (hal_hart_idx() != 0) {
		exec_serve();
		return;
	}
	/* One host that uses many queues in one session: no quotas (the
	 * quotas: tests/host/test_quota.c, tests/e2e t_quota). */
	dispatch_config cfg = {
		.unshared = true,
		.mbox_addr = (uintptr_t)mbox,
		.mbox_size = MBOX_SIZE,
		.buf_base = (uintptr_t)bufmem,
		.buf_size = BUF_SIZE,
		.kernels = hp_kernel_registry,
		.board = "host",
		.poll_us = 50,
		.features = HP_DEV_HAS_HOST_BELL,
		.host_bell = count_bell,
	};
	int rc = dispatch_init(&cfg);
	CHECK_MSG(rc == 0, "dispatch_init: %d", rc);
	if (rc) {
		exec_shutdown();
		return;
	}
	link_claims();
	pthread_t host;
	pthread_create(&host, NULL, host_main, NULL);
	dispatch_serve(NULL);
	exec_shutdown();
	dispatch_stopped();
	pthread_join(host, NULL);
	CHECK_MSG(H->state == HP_DEV_STOPPED, "state after stop");
}

/* ---- quotas (a shared device; docs/sessions.md, "Quotas") ---- */

/* An ALLOC on queue q: its status, and its detail in why. */
static int alloc_status(unsigned q, uint64_t size, char *why, size_t n)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_ALLOC;
	p.mem.size = size;
	hp_event ev = submit(q, &p, NULL, false);
	int st = wait_ev(ev);
	snprintf(why, n, "%s", record(q, HP_EVENT_INDEX(ev))->detail);
	return st;
}

/* Holds its hart until the test opens the gate. */
static unsigned qgate_open;
HP_KERNEL(qgate, const hp_item *it, const void *args)
{
	(void)it;
	(void)args;
	while (!__atomic_load_n(&qgate_open, __ATOMIC_ACQUIRE))
		sched_yield();
}
HP_REGISTER(qgate);

/* The device's count of session 0's commands in flight, published now. */
static uint64_t in_flight(void)
{
	static uint32_t req;
	__atomic_store_n(&H->usage_request, ++req, __ATOMIC_RELEASE);
	while (__atomic_load_n(&H->usage_ack, __ATOMIC_ACQUIRE) != req)
		sched_yield();
	return __atomic_load_n(&session(0)->commands, __ATOMIC_ACQUIRE);
}

/* One session, commands quota 4: over the heap quota an ALLOC is refused
 * naming it; 100 tallies behind a kernel held at a gate: the device reads
 * 4 commands and no more (its packets wait: back-pressure) until the gate
 * opens, then every tally runs exactly once (the completing harts wake
 * the dispatcher). */
static void *quota_host(void *arg)
{
	(void)arg;
	H = (hp_mbox_header *)mbox;
	while (__atomic_load_n(&H->magic, __ATOMIC_ACQUIRE) != HP_MBOX_MAGIC)
		sched_yield();
	CHECK(H->shared == 1 && H->quota_max[HP_QUOTA_COMMANDS] == 4);
	CHECK(H->quota_max[HP_QUOTA_HEAP] == BUF_SIZE / 2);
	CHECK(H->info.max_mem_alloc_size == BUF_SIZE / 2);
	session_open(0, 0x3333, 0, 2);
	char why[128];
	CHECK(alloc_status(1, BUF_SIZE / 4, why, sizeof(why)) == 0);
	CHECK(alloc_status(1, BUF_SIZE / 4 + 4096, why, sizeof(why)) ==
	      HP_OUT_OF_RESOURCES);
	CHECK_MSG(strstr(why, "over the session's heap quota"), "%s", why);
	uint64_t cnt = alloc_on(1, 100 * 4);
	memset((void *)(uintptr_t)cnt, 0, 100 * 4);
	/* In order: the last one done, all are. */
	uint64_t none = 0;
	dispatch(0, "qgate", 1, &none, 0, NULL, 0, true);
	hp_event last = 0;
	for (unsigned k = 0; k < 100; k++) {
		hp_tally_args ta = {cnt, k};
		last = dispatch(0, "tally", 1, &ta, sizeof(ta), NULL, 0, true);
	}
	uint64_t most = 0;
	for (unsigned k = 0; k < 200000 && most < 4; k++) {
		uint64_t c = in_flight();
		most = c > most ? c : most;
	}
	/* Read 4; a while later still 4 (nothing more read). */
	for (unsigned k = 0; k < 200; k++) {
		uint64_t c = in_flight();
		most = c > most ? c : most;
	}
	CHECK_MSG(most == 4, "%llu commands in flight, quota 4",
		  (unsigned long long)most);
	__atomic_store_n(&qgate_open, 1u, __ATOMIC_RELEASE);
	CHECK(wait_ev(last) == 0);
	unsigned bad = 0;
	for (unsigned k = 0; k < 100; k++)
		bad += ((uint32_t *)(uintptr_t)cnt)[k] != 1;
	CHECK_MSG(bad == 0, "back-pressure: %u of 100 tallies not once", bad);
	session_end(0);
	__atomic_store_n(&H->stop_request, 1u, __ATOMIC_RELEASE);
	return NULL;
}

static void body_quota(void *arg)
{
	(void)arg;
	if (hal_hart_idx() != 0) {
		exec_serve();
		return;
	}
	uint64_t max[HP_QUOTAS];
	for (unsigned r = 0; r < HP_QUOTAS; r++)
		max[r] = UINT64_MAX;
	max[HP_QUOTA_COMMANDS] = 4;
	/* The built-in kernels and qgate. */
	static const hp_kernel *kernels[HP_MBOX_KERNELS_MAX];
	unsigned n = 0;
	while (hp_kernel_registry[n] && n + 2 < HP_MBOX_KERNELS_MAX) {
		kernels[n] = hp_kernel_registry[n];
		n++;
	}
	kernels[n] = &hp_kernel_qgate;
	dispatch_config cfg = {
		.quota_max = max,
		.mbox_addr = (uintptr_t)mbox,
		.mbox_size = MBOX_SIZE,
		.buf_base = (uintptr_t)bufmem,
		.buf_size = BUF_SIZE,
		.kernels = kernels,
		.board = "host",
		.poll_us = 50,
	};
	int rc = dispatch_init(&cfg);
	CHECK_MSG(rc == 0, "dispatch_init: %d", rc);
	if (rc) {
		exec_shutdown();
		return;
	}
	pthread_t host;
	pthread_create(&host, NULL, quota_host, NULL);
	dispatch_serve(NULL);
	exec_shutdown();
	pthread_join(host, NULL);
}

int main(void)
{
	mbox = aligned_alloc(4096, MBOX_SIZE);
	bufmem = aligned_alloc(4096, BUF_SIZE);
	unsigned counts[] = {1, 2, 8};
	for (unsigned i = 0; i < 3; i++) {
		memset(mbox, 0, MBOX_SIZE);
		memset(next_idx, 0, sizeof(next_idx));
		printf("test_dispatch: %u harts\n", counts[i]);
		exec_init(counts[i]);
		exec_dev.first_worker = counts[i] > 1;
		hal_host_run(counts[i], body, NULL);
	}
	memset(mbox, 0, MBOX_SIZE);
	memset(next_idx, 0, sizeof(next_idx));
	printf("test_dispatch: quotas, 4 harts\n");
	exec_init(4);
	exec_dev.first_worker = true;
	hal_host_run(4, body_quota, NULL);
	free(mbox);
	free(bufmem);
	return check_report("test_dispatch");
}
