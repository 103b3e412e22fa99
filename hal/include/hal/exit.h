/* SPDX-License-Identifier: MIT */
/**
 * @file Ending the run. On QEMU the sifive_test finisher makes the
 * emulator's exit status the verdict: 0 = pass, otherwise the code.
 */
#ifndef HAL_EXIT_H
#define HAL_EXIT_H

/* Exit codes used by the firmware itself (apps use 1 for "test failed"). */
#define HAL_EXIT_PASS 0
#define HAL_EXIT_FAIL 1
#define HAL_EXIT_BOOT 2 /**< boot could not complete */
#define HAL_EXIT_TRAP 3 /**< unexpected trap */

/** End the run with @p code (0..0xffff). Does not return. */
__attribute__((noreturn)) void hal_exit(unsigned code);

#endif
