/* SPDX-License-Identifier: MIT */
/* Argument blocks of the diagnostic kernels (device addresses as uint64_t,
 * so host and firmware of any XLEN agree). `ids` is in hartpool/ids.h. */
#ifndef KERNELS_DIAG_H
#define KERNELS_DIAG_H

#include <hartpool/mbox.h> /* HP_MEM_CHUNK */
#include <stdint.h>

/** copy: size bytes from src to dst; each work-item moves one
 * HP_MEM_CHUNK-byte piece (hartpool/mbox.h: the mailbox's COPY and FILL
 * packets run copy and fill). */
typedef struct {
	uint64_t dst, src, size;
} hp_copy_args;

/** fill: size bytes at dst with the low psize bytes of pattern. */
typedef struct {
	uint64_t dst, size, pattern, psize;
} hp_fill_args;

/** tally: counts[base + glin] += 1 (atomically). Shows every launch and
 * every work-item ran exactly once. */
typedef struct {
	uint64_t counts; /**< uint32_t[base + items] */
	uint64_t base;
} hp_tally_args;

/** affine: y[glin] = y[glin] * mul + add (uint32_t). Not idempotent and
 * order-sensitive: a chain of them shows order and exactly-once. */
typedef struct {
	uint64_t y; /**< uint32_t[items] */
	uint32_t mul, add;
} hp_affine_args;

/** add: c[glin] = a[glin] + b[glin] (uint32_t). */
typedef struct {
	uint64_t a, b, c;
} hp_add_args;

/** spin: every work-item computes for `iters` iterations and writes the
 * result to out[glin] (a long-running command for queue tests). */
typedef struct {
	uint64_t out; /**< uint32_t[items] */
	uint64_t iters;
} hp_spin_args;

/** gate: every work-item polls flag[0] until it is not 0 or it has
 * looked `iters` times; out[glin] = 1 if it saw the flag set, 0 if it
 * gave up (a command that runs until the host opens the gate). */
typedef struct {
	uint64_t out;  /**< uint32_t[items] */
	uint64_t flag; /**< uint32_t[1], the host's */
	uint64_t iters;
} hp_gate_args;

/** vregs (boards with the vector extension only, docs/vector.md): every
 * work-item fills the 32 vector registers with its pattern (byte j of
 * register r: seed + glin + (r % 8) * vlenb + j + (r / 8) * 41, mod 256)
 * and vl = 5 at e32, m1, then iterates spin's step `iters` times and,
 * every 1,024 steps, compares the registers, vl and vtype with what it
 * set; out[glin] = the number of comparisons that found a difference (0:
 * nothing changed its vector state behind its back). With iters 0 it only
 * looks: out[glin] = the bytes of v0-v31 that are not zero as it starts. */
typedef struct {
	uint64_t out; /**< uint32_t[items] */
	uint64_t iters;
	uint64_t seed;
} hp_vregs_args;

/** churn: `rounds` rounds; in each, every work-item iterates spin's step
 * `iters` times, then xors in its group successor's value, read from local
 * memory between two work-group barriers; out[glin] = its last value
 * (a long or endless kernel that waits at barriers, for team tests; local
 * size at most 256). */
typedef struct {
	uint64_t out; /**< uint32_t[items] */
	uint64_t iters;
	uint64_t rounds;
} hp_churn_args;

/** barrier_rotate: out[glin] = local linear id of the successor in the
 * group (wrapping within the actual group size), read after a barrier. */
typedef struct {
	uint64_t out; /**< uint32_t[items] */
} hp_barrier_rotate_args;

/** wg_count: per-group count of work-items by a local atomic counter, and a
 * global counter of all work-items. */
typedef struct {
	uint64_t per_group; /**< uint32_t[groups], by group linear id */
	uint64_t total;	    /**< uint32_t, zeroed by the caller */
} hp_wg_count_args;

/** sg_ops: every sub-group function on in[glin]; see kernels/sg_ops.c for
 * the HP_SG_OUT_* layout of the HP_SG_OUTS results per work-item. */
typedef struct {
	uint64_t in;  /**< int32_t[items] */
	uint64_t out; /**< uint64_t[items][HP_SG_OUTS] */
} hp_sg_ops_args;

/* Per type (int, uint, long, ulong, float) in this order: */
enum {
	HP_SG_BCAST0,	  /* broadcast from lane 0 */
	HP_SG_BCAST_LAST, /* broadcast from the last lane */
	HP_SG_SHUFFLE,	  /* shuffle from lane (id + 1) % size */
	HP_SG_RED_ADD,
	HP_SG_RED_MIN,
	HP_SG_RED_MAX,
	HP_SG_INC_ADD,
	HP_SG_INC_MIN,
	HP_SG_INC_MAX,
	HP_SG_EXC_ADD,
	HP_SG_EXC_MIN,
	HP_SG_EXC_MAX,
	HP_SG_PER_TYPE
};
#define HP_SG_TYPES_N 5
#define HP_SG_ANY (HP_SG_TYPES_N * HP_SG_PER_TYPE) /* any(in > 0) */
#define HP_SG_ALL (HP_SG_ANY + 1)		   /* all(in > 0) */
#define HP_SG_BARRIER (HP_SG_ALL + 1) /* sub-group barrier round trip */
#define HP_SG_OUTS (HP_SG_BARRIER + 1)
typedef uint64_t hp_sg_record[HP_SG_OUTS];

/** fpu_harts: a kernel that uses the FPU, so it runs only on harts that
 * have one (docs/design.md, 34): out[glin] = {the hart index that ran the
 * work-item, glin * scale}. */
typedef struct {
	uint32_t hart;
	float value;
} hp_fpu_harts_record;
typedef struct {
	uint64_t out; /**< hp_fpu_harts_record[items] */
	float scale;
	uint32_t reserved;
} hp_fpu_harts_args;

/** The fault kernels (firmware only, docs/faults.md): every work-item
 * writes out[glin] = 1, except the one with global linear id `victim`,
 * which faults (or hangs) instead. */
typedef struct {
	uint64_t out; /**< uint32_t[items] */
	uint64_t victim;
} hp_fault_args;

/** poke: work-item 0 stores `value` at `addr`, an address the device does
 * not check (the isolation tests). */
typedef struct {
	uint64_t addr;
	uint32_t value;
	uint32_t reserved;
} hp_poke_args;

/** lurk: every work-item plants a pattern in a private array (its stack)
 * and in its group's local memory, publishes their addresses in
 * out[3 * glin] and out[3 * glin + 1], waits until *flag is not 0 (or
 * `iters` rounds), and stores in out[3 * glin + 2] how many words of the
 * pattern changed meanwhile, plus 2^32 if it saw the flag (the tests of
 * kernels of different sessions running at once). Groups of one item. */
typedef struct {
	uint64_t out;  /**< uint64_t[3 * items] */
	uint64_t flag; /**< uint32_t[1] */
	uint64_t iters;
} hp_lurk_args;
#define HP_LURK_WORDS 64
/** What one lurking work-item writes (out[3 * glin] ..). */
typedef struct {
	uint64_t stack, local, changed;
} hp_lurk_out;

#endif
