/* SPDX-License-Identifier: MIT */
/** @file Code generation (codegen.c): the RISC-V object. */
#ifndef HOST_CLC_CODEGEN_H
#define HOST_CLC_CODEGEN_H

#include "job.h"

/** The job's target machine (after the read stage). */
int clc_target_machine(clc_job *j);
int clc_stage_codegen(clc_job *j);

#endif
