// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the mailbox dispatcher (mailbox/dispatch.c): the
 * input is a sequence of records {u8 queue, 64-byte packet, 192 bytes of
 * kernarg block}, written into the rings of a mailbox in host memory the
 * way a (hostile) host would, then the dispatcher reads them and the one
 * hart runs everything it accepted. Queues 0-7 are session 0's, 8-15
 * session 1's; a record whose queue byte is 0xff ends session 1 there
 * (its commands cancelled, what it held reclaimed). Sizes are clamped so every
 * input finishes quickly (grids of at most 96x8x4 items, copies and allocations
 * of a few KiB), and addresses below 1 MiB are offsets into the buffer
 * heap; every other field is the fuzzer's. Invariants checked (an
 * abort is a finding):
 *   - a packet the dispatcher read gets its completion record, once all
 *     work has run (nothing accepted is lost), and an ended session's
 *     queues are given back with every slot complete;
 *   - the record's status is 0 or an HP_ error with a name;
 *   - kernels write only inside the buffer heap (ASan: the heap is its own
 *     allocation) and nothing else trips ASan or UBSan.
 */
#include <executor/exec.h>
#include <hal_host.h>
#include <hartpool/kernels/diag.h>
#include <hartpool/mbox.h>
#include <kernels/registry.h>
#include <mailbox/dispatch.h>
#include <stdlib.h>
#include <string.h>

#define MBOX_SIZE (8u << 20) /* the boards' BOARD_MBOX_SIZE */
#define BUF_SIZE (1u << 20)
#define REC (1 + 64 + 192)

static uint8_t *mbox, *bufmem;
/* Kernels whose run time the clamped sizes bound. */
static const hp_kernel *const kernels[] = {
	&hp_kernel_empty,
	&hp_kernel_tally,
	&hp_kernel_affine,
	&hp_kernel_add,
	&hp_kernel_copy,
	&hp_kernel_fill,
	&hp_kernel_ids,
	&hp_kernel_wg_count,
	&hp_kernel_barrier_rotate,
	&hp_kernel_sg_ops,
	&hp_kernel_vadd,
	&hp_kernel_saxpy,
	&hp_kernel_reduce_wg,
	&hp_kernel_reduce_sg,
	&hp_kernel_scan,
	&hp_kernel_scan_add,
	&hp_kernel_histogram,
	&hp_kernel_transpose,
	&hp_kernel_bitonic,
	NULL,
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	mbox = aligned_alloc(4096, MBOX_SIZE);
	bufmem = aligned_alloc(4096, BUF_SIZE);
	hal_host_single();
	exec_init(1);
	return 0;
}

/* Small addresses are offsets into the buffer heap (whose host address
 * differs between runs), so inputs can name real buffers. */
static uint64_t addr(uint64_t v)
{
	return v < BUF_SIZE ? (uintptr_t)bufmem + v : v;
}

static void clamp(hp_packet *p, hp_kernarg *ka)
{
	switch (HP_PKT_TYPE(p->header)) {
	case HP_PKT_KERNEL_DISPATCH:
		for (unsigned w = 0; w < 8; w++) {
			uint64_t v;
			memcpy(&v, ka->args + 8 * w, 8);
			v = addr(v);
			memcpy(ka->args + 8 * w, &v, 8);
		}
		p->dispatch.global[0] %= 97;
		p->dispatch.global[1] %= 9;
		p->dispatch.global[2] %= 5;
		break;
	case HP_PKT_COPY:
	case HP_PKT_FILL:
		p->mem.size %= 8193;
		p->mem.dst = addr(p->mem.dst);
		p->mem.src = addr(p->mem.src);
		break;
	case HP_PKT_FREE:
	case HP_PKT_INFO:
		p->mem.dst = addr(p->mem.dst);
		break;
	case HP_PKT_ALLOC:
		p->mem.size %= 65537;
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	dispatch_config cfg = {
		.mbox_addr = (uintptr_t)mbox,
		.mbox_size = MBOX_SIZE,
		.buf_base = (uintptr_t)bufmem,
		.buf_size = BUF_SIZE,
		.kernels = kernels,
		.board = "fuzz",
		.poll_us = 10,
	};
	if (dispatch_init(&cfg))
		abort();
	hp_mbox_header *h = (hp_mbox_header *)mbox;
	hp_mbox_queue *qs = (hp_mbox_queue *)(uintptr_t)h->queues;
	hp_mbox_session *ss = (hp_mbox_session *)(uintptr_t)h->sessions;
	/* Two sessions, eight queues each. */
	ss[0].owner = 0xa;
	ss[1].owner = 0xb;
	dispatch_poll();
	if (ss[0].state != HP_SESSION_OPEN || ss[1].state != HP_SESSION_OPEN)
		abort();
	for (unsigned q = 0; q < HP_MBOX_QUEUES; q++)
		qs[q].owner = q < 8 ? 0xa : 0xb;
	uint64_t next[HP_MBOX_QUEUES] = {0};
	bool ended = false;
	for (size_t at = 0; at + REC <= size; at += REC) {
		if (data[at] == 0xff && !ended) {
			/* Session 1 ends with whatever it has in flight. */
			ended = true;
			ss[1].end_request = 1;
			dispatch_poll();
			continue;
		}
		unsigned q = data[at] % HP_MBOX_QUEUES;
		if (ended && q >= 8)
			continue;
		if (next[q] >= HP_MBOX_RING_SIZE)
			continue; /* one ring's worth per queue */
		unsigned s = (unsigned)next[q];
		hp_packet p;
		memcpy(&p, data + at + 1, sizeof(p));
		hp_kernarg *ka = (hp_kernarg *)(uintptr_t)qs[q].kernarg + s;
		memset(ka, 0, sizeof(*ka));
		memcpy(ka, data + at + 1 + 64, 192);
		clamp(&p, ka);
		hp_packet *ring = (hp_packet *)(uintptr_t)qs[q].ring;
		memcpy(&ring[s], &p, sizeof(p));
		qs[q].write_index = ++next[q];
	}
	/* Read and run until nothing moves. */
	for (unsigned idle = 0; idle < 3;) {
		bool did = dispatch_poll();
		while (exec_pool_work())
			did = true;
		idle = did ? 0 : idle + 1;
	}
	if (ended && (ss[1].state != HP_SESSION_FREE || ss[1].owner ||
		      ss[1].buffers || ss[1].objects))
		abort(); /* an ended session not reclaimed */
	for (unsigned q = 0; q < HP_MBOX_QUEUES; q++) {
		const hp_completion *rec =
			(const hp_completion *)(uintptr_t)qs[q].completion;
		if (ended && q >= 8 &&
		    (qs[q].owner || qs[q].read_index != qs[q].write_index))
			abort(); /* its queue not given back */
		for (uint64_t i = 0; i < qs[q].read_index; i++) {
			if (rec[i].done != i + 1)
				abort(); /* accepted and never completed */
			if (rec[i].status > 0 ||
			    (rec[i].status < 0 &&
			     !strncmp(hp_error_name(rec[i].status),
				      "HP_UNKNOWN", 10)))
				abort();
		}
	}
	return 0;
}
