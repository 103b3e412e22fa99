/* SPDX-License-Identifier: MIT */
/** @file SHA-256 (sha256.c, FIPS 180-4), the build cache's key. */
#ifndef HOST_CLC_SHA256_H
#define HOST_CLC_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint32_t h[8];
	uint64_t len;
	uint8_t buf[64];
	size_t n;
} clc_sha256;

void clc_sha256_init(clc_sha256 *s);
void clc_sha256_add(clc_sha256 *s, const void *data, size_t len);
/** The digest as 64 hex digits (@p s is spent). */
void clc_sha256_hex(clc_sha256 *s, char out[65]);

#endif
