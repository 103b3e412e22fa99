/* SPDX-License-Identifier: MIT */
/** @file SPIR-V programs (spir.c): the translator's SPIR module made a
 * RISC-V one for the stages after read (target, data layout, calling
 * convention, the built-ins bound to the library's). */
#ifndef HOST_CLC_SPIR_H
#define HOST_CLC_SPIR_H

#include "job.h"

/** After the read stage's parse of a translated module: 0 or an HP_ error
 * said in the log. Opens the library (j->lib) and the target machine. */
int clc_spir_fixup(clc_job *j);

#endif
