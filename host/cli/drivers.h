/* SPDX-License-Identifier: MIT */
/**
 * @file What `hartpool run KERNEL` knows about each kernel of the library:
 * how to make its buffers and arguments (test data from a seed), and the
 * host reference that `--check` compares the device's output with.
 */
#ifndef HOST_CLI_DRIVERS_H
#define HOST_CLI_DRIVERS_H

#include <hartpool.h>

#define RUN_MAX_BUFS 4

typedef struct run_ctx {
	hp_device *d;
	hp_queue *q;
	uint32_t kernel;
	const hp_mbox_kernel *k;
	hp_ndrange r;
	uint64_t items; /**< work-items of the range (0 if invalid) */
	uint64_t seed;
	/** --arg NAME=VALUE pairs. */
	const char *const *args;
	unsigned num_args;
	/** The launch's result (local size used, status). */
	hp_event_info info;
	/** A mismatch or problem, for the user. */
	char msg[256];
	/** Buffers the driver made (freed by run_cleanup). */
	hp_buffer bufs[RUN_MAX_BUFS];
	uint64_t buf_size[RUN_MAX_BUFS];
	unsigned num_bufs;
	/** Host copies the driver keeps for the check. */
	void *host[RUN_MAX_BUFS];
	/** Values compared by the check. */
	uint64_t compared;
	/** Launches (run --repeat). */
	unsigned long repeat;
} run_ctx;

typedef struct run_driver {
	const char *name;
	const char *help;
	/** Make buffers and the argument block; 0 or an HP_ error. */
	int (*prepare)(run_ctx *c, void *args, uint32_t *args_size);
	/** Compare the output with the reference: 0 equal, 1 mismatch (in
	 * c->msg), or an HP_ error. */
	int (*check)(run_ctx *c);
} run_driver;

/** The driver for @p name, or NULL. */
const run_driver *run_driver_find(const char *name);
/** Every driver, NULL-terminated. */
extern const run_driver *const run_drivers[];

/** The value of --arg @p name as a number, or @p dflt. */
uint64_t run_arg(const run_ctx *c, const char *name, uint64_t dflt);

/** Allocate a device buffer of @p size bytes (at least 64) and a zeroed
 * host copy; returns its index or -1 with the error in c->msg. */
int run_buffer(run_ctx *c, uint64_t size, hp_buffer *out);

/** Free everything the driver made. */
void run_cleanup(run_ctx *c);

/** The sub-group size a launch uses (the range's, the kernel's or the
 * device's). */
unsigned run_sub_group_size(const run_ctx *c);

#endif
