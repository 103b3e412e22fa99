/* SPDX-License-Identifier: MIT */
/** @file The build's tools (tools.c): the boards' ISAs, where the data is,
 * running the compilers and linkers, reading and writing files. Failures
 * are said in the build's log (fail.h). */
#ifndef HOST_CLC_TOOLS_H
#define HOST_CLC_TOOLS_H

#include "fail.h"
#include <stddef.h>
#include <stdint.h>

/** Where the data is: hp_data_dir() (hartpool_boards.h). */
const char *clc_root(void);

/** A board's ISA for building kernels. */
typedef struct clc_board {
	char arch[64];	  /**< -march of the code */
	char libarch[64]; /**< -march selecting picolibc/libgcc */
	char abi[32];
	unsigned xlen;
} clc_board;
/** Board @p board's ISA from the board table (hartpool_boards.h): 0, or
 * HP_INVALID_VALUE (said in @p l) if there is no such board. */
int clc_board_get(clc_log *l, const char *board, clc_board *out);

/** Run argv, its output to @p l's log; 0 if it exited 0, else -1 (what
 * went wrong is the program's own output). */
int clc_run(clc_log *l, char *const argv[]);
/** Whole file, malloc'd, with a NUL after its @p n bytes; NULL on failure
 * (or an empty file). */
uint8_t *clc_slurp(const char *path, size_t *n);
/** 0, or HP_OUT_OF_RESOURCES (said in @p l). */
int clc_write(clc_log *l, const char *path, const void *b, size_t n);

#endif
