/* SPDX-License-Identifier: MIT */
/* The test controls of the fake libhartpool (tests/icd/fake_hartpool.c). */
#ifndef FAKE_HARTPOOL_H
#define FAKE_HARTPOOL_H

#include <stdbool.h>
#include <stdint.h>

struct fake_hp_stats {
	unsigned opens;
	unsigned allocs, frees, buffers_live;
	unsigned commands, kernels, completed;
	unsigned objects_loaded, objects_unloaded;
};

/** Commands enqueued from now on wait until fake_hp_run() or a wait for
 * them completes them (false: they complete at once, the default). */
void fake_hp_hold(bool on);
/** Complete the @p n oldest pending commands; returns how many ran. */
unsigned fake_hp_run(unsigned n);
/** Commands not complete. */
unsigned fake_hp_pending(void);
struct fake_hp_stats fake_hp_stats(void);
/** The host memory behind device address @p b (NULL: no buffer), and the
 * bytes from there to the buffer's end. */
void *fake_hp_buffer_mem(uint64_t b, uint64_t *size);
/** The argument block of the latest kernel enqueued (HP_MBOX_ARGS_MAX
 * bytes). */
const void *fake_hp_last_args(void);

#endif
