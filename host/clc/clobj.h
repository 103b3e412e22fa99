/* SPDX-License-Identifier: MIT */
/** @file Separate compilation (clobj.c): compiled objects and libraries
 * read and linked into the job's module, or the module written as one. */
#ifndef HOST_CLC_CLOBJ_H
#define HOST_CLC_CLOBJ_H

#include "job.h"

/** HP_CL_LINK: the inputs into j->mod: 0 or an HP_ error (the log). */
int clc_stage_link_objects(clc_job *j);
/** The module as a compiled object or library (@p kind) in j->hpk. */
int clc_stage_object(clc_job *j, unsigned kind);

#endif
