/* SPDX-License-Identifier: MIT */
/*
 * The work-items of a barrier kernel as fibers (wg.c) and the sub-group
 * collectives between them (subgroup.c). Kernel-visible memory (kview.h):
 * the records live in the hart's fiber bookkeeping.
 *
 * Scheduling is round-robin in local id order. hp_barrier() continues the
 * next work-item of the hart (ring 0); the last one continues the first,
 * after the harts of a team met. The sub-group barrier and collectives
 * continue the next lane of the sub-group (ring 1), the last lane the first.
 * Because every work-item reaches the same barriers in the same order
 * (OpenCL), the next one in a ring is always either new or waiting at a
 * barrier that is already complete, so a barrier needs no arrival count
 * and no state per work-item: a switch is three words. Divergence shows as
 * a work-item that finished while others are left (checked at the end and
 * at the work-group ring's end) or a finished one being continued.
 */
#ifndef EXECUTOR_FIBER_H
#define EXECUTOR_FIBER_H

#include "kview.h"
#include <hal/fiber.h>

#define EXEC_MAX_ITEMS HP_SG_BANK_STRIDE /* dev.max_work_group_size */

struct exec_wg;

struct exec_fiber {
	hal_fiber hf; /* first: hp_item.fiber points at it */
	struct exec_wg *wg;
	hp_item item;
};

struct exec_wg {
	exec_kview *kv;
	bool user; /* in U-mode (exec_ucall.user) */
	bool aborted;
	bool team; /* a share of a group spread over a team */
	const void *args;
	hp_kernel_fn fn;
	unsigned count; /* fibers on this hart */
	unsigned live;	/* fibers not finished */
	hal_fiber main; /* the hart's own context while fibers run */
	/* The sub-groups' collectives (kernel.h): accumulators per
	 * sub-group and bank, a slot per item and bank. */
	uint64_t acc[EXEC_MAX_ITEMS][2];
	uint64_t slots[2][HP_SG_BANK_STRIDE];
	struct exec_fiber fibers[EXEC_MAX_ITEMS];
};

#endif
