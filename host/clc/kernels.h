/* SPDX-License-Identifier: MIT */
/** @file The read stage (kernels.c): the bitcode into the job's module;
 * the kernels, their parameters, argument metadata, block layout, the
 * call graph. */
#ifndef HOST_CLC_KERNELS_H
#define HOST_CLC_KERNELS_H

#include "job.h"

/** The bitcode (j->bc) into the job's module: 0 or an HP_ error. */
int clc_stage_parse(clc_job *j);
/** The kernels of the job's module (after clc_stage_parse). */
int clc_stage_read(clc_job *j);
/** Parameter @p i's byval type, or NULL. */
LLVMTypeRef clc_byval_type(LLVMValueRef fn, unsigned i);

#endif
