// SPDX-License-Identifier: MIT
/*
 * Harts without an FPU (docs/design.md, 34). Hart 0 drives and, waiting,
 * pulls work-groups too; on sifive-u and icicle-kit it is the E51 monitor
 * core, without an FPU. The float kernel fpu_harts must never run a
 * work-item on such a hart, in every schedule and in teams (a team with
 * such a hart stays out), and a team size that leaves no team with an FPU
 * on every hart is refused with HP_KERNEL_NOT_SUPPORTED; an integer kernel
 * runs there as well. On boards whose harts all have an FPU (or none, in a
 * soft-float build) every hart runs both.
 */
#include "tt.h"
#include <boot/app.h>
#include <executor/exec.h>
#include <hartpool/kernels/diag.h>
#include <kernels/registry.h>
#include <stdio.h>

#define ITEMS 3000

static HP_KERNEL_DATA hp_fpu_harts_record rec[ITEMS];
static HP_KERNEL_DATA uint32_t ints[ITEMS];
static HP_KERNEL_DATA uint64_t int_out;

HP_KERNEL(int_harts, const hp_item *it, const void *args)
{
	const uint64_t *out = args;
	HP_PTR(uint32_t, *out)[hp_global_linear_id(it)] = hp_hart();
}
HP_REGISTER(int_harts, .args_size = sizeof(uint64_t));

/* Can hart `h` run float kernels? */
static bool fpu(unsigned h)
{
	return !exec_kernel_needs(&hp_kernel_fpu_harts) ||
	       (exec_dev.caps[h] & EXEC_CAP_FPU);
}

/* Is there a team of `t` consecutive harts (from hart 0: no dedicated
 * driver here) that all have an FPU? */
static bool fpu_team(unsigned t, unsigned n)
{
	for (unsigned w = 0; w + t <= n; w += t) {
		bool all = true;
		for (unsigned h = w; h < w + t; h++)
			all = all && fpu(h);
		if (all)
			return true;
	}
	return false;
}

static int launch(const hp_kernel *k, const void *args, uint32_t size,
		  exec_range r)
{
	static exec_cmd c;
	c = (exec_cmd){
		.kernel = k, .args = args, .args_size = size, .range = r};
	int rc = exec_enqueue(NULL, &c);
	return rc ? rc : exec_wait(&c);
}

int app_main(void)
{
	if (!exec_start(boot_barrier_all, false))
		return 0;
	unsigned n = hal_hart_num(), without = 0;
	for (unsigned h = 0; h < n; h++)
		without += !fpu(h);
	hal_printf("fpu: %u harts, %u without an FPU%s\n", n, without,
		   without && !fpu(0) ? " (hart 0)" : "");

	static const struct {
		unsigned schedule, chunk, team;
	} runs[] = {{EXEC_SCHED_GUIDED, 0, 1},
		    {EXEC_SCHED_STATIC, 0, 1},
		    {EXEC_SCHED_FIXED, 3, 1},
		    {EXEC_SCHED_GUIDED, 0, 2}};
	static HP_KERNEL_DATA hp_fpu_harts_args fa;
	fa = (hp_fpu_harts_args){.out = (uintptr_t)rec, .scale = 0.5f};
	static unsigned ran[HAL_MAX_HARTS];
	unsigned launches = 0, wrong = 0;
	for (unsigned i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		if (runs[i].team > n)
			continue;
		for (unsigned j = 0; j < ITEMS; j++)
			rec[j].hart = ~0u;
		exec_range r = {.work_dim = 1,
				.global = {ITEMS},
				.local = {8},
				.local_given = true,
				.schedule = runs[i].schedule,
				.chunk = runs[i].chunk,
				.team_size = runs[i].team};
		int rc = launch(&hp_kernel_fpu_harts, &fa, sizeof(fa), r);
		TT_CHECK(rc == (fpu_team(runs[i].team, n)
					? 0
					: HP_KERNEL_NOT_SUPPORTED));
		launches += rc == 0;
		for (unsigned j = 0; !rc && j < ITEMS; j++) {
			unsigned h = rec[j].hart;
			TT_CHECK(h < n);
			if (h >= n)
				break;
			ran[h]++;
			wrong += !fpu(h);
		}
	}
	/* A team of every hart includes those without an FPU, if any. */
	exec_range all = {.work_dim = 1,
			  .global = {ITEMS},
			  .local = {8},
			  .local_given = true,
			  .team_size = n};
	int rc = launch(&hp_kernel_fpu_harts, &fa, sizeof(fa), all);
	TT_CHECK(rc == (fpu_team(n, n) ? 0 : HP_KERNEL_NOT_SUPPORTED));

	/* The integer kernel: hart 0 takes part while it waits (a few tries:
	 * the others may be quicker, more so on a loaded host). */
	int_out = (uintptr_t)ints;
	unsigned on0 = 0;
	for (unsigned t = 0; t < 200 && !on0; t++) {
		exec_range r = {.work_dim = 1, .global = {ITEMS}};
		TT_CHECK(launch(&hp_kernel_int_harts, &int_out, sizeof(int_out),
				r) == 0);
		for (unsigned j = 0; j < ITEMS; j++)
			on0 += ints[j] == 0;
	}
	TT_CHECK(n == 1 || on0 > 0);
	exec_shutdown();

	char line[HAL_PRINTF_MAX];
	size_t len = 0;
	for (unsigned h = 0; h < n && len < sizeof(line) - 12; h++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, " %u",
					ran[h]);
	hal_printf("fpu: float work-items per hart:%s\n", line);
	hal_printf("fpu: %u float launches, %u work-items on a hart without an "
		   "FPU; integer work-items on hart 0: %s\n",
		   launches, wrong, on0 ? "yes" : "no");
	TT_CHECK(wrong == 0);
	return tt_result();
}
