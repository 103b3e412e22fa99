// SPDX-License-Identifier: MIT
/*
 * End-to-end tests of device memory at its edges: the buffer
 * heap spans DRAM from BOARD_BUF_BASE to its end as booted (--mem), below
 * the last page of the address space on rv32; the largest buffer the
 * device reports can be allocated and used as a kernel argument up to its
 * last byte; one byte more fails at allocation with HP_OUT_OF_RESOURCES
 * and the numbers; an argument 4 bytes past a buffer's end (a fill's
 * smallest step) fails naming its size.
 *
 *   test_edges [--board B] [--harts N] [--mem BYTES]
 *
 * Ends with "e2e: N checks, M failed".
 */
#define _GNU_SOURCE
#include "e2e_check.h"
#include <hartpool.h>
#include <hartpool/mbox.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hp_device *D;
static hp_queue *Q;

/* The heap's size follows the board's layout (e2e_check.h; the contract:
 * docs/mailbox.md). */
#define BUF_ALIGN HP_MBOX_BUFFER_ALIGN

static int contains(const char *text, uint64_t n)
{
	char num[32];
	snprintf(num, sizeof(num), "%" PRIu64, n);
	return strstr(text, num) != NULL;
}

/* A fill of `size` bytes at `at`: its status and detail. */
static int fill(uint64_t at, uint64_t size, uint32_t pattern,
		hp_event_info *info)
{
	hp_event ev;
	int rc = hp_enqueue_fill(Q, at, size, pattern, 4, NULL, 0, &ev);
	if (rc)
		return rc;
	MUST(hp_event_wait(D, ev, info));
	return info->status;
}

static void check_words(uint64_t at, uint64_t size, uint32_t want)
{
	uint32_t *h = malloc(size);
	MUST(hp_buffer_read(D, at, 0, h, size));
	uint64_t bad = 0;
	for (uint64_t i = 0; i < size / 4; i++)
		bad += h[i] != want;
	CHECK(bad == 0,
	      "%" PRIu64 " of %" PRIu64 " words at 0x%" PRIx64 " are not 0x%x",
	      bad, size / 4, at, want);
	free(h);
}

int main(int argc, char **argv)
{
	hp_open_options o = {.harts = 4};
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--board"))
			o.board = argv[i + 1];
		else if (!strcmp(argv[i], "--harts"))
			o.harts = (unsigned)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--mem"))
			o.mem_size = strtoull(argv[i + 1], NULL, 0);
		else {
			fprintf(stderr, "usage: test_edges [--board B] "
					"[--harts N] [--mem BYTES]\n");
			return 2;
		}
	}
	MUST(hp_open(&o, &D));
	MUST(hp_queue_create(D, HP_QUEUE_IN_ORDER, &Q));
	const hp_device_info *inf = hp_info(D);

	/* The heap: from E2E_HEAP_BASE to the end of DRAM, below the last page
	 * of a 32-bit address space, whole aligned blocks. */
	uint64_t dram = inf->dram_size;
	CHECK(!o.mem_size || dram == o.mem_size,
	      "dram_size %" PRIu64 ", booted with %" PRIu64, dram, o.mem_size);
	uint64_t end = E2E_DRAM_BASE + dram;
	if (inf->address_bits == 32 && end > UINT64_C(0x100000000) - 4096)
		end = UINT64_C(0x100000000) - 4096;
	uint64_t heap = (end - E2E_HEAP_BASE) & ~(uint64_t)(BUF_ALIGN - 1);
	uint64_t max = inf->max_mem_alloc_size;
	CHECK(inf->global_mem_size == heap,
	      "global_mem_size %" PRIu64 ", expected %" PRIu64,
	      inf->global_mem_size, heap);
	CHECK(max == heap, "max_mem_alloc_size %" PRIu64 ", heap %" PRIu64, max,
	      heap);
	printf("e2e: %s, DRAM %" PRIu64 " MiB, buffer heap %" PRIu64
	       " bytes ending at 0x%" PRIx64 "\n",
	       inf->board, dram >> 20, heap, E2E_HEAP_BASE + heap);

	/* One byte more than the largest: refused at allocation, with the
	 * size asked and the largest block. */
	hp_buffer b = 0;
	int rc = hp_buffer_alloc(D, max + 1, &b);
	CHECK(rc == HP_OUT_OF_RESOURCES, "alloc of max + 1: %s",
	      hp_error_name(rc));
	CHECK(contains(hp_last_error(), max + 1) &&
		      contains(hp_last_error(), max),
	      "alloc of max + 1: '%s' lacks the numbers", hp_last_error());
	printf("e2e: alloc of %" PRIu64 " bytes: %s\n", max + 1,
	       hp_last_error());

	/* The largest: allocated, and usable by a kernel to its last byte. */
	MUST(hp_buffer_alloc(D, max, &b));
	CHECK(b == E2E_HEAP_BASE, "the largest buffer at 0x%" PRIx64, b);
	hp_buffer more;
	rc = hp_buffer_alloc(D, 64, &more);
	CHECK(rc == HP_OUT_OF_RESOURCES && contains(hp_last_error(), max),
	      "a second buffer with the heap full: %s: %s", hp_error_name(rc),
	      hp_last_error());

	hp_event_info info;
	uint64_t last = b + max - 4096;
	rc = fill(last, 4096, 0xc0ffee11u, &info);
	CHECK(rc == 0, "fill of the last 4096 bytes: %s %s", hp_error_name(rc),
	      info.detail);
	check_words(last, 4096, 0xc0ffee11u);
	rc = fill(b, 4096, 0x5eed0001u, &info);
	CHECK(rc == 0, "fill of the first 4096 bytes: %s", hp_error_name(rc));
	check_words(b, 4096, 0x5eed0001u);
	/* A kernel whose buffer argument ends 4 bytes past the buffer. */
	rc = fill(last, 4100, 0, &info);
	CHECK(rc == HP_INVALID_KERNEL_ARGS && contains(info.detail, 4100),
	      "fill past the end: %s '%s'", hp_error_name(rc), info.detail);
	printf("e2e: fill 4 bytes past the end: %s: %s\n", hp_error_name(rc),
	       info.detail);
	check_words(last, 4096, 0xc0ffee11u);
	/* A copy from the start to the very end (the copy kernel). */
	hp_event ev;
	MUST(hp_enqueue_copy(Q, last, b, 4096, NULL, 0, &ev));
	MUST(hp_event_wait(D, ev, &info));
	CHECK(info.status == 0, "copy to the end: %s", info.detail);
	check_words(last, 4096, 0x5eed0001u);
	/* The whole buffer, where that takes a moment (small heaps). */
	if (max <= (512ull << 20)) {
		rc = fill(b, max, 0xabad1deau, &info);
		CHECK(rc == 0, "fill of all %" PRIu64 " bytes: %s", max,
		      hp_error_name(rc));
		check_words(b, max, 0xabad1deau);
		printf("e2e: filled all %" PRIu64 " bytes of the largest "
		       "buffer\n",
		       max);
	}
	MUST(hp_buffer_free(D, b));

	/* Two halves: the failure names the largest free block left. */
	hp_buffer h1, h2;
	uint64_t half = max / 2;
	MUST(hp_buffer_alloc(D, half, &h1));
	uint64_t left =
		max - ((half + BUF_ALIGN - 1) & ~(uint64_t)(BUF_ALIGN - 1));
	rc = hp_buffer_alloc(D, left + 1, &h2);
	CHECK(rc == HP_OUT_OF_RESOURCES && contains(hp_last_error(), left),
	      "alloc of %" PRIu64 " with %" PRIu64 " left: %s: %s", left + 1,
	      left, hp_error_name(rc), hp_last_error());
	MUST(hp_buffer_alloc(D, left, &h2));
	MUST(hp_buffer_free(D, h2));
	MUST(hp_buffer_free(D, h1));
	/* A zero-sized buffer is no resource running out. */
	rc = hp_buffer_alloc(D, 0, &b);
	CHECK(rc == HP_INVALID_VALUE, "zero-sized alloc: %s",
	      hp_error_name(rc));

	MUST(hp_queue_release(Q));
	MUST(hp_close(D));
	return e2e_report();
}
