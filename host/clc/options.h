/* SPDX-License-Identifier: MIT */
/** @file The build options (options.c): growable text, the options as
 * clang gets them, the board's extension and feature lists (no LLVM). */
#ifndef HOST_CLC_OPTIONS_H
#define HOST_CLC_OPTIONS_H

#include "tools.h"
#include <stdbool.h>
#include <stddef.h>

/* Growable text. */
typedef struct {
	char *s;
	size_t n, cap;
	bool oom;
} clc_sbuf;

void clc_sb_add(clc_sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** The build options of a job. */
typedef struct {
	char *words[128]; /* what clang gets as it is (-D, -I, -cl-...) */
	unsigned n;
	char std[16];
	bool opt_disable;
	bool item_calls; /* -cl-hartpool-item-calls: no row loop (rowloop.c) */
	bool create_library; /* link: -create-library */
} clc_opts;

/** A program: the one environment variable @p env names (NULL if it is
 * not executable), else the first of @p names that is; NULL if none. */
const char *clc_tool(const char *env, const char *const *names, size_t n);

/** 0 or an HP_ error, its messages in @p log. @p link: clLinkProgram's
 * options (-create-library, -enable-link-options with it, the math
 * options), else clBuildProgram's and clCompileProgram's. */
int clc_opts_parse(const char *s, bool link, clc_opts *o, clc_sbuf *log);
void clc_opts_free(clc_opts *o);
/** -cl-ext=-all,+... for the board. */
void clc_extensions(const clc_board *b, char *out, size_t n);
/** "+m,+a,..." of the board's ISA letters (and -relax). */
void clc_features(const clc_board *b, char *out, size_t n);
/** Does the board's ISA have the vector extension (a 'v' among its single
 * letters)? */
bool clc_board_vector(const clc_board *b);
/** The board's harts have D (fp64). */
bool clc_board_has_d(const clc_board *b);

#endif
