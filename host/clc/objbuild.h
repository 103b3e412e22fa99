/* SPDX-License-Identifier: MIT */
/** @file The kernel build pipeline's shared parts (host/clc): the tools
 * (tools.c: log, boards, running compilers, files), the link (objlink.c)
 * and the ELF-to-.hpk conversion (package.c), used by `hartpool build` (C)
 * and hp_cl_build (OpenCL C, clc.c and the stages of job.h). */
#ifndef HOST_CLC_OBJBUILD_H
#define HOST_CLC_OBJBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Where messages of the calling thread's build go (NULL: stderr);
 * compiler and linker output included. */
extern __thread FILE *hpb_log;

/** "hartpool: HP_INVALID_BINARY: build: ..." to the log; returns 1. */
int hpb_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** Where the data is: hp_data_dir() (hartpool_boards.h). */
const char *clc_root(void);
/** Variable KEY of board B (hartpool_boards.h: the table make
 * generates from board/B/board.mk). */
bool hpb_board_var(const char *board, const char *key, char *out, size_t n);

/** A board's ISA for building kernels. */
typedef struct clc_board {
	char arch[64];	  /**< -march of the code */
	char libarch[64]; /**< -march selecting picolibc/libgcc */
	char abi[32];
	unsigned xlen;
} clc_board;
/** 0, or 1 with the message logged. */
int clc_board_get(const char *board, clc_board *out);

/** Run argv (its output to the log); 0 if it exited 0. */
int clc_run(char *const argv[]);
/** Link @p objs at address 0 with linker/object.ld, picolibc (libm
 * included) and libgcc into @p elfout; 0 or 1. */
int clc_link(const clc_board *b, const char *const *objs, unsigned n,
	     const char *elfout);
/** The linked ELF -> .hpk bytes (malloc'd); 0 or 1 (logged). Each
 * kernel's local_mem_bytes becomes at least the end of its own
 * thread-local (OpenCL __local) variables, "NAME.var"; the kernels named
 * in @p all_local (NULL-ended, may be NULL) get room for every one of them
 * (they call other kernels, or use the run-time's own). */
int clc_convert(const uint8_t *elf, size_t size, unsigned xlen,
		const char *const *all_local, void **out, size_t *outn);
/** A kernel object without kernels (an OpenCL program that has none):
 * the header and the metadata text @p meta as its image, no code. The
 * device refuses to load it (no code, no kernel descriptors); nothing
 * needs to. 0 or 1 (logged). */
int clc_meta_object(unsigned xlen, unsigned float_abi, const char *meta,
		    void **out, size_t *outn);
/** Whole file, malloc'd, with a NUL after its @p n bytes; NULL on failure
 * (or an empty file). */
uint8_t *clc_slurp(const char *path, size_t *n);
int clc_write(const char *path, const void *b, size_t n);

/** `hartpool build` of C sources: compile each with the cross gcc
 * (@p extra: -I/-D words, @p opt: -O level), link, convert, write @p out
 * and its ELF next to it. 0 or 1. */
int clc_build_c(const char *board, const char *const *srcs, unsigned ns,
		const char *const *extra, unsigned ne, const char *opt,
		const char *out);

#endif
