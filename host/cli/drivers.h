/* SPDX-License-Identifier: MIT */
/**
 * @file What `hartpool run KERNEL` knows about each kernel of the library:
 * how to make its buffers and arguments (test data from a seed), and the
 * host reference that `--check` compares the device's output with.
 */
#ifndef HOST_CLI_DRIVERS_H
#define HOST_CLI_DRIVERS_H

#include <hartpool.h>

#define RUN_MAX_BUFS 8
/** Events of one launch sequence kept for finding the first failure (a
 * queue's ring: older records are reused). */
#define RUN_MAX_SEQ HP_MBOX_RING_SIZE

struct run_driver;

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
	/** --global was given (else the driver may choose its own range). */
	bool range_given;
	/** The driver (NULL if the tool has none for the kernel). */
	const struct run_driver *drv;
	/** The prepared argument block, for an enqueue hook. */
	const void *kargs;
	uint32_t kargs_size;
	/** The launches of the current sequence (run_enqueue). */
	hp_event seq[RUN_MAX_SEQ];
	unsigned long num_seq;
} run_ctx;

typedef struct run_driver {
	const char *name;
	const char *help;
	/** Make buffers and the argument block; 0 or an HP_ error. */
	int (*prepare)(run_ctx *c, void *args, uint32_t *args_size);
	/** Compare the output with the reference: 0 equal, 1 mismatch (in
	 * c->msg), or an HP_ error. */
	int (*check)(run_ctx *c);
	/** Optional, for kernels that need several launches: enqueue the
	 * whole sequence on c->q (in-order) with run_enqueue(), from
	 * c->kargs, and return its last event; 0 or an HP_ error (c->msg).
	 * NULL: one launch of the kernel over c->r. */
	int (*enqueue)(run_ctx *c, hp_event *last);
} run_driver;

/** The drivers of the kernel library (lib_drivers.c). */
extern const run_driver run_vadd, run_saxpy, run_sgemm_naive, run_sgemm_tiled,
	run_reduce_wg, run_reduce_sg, run_scan, run_histogram, run_transpose,
	run_conv2d, run_bitonic, run_mandelbrot;

/** The driver for @p name, or NULL. */
const run_driver *run_driver_find(const char *name);
/** Every driver, NULL-terminated. */
extern const run_driver *const run_drivers[];

/** The text after NAME= of --arg @p name, or NULL. */
const char *run_arg_str(const run_ctx *c, const char *name);
/** The value of --arg @p name as a number, or @p dflt. */
uint64_t run_arg(const run_ctx *c, const char *name, uint64_t dflt);

/** Allocate a device buffer of @p size bytes (at least 64) and a zeroed
 * host copy; returns its index, or an HP_ error (negative) with a message
 * naming the size in c->msg: HP_OUT_OF_RESOURCES (with the device's
 * detail) when the device or the host cannot hold it. UINT64_MAX stands
 * for a size past 64 bits. */
int run_buffer(run_ctx *c, uint64_t size, hp_buffer *out);

/** For enqueue hooks: launch @p kernel after the sequence's previous
 * launch (so a failure ends the rest with HP_ABORTED) and note it in
 * c->seq. */
int run_enqueue(run_ctx *c, uint32_t kernel, const hp_ndrange *r,
		const void *args, uint32_t args_size, hp_event *ev);

/** After a sequence's last event completed with @p last: report the whole
 * sequence there instead — the status and detail of the launch that failed
 * first, the first launch's local size and groups, device time from the
 * first launch's start. */
void run_sequence_info(run_ctx *c, hp_event_info *last);

/** Write host copy @p i to its device buffer; 0 or an HP_ error (the
 * message in c->msg). */
int run_upload(run_ctx *c, unsigned i);
/** run_upload() of buffers 0 and 1; 0 or the first error. */
int run_upload2(run_ctx *c);
/** Read @p size bytes of device buffer @p i into @p dst. */
int run_download(run_ctx *c, unsigned i, void *dst, uint64_t size);
/** A check could not hold @p bytes of result on the host:
 * HP_OUT_OF_RESOURCES with the size in c->msg. */
int run_host_oom(run_ctx *c, uint64_t bytes);

/** Free everything the driver made. */
void run_cleanup(run_ctx *c);

/* ---- kernels the tool has no driver for (generic.c) ---- */

/**
 * Build the argument block of a kernel from `--karg` specs, in order, laid
 * out like a C struct of the same members: `TYPE:VALUE` a scalar (TYPE
 * i32, u32, i64, u64, f32, f64), `buf:TYPE:COUNT[:INIT]` a buffer of COUNT
 * elements (its device address, a uint64_t), INIT `iota`, `rand` or a
 * number (default 0). 0 or an HP_ error with c->msg.
 */
int generic_prepare(run_ctx *c, const char *const *specs, unsigned n,
		    void *args, uint32_t *args_size);
/** Print every buffer generic_prepare() made: `bufN TYPE[COUNT]: v ...`
 * (at most @p max values each). */
int generic_print(run_ctx *c, unsigned long max);

/** The sub-group size a launch uses (the range's, the kernel's or the
 * device's). */
unsigned run_sub_group_size(const run_ctx *c);

#endif
