// SPDX-License-Identifier: MIT
/* The executor on the host, threads as harts: the shared suite
 * (tests/common/exec_suite.c) with 1, 4 and 8 harts, and the pool stress
 * with 64 harts. */
#include <executor/exec.h>
#include <hal/hart.h>
#include <hal_host.h>
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
	printf("test_exec: %u failed\n", failures);
	return failures ? 1 : 0;
}
