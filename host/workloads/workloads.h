/* SPDX-License-Identifier: MIT */
/**
 * @file Workloads: what `hartpool run KERNEL` knows about each kernel of the
 * firmware (`hartpool run --list`): how to make its buffers and argument
 * block (test data from a seed and --arg NAME=VALUE), optionally how to
 * launch it as a sequence, and the host reference that `--check` compares
 * the device's output with. The workloads of the diagnostic kernels are in
 * diag.c, those of the kernel library in lib_dense.c and lib_seq.c (with
 * lib_common.c); the table of all of them in table.c, what they share in
 * common.c. A library of its own (libhartpool-workloads.a): the CLI and the
 * tests link it.
 */
#ifndef HOST_WORKLOADS_WORKLOADS_H
#define HOST_WORKLOADS_WORKLOADS_H

#include <hartpool.h>
#include <hartpool/mbox.h>

#define WORKLOAD_MAX_BUFS 8
/** Events of one launch sequence kept for finding the first failure (a
 * queue's ring: older records are reused). */
#define WORKLOAD_MAX_SEQ HP_MBOX_RING_SIZE

struct workload;

/** One run of a workload: its device, queue, kernel, range, buffers and
 * result. */
typedef struct workload_ctx {
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
	/** Buffers the workload made (freed by workload_cleanup). */
	hp_buffer bufs[WORKLOAD_MAX_BUFS];
	uint64_t buf_size[WORKLOAD_MAX_BUFS];
	/** The bytes asked for (buf_size: allocated, at least 64). */
	uint64_t buf_len[WORKLOAD_MAX_BUFS];
	unsigned num_bufs;
	/** Host copies the workload keeps for the check. */
	void *host[WORKLOAD_MAX_BUFS];
	/** Values compared by the check. */
	uint64_t compared;
	/** Launches (run --repeat). */
	unsigned long repeat;
	/** --global was given (else the workload may choose its own range). */
	bool range_given;
	/** The workload (NULL if the tool has none for the kernel). */
	const struct workload *wl;
	/** The prepared argument block, for an enqueue hook. */
	const void *kargs;
	uint32_t kargs_size;
	/** The launches of the current sequence (workload_enqueue). */
	hp_event seq[WORKLOAD_MAX_SEQ];
	unsigned long num_seq;
} workload_ctx;

/** The split dimension of a kernel that can be split along any: the
 * range's outermost (workload_split.dim). */
#define WORKLOAD_OUTERMOST 2

/**
 * How `run --devices N` deals a kernel's range out to N devices: slabs of
 * whole work-groups along one dimension, each launched on its own device
 * with the slab's global offset. The dimension is `dim`, or the range's
 * outermost if the range has fewer. Each output buffer must be rows of
 * that dimension: the slab [lo, hi) (indices counted from the range's
 * start) writes exactly its bytes [lo * s, hi * s), s = the buffer's
 * length / the global size along it. outputs 0: the kernel cannot be
 * split (its outputs are not indexed so: a reduction, a histogram).
 */
typedef struct workload_split {
	uint8_t outputs; /**< bit i: buffer i (workload_buffer order) */
	uint8_t dim;	 /**< 0..2 (WORKLOAD_OUTERMOST: the last one) */
	/** For a kernel that indexes its buffers by hp_global_linear_id()
	 * (which does not count the global offset): move every buffer
	 * address of the argument block @p args by @p items elements, so
	 * the slab's items reach their own elements. NULL: the kernel
	 * indexes by global id. */
	void (*rebase)(void *args, uint64_t items);
} workload_split;

/** The workload of one kernel. */
typedef struct workload {
	const char *name; /**< the kernel's name */
	const char *help; /**< one line for `run --list` and `kernels` */
	/** Make buffers and the argument block; 0 or an HP_ error. */
	int (*prepare)(workload_ctx *c, void *args, uint32_t *args_size);
	/** Compare the output with the reference: 0 equal, 1 mismatch (in
	 * c->msg), or an HP_ error. */
	int (*check)(workload_ctx *c);
	/** Optional, for kernels that need several launches: enqueue the
	 * whole sequence on c->q (in-order) with workload_enqueue(), from
	 * c->kargs, and return its last event; 0 or an HP_ error (c->msg).
	 * NULL: one launch of the kernel over c->r. */
	int (*enqueue)(workload_ctx *c, hp_event *last);
	/** How `run --devices` splits it (all 0, the default: it cannot
	 * be). */
	workload_split split;
} workload;

/** The workload of the kernel called @p name, or NULL. */
const workload *workload_find(const char *name);
/** Every workload, in `run --list` order, NULL-terminated. */
extern const workload *const workloads[];

/** The workloads of the diagnostic kernels (diag.c,
 * include/hartpool/kernels/diag.h) and of the kernel library (lib_dense.c,
 * lib_seq.c; include/hartpool/kernels/lib.h). */
extern const workload workload_empty, workload_hello, workload_ids,
	workload_wg_count, workload_barrier_rotate, workload_sg_ops,
	workload_copy, workload_fill, workload_tally, workload_affine,
	workload_add, workload_spin, workload_fault_illegal,
	workload_fault_load, workload_fault_store, workload_fault_misaligned,
	workload_fault_ebreak, workload_fault_stack, workload_fault_kstack,
	workload_fault_csr, workload_fault_data, workload_fault_mmio,
	workload_fault_exec, workload_fault_ecall, workload_hang;
extern const workload workload_vadd, workload_saxpy, workload_sgemm_naive,
	workload_sgemm_tiled, workload_reduce_wg, workload_reduce_sg,
	workload_scan, workload_histogram, workload_transpose, workload_conv2d,
	workload_bitonic, workload_mandelbrot;

/* ---- what every workload uses (common.c) ---- */

/** The text after NAME= of --arg @p name, or NULL. */
const char *workload_arg_str(const workload_ctx *c, const char *name);
/** The value of --arg @p name as a number, or @p dflt. */
uint64_t workload_arg(const workload_ctx *c, const char *name, uint64_t dflt);

/** Allocate a device buffer of @p size bytes (at least 64) and a zeroed
 * host copy; returns its index, or an HP_ error (negative) with a message
 * naming the size in c->msg: HP_OUT_OF_RESOURCES (with the device's
 * detail) when the device or the host cannot hold it. UINT64_MAX stands
 * for a size past 64 bits. */
int workload_buffer(workload_ctx *c, uint64_t size, hp_buffer *out);
/** In a prepare hook: workload_buffer() into @p addr (a buffer field of
 * the argument block), returning its error from the hook. */
#define NEED_BUF(c, size, addr)                                                \
	do {                                                                   \
		int rc_ = workload_buffer((c), (size), (addr));                \
		if (rc_ < 0)                                                   \
			return rc_;                                            \
	} while (0)

/** For enqueue hooks: launch @p kernel after the sequence's previous
 * launch (so a failure ends the rest with HP_ABORTED) and note it in
 * c->seq. */
int workload_enqueue(workload_ctx *c, uint32_t kernel, const hp_ndrange *r,
		     const void *args, uint32_t args_size, hp_event *ev);

/** After a sequence's last event completed with @p last: report the whole
 * sequence there instead — the status and detail of the launch that failed
 * first, the first launch's local size and groups, device time from the
 * first launch's start. */
void workload_sequence_info(workload_ctx *c, hp_event_info *last);

/** Write host copy @p i to its device buffer; 0 or an HP_ error (the
 * message in c->msg). */
int workload_upload(workload_ctx *c, unsigned i);
/** workload_upload() of buffers 0 and 1; 0 or the first error. */
int workload_upload2(workload_ctx *c);
/** Read @p size bytes of device buffer @p i into @p dst. */
int workload_download(workload_ctx *c, unsigned i, void *dst, uint64_t size);
/** A check could not hold @p bytes of result on the host:
 * HP_OUT_OF_RESOURCES with the size in c->msg. */
int workload_host_oom(workload_ctx *c, uint64_t bytes);

/** Free everything the workload made. */
void workload_cleanup(workload_ctx *c);

/** The sub-group size a launch uses (the range's, the kernel's or the
 * device's). */
unsigned workload_sub_group_size(const workload_ctx *c);

#endif
