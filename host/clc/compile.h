/* SPDX-License-Identifier: MIT */
/** @file The compile stage (compile.c): the sources to LLVM bitcode
 * (clang-19 -c -emit-llvm). */
#ifndef HOST_CLC_COMPILE_H
#define HOST_CLC_COMPILE_H

#include "job.h"

int clc_stage_compile(clc_job *j);
/** The SPIR-V translator: HP_LLVM_SPIRV, or Debian's llvm-spirv-15; NULL
 * if there is none. */
const char *clc_translator(void);

#endif
