/* SPDX-License-Identifier: MIT */
/** @file The kernels compiled into the firmware, in one explicit table. */
#ifndef KERNELS_REGISTRY_H
#define KERNELS_REGISTRY_H

#include <hartpool/kernel.h>

extern const hp_kernel hp_kernel_ids, hp_kernel_barrier_rotate,
	hp_kernel_wg_count, hp_kernel_sg_ops, hp_kernel_copy, hp_kernel_fill,
	hp_kernel_empty, hp_kernel_tally, hp_kernel_affine, hp_kernel_add,
	hp_kernel_spin;

/** Every registered kernel, NULL-terminated. */
extern const hp_kernel *const hp_kernel_registry[];

/** The kernel called @p name, or NULL. */
const hp_kernel *hp_kernel_find(const char *name);

#endif
