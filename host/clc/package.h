/* SPDX-License-Identifier: MIT */
/** @file The ELF-to-.hpk conversion (package.c). */
#ifndef HOST_CLC_PACKAGE_H
#define HOST_CLC_PACKAGE_H

#include "fail.h"
#include <stddef.h>
#include <stdint.h>

/** The linked ELF -> .hpk bytes (malloc'd); 0 or an HP_ error (said in
 * @p l). Each kernel's local_mem_bytes becomes at least the end of its own
 * thread-local (OpenCL __local) variables, "NAME.var"; the kernels named
 * in @p all_local (NULL-ended, may be NULL) get room for every one of them
 * (they call other kernels, or use the run-time's own). */
int clc_convert(clc_log *l, const uint8_t *elf, size_t size, unsigned xlen,
		const char *const *all_local, void **out, size_t *outn);
/** A kernel object without kernels (an OpenCL program that has none):
 * the header and the metadata text @p meta as its image, no code. The
 * device refuses to load it (no code, no kernel descriptors); nothing
 * needs to. 0 or HP_OUT_OF_RESOURCES (said in @p l). */
int clc_meta_object(clc_log *l, unsigned xlen, unsigned float_abi,
		    const char *meta, void **out, size_t *outn);

#endif
