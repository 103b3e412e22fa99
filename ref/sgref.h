/* SPDX-License-Identifier: MIT */
/** @file Reference results of the sg_ops diagnostic kernel. */
#ifndef TESTS_COMMON_SGREF_H
#define TESTS_COMMON_SGREF_H

#include <hartpool/kernels/diag.h>
#include <stdbool.h>
#include <stdint.h>

/**
 * The HP_SG_OUTS results of lane @p me of a sub-group of @p cnt (1..64)
 * lanes whose inputs, in lane order, are @p lanes.
 */
void sgref_item(const int32_t *lanes, unsigned cnt, unsigned me,
		uint64_t want[HP_SG_OUTS]);

#endif
