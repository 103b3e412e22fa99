/* SPDX-License-Identifier: MIT */
/** @file The link of kernel objects (objlink.c) and `hartpool build` of C
 * sources. */
#ifndef HOST_CLC_OBJLINK_H
#define HOST_CLC_OBJLINK_H

#include "tools.h"

/** Link @p objs at address 0 with linker/object.ld, picolibc (libm
 * included) and libgcc into @p elfout; 0 or an HP_ error (said in @p l). */
int clc_link(clc_log *l, const clc_board *b, const char *const *objs,
	     unsigned n, const char *elfout);

/** `hartpool build` of C sources: compile each with the cross gcc
 * (@p extra: -I/-D words, @p opt: -O level), link, convert, write @p out
 * and its ELF next to it. 0 or an HP_ error (said on stderr). */
int clc_build_c(const char *board, const char *const *srcs, unsigned ns,
		const char *const *extra, unsigned ne, const char *opt,
		const char *out);

#endif
