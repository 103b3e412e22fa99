/* SPDX-License-Identifier: MIT */
/** @file The package stage (desc.c): the descriptors and the metadata,
 * linked (objlink.c) and converted (package.c). */
#ifndef HOST_CLC_DESC_H
#define HOST_CLC_DESC_H

#include "job.h"

int clc_stage_package(clc_job *j);
/** A program without kernels: the object of its metadata only. */
int clc_stage_meta(clc_job *j);

#endif
