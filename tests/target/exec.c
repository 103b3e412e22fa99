// SPDX-License-Identifier: MIT
/* The executor suite (tests/common/exec_suite.c) in the firmware: hart 0
 * drives it, every other hart serves the work-pool. */
#include <boot/app.h>
#include <executor/exec.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <tests/common/exec_suite.h>

static suite_ctx ctx;

int app_main(void)
{
	if (!exec_start(boot_barrier_all, false))
		return 0;
	ctx = (suite_ctx){.printf = hal_printf, .hammer = true};
	suite_main(&ctx);
	exec_shutdown();
	for (unsigned i = 0; i < hal_hart_num() && i < 16; i++) {
		const exec_hart_stats *st = exec_stats(i);
		hal_printf("hart %u: %lu groups in %lu claims, %lu instance "
			   "switches, %lu sleeps\n",
			   i, st->groups, st->claims, st->instances,
			   st->sleeps);
	}
	return ctx.failures ? 1 : 0;
}
