/* SPDX-License-Identifier: MIT */
/* Argument blocks of the diagnostic kernels (device addresses as uint64_t,
 * so host and firmware of any XLEN agree). `ids` is in hartpool/ids.h. */
#ifndef KERNELS_DIAG_H
#define KERNELS_DIAG_H

#include <stdint.h>

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

#endif
