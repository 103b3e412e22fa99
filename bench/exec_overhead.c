// SPDX-License-Identifier: MIT
/*
 * Executor overheads in retired instructions (run on 1 hart under
 * qemu -icount, where minstret is exactly that hart's count). EPCC style:
 * the same launch with and without the construct, repeated, median of the
 * differences; the kernel bodies are empty so only the executor counts.
 *
 *   dispatch   enqueue + wait of a 1-item launch (descriptor to completion)
 *   per_group  extra cost of a work-group (1024 groups of 1 item vs 1)
 *   per_item   extra cost of a work-item, barrier-free: a kernel whose body
 *              stores its global id to a volatile word, 64 vs 1 item per
 *              group, minus the same store in a plain C loop (the EPCC
 *              reference: the body without the construct)
 *   fiber_item extra cost of a work-item when the kernel runs as fibers
 *   barrier    one hp_barrier per work-item (16 barriers vs none, fibers)
 *   sg_reduce  one sub-group reduce_add per work-item (16 vs none)
 *   team_barrier (run on 2 harts) one hp_barrier per work-item when each
 *              group is spread over a team of 2 harts, both harts' work
 *   preempt    a time slice's preemption (docs/sessions.md): two long
 *              kernels of two domains at once with a short slice, minus
 *              each alone, per chunk parked and continued (after a
 *              first round that makes the spare contexts)
 */
#include "counters.h"
#include <boot/app.h>
#include <executor/exec.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hartpool/marker.h>

#define REPS 7
/* Marker region around the last measured dispatch (outside the instret
 * reads): qemu/plugin/hpprof.c region=901 shows where its instructions
 * go. */
#define REGION_DISPATCH 901
static bool mark_dispatch;

HP_KERNEL(b_empty, const hp_item *it, const void *args)
{
	(void)it;
	(void)args;
}
HP_REGISTER(b_empty);

static HP_KERNEL_DATA volatile size_t sink;

HP_KERNEL(b_touch, const hp_item *it, const void *args)
{
	(void)args;
	sink = hp_global_id(it, 0);
}
HP_REGISTER(b_touch);

/* The reference: the same body, n times, without the executor. */
static __attribute__((noinline)) uint64_t reference(size_t n)
{
	uint64_t i0 = bench_instret();
	for (size_t i = 0; i < n; i++)
		sink = i;
	return bench_instret() - i0;
}

HP_KERNEL(b_fiber, const hp_item *it, const void *args)
{
	(void)it;
	(void)args;
}
HP_REGISTER(b_fiber, .uses_barriers = true);

HP_KERNEL(b_barrier16, const hp_item *it, const void *args)
{
	(void)args;
	for (unsigned i = 0; i < 16; i++)
		hp_barrier(it);
}
HP_REGISTER(b_barrier16, .uses_barriers = true);

HP_KERNEL(b_reduce16, const hp_item *it, const void *args)
{
	(void)args;
	int acc = 0;
	for (unsigned i = 0; i < 16; i++)
		acc += hp_sub_group_reduce_add_int(it, (int)i);
	if (acc == -1)
		hp_barrier(it); /* never: keeps acc alive */
}
HP_REGISTER(b_reduce16, .uses_barriers = true);

/* One work-item iterating an LCG *args times (a long kernel). */
HP_KERNEL(b_long, const hp_item *it, const void *args)
{
	(void)it;
	uint64_t n = *(const uint64_t *)args;
	uint32_t x = 1;
	for (uint64_t i = 0; i < n; i++)
		x = x * 1664525u + 1013904223u;
	sink = x;
}
HP_REGISTER(b_long, .args_size = sizeof(uint64_t));

/* Instructions of b_long in each of the `n` domains from 1 on, enqueued
 * together and waited for. */
static uint64_t long_cost(unsigned n, const uint64_t *iters)
{
	extern const hp_kernel hp_kernel_b_long;
	static exec_cmd c[2];
	uint64_t i0 = bench_instret();
	for (unsigned i = 0; i < n; i++) {
		c[i] = (exec_cmd){.kernel = &hp_kernel_b_long,
				  .range = {.work_dim = 1, .global = {1}},
				  .args = iters,
				  .args_size = sizeof(*iters),
				  .domain = 1 + i};
		exec_enqueue(NULL, &c[i]);
	}
	for (unsigned i = 0; i < n; i++)
		exec_wait(&c[i]);
	return bench_instret() - i0;
}

/* Instructions of one enqueue + wait, median of REPS (groups of `team`
 * harts when team > 1). */
static uint64_t cost_team(const hp_kernel *k, uint64_t groups, uint64_t local,
			  unsigned team)
{
	uint64_t v[REPS];
	for (unsigned r = 0; r < REPS; r++) {
		static exec_cmd c;
		c = (exec_cmd){.kernel = k,
			       .range = {.work_dim = 1,
					 .global = {groups * local},
					 .local = {local},
					 .local_given = true,
					 .team_size = team}};
		if (mark_dispatch && r == REPS - 1)
			HP_MARK_BEGIN(REGION_DISPATCH);
		uint64_t i0 = bench_instret();
		exec_enqueue(NULL, &c);
		exec_wait(&c);
		v[r] = bench_instret() - i0;
		if (mark_dispatch && r == REPS - 1)
			HP_MARK_END(REGION_DISPATCH);
		if (c.status) {
			hal_printf("bench exec: %s failed: %s\n", k->name,
				   hp_error_name(c.status));
			return 0;
		}
	}
	for (unsigned i = 1; i < REPS; i++) /* insertion sort, tiny */
		for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[REPS / 2];
}

static uint64_t cost(const hp_kernel *k, uint64_t groups, uint64_t local)
{
	return cost_team(k, groups, local, 1);
}

static void report(const char *name, int64_t num, int64_t den)
{
	/* Two decimals, integer arithmetic; a difference below the
	 * reference's own cost rounds to 0 (the construct costs nothing
	 * measurable beyond the body). */
	int64_t x100 = den ? num * 100 / den : 0;
	if (x100 < 0)
		x100 = 0;
	hal_printf("bench exec: %-10s %6lld.%02lld instructions\n", name,
		   (long long)(x100 / 100), (long long)(x100 % 100));
}

/* Two sessions' long kernels on one hart with a slice of 1,000 ticks
 * (100,000 instructions under -icount shift=0): the instructions beyond
 * both alone, per preemption. */
static void preempt_cost(void)
{
	uint64_t iters = 500000;
	exec_dev.slice_ticks = 1000;
	exec_tenants_set(2);
	uint64_t a = long_cost(1, &iters), a2 = long_cost(1, &iters);
	/* Once before: the spare contexts a hart parks with are made the
	 * first time (a block of the heap each, zeroed), not per preemption. */
	(void)long_cost(2, &iters);
	unsigned long p0 = exec_stats(0)->preempted;
	uint64_t both = long_cost(2, &iters);
	unsigned long p = exec_stats(0)->preempted - p0;
	hal_printf("bench exec: preemptions %lu\n", p);
	report("preempt", (int64_t)(both - a - a2), (int64_t)p);
	exec_tenants_set(1);
	exec_dev.slice_ticks = 0;
}

int app_main(void)
{
	if (!exec_start(boot_barrier_all, false))
		return 0;
	/* -append hartpool.isolation=0: kernels without PMP checks (the
	 * cost of isolation is the difference). */
	unsigned long iso = boot_bootarg("hartpool.isolation", 1);
	exec_dev.isolation = iso != 0;
	hal_printf("bench exec: isolation %s\n", iso ? "on" : "off");
	extern const hp_kernel hp_kernel_b_fiber, hp_kernel_b_barrier16;
	if (hal_hart_num() == 2) {
		/* Run on 2 harts (minstret then sums both): a work-group spread
		 * over a team of 2, whose barrier is fibers plus the harts'
		 * team barrier. */
		uint64_t tf = cost_team(&hp_kernel_b_fiber, 64, 64, 2);
		uint64_t tb = cost_team(&hp_kernel_b_barrier16, 64, 64, 2);
		report("team_barrier", (int64_t)(tb - tf), 16 * 64 * 64);
		exec_shutdown();
		return 0;
	}
	extern const hp_kernel hp_kernel_b_empty, hp_kernel_b_fiber,
		hp_kernel_b_barrier16, hp_kernel_b_reduce16, hp_kernel_b_touch;
	mark_dispatch = true;
	uint64_t d = cost(&hp_kernel_b_empty, 1, 1);
	mark_dispatch = false;
	uint64_t g1 = cost(&hp_kernel_b_empty, 1024, 1);
	uint64_t t1 = cost(&hp_kernel_b_touch, 1024, 1);
	uint64_t t64 = cost(&hp_kernel_b_touch, 1024, 64);
	uint64_t ref = reference(1024 * 63);
	uint64_t f64 = cost(&hp_kernel_b_fiber, 64, 64);
	uint64_t e64 = cost(&hp_kernel_b_empty, 64, 64);
	uint64_t b16 = cost(&hp_kernel_b_barrier16, 64, 64);
	uint64_t r16 = cost(&hp_kernel_b_reduce16, 64, 64);
	hal_printf("bench exec: harts=%u (counts are exact only with 1 hart "
		   "under -icount)\n",
		   hal_hart_num());
	report("dispatch", (int64_t)d, 1);
	report("per_group", (int64_t)(g1 - d), 1023);
	report("per_item", (int64_t)(t64 - t1) - (int64_t)ref, 1024 * 63);
	report("fiber_item", (int64_t)(f64 - e64), 64 * 64);
	report("barrier", (int64_t)(b16 - f64), 16 * 64 * 64);
	report("sg_reduce", (int64_t)(r16 - f64), 16 * 64 * 64);
	if (exec_dev.isolation)
		preempt_cost();
	exec_shutdown();
	return 0;
}
