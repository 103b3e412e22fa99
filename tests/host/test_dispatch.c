// SPDX-License-Identifier: MIT
/*
 * The mailbox dispatcher on the host: threads as harts (hart 0 the
 * dedicated dispatcher), a producer thread playing the host with the
 * protocol's atomics, over a plain memory block. Under TSan this checks
 * the ownership rules of include/hartpool/mbox.h; the values check
 * exactly-once, order through events across queues, a dependency cycle
 * between queues, bad packets, a full ring, and stopping.
 */
#include "check.h"
#include <executor/exec.h>
#include <hal/hart.h>
#include <hal_host.h>
#include <hartpool/kernels/diag.h>
#include <hartpool/mbox.h>
#include <kernels/registry.h>
#include <mailbox/dispatch.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MBOX_SIZE (4u << 20)
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

static void *host_main(void *arg)
{
	(void)arg;
	H = (hp_mbox_header *)mbox;
	while (__atomic_load_n(&H->magic, __ATOMIC_ACQUIRE) != HP_MBOX_MAGIC)
		sched_yield();

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

	__atomic_store_n(&H->stop_request, 1u, __ATOMIC_RELEASE);
	return NULL;
}

static void body(void *arg)
{
	(void)arg;
	if (hal_hart_idx() != 0) {
		exec_serve();
		return;
	}
	dispatch_config cfg = {
		.mbox_addr = (uintptr_t)mbox,
		.mbox_size = MBOX_SIZE,
		.buf_base = (uintptr_t)bufmem,
		.buf_size = BUF_SIZE,
		.kernels = hp_kernel_registry,
		.board = "host",
		.poll_us = 50,
	};
	CHECK_MSG(dispatch_init(&cfg) == 0, "dispatch_init");
	pthread_t host;
	pthread_create(&host, NULL, host_main, NULL);
	dispatch_serve(NULL);
	exec_shutdown();
	dispatch_stopped();
	pthread_join(host, NULL);
	CHECK_MSG(H->state == HP_DEV_STOPPED, "state after stop");
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
	free(mbox);
	free(bufmem);
	return check_report("test_dispatch");
}
