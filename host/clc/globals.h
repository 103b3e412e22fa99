/* SPDX-License-Identifier: MIT */
/** @file Program-scope global variables (globals.c): moved into a block
 * of the program's own, which the host allocates and fills. */
#ifndef HOST_CLC_GLOBALS_H
#define HOST_CLC_GLOBALS_H

#include "job.h"

/** After the read stage (needs j->tm): j->globals_size, 0 or an HP_ error
 * (said in the log). */
int clc_stage_globals(clc_job *j);

#endif
