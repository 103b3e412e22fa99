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
/** What clang -O2 does to a source before the read stage looks at it
 * (a translated module may be as its producer's -O0 left it; a linked
 * one calls across its objects): thunks and helpers inlined, the IR
 * simplified; loops left to the stages after (the row loop unrolls, the
 * code generator vectorises). A compile's module only has its
 * always-inline functions inlined: it keeps what it defines for the link.
 * Needs the target machine (j->tm). */
int clc_optimize_module(clc_job *j);

#endif
