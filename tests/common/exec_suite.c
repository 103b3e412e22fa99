// SPDX-License-Identifier: MIT
/*
 * Executor tests, checked against the independent NDRange reference
 * (ndref.c) and references computed here from the reference's records:
 * ids over many launches, barrier_rotate, wg_count and sg_ops in partial
 * groups and teams, every enqueue error, several instances at once,
 * queues and dependencies, faults, and a many-instance stress.
 */
#include "exec_suite.h"
#include <executor/exec.h>
#include <hal/hart.h>
#include <hal/heap.h>
#include <hartpool/kernels/diag.h>
#include <kernels/registry.h>
#include <ref/ndref.h>
#include <ref/sgref.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_ITEMS 4096u
#define MAX_CONC 8u

static suite_ctx *S;
static uint64_t *records[MAX_CONC], *expect;
static uint32_t *counts[MAX_CONC], *u32out;
static int32_t *sg_in;
static uint64_t *sg_out;
static uint32_t *group_size; /* by group linear id, from the reference */

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		S->checks++;                                                   \
		if (!(cond)) {                                                 \
			S->failures++;                                         \
			S->printf("FAIL %s:%d: ", __FILE__, __LINE__);         \
			S->printf(__VA_ARGS__);                                \
			S->printf("\n");                                       \
		}                                                              \
	} while (0)

/* ---- test-only kernels ---- */

HP_KERNEL(bad_barrier, const hp_item *it, const void *args)
{
	(void)args;
	hp_barrier(it); /* not declared: a runtime fault */
}
HP_REGISTER(bad_barrier, .uses_barriers = false);

HP_KERNEL(divergent, const hp_item *it, const void *args)
{
	(void)args;
	if (hp_local_linear_id(it) != 0)
		hp_barrier(it); /* item 0 returns: the others wait forever */
}
HP_REGISTER(divergent, .uses_barriers = true);

static unsigned deep(unsigned n)
{
	volatile char pad[64];
	for (unsigned i = 0; i < sizeof(pad); i++)
		pad[i] = (char)n;
	return n ? deep(n - 1) + pad[63] : 0;
}

HP_KERNEL(overflow, const hp_item *it, const void *args)
{
	(void)args;
	/* ~24 KiB of frames on a 512-byte stack: far past it, yet (from the
	 * top item of 64) still inside the hart's fiber arena. */
	if (hp_local_linear_id(it) == 63)
		deep(256);
	hp_barrier(it);
}
HP_REGISTER(overflow, .uses_barriers = true, .stack_bytes = 512);

/* Logs, per work-group, a global sequence number and the hart, then
 * burns a little time so that other harts can join in. */
typedef struct {
	uint64_t seq; /* uint32_t counter shared by all instances */
	uint64_t log; /* uint32_t[groups][2]: sequence, hart */
} wg_log_args;

HP_KERNEL(wg_log, const hp_item *it, const void *args)
{
	const wg_log_args *a = args;
	if (hp_local_linear_id(it) != 0)
		return;
	uint32_t *log = (uint32_t *)(uintptr_t)a->log + 2 * hp_group_id(it, 0);
	log[0] = hp_atomic_add_uint((uint32_t *)(uintptr_t)a->seq, 1);
	log[1] = hp_hart();
	volatile unsigned spin = 0;
	for (unsigned i = 0; i < 2000; i++)
		spin += i;
}
HP_REGISTER(wg_log, .args_size = sizeof(wg_log_args));

/* ---- helpers ---- */

static ndref_launch ref_of(const exec_cmd *c)
{
	const exec_range *r = &c->range;
	ndref_launch l = {
		.work_dim = r->work_dim,
		.local_given = r->local_given,
		.uniform = r->uniform,
		.sub_group_size = c->launch.sub_group_size,
		.harts = exec_dev.harts,
		.dev_max_wg = exec_dev.max_work_group_size,
		.kernel_max_wg = c->kernel->max_work_group_size,
	};
	for (unsigned d = 0; d < 3; d++) {
		l.global[d] = r->global[d];
		l.offset[d] = r->offset[d];
		l.local[d] = r->local[d];
		l.reqd[d] = r->reqd[0] ? r->reqd[d]
				       : c->kernel->reqd_work_group_size[d];
		l.dev_max_item[d] = exec_dev.max_work_item_sizes[d];
	}
	return l;
}

/* Group linear id and actual group size of a reference record. */
static uint64_t group_of(const hp_launch *l, const uint64_t *e)
{
	return e[HP_IDS_WID0] +
	       l->num_groups[0] *
		       (e[HP_IDS_WID1] + l->num_groups[1] * e[HP_IDS_WID2]);
}

static uint64_t size_of(const uint64_t *e)
{
	return e[HP_IDS_LSZ0] * e[HP_IDS_LSZ1] * e[HP_IDS_LSZ2];
}

/* Records a correct run writes, with the local size the executor chose. */
static uint64_t expected_records(const exec_cmd *c, uint64_t *out)
{
	ndref_launch l = ref_of(c);
	uint64_t e[3] = {c->launch.local_size[0], c->launch.local_size[1],
			 c->launch.local_size[2]};
	uint64_t n = ndref_items(&l);
	ndref_expected(&l, e, out, u32out);
	return n;
}

static void cmd_init(exec_cmd *c, const hp_kernel *k, const void *args,
		     uint32_t args_size, exec_range r)
{
	memset(c, 0, sizeof(*c));
	c->kernel = k;
	c->args = args;
	c->args_size = args_size;
	c->range = r;
}

static int run(exec_cmd *c)
{
	int rc = exec_enqueue(NULL, c);
	return rc ? rc : exec_wait(c);
}

static const char *range_str(const exec_range *r)
{
	static char buf[160];
	char *p = buf;
	const char *end = buf + sizeof(buf);
	p += snprintf(p, (size_t)(end - p), "dim %u global", r->work_dim);
	for (unsigned d = 0; d < r->work_dim; d++)
		p += snprintf(p, (size_t)(end - p), " %llu",
			      (unsigned long long)r->global[d]);
	if (r->local_given)
		p += snprintf(p, (size_t)(end - p), " local %llu,%llu,%llu",
			      (unsigned long long)r->local[0],
			      (unsigned long long)r->local[1],
			      (unsigned long long)r->local[2]);
	if (r->offset[0] || r->offset[1] || r->offset[2])
		p += snprintf(p, (size_t)(end - p), " offset %llx,%llx,%llx",
			      (unsigned long long)r->offset[0],
			      (unsigned long long)r->offset[1],
			      (unsigned long long)r->offset[2]);
	snprintf(p, (size_t)(end - p), "%s sg %u team %u",
		 r->uniform ? " uniform" : "", (unsigned)r->sub_group_size,
		 (unsigned)r->team_size);
	return buf;
}

/* ---- ids over many launches ---- */

static void check_ids(exec_cmd *c, unsigned slot)
{
	ndref_launch l = ref_of(c);
	char msg[160];
	int rc = ndref_check(&l, records[slot], counts[slot], ndref_items(&l),
			     msg, sizeof(msg));
	CHECK(rc == 0, "ids %s: %s", range_str(&c->range), msg);
}

static void ids_launch(exec_range r)
{
	static exec_cmd c;
	static hp_ids_args a;
	uint64_t n = 1;
	for (unsigned d = 0; d < r.work_dim; d++)
		n *= r.global[d];
	if (n > MAX_ITEMS)
		return;
	memset(counts[0], 0, n * sizeof(uint32_t));
	a.records = (uintptr_t)records[0];
	a.counts = (uintptr_t)counts[0];
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	int rc = run(&c);
	CHECK(rc == 0, "ids %s: status %s", range_str(&r), hp_error_name(rc));
	if (rc == 0)
		check_ids(&c, 0);
}

static void part_ids(void)
{
	/* Sizes chosen so that groups are partial in every combination of
	 * dimensions (all 8 regions in 3-D). */
	static const uint64_t g1[] = {1, 7, 64, 100, 257, 1000, 4096};
	static const uint64_t l1[] = {1, 3, 8, 16, 64, 256};
	/* The schedules the benchmarks compare: every item exactly once. */
	for (unsigned a = 0; a < 7; a++) {
		exec_range r = {.work_dim = 1,
				.global = {g1[a]},
				.local = {3},
				.local_given = true,
				.schedule = EXEC_SCHED_STATIC};
		ids_launch(r);
		r.schedule = EXEC_SCHED_FIXED;
		r.chunk = 5;
		ids_launch(r);
		r.work_dim = 2;
		r.global[1] = 3;
		r.local[1] = 2;
		r.chunk = 1;
		ids_launch(r);
	}
	for (unsigned a = 0; a < 7; a++) {
		exec_range r = {.work_dim = 1, .global = {g1[a]}};
		ids_launch(r); /* local chosen */
		for (unsigned b = 0; b < 6; b++) {
			r.local[0] = l1[b];
			r.local_given = true;
			ids_launch(r);
			if (S->quick)
				break;
		}
	}
	static const uint64_t g2[][2] = {{10, 7}, {33, 17}, {64, 64}, {5, 100}};
	static const uint64_t l2[][2] = {{4, 3}, {8, 8}, {16, 2}, {1, 5}};
	for (unsigned a = 0; a < 4; a++)
		for (unsigned b = 0; b < 4; b++) {
			exec_range r = {.work_dim = 2,
					.global = {g2[a][0], g2[a][1]},
					.local = {l2[b][0], l2[b][1]},
					.local_given = true};
			ids_launch(r);
			r.local_given = false;
			if (b == 0)
				ids_launch(r);
		}
	static const uint64_t g3[][3] = {{5, 6, 7}, {9, 10, 11}, {16, 8, 4}};
	static const uint64_t l3[][3] = {{2, 4, 3}, {4, 4, 4}, {3, 1, 2}};
	for (unsigned a = 0; a < 3; a++)
		for (unsigned b = 0; b < 3; b++) {
			exec_range r = {
				.work_dim = 3,
				.global = {g3[a][0], g3[a][1], g3[a][2]},
				.local = {l3[b][0], l3[b][1], l3[b][2]},
				.local_given = true};
			ids_launch(r);
			r.local_given = false;
			ids_launch(r);
		}
	/* Offsets, including the top of size_t. */
	size_t top = (size_t)-1;
	exec_range r = {.work_dim = 3,
			.global = {5, 4, 3},
			.offset = {top - 5, 1000, top - 3},
			.local = {2, 3, 2},
			.local_given = true};
	ids_launch(r);
	r.local_given = false;
	ids_launch(r);
	r = (exec_range){.work_dim = 1, .global = {300}, .offset = {top - 300}};
	ids_launch(r);
	r = (exec_range){.work_dim = 2,
			 .global = {31, 9},
			 .offset = {(size_t)1 << (8 * sizeof(size_t) - 1), 7},
			 .local = {8, 4},
			 .local_given = true};
	ids_launch(r);
	/* Uniform-only, required sizes, sub-group sizes, teams. */
	r = (exec_range){.work_dim = 2, .global = {48, 20}, .uniform = true};
	ids_launch(r);
	r = (exec_range){.work_dim = 2, .global = {50, 20}, .reqd = {4, 5, 1}};
	ids_launch(r);
	static const unsigned sgs[] = {1, 2, 4, 16, 32, 64};
	for (unsigned i = 0; i < 6; i++) {
		r = (exec_range){.work_dim = 2,
				 .global = {37, 11},
				 .local = {12, 3},
				 .local_given = true,
				 .sub_group_size = sgs[i]};
		ids_launch(r);
	}
	for (unsigned t = 2; t <= exec_dev.harts && t <= 4; t *= 2) {
		r = (exec_range){.work_dim = 2,
				 .global = {37, 11},
				 .local = {12, 3},
				 .local_given = true,
				 .team_size = t};
		ids_launch(r);
	}
	/* Zero global size: a successful no-op. */
	static exec_cmd z;
	static hp_ids_args a;
	cmd_init(&z, &hp_kernel_ids, &a, sizeof(a),
		 (exec_range){.work_dim = 2, .global = {0, 9}});
	CHECK(run(&z) == 0, "empty range: status %d", z.status);
}

/* ---- barrier_rotate, wg_count ---- */

static void rotate_launch(exec_range r)
{
	static exec_cmd c;
	static hp_barrier_rotate_args a;
	a.out = (uintptr_t)u32out;
	cmd_init(&c, &hp_kernel_barrier_rotate, &a, sizeof(a), r);
	int rc = run(&c);
	CHECK(rc == 0, "barrier_rotate %s: status %s", range_str(&r),
	      hp_error_name(rc));
	if (rc)
		return;
	/* u32out now holds the results; the reference overwrites counts in
	 * u32out, so keep the results aside first. */
	uint64_t n = 1;
	for (unsigned d = 0; d < r.work_dim; d++)
		n *= r.global[d];
	uint32_t *got = (uint32_t *)sg_out;
	memcpy(got, u32out, n * sizeof(uint32_t));
	expected_records(&c, expect);
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t *e = expect + i * HP_IDS_NCOLS;
		uint64_t size = size_of(e);
		uint64_t want = (e[HP_IDS_LLIN] + 1) % size;
		if (got[i] != want) {
			CHECK(0,
			      "barrier_rotate %s: item %llu got %u want %llu",
			      range_str(&r), (unsigned long long)i, got[i],
			      (unsigned long long)want);
			return;
		}
	}
	S->checks++;
}

static void count_launch(exec_range r)
{
	static exec_cmd c;
	static hp_wg_count_args a;
	static HP_KERNEL_DATA uint32_t total;
	total = 0;
	a.per_group = (uintptr_t)group_size;
	a.total = (uintptr_t)&total;
	cmd_init(&c, &hp_kernel_wg_count, &a, sizeof(a), r);
	int rc = run(&c);
	CHECK(rc == 0, "wg_count %s: status %s", range_str(&r),
	      hp_error_name(rc));
	if (rc)
		return;
	uint64_t n = expected_records(&c, expect);
	CHECK(total == n, "wg_count %s: total %u want %llu", range_str(&r),
	      total, (unsigned long long)n);
	/* Each group's count is its actual size (from the reference). */
	const hp_launch *l = &c.launch;
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t *e = expect + i * HP_IDS_NCOLS;
		uint64_t g = group_of(l, e);
		uint64_t size = size_of(e);
		if (group_size[g] != size) {
			CHECK(0, "wg_count %s: group %llu counted %u want %llu",
			      range_str(&r), (unsigned long long)g,
			      group_size[g], (unsigned long long)size);
			return;
		}
	}
	S->checks++;
}

/* Floating-point values live across barriers in every work-item, with
 * different values per item: the fiber switch must keep each item's FP
 * registers (the firmware saves them lazily, only when dirtied). fp_ref
 * computes the same without barriers; the driver compares the bits (it
 * may be a hart without an FPU: docs/design.md, 34). */
HP_KERNEL(fp_keep, const hp_item *it, const void *args)
{
	const uint64_t *out = args;
	double a = (double)hp_global_id(it, 0) * 1.5 + 0.25;
	double b = a * a - 3.0, c = b / 7.0 + a;
	for (unsigned i = 0; i < 3; i++) {
		hp_barrier(it);
		a = a + b * 0.5;
		hp_barrier(it);
		c = c * 0.75 + a;
	}
	((double *)(uintptr_t)out[0])[hp_global_id(it, 0)] = a + b + c;
}
HP_REGISTER(fp_keep, .uses_barriers = true, .uses_fpu = true,
	    .args_size = 2 * sizeof(uint64_t));

HP_KERNEL(fp_ref, const hp_item *it, const void *args)
{
	const uint64_t *out = args;
	double a = (double)hp_global_id(it, 0) * 1.5 + 0.25;
	double b = a * a - 3.0, c = b / 7.0 + a;
	for (unsigned i = 0; i < 3; i++) {
		a = a + b * 0.5;
		c = c * 0.75 + a;
	}
	((double *)(uintptr_t)out[1])[hp_global_id(it, 0)] = a + b + c;
}
HP_REGISTER(fp_ref, .uses_fpu = true, .args_size = 2 * sizeof(uint64_t));

static void fp_keep_check(void)
{
	static exec_cmd c;
	static HP_KERNEL_DATA uint64_t out[2];
	uint64_t *res = (uint64_t *)(void *)sg_out; /* large enough scratch */
	out[0] = (uintptr_t)res;
	out[1] = (uintptr_t)(res + 70);
	exec_range r = {.work_dim = 1, .global = {70}};
	cmd_init(&c, &hp_kernel_fp_ref, out, sizeof(out), r);
	if (exec_kernel_supported(&exec_dev, &hp_kernel_fp_ref, 1, NULL, 0)) {
		/* No worker with an FPU (one E51 monitor hart): refused. */
		CHECK(run(&c) == HP_KERNEL_NOT_SUPPORTED,
		      "fp_ref without an FPU: %s", hp_error_name(c.status));
		return;
	}
	int rc = run(&c);
	CHECK(rc == 0, "fp_ref: %s", hp_error_name(rc));
	r.local[0] = 32;
	r.local_given = true;
	cmd_init(&c, &hp_kernel_fp_keep, out, sizeof(out), r);
	rc = rc ? rc : run(&c);
	CHECK(rc == 0, "fp_keep: %s", hp_error_name(rc));
	unsigned bad = 0;
	for (unsigned i = 0; !rc && i < 70; i++)
		bad += res[i] != res[70 + i];
	CHECK(bad == 0,
	      "fp_keep: %u of 70 work-items lost FP values across "
	      "barriers",
	      bad);
}

/* Barrier kernels need a hart with an FPU where the firmware has one
 * (their code saves the FP callee-saved registers, docs/design.md, 43): on
 * an E51 alone they are refused. */
static bool barriers_refused(const char *what)
{
	if (!exec_kernel_supported(&exec_dev, &hp_kernel_barrier_rotate, 1,
				   NULL, 0))
		return false;
	static exec_cmd c;
	exec_range r = {.work_dim = 1, .global = {8}};
	cmd_init(&c, &hp_kernel_wg_count, NULL, 0, r);
	CHECK(run(&c) == HP_KERNEL_NOT_SUPPORTED,
	      "a barrier kernel without an FPU hart: %s",
	      hp_error_name(c.status));
	S->printf("suite: %s skipped: no worker hart with an FPU\n", what);
	return true;
}

static void part_barriers(void)
{
	if (barriers_refused("barriers"))
		return;
	fp_keep_check();
	static const exec_range rs[] = {
		{.work_dim = 1,
		 .global = {100},
		 .local = {16},
		 .local_given = 1},
		{.work_dim = 1,
		 .global = {1000},
		 .local = {256},
		 .local_given = 1},
		{.work_dim = 2,
		 .global = {10, 7},
		 .local = {4, 3},
		 .local_given = 1},
		{.work_dim = 3,
		 .global = {9, 10, 11},
		 .local = {4, 4, 4},
		 .local_given = 1},
		{.work_dim = 2, .global = {33, 17}},
		{.work_dim = 1, .global = {5}, .local = {1}, .local_given = 1},
	};
	for (unsigned i = 0; i < sizeof(rs) / sizeof(rs[0]); i++)
		for (unsigned t = 1; t <= 4 && t <= exec_dev.harts; t *= 2) {
			exec_range r = rs[i];
			r.team_size = t;
			/* No team of t harts that all have an FPU (an E51
			 * in every one): refused, checked above. */
			if (exec_kernel_supported(&exec_dev,
						  &hp_kernel_barrier_rotate, t,
						  NULL, 0))
				continue;
			rotate_launch(r);
			count_launch(r);
			if (S->quick && t == 2)
				break;
		}
}

/* ---- sub-group functions ---- */

static void sg_launch(exec_range r)
{
	static exec_cmd c;
	static hp_sg_ops_args a;
	uint64_t n = 1;
	for (unsigned d = 0; d < r.work_dim; d++)
		n *= r.global[d];
	for (uint64_t i = 0; i < n; i++) /* mixed signs, some repeats */
		sg_in[i] = (int32_t)((i * 2654435761u) % 2001u) - 1000;
	a.in = (uintptr_t)sg_in;
	a.out = (uintptr_t)sg_out;
	cmd_init(&c, &hp_kernel_sg_ops, &a, sizeof(a), r);
	int rc = run(&c);
	CHECK(rc == 0, "sg_ops %s: status %s (%s)", range_str(&r),
	      hp_error_name(rc), c.error_detail ? c.error_detail : "");
	if (rc)
		return;
	expected_records(&c, expect);
	const hp_launch *l = &c.launch;
	/* Global linear id of every (group, local linear id). */
	static HP_KERNEL_DATA uint32_t where[MAX_ITEMS * 2];
	uint64_t per_group = l->enqueued_linear;
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t *e = expect + i * HP_IDS_NCOLS;
		uint64_t g = group_of(l, e);
		where[g * per_group + e[HP_IDS_LLIN]] = (uint32_t)i;
	}
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t *e = expect + i * HP_IDS_NCOLS;
		uint64_t g = group_of(l, e);
		unsigned me = (unsigned)e[HP_IDS_SGLID];
		unsigned cnt = (unsigned)e[HP_IDS_SGSZ];
		uint64_t first = e[HP_IDS_LLIN] - me;
		int32_t lanes[64];
		for (unsigned k = 0; k < cnt; k++)
			lanes[k] = sg_in[where[g * per_group + first + k]];
		uint64_t want[HP_SG_OUTS];
		sgref_item(lanes, cnt, me, want);
		const uint64_t *got = sg_out + i * HP_SG_OUTS;
		for (unsigned k = 0; k < HP_SG_OUTS; k++)
			if (got[k] != want[k]) {
				CHECK(0,
				      "sg_ops %s: item %llu result %u is %llx, "
				      "want %llx",
				      range_str(&r), (unsigned long long)i, k,
				      (unsigned long long)got[k],
				      (unsigned long long)want[k]);
				return;
			}
	}
	S->checks++;
}

static void part_subgroups(void)
{
	static const exec_range rs[] = {
		{.work_dim = 1,
		 .global = {100},
		 .local = {20},
		 .local_given = 1},
		{.work_dim = 2,
		 .global = {13, 9},
		 .local = {6, 5},
		 .local_given = 1},
		{.work_dim = 3,
		 .global = {7, 5, 3},
		 .local = {3, 2, 2},
		 .local_given = 1},
		{.work_dim = 1, .global = {300}},
	};
	static const unsigned sgs[] = {0, 1, 4, 16, 64};
	/* The references compute with float: a driver hart without an FPU
	 * (an E51 monitor core) cannot, and the float kernel sg_ops never
	 * runs there (docs/design.md, 34). The e2e tests check sg_ops on
	 * such boards from the host. */
	if (exec_kernel_needs(&hp_kernel_sg_ops) &&
	    !(exec_dev.caps[hal_hart_idx()] & EXEC_CAP_FPU)) {
		S->printf("suite: sub-group references skipped: the driver "
			  "hart has no FPU\n");
		return;
	}
	for (unsigned i = 0; i < sizeof(rs) / sizeof(rs[0]); i++)
		for (unsigned s = 0; s < 5; s++) {
			exec_range r = rs[i];
			r.sub_group_size = sgs[s];
			sg_launch(r);
			if (s == 0 && exec_dev.harts >= 2) {
				r.team_size = 2;
				sg_launch(r);
			}
			if (S->quick && s == 2)
				break;
		}
}

/* ---- errors ---- */

static void expect_error(exec_cmd *c, int want, const char *what)
{
	int rc = exec_enqueue(NULL, c);
	CHECK(rc == want && exec_status(c) == want, "%s: got %s, want %s", what,
	      hp_error_name(rc), hp_error_name(want));
}

static void part_errors(void)
{
	static exec_cmd c;
	static hp_ids_args a;
	exec_range ok = {.work_dim = 1, .global = {16}};
	size_t top = (size_t)-1;

	cmd_init(&c, NULL, &a, sizeof(a), ok);
	expect_error(&c, HP_INVALID_KERNEL, "no kernel");
	exec_range r = ok;
	r.work_dim = 4;
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	expect_error(&c, HP_INVALID_WORK_DIMENSION, "work_dim 4");
	r = ok;
	r.offset[0] = top - 8;
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	expect_error(&c, HP_INVALID_GLOBAL_OFFSET, "offset at top");
	if (sizeof(size_t) < 8) {
		r = ok;
		r.global[0] = (uint64_t)top + 1;
		cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
		expect_error(&c, HP_INVALID_GLOBAL_WORK_SIZE,
			     "global > size_t");
	}
	r = ok;
	r.local_given = true;
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	expect_error(&c, HP_INVALID_WORK_GROUP_SIZE, "local 0");
	r.local[0] = 300;
	r.global[0] = 600;
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	expect_error(&c, HP_INVALID_WORK_ITEM_SIZE, "local 300");
	r = (exec_range){.work_dim = 2,
			 .global = {64, 64},
			 .local = {64, 8},
			 .local_given = true};
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	expect_error(&c, HP_INVALID_WORK_GROUP_SIZE, "local 64x8");
	r = (exec_range){.work_dim = 1,
			 .global = {100},
			 .local = {8},
			 .local_given = true,
			 .uniform = true};
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	expect_error(&c, HP_INVALID_WORK_GROUP_SIZE, "uniform 100/8");
	r = (exec_range){.work_dim = 1,
			 .global = {64},
			 .local = {8},
			 .local_given = true,
			 .reqd = {16, 1, 1}};
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	expect_error(&c, HP_INVALID_WORK_GROUP_SIZE, "reqd 16 vs local 8");
	cmd_init(&c, &hp_kernel_ids, NULL, sizeof(a), ok);
	expect_error(&c, HP_INVALID_KERNEL_ARGS, "no args");
	cmd_init(&c, &hp_kernel_ids, &a, 4, ok);
	expect_error(&c, HP_INVALID_KERNEL_ARGS, "short args");
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), ok);
	c.num_wait = 1;
	expect_error(&c, HP_INVALID_EVENT_WAIT_LIST, "wait list NULL");
	static exec_cmd *const null_entry[1] = {NULL};
	c.wait_list = null_entry;
	expect_error(&c, HP_INVALID_EVENT_WAIT_LIST, "wait list entry NULL");
	r = ok;
	r.sub_group_size = 3;
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	expect_error(&c, HP_INVALID_VALUE, "sub-group size 3");
	r = ok;
	r.team_size = exec_dev.harts + 1;
	cmd_init(&c, &hp_kernel_ids, &a, sizeof(a), r);
	expect_error(&c, HP_INVALID_VALUE, "team > harts");
	static const hp_kernel big_local = {
		.name = "big", .fn = NULL, .local_mem_bytes = 1u << 20};
	hp_kernel bl = big_local;
	bl.fn = hp_kernel_ids.fn;
	cmd_init(&c, &bl, &a, sizeof(a), ok);
	expect_error(&c, HP_OUT_OF_RESOURCES, "1 MiB local memory");
}

/* ---- faults at run time ---- */

extern const hp_kernel hp_kernel_bad_barrier, hp_kernel_divergent,
	hp_kernel_overflow;

static void part_faults(void)
{
	static exec_cmd c;
	exec_range r = {
		.work_dim = 1, .global = {64}, .local = {8}, .local_given = 1};
	cmd_init(&c, &hp_kernel_bad_barrier, NULL, 0, r);
	CHECK(run(&c) == HP_KERNEL_FAULT, "barrier without uses_barriers: %s",
	      hp_error_name(c.status));
	if (barriers_refused("divergence and stack faults"))
		return;
	cmd_init(&c, &hp_kernel_divergent, NULL, 0, r);
	CHECK(run(&c) == HP_KERNEL_FAULT && c.error_detail &&
		      strstr(c.error_detail, "barriers"),
	      "divergent barrier: %s", hp_error_name(c.status));
	exec_range r64 = {
		.work_dim = 1, .global = {64}, .local = {64}, .local_given = 1};
	cmd_init(&c, &hp_kernel_overflow, NULL, 0, r64);
	CHECK(run(&c) == HP_KERNEL_FAULT && c.error_detail &&
		      strstr(c.error_detail, "stack"),
	      "stack overflow: %s", hp_error_name(c.status));
	/* The executor still serves after faults. */
	ids_launch((exec_range){.work_dim = 1, .global = {200}});
}

/* ---- several instances at once, queues, dependencies ---- */

static void part_concurrent(void)
{
	static exec_cmd c[MAX_CONC];
	static hp_ids_args a[MAX_CONC];
	static const exec_range rs[MAX_CONC] = {
		{.work_dim = 1,
		 .global = {2048},
		 .local = {4},
		 .local_given = 1},
		{.work_dim = 2,
		 .global = {40, 50},
		 .local = {3, 3},
		 .local_given = 1},
		{.work_dim = 3, .global = {12, 12, 12}},
		{.work_dim = 1,
		 .global = {1999},
		 .local = {1},
		 .local_given = 1},
		{.work_dim = 2,
		 .global = {64, 32},
		 .local = {8, 1},
		 .local_given = 1},
		{.work_dim = 1, .global = {3000}},
		{.work_dim = 3,
		 .global = {9, 9, 9},
		 .local = {2, 2, 2},
		 .local_given = 1},
		{.work_dim = 1,
		 .global = {777},
		 .local = {7},
		 .local_given = 1},
	};
	for (unsigned i = 0; i < MAX_CONC; i++) {
		uint64_t n = rs[i].global[0] *
			     (rs[i].work_dim > 1 ? rs[i].global[1] : 1) *
			     (rs[i].work_dim > 2 ? rs[i].global[2] : 1);
		memset(counts[i], 0, n * sizeof(uint32_t));
		a[i].records = (uintptr_t)records[i];
		a[i].counts = (uintptr_t)counts[i];
		cmd_init(&c[i], &hp_kernel_ids, &a[i], sizeof(a[i]), rs[i]);
		CHECK(exec_enqueue(NULL, &c[i]) == 0, "concurrent enqueue %u",
		      i);
	}
	unsigned harts_per[MAX_CONC];
	for (unsigned i = 0; i < MAX_CONC; i++) {
		CHECK(exec_wait(&c[i]) == 0, "concurrent %u: %s", i,
		      hp_error_name(c[i].status));
		check_ids(&c[i], i);
		/* How many harts ran work-items of this instance. */
		uint64_t n = ndref_items(&(ndref_launch){
			.work_dim = rs[i].work_dim,
			.global = {rs[i].global[0], rs[i].global[1],
				   rs[i].global[2]}});
		static uint8_t seen[512];
		memset(seen, 0, sizeof(seen));
		harts_per[i] = 0;
		for (uint64_t k = 0; k < n; k++) {
			uint64_t h = records[i][k * HP_IDS_NCOLS + HP_IDS_HART];
			if (h < 512 && !seen[h]) {
				seen[h] = 1;
				harts_per[i]++;
			}
		}
	}
	S->printf("suite: 8 instances at once ran on");
	for (unsigned i = 0; i < MAX_CONC; i++)
		S->printf(" %u", harts_per[i]);
	S->printf(" harts\n");

	/* In-order queue: each starts after the previous ends; an empty
	 * command in the middle. */
	static exec_queue q;
	q = (exec_queue){.in_order = true};
	static exec_cmd chain[4];
	for (unsigned i = 0; i < 4; i++) {
		memset(counts[i], 0, 512 * sizeof(uint32_t));
		a[i].records = (uintptr_t)records[i];
		a[i].counts = (uintptr_t)counts[i];
		exec_range r = {.work_dim = 1, .global = {i == 2 ? 0 : 512}};
		cmd_init(&chain[i], &hp_kernel_ids, &a[i], sizeof(a[i]), r);
		CHECK(exec_enqueue(&q, &chain[i]) == 0, "chain enqueue %u", i);
	}
	CHECK(exec_wait(&chain[3]) == 0, "chain end: %s",
	      hp_error_name(chain[3].status));
	for (unsigned i = 1; i < 4; i++)
		CHECK(exec_status(&chain[i - 1]) == 0 &&
			      chain[i].t_start >= chain[i - 1].t_end,
		      "in-order: %u started before %u ended", i, i - 1);
	check_ids(&chain[3], 3);

	/* A failure aborts the commands that wait for it (and theirs), not
	 * the next one in the in-order queue. */
	static exec_cmd fail, after, after2, next;
	static exec_cmd *const wfail[] = {&fail}, *const wafter[] = {&after};
	cmd_init(&fail, &hp_kernel_bad_barrier, NULL, 0,
		 (exec_range){.work_dim = 1,
			      .global = {64},
			      .local = {8},
			      .local_given = 1});
	exec_enqueue(&q, &fail);
	cmd_init(&after, &hp_kernel_ids, &a[0], sizeof(a[0]),
		 (exec_range){.work_dim = 1, .global = {64}});
	after.wait_list = wfail;
	after.num_wait = 1;
	exec_enqueue(NULL, &after);
	cmd_init(&after2, &hp_kernel_ids, &a[0], sizeof(a[0]),
		 (exec_range){.work_dim = 1, .global = {64}});
	after2.wait_list = wafter;
	after2.num_wait = 1;
	exec_enqueue(NULL, &after2);
	memset(counts[1], 0, 64 * sizeof(uint32_t));
	a[1].records = (uintptr_t)records[1];
	a[1].counts = (uintptr_t)counts[1];
	cmd_init(&next, &hp_kernel_ids, &a[1], sizeof(a[1]),
		 (exec_range){.work_dim = 1, .global = {64}});
	exec_enqueue(&q, &next);
	CHECK(exec_wait(&after2) == HP_ABORTED, "after a failure: %s",
	      hp_error_name(after2.status));
	CHECK(exec_status(&after) == HP_ABORTED, "after: %s",
	      hp_error_name(after.status));
	CHECK(exec_status(&fail) == HP_KERNEL_FAULT, "failing: %s",
	      hp_error_name(fail.status));
	CHECK(exec_wait(&next) == 0 && next.t_start >= fail.t_end,
	      "next in queue after a failure: %s", hp_error_name(next.status));
	check_ids(&next, 1);

	/* Out-of-order diamond gate -> A -> B, C -> D, held by a user event
	 * until all are enqueued. */
	static exec_cmd gate, A, B, C, D;
	static exec_cmd *const wg[] = {&gate}, *const wa[] = {&A},
			       *const wbc[] = {&B, &C};
	exec_cmd *dm[4] = {&A, &B, &C, &D};
	for (unsigned i = 0; i < 4; i++) {
		memset(counts[i], 0, 1000 * sizeof(uint32_t));
		a[i].records = (uintptr_t)records[i];
		a[i].counts = (uintptr_t)counts[i];
		cmd_init(dm[i], &hp_kernel_ids, &a[i], sizeof(a[i]),
			 (exec_range){.work_dim = 1, .global = {1000}});
	}
	A.wait_list = wg;
	A.num_wait = 1;
	B.wait_list = C.wait_list = wa;
	B.num_wait = C.num_wait = 1;
	D.wait_list = wbc;
	D.num_wait = 2;
	exec_queue ooo = {.in_order = false};
	exec_user_event_init(&gate);
	exec_enqueue(&ooo, &A);
	exec_enqueue(&ooo, &B);
	exec_enqueue(&ooo, &C);
	exec_enqueue(&ooo, &D);
	CHECK(exec_status(&A) == EXEC_QUEUED && exec_status(&D) == EXEC_QUEUED,
	      "held by the gate: A %d D %d", A.status, D.status);
	static exec_cmd never;
	memset(&never, 0, sizeof(never));
	static exec_cmd *const wnever[] = {&never};
	static exec_cmd bad;
	cmd_init(&bad, &hp_kernel_ids, &a[0], sizeof(a[0]),
		 (exec_range){.work_dim = 1, .global = {8}});
	bad.wait_list = wnever;
	bad.num_wait = 1;
	expect_error(&bad, HP_INVALID_EVENT_WAIT_LIST, "never enqueued");
	exec_user_event_set(&gate, 0);
	CHECK(exec_wait(&D) == 0, "diamond D: %s", hp_error_name(D.status));
	CHECK(B.t_start >= A.t_end && C.t_start >= A.t_end &&
		      D.t_start >= B.t_end && D.t_start >= C.t_end,
	      "diamond order");
	for (unsigned i = 0; i < 4; i++)
		check_ids(dm[i], i);

	/* A dependency complete while its dependent still waits (here for a
	 * gate) may be reused at once (exec_cmd's contract): a new command
	 * there that fails must not fail the dependent. It did (HP_ABORTED),
	 * found by the mailbox stress test, whose dispatcher reuses a slot's
	 * command a ring later. */
	static exec_cmd gate2, early, waiter;
	static exec_cmd *const wboth[] = {&gate2, &early};
	memset(counts[0], 0, 64 * sizeof(uint32_t));
	a[0].records = (uintptr_t)records[0];
	a[0].counts = (uintptr_t)counts[0];
	cmd_init(&waiter, &hp_kernel_ids, &a[0], sizeof(a[0]),
		 (exec_range){.work_dim = 1, .global = {64}});
	waiter.wait_list = wboth;
	waiter.num_wait = 2;
	exec_user_event_init(&gate2);
	exec_user_event_init(&early);
	CHECK(exec_enqueue(NULL, &waiter) == 0, "waiter enqueue");
	exec_user_event_set(&early, 0);
	exec_user_event_init(&early); /* the same memory, a new command */
	exec_user_event_set(&early, HP_INVALID_VALUE);
	exec_user_event_set(&gate2, 0);
	CHECK(exec_wait(&waiter) == 0,
	      "dependent of a reused dependency that then failed: %s",
	      hp_error_name(waiter.status));
	check_ids(&waiter, 0);
}

/* Four instances active at once: their work-groups interleave (each
 * instance's range of sequence numbers overlaps every other's), on
 * several harts when there are several. */
static void part_interleave(void)
{
	/* At least as many groups as harts, so that no hart can take every
	 * instance's share in one visit each. */
	enum { N = 4 };
	unsigned GROUPS = exec_dev.harts > 256 ? 512 : 256;
	static exec_cmd c[N];
	static wg_log_args a[N];
	static HP_KERNEL_DATA uint32_t seq;
	uint32_t *log = u32out; /* N * GROUPS * 2 <= MAX_ITEMS entries */
	seq = 0;
	for (unsigned i = 0; i < N; i++) {
		a[i].seq = (uintptr_t)&seq;
		a[i].log = (uintptr_t)(log + 2 * GROUPS * i);
		cmd_init(&c[i], &hp_kernel_wg_log, &a[i], sizeof(a[i]),
			 (exec_range){.work_dim = 1,
				      .global = {GROUPS * 4},
				      .local = {4},
				      .local_given = true});
	}
	/* Hold them with a user event so all four start together. */
	static exec_cmd go;
	static exec_cmd *const wgo[] = {&go};
	exec_user_event_init(&go);
	for (unsigned i = 0; i < N; i++) {
		c[i].wait_list = wgo;
		c[i].num_wait = 1;
		exec_enqueue(NULL, &c[i]);
	}
	exec_user_event_set(&go, 0);
	/* Only instances that got a slot at once are "active at once"; the
	 * others wait (SUBMITTED) for a slot, which is correct too. */
	bool running[N];
	unsigned nrunning = 0;
	for (unsigned i = 0; i < N; i++) {
		running[i] = exec_status(&c[i]) <= EXEC_RUNNING;
		nrunning += running[i];
	}
	CHECK(nrunning >= 2, "interleave: only %u of 4 instances got a slot",
	      nrunning);
	uint32_t lo[N], hi[N];
	unsigned harts[N];
	for (unsigned i = 0; i < N; i++) {
		CHECK(exec_wait(&c[i]) == 0, "interleave %u: %s", i,
		      hp_error_name(c[i].status));
		static uint8_t seen[512];
		memset(seen, 0, sizeof(seen));
		lo[i] = UINT32_MAX, hi[i] = 0, harts[i] = 0;
		for (unsigned g = 0; g < GROUPS; g++) {
			uint32_t q = log[2 * (GROUPS * i + g)];
			uint32_t h = log[2 * (GROUPS * i + g) + 1];
			lo[i] = q < lo[i] ? q : lo[i];
			hi[i] = q > hi[i] ? q : hi[i];
			if (h < 512 && !seen[h]) {
				seen[h] = 1;
				harts[i]++;
			}
		}
	}
	CHECK(seq == N * GROUPS, "interleave: %u groups ran, want %u",
	      (unsigned)seq, (unsigned)(N * GROUPS));
	/* Round-robin visits interleave the work-groups of instances that are
	 * active together. Every pair usually overlaps; but a launcher that
	 * the host deschedules between two launches (512 vCPU threads on 2
	 * cores) lets awake harts drain the first one alone, so the check is
	 * that some pair of instances running at once interleaved. */
	unsigned pairs = 0, overlapping = 0;
	for (unsigned i = 0; i < N; i++)
		for (unsigned j = i + 1; j < N; j++)
			if (running[i] && running[j]) {
				pairs++;
				overlapping += lo[i] < hi[j] && lo[j] < hi[i];
			}
	CHECK(overlapping > 0,
	      "no two of the %u instances running at once interleaved",
	      nrunning);
	S->printf("suite: %u of 4 instances ran at once, %u of %u pairs "
		  "interleaved, on %u %u %u %u harts\n",
		  nrunning, overlapping, pairs, harts[0], harts[1], harts[2],
		  harts[3]);
}

/* Many instances of tiny groups at once: every work-item exactly once. */
static void part_hammer(void)
{
	static exec_cmd c[MAX_CONC];
	static hp_ids_args a[MAX_CONC];
	unsigned rounds = S->quick ? 2 : 6;
	for (unsigned round = 0; round < rounds; round++) {
		for (unsigned i = 0; i < MAX_CONC; i++) {
			exec_range r = {.work_dim = 1,
					.global = {1024 + 97 * i},
					.local = {1 + (i + round) % 3},
					.local_given = true};
			memset(counts[i], 0, 2048 * sizeof(uint32_t));
			a[i].records = (uintptr_t)records[i];
			a[i].counts = (uintptr_t)counts[i];
			cmd_init(&c[i], &hp_kernel_ids, &a[i], sizeof(a[i]), r);
			exec_enqueue(NULL, &c[i]);
		}
		for (unsigned i = 0; i < MAX_CONC; i++) {
			CHECK(exec_wait(&c[i]) == 0, "hammer %u", i);
			check_ids(&c[i], i);
		}
	}
}

/* Team instances of different team sizes enqueued at once (their teams
 * overlap, so the pool runs one size at a time): all complete, every
 * work-item once. Mixed sizes once hung the device for good: a hart
 * joined a newer instance's team while an older instance's overlapping
 * team, still undecided, was about to wait for it. */
static void part_team_sizes(void)
{
	unsigned workers = exec_dev.harts - exec_dev.first_worker;
	if (workers < 3)
		return;
	static exec_cmd c[MAX_CONC];
	static hp_ids_args a[MAX_CONC];
	unsigned sizes = workers < 4 ? 2 : 3, rounds = S->quick ? 3 : 12;
	for (unsigned round = 0; round < rounds; round++) {
		for (unsigned i = 0; i < MAX_CONC; i++) {
			exec_range r = {.work_dim = 1,
					.global = {200 + 13 * i},
					.local = {1 + (i + round) % 4},
					.local_given = true,
					.team_size = 2 + (i + round) % sizes};
			memset(counts[i], 0, 400 * sizeof(uint32_t));
			a[i].records = (uintptr_t)records[i];
			a[i].counts = (uintptr_t)counts[i];
			cmd_init(&c[i], &hp_kernel_ids, &a[i], sizeof(a[i]), r);
			CHECK(exec_enqueue(NULL, &c[i]) == 0,
			      "team sizes: enqueue %u", i);
		}
		for (unsigned i = 0; i < MAX_CONC; i++) {
			CHECK(exec_wait(&c[i]) == 0, "team sizes %u: %s", i,
			      hp_error_name(c[i].status));
			check_ids(&c[i], i);
		}
	}
}

/* ---- rows across work-groups (hp_kernel.row_spans_groups) ---- */

/* Each call's first item and length, checked as it runs: it starts at a
 * group's first item, stays in one row of groups, and every item of the
 * range is counted once (u32out). */
static HP_KERNEL_DATA struct {
	uint64_t global[2], offset[2], local0;
	uint32_t *out; /* u32out: kernel code reaches only kernel data */
	uint32_t calls, longest, bad;
} span;

static void span_item(const hp_item *it, const void *args)
{
	(void)it;
	(void)args;
	__atomic_fetch_add(&span.bad, 1, __ATOMIC_RELAXED); /* not used */
}

static void span_row(const hp_item *it, const void *args, size_t n)
{
	(void)args;
	uint64_t x = it->global_id[0] - span.offset[0],
		 y = it->global_id[1] - span.offset[1];
	if (x % span.local0 || x + n > span.global[0] || y >= span.global[1] ||
	    it->local_id[0])
		__atomic_fetch_add(&span.bad, 1, __ATOMIC_RELAXED);
	else
		for (size_t k = 0; k < n; k++)
			__atomic_fetch_add(
				&span.out[y * span.global[0] + x + k], 1,
				__ATOMIC_RELAXED);
	__atomic_fetch_add(&span.calls, 1, __ATOMIC_RELAXED);
	uint32_t m = __atomic_load_n(&span.longest, __ATOMIC_RELAXED);
	while (n > m && !__atomic_compare_exchange_n(
				&span.longest, &m, (uint32_t)n, true,
				__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static const hp_kernel span_kernel = {.name = "span",
				      .fn = span_item,
				      .row = span_row,
				      .row_spans_groups = true};

static void span_launch(uint64_t gx, uint64_t gy, uint64_t lx, uint64_t ly,
			uint64_t ox)
{
	static exec_cmd c;
	exec_range r = {.work_dim = 2,
			.global = {gx, gy},
			.local = {lx, ly},
			.offset = {ox, 3},
			.local_given = true};
	uint64_t n = gx * gy,
		 groups = (gx + lx - 1) / lx * ((gy + ly - 1) / ly);
	if (n > MAX_ITEMS)
		return;
	memset(u32out, 0, n * sizeof(uint32_t));
	memset(&span, 0, sizeof(span));
	span.global[0] = gx;
	span.global[1] = gy;
	span.offset[0] = ox;
	span.offset[1] = 3;
	span.local0 = lx;
	span.out = u32out;
	cmd_init(&c, &span_kernel, NULL, 0, r);
	int rc = run(&c);
	CHECK(rc == 0, "span %s: status %s (%s)", range_str(&r),
	      hp_error_name(rc), c.error_detail ? c.error_detail : "");
	uint64_t once = 0;
	for (uint64_t i = 0; i < n; i++)
		once += u32out[i] == 1;
	CHECK(once == n && !span.bad,
	      "span %s: %llu of %llu items once, %u bad", range_str(&r),
	      (unsigned long long)once, (unsigned long long)n,
	      (unsigned)span.bad);
	if (ly > 1) /* rows of one group each, as without the flag */
		CHECK(span.longest <= lx &&
			      span.calls == gy * ((gx + lx - 1) / lx),
		      "span %s: %u calls, longest %u", range_str(&r),
		      (unsigned)span.calls, (unsigned)span.longest);
	else if (groups > 4 * exec_dev.harts) /* guided chunks of many
					       * groups: fewer calls */
		CHECK(span.calls < groups && span.longest > lx,
		      "span %s: %u calls for %llu groups, longest %u",
		      range_str(&r), (unsigned)span.calls,
		      (unsigned long long)groups, (unsigned)span.longest);
}

static void part_span(void)
{
	span_launch(4000, 1, 16, 1, 0);
	span_launch(4001, 1, 16, 1, 7);	 /* a remainder group */
	span_launch(399, 9, 10, 1, 100); /* rows of groups, remainders */
	span_launch(100, 12, 8, 2, 0);	 /* local Y > 1: no spans */
}

unsigned suite_main(suite_ctx *s)
{
	S = s;
	size_t rec = MAX_ITEMS * HP_IDS_NCOLS * sizeof(uint64_t);
	for (unsigned i = 0; i < MAX_CONC; i++) {
		if (!records[i])
			records[i] = exec_buffer_alloc(rec, 64);
		if (!counts[i])
			counts[i] = exec_buffer_alloc(MAX_ITEMS * 4, 64);
	}
	if (!expect) {
		expect = exec_buffer_alloc(rec, 64);
		u32out = exec_buffer_alloc(MAX_ITEMS * 4, 64);
		sg_in = exec_buffer_alloc(MAX_ITEMS * 4, 64);
		sg_out = exec_buffer_alloc(MAX_ITEMS * HP_SG_OUTS * 8, 64);
		group_size = exec_buffer_alloc(MAX_ITEMS * 4, 64);
	}
	s->printf("suite: ids\n");
	part_ids();
	s->printf("suite: barriers\n");
	part_barriers();
	s->printf("suite: sub-groups\n");
	part_subgroups();
	s->printf("suite: rows across work-groups\n");
	part_span();
	s->printf("suite: errors\n");
	part_errors();
	s->printf("suite: faults\n");
	part_faults();
	s->printf("suite: concurrency and dependencies\n");
	part_concurrent();
	part_interleave();
	part_team_sizes();
	if (s->hammer) {
		s->printf("suite: hammer\n");
		part_hammer();
	}
	s->printf("suite: %u checks, %u failed\n", s->checks, s->failures);
	return s->failures;
}
