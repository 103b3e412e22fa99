/* SPDX-License-Identifier: MIT */
/** @file The link stage (link.c): the built-in library, internalize,
 * optimize, verify. */
#ifndef HOST_CLC_LINK_H
#define HOST_CLC_LINK_H

#include "job.h"

int clc_stage_link(clc_job *j);
/** The built-in library's module, read lazily into the job's context: 0,
 * or 1 (said in the log). */
int clc_library_open(clc_job *j, LLVMModuleRef *lib);

#endif
