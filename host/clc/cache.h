/* SPDX-License-Identifier: MIT */
/*
 * The build cache (docs/opencl.md, "The build cache"): kernel objects built
 * from OpenCL C, kept under $XDG_CACHE_HOME/hartpool/kernels (or
 * $HARTPOOL_CACHE_DIR) by a SHA-256 of everything the object depends on:
 * the sources, the options, the board, the device limits the build checks,
 * and the identity (size, time, inode) of the compiler, the built-in
 * library, the linker script, the headers and this code. HARTPOOL_CACHE=0
 * turns it off. A build that fails is not kept.
 */
#ifndef HOST_CLC_CACHE_H
#define HOST_CLC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct clc_job;

/** The job's key into @p key; false if the cache is off or has no folder. */
bool clc_cache_key(const struct clc_job *j, char key[65]);
/** The object (and build log; and the ELF to @p elf_path if not NULL) of
 * @p key: true if found (malloc'd @p hpk of @p size bytes, @p log). */
bool clc_cache_get(const char *key, void **hpk, size_t *size, char **log,
		   const char *elf_path);
/** Keep a built object, its log and (if not NULL) its ELF under @p key.
 * Failures only cost the next build its time. */
void clc_cache_put(const char *key, const void *hpk, size_t size,
		   const char *log, const char *elf_path);

#endif
