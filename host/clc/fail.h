/* SPDX-License-Identifier: MIT */
/** @file How the kernel compiler fails (fail.c): an HP_ code
 * (hartpool/error.h) and a sentence, said once in the build's log, where
 * the compilers' and linkers' output goes too. The code said is the code
 * returned. */
#ifndef HOST_CLC_FAIL_H
#define HOST_CLC_FAIL_H

#include <stdio.h>

/** A build's log: a job's (job.h) or `hartpool build`'s of C sources. */
typedef struct clc_log {
	FILE *f;       /**< the build log; NULL: stderr (`hartpool build`) */
	int code;      /**< the last failure's HP_ code, 0 while none */
	char why[512]; /**< its sentence */
} clc_log;

/** "hartpool: NAME: build: sentence" into @p l's log (stderr if @p l is
 * NULL), the code and the sentence kept in @p l; returns @p code. */
int clc_fail(clc_log *l, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/** Where @p l's messages go: its log, else stderr. */
FILE *clc_out(const clc_log *l);

#endif
