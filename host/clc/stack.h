/* SPDX-License-Identifier: MIT */
/** @file Kernels' stacks (stack.c). */
#ifndef HOST_CLC_STACK_H
#define HOST_CLC_STACK_H

#include "job.h"

/** Ask the code generator for every frame; take its report (true if
 * @p desc was one); each kernel's need, checked. */
void clc_stack_mark(clc_job *j);
bool clc_stack_diag(clc_job *j, const char *desc);
int clc_stack_check(clc_job *j);

#endif
