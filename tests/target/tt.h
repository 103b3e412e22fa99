/* SPDX-License-Identifier: MIT */
/* Helpers for on-target tests: TT_CHECK prints the failed condition with the
 * hart and counts it; a test's app_main returns tt_result(). */
#ifndef TESTS_TARGET_TT_H
#define TESTS_TARGET_TT_H

#include <hal/atomic.h>
#include <hal/console.h>
#include <hal/hart.h>

static unsigned tt_failures;

#define TT_CHECK(cond)                                                         \
	do {                                                                   \
		if (!(cond)) {                                                 \
			hal_fetch_add(&tt_failures, 1u);                       \
			hal_printf("FAIL hart %u: %s:%d: %s\n",                \
				   hal_hart_idx(), __FILE__, __LINE__, #cond); \
		}                                                              \
	} while (0)

/* Exit status for app_main: 0, or HAL_EXIT_FAIL if any check failed. */
static inline int tt_result(void)
{
	return hal_load_acquire(&tt_failures) ? 1 : 0;
}

#endif
