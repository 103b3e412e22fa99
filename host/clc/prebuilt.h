/* SPDX-License-Identifier: MIT */
/*
 * What the build cache and the prebuilt objects share (prebuilt.c), none
 * of it needing the compiler: the cache's folder and file reads, and the
 * prebuilt store. Every object hp_cl_build makes is also kept under a key
 * of what the build was asked (sources, options, board, local memory),
 * in $cache/prebuilt/BOARD/, so that host tools without a compiler (a
 * Linux guest's, host/clc/nocompiler.c) find the objects a build host
 * made for the same program: docs/boards/qemu-virt-amp.md.
 */
#ifndef HOST_CLC_PREBUILT_H
#define HOST_CLC_PREBUILT_H

#include "sha256.h"
#include <hartpool_cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Whether HARTPOOL_CACHE leaves the cache on. */
bool clc_cache_on(void);
/** The cache's folder, made if need be: $HARTPOOL_CACHE_DIR, else
 * $XDG_CACHE_HOME/hartpool/kernels, else ~/.cache/hartpool/kernels. */
bool clc_cache_dir(char *out, size_t n);
/** The whole file, malloc'd with a NUL after its @p n bytes; NULL if it
 * cannot be read (quietly: a cache that cannot work costs time only). */
uint8_t *clc_read_all(const char *path, size_t *n);
/** Write @p n bytes to @p path: 0, or 1 if that failed. */
int clc_write_all(const char *path, const void *b, size_t n);
/** Add @p v (may be NULL) to @p s, tagged and with its length. */
void clc_sha256_str(clc_sha256 *s, const char *tag, const char *v);

/** Add what build @p o asks (sources, options, board, source name,
 * local memory) to @p s. */
void clc_sha256_request(clc_sha256 *s, const hp_cl_build_options *o);

/** Keep the object @p hpk (@p size bytes) and its log built for @p o in
 * the prebuilt store. */
void clc_prebuilt_put(const hp_cl_build_options *o, const void *hpk,
		      size_t size, const char *log);
/** The object prebuilt for @p o: from $HARTPOOL_PREBUILT_DIR/BOARD/, else
 * the cache's prebuilt store; true if found (malloc'd @p hpk, @p log). */
bool clc_prebuilt_get(const hp_cl_build_options *o, void **hpk, size_t *size,
		      char **log);
/** Where clc_prebuilt_get looks for @p board's objects. */
void clc_prebuilt_dir(const char *board, char *out, size_t n);

#endif
