/* SPDX-License-Identifier: MIT */
/** @file The compile stage (compile.c): the sources to LLVM bitcode
 * (clang-19 -c -emit-llvm). */
#ifndef HOST_CLC_COMPILE_H
#define HOST_CLC_COMPILE_H

#include "job.h"

int clc_stage_compile(clc_job *j);

#endif
