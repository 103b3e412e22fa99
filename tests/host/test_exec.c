// SPDX-License-Identifier: MIT
/* The executor on the host, threads as harts: the shared suite
 * (tests/common/exec_suite.c) with 1, 4 and 8 harts, and the pool stress
 * with 64 harts; then harts without an FPU (a fake capability table): float
 * kernels never run there. */
#include <executor/exec.h>
#include <hal/hart.h>
#include <hal_host.h>
#include <hartpool/kernels/diag.h>
#include <kernels/registry.h>
#include <stdio.h>
#include <stdlib.h>
#include <tests/common/exec_suite.h>

static suite_ctx ctx;

static void body(void *arg)
{
	(void)arg;
	if (hal_hart_idx() == 0) {
		suite_main(&ctx);
		exec_shutdown();
	} else {
		exec_serve();
	}
}

/* ---- harts without an FPU (docs/design.md, 34) ---- */

#define FPU_ITEMS 5000
static hp_fpu_harts_record fpu_rec[FPU_ITEMS];
static uint32_t int_rec[FPU_ITEMS];
static const bool *fpu_of; /* the fake table: hart index -> has an FPU */
static unsigned fpu_failures;

#define FCHECK(cond, ...)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);            \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
			fpu_failures++;                                        \
		}                                                              \
	} while (0)

HP_KERNEL(int_harts, const hp_item *it, const void *args)
{
	const uint64_t *out = args;
	HP_PTR(uint32_t, *out)[hp_global_linear_id(it)] = hp_hart();
}
HP_REGISTER(int_harts, .args_size = sizeof(uint64_t));

static int fpu_launch(const hp_kernel *k, const void *args, uint32_t size,
		      exec_range r)
{
	static exec_cmd c;
	c = (exec_cmd){
		.kernel = k, .args = args, .args_size = size, .range = r};
	int rc = exec_enqueue(NULL, &c);
	return rc ? rc : exec_wait(&c);
}

static void fpu_body(void *arg)
{
	const unsigned *want_team_refused = arg;
	if (hal_hart_idx() != 0) {
		exec_serve();
		return;
	}
	unsigned n = hal_hart_num();
	static const struct {
		unsigned schedule, chunk, team;
	} runs[] = {{EXEC_SCHED_GUIDED, 0, 1},
		    {EXEC_SCHED_STATIC, 0, 1},
		    {EXEC_SCHED_FIXED, 5, 1},
		    {EXEC_SCHED_GUIDED, 0, 2}};
	hp_fpu_harts_args fa = {.out = (uintptr_t)fpu_rec, .scale = 0.5f};
	for (unsigned i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		for (unsigned j = 0; j < FPU_ITEMS; j++)
			fpu_rec[j].hart = ~0u;
		exec_range r = {.work_dim = 1,
				.global = {FPU_ITEMS},
				.local = {4},
				.local_given = true,
				.schedule = runs[i].schedule,
				.chunk = runs[i].chunk,
				.team_size = runs[i].team};
		int rc = fpu_launch(&hp_kernel_fpu_harts, &fa, sizeof(fa), r);
		FCHECK(rc == 0, "fpu_harts run %u: %s", i, hp_error_name(rc));
		unsigned wrong = 0;
		for (unsigned j = 0; !rc && j < FPU_ITEMS; j++) {
			unsigned h = fpu_rec[j].hart;
			wrong += h >= n || !fpu_of[h] ||
				 fpu_rec[j].value != (float)j * 0.5f;
		}
		FCHECK(wrong == 0,
		       "fpu_harts run %u: %u work-items on a hart without an "
		       "FPU (or not run)",
		       i, wrong);
	}
	/* A team of every hart has the ones without an FPU: refused. */
	exec_range all = {.work_dim = 1,
			  .global = {FPU_ITEMS},
			  .local = {4},
			  .local_given = true,
			  .team_size = n};
	int rc = fpu_launch(&hp_kernel_fpu_harts, &fa, sizeof(fa), all);
	FCHECK(rc == (int)*want_team_refused, "team of %u: %s", n,
	       hp_error_name(rc));
	/* Integer kernels run everywhere: under the static schedule every
	 * worker, those without an FPU too, runs its own block (whichever
	 * harts the host's scheduler happens to run first). */
	uint64_t out = (uintptr_t)int_rec;
	unsigned on_without = 0;
	exec_range ir = {.work_dim = 1,
			 .global = {FPU_ITEMS},
			 .local = {4},
			 .local_given = true,
			 .schedule = EXEC_SCHED_STATIC};
	rc = fpu_launch(&hp_kernel_int_harts, &out, sizeof(out), ir);
	FCHECK(rc == 0, "int_harts: %s", hp_error_name(rc));
	for (unsigned j = 0; j < FPU_ITEMS; j++)
		on_without += !fpu_of[int_rec[j]];
	FCHECK(on_without > 0,
	       "integer kernels never ran on a hart without an FPU");
	exec_shutdown();
}

/* Harts 0 and 5 of 8 without an FPU; then one hart, without one: float
 * kernels are refused. */
static unsigned fpu_tests(void)
{
	static const bool some[8] = {false, true,  true, true,
				     true,  false, true, true};
	unsigned refused = (unsigned)HP_KERNEL_NOT_SUPPORTED;
	for (unsigned i = 0; i < 8; i++)
		hal_host_set_hart_caps(i, some[i] ? HAL_HART_FPU : 0);
	fpu_of = some;
	printf("test_exec: 8 harts, 0 and 5 without an FPU\n");
	exec_init(8);
	hal_host_run(8, fpu_body, &refused);
	for (unsigned i = 0; i < 8; i++)
		hal_host_set_hart_caps(i, HAL_HART_FPU | HAL_HART_MMU |
						  HAL_HART_S);

	static const bool none[1] = {false};
	hal_host_set_hart_caps(0, 0);
	exec_init(1);
	static exec_cmd c;
	hp_fpu_harts_args fa = {.out = (uintptr_t)fpu_rec, .scale = 1.0f};
	c = (exec_cmd){.kernel = &hp_kernel_fpu_harts,
		       .args = &fa,
		       .args_size = sizeof(fa),
		       .range = {.work_dim = 1, .global = {16}}};
	fpu_of = none;
	int rc = exec_enqueue(NULL, &c);
	FCHECK(rc == HP_KERNEL_NOT_SUPPORTED && c.error_detail,
	       "one hart without an FPU: %s", hp_error_name(rc));
	hal_host_set_hart_caps(0, HAL_HART_FPU | HAL_HART_MMU | HAL_HART_S);
	printf("test_exec: harts without an FPU: %u failed\n", fpu_failures);
	return fpu_failures;
}

int main(int argc, char **argv)
{
	/* The runner passes every host test a directory; only a number
	 * here is a hart count. */
	unsigned harts = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
	if (harts == 0)
		harts = 8;
	unsigned failures = 0;
	unsigned counts[] = {1, 4, harts, 64};
	for (unsigned i = 0; i < 4; i++) {
		ctx = (suite_ctx){.printf = printf,
				  .quick = counts[i] != harts,
				  .hammer = counts[i] >= harts};
		printf("test_exec: %u harts\n", counts[i]);
		exec_init(counts[i]);
		hal_host_run(counts[i], body, NULL);
		failures += ctx.failures;
	}
	failures += fpu_tests();
	printf("test_exec: %u failed\n", failures);
	return failures ? 1 : 0;
}
