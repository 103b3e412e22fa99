// SPDX-License-Identifier: MIT
/*
 * Program-scope variables of an OpenCL program on a device (hartpool_cl.h,
 * hp_cl_globals_prepare): the block the kernel object's metadata asks for
 * (host/clc/globals.c), allocated as a buffer of the caller's session,
 * filled with the image's initial bytes (each address among them made
 * the block's), and a copy of the object whose word holds its address.
 */
#include "internal.h"
#include <hartpool/frame.h>
#include <hartpool/object.h>
#include <hartpool_cl.h>
#include <stdlib.h>
#include <string.h>

int hp_cl_globals_prepare(hp_device *d, const void *hpk, size_t n,
			  const hp_cl_program *p, void **patched,
			  hp_buffer *buf)
{
	*patched = NULL;
	*buf = 0;
	if (!p->globals_size)
		return 0;
	hpk_header h;
	memcpy(&h, hpk, sizeof(h));
	uint8_t *f = malloc(n);
	if (!f)
		return hp_fail(HP_OUT_OF_RESOURCES, "out of memory");
	memcpy(f, hpk, n);
	const uint8_t *img = f + h.image_offset;
	unsigned w = h.xlen == 32 ? 4 : 8;
	uint8_t *init = malloc(p->globals_size);
	int rc = init ? hp_buffer_alloc(d, p->globals_size, buf)
		      : hp_fail(HP_OUT_OF_RESOURCES, "out of memory");
	if (!rc) {
		/* the initial bytes, each address among them a block offset
		 * made the block's address plus that */
		memcpy(init, img + p->globals_init, p->globals_size);
		for (uint32_t i = 0; i < p->globals_nrel; i++) {
			uint32_t at;
			uint64_t v = 0;
			memcpy(&at, img + p->globals_rel + 4 * i, 4);
			if ((uint64_t)at + w > p->globals_size) {
				rc = hp_fail(HP_INVALID_BINARY,
					     "a program-scope address at %u, "
					     "outside the block's %u bytes",
					     at, p->globals_size);
				break;
			}
			memcpy(&v, init + at, w);
			v += *buf;
			memcpy(init + at, &v, w);
		}
	}
	if (!rc)
		rc = hp_buffer_write(d, *buf, 0, init, p->globals_size);
	free(init);
	if (rc) {
		if (*buf)
			hp_buffer_free(d, *buf);
		*buf = 0;
		free(f);
		return rc;
	}
	/* the block's address into the image's word, little-endian */
	uint64_t a = *buf;
	memcpy(f + h.image_offset + p->globals_slot, &a, h.xlen == 32 ? 4 : 8);
	h.crc32 = hp_crc32(f + HPK_CRC_START, h.file_size - HPK_CRC_START);
	memcpy(f, &h, sizeof(h));
	*patched = f;
	return 0;
}
