/* SPDX-License-Identifier: MIT */
/** @file The rewrite stage (rewrite.c): kernel-scope __local variables
 * thread_local; the entries unpacking the argument block. */
#ifndef HOST_CLC_REWRITE_H
#define HOST_CLC_REWRITE_H

#include "job.h"

int clc_stage_rewrite(clc_job *j);

#endif
