// SPDX-License-Identifier: MIT
/*
 * What "nothing left over" (mailbox/heap.h, docs/sessions.md) costs, in
 * retired instructions (1 hart under qemu -icount: minstret is exact):
 *
 *   idle_step     an idle hart's background step when nothing is dirty
 *                 (what every sleep of a worker now costs besides)
 *   alloc_clean   a 16 MiB allocation on clean memory
 *   alloc_dirty   the same on dirty memory (it clears the 16 MiB), per MiB
 *                 above alloc_clean
 *   idle_per_mib  idle harts' background steps that clear 16 MiB, per MiB
 *   step_64k      one background step (one 64 KiB chunk)
 *
 * The heap is the board's buffer heap address range, 64 MiB of it.
 */
#include "counters.h"
#include <board.h>
#include <boot/app.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <mailbox/heap.h>

#define MIB (1u << 20)
#define HEAP (64u * MIB)
#define SIZE (16u * MIB)

static void report(const char *what, uint64_t v)
{
	hal_printf("bench zero: %-12s %10llu instructions\n", what,
		   (unsigned long long)v);
}

static uint64_t alloc(uint64_t size, uint64_t *at)
{
	bool changed;
	char why[128];
	uint64_t t0 = bench_instret();
	*at = mbox_heap_alloc(0, size, &changed, why, sizeof(why));
	uint64_t t = bench_instret() - t0;
	if (!*at)
		hal_printf("bench zero: alloc failed: %s\n", why);
	return t;
}

int app_main(void)
{
	if (hal_hart_idx() != 0)
		return 0;
	if (mbox_heap_init(BOARD_BUF_BASE, HEAP, 4096, 4)) {
		hal_printf("bench zero: no memory for the heap's tables\n");
		return 1;
	}
	/* Nothing dirty: the step an idle hart takes before it sleeps. */
	uint64_t t0 = bench_instret();
	for (unsigned i = 0; i < 1000; i++)
		(void)mbox_heap_clear_step();
	report("idle_step", (bench_instret() - t0) / 1000);

	uint64_t a, b;
	uint64_t clean = alloc(SIZE, &a);
	report("alloc_clean", clean);
	mbox_heap_free(a);
	/* Dirty: the freed 16 MiB, cleared by the next allocation. */
	uint64_t dirty = alloc(SIZE, &b);
	report("alloc_dirty", (dirty - clean) / (SIZE / MIB));
	mbox_heap_free(b);
	/* Dirty again: the idle harts' steps clear it. */
	unsigned steps = 0;
	t0 = bench_instret();
	while (mbox_heap_clear_step())
		steps++;
	uint64_t idle = bench_instret() - t0;
	report("idle_per_mib", idle / (SIZE / MIB));
	report("step_64k", steps ? idle / steps : 0);
	hal_printf("bench zero: %u steps cleared %u MiB\n", steps,
		   (unsigned)(SIZE / MIB));
	return 0;
}
