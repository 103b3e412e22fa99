// SPDX-License-Identifier: MIT
/*
 * hp_cl_program_parse: the OpenCL metadata of a kernel object (the
 * .hp_clmeta text hp_cl_build writes, hartpool_cl.h) and each kernel's own
 * __local bytes from its descriptor. Reading objects is the device link's
 * part: the ICD reads programs from binaries without building anything.
 */
#define _GNU_SOURCE
#include "internal.h"
#include <hartpool/frame.h>
#include <hartpool/kernel.h>
#include <hartpool/object.h>
#include <hartpool_cl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The RV64 descriptor layout is the host's */
_Static_assert(offsetof(hp_kernel, local_mem_bytes) == HP_KDESC_LOCAL_MEM(64),
	       "hp_kernel");
_Static_assert(sizeof(hp_kernel) == HP_KDESC_SIZE(64), "hp_kernel");

/* ---- reading the metadata back ---- */

static char *field(char **p)
{
	char *s = *p, *t = s ? strchr(s, '\t') : NULL;
	if (t)
		*t = 0, *p = t + 1;
	else
		*p = NULL;
	return s ? s : (char *)"";
}

/* Each kernel's own __local bytes: its descriptor (name pointers are
 * image offsets: the image is linked at 0). */
static void static_local(const hpk_header *hp, const uint8_t *img,
			 hp_cl_kmeta *ks, unsigned nk)
{
	hpk_header h = *hp;
	unsigned word = h.xlen == 32 ? 4 : 8;
	size_t dsz = HP_KDESC_SIZE(h.xlen);
	for (uint32_t d = 0; d + dsz <= h.kernels_size; d += dsz) {
		const uint8_t *desc = img + h.kernels_offset + d;
		uint64_t np = 0;
		uint32_t lm;
		memcpy(&np, desc, word);
		memcpy(&lm, desc + HP_KDESC_LOCAL_MEM(h.xlen), 4);
		if (np >= h.image_file_size)
			continue;
		const char *nm = (const char *)img + np;
		size_t left = h.image_file_size - np;
		for (unsigned i = 0; i < nk; i++)
			if (strnlen(nm, left) < left &&
			    !strcmp(nm, ks[i].device_name))
				ks[i].static_local = lm;
	}
}

/* "globals SIZE SLOT INIT REL NREL" (globals.c, package.c): the
 * program-scope variables' block, checked against the image. */
static int globals_line(char *q, const hpk_header *h, hp_cl_program *p)
{
	p->globals_size = (uint32_t)strtoul(field(&q), NULL, 10);
	p->globals_slot = (uint32_t)strtoul(field(&q), NULL, 10);
	p->globals_init = (uint32_t)strtoul(field(&q), NULL, 10);
	p->globals_rel = (uint32_t)strtoul(field(&q), NULL, 10);
	p->globals_nrel = (uint32_t)strtoul(field(&q), NULL, 10);
	uint64_t w = h->xlen == 32 ? 4 : 8;
	if (!p->globals_size || p->globals_size > HP_CL_GLOBALS_MAX ||
	    p->globals_nrel > HP_CL_GLOBALS_RELS_MAX ||
	    (uint64_t)p->globals_rel + 4ull * p->globals_nrel >
		    h->image_file_size ||
	    p->globals_slot + w > h->image_file_size ||
	    (uint64_t)p->globals_init + p->globals_size > h->image_file_size)
		return HP_INVALID_BINARY;
	return 0;
}

int hp_cl_program_parse(const void *file, size_t n, hp_cl_program **out)
{
	hpk_header h;
	*out = NULL;
	if (n < sizeof(h))
		return hp_fail(HP_INVALID_BINARY, "not a kernel object");
	memcpy(&h, file, sizeof(h));
	if (memcmp(h.magic, HPK_MAGIC, sizeof(h.magic)) || h.file_size != n ||
	    h.image_offset > n || h.image_file_size > n - h.image_offset ||
	    (uint64_t)h.kernels_offset + h.kernels_size > h.image_file_size)
		return hp_fail(HP_INVALID_BINARY, "not a kernel object");
	if (!h.meta_size ||
	    (uint64_t)h.meta_offset + h.meta_size > h.image_file_size)
		return hp_fail(HP_INVALID_PROGRAM,
			       "a kernel object not built from OpenCL C");
	const uint8_t *img = (const uint8_t *)file + h.image_offset;
	char *text = strndup((const char *)img + h.meta_offset, h.meta_size);
	hp_cl_program *p = calloc(1, sizeof(*p));
	/* grown a kernel at a time: a kernel's metadata is large
	 * (HP_CL_ARGS_MAX arguments) */
	hp_cl_kmeta *ks = calloc(1, sizeof(*ks));
	if (!text || !p || !ks) {
		free(text), free(p), free(ks);
		return hp_fail(HP_OUT_OF_RESOURCES, "out of memory");
	}
	int rc = strncmp(text, "hpcl 1\n", 7) ? HP_INVALID_BINARY : 0;
	hp_cl_kmeta *k = NULL;
	unsigned ai = 0;
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l && !rc;
	     l = strtok_r(NULL, "\n", &save)) {
		char *q = l, *tag = field(&q);
		if (!strcmp(tag, "globals")) {
			rc = globals_line(q, &h, p);
		} else if (!strcmp(tag, "options")) {
			snprintf(p->build_options, sizeof(p->build_options),
				 "%s", q ? q : "");
		} else if (!strcmp(tag, "kernel")) {
			if (p->num_kernels == HPK_KERNELS_MAX) {
				rc = HP_INVALID_BINARY;
				break;
			}
			if (p->num_kernels) {
				hp_cl_kmeta *g = realloc(
					ks, (p->num_kernels + 1) * sizeof(*ks));
				if (!g) {
					rc = HP_OUT_OF_RESOURCES;
					break;
				}
				ks = g;
			}
			k = &ks[p->num_kernels++];
			memset(k, 0, sizeof(*k));
			snprintf(k->name, sizeof(k->name), "%s", field(&q));
			snprintf(k->device_name, sizeof(k->device_name), "%s",
				 field(&q));
			k->num_args = (unsigned)atoi(field(&q));
			k->args_size = (uint32_t)atoi(field(&q));
			sscanf(field(&q), "%u %u %u", &k->reqd[0], &k->reqd[1],
			       &k->reqd[2]);
			sscanf(field(&q), "%u %u %u", &k->hint[0], &k->hint[1],
			       &k->hint[2]);
			k->sub_group_size = (uint32_t)atoi(field(&q));
			k->uses_barriers = (unsigned)atoi(field(&q));
			snprintf(k->attributes, sizeof(k->attributes), "%s",
				 field(&q));
			/* added later: older objects may print */
			const char *pr = field(&q);
			k->prints = *pr ? (unsigned)atoi(pr) != 0 : 1;
			if (k->num_args > HP_CL_ARGS_MAX)
				rc = HP_INVALID_BINARY;
			ai = 0;
		} else if (!strcmp(tag, "arg")) {
			if (!k || ai >= k->num_args) {
				rc = HP_INVALID_BINARY;
				break;
			}
			hp_cl_arg *a = &k->args[ai++];
			a->addr_space = (unsigned)atoi(field(&q));
			a->access = (unsigned)atoi(field(&q));
			a->type_qual = (unsigned)atoi(field(&q));
			a->offset = (uint32_t)atoi(field(&q));
			a->size = (uint32_t)atoi(field(&q));
			a->align = (uint32_t)atoi(field(&q));
			snprintf(a->type_name, sizeof(a->type_name), "%s",
				 field(&q));
			snprintf(a->name, sizeof(a->name), "%s", field(&q));
		}
	}
	free(text);
	if (!rc)
		static_local(&h, img, ks, p->num_kernels);
	if (rc) {
		free(ks);
		free(p);
		return hp_fail(rc, "malformed OpenCL metadata");
	}
	p->kernels = ks;
	*out = p;
	return 0;
}

void hp_cl_program_free(hp_cl_program *p)
{
	if (p) {
		free(p->kernels);
		free(p);
	}
}

unsigned hp_cl_object_kind(const void *b, size_t n, char *board)
{
	hp_cl_object_header h;
	if (!b || n < sizeof(h))
		return 0;
	memcpy(&h, b, sizeof(h));
	if (memcmp(h.magic, HP_CL_OBJECT_MAGIC, sizeof(h.magic)) ||
	    (h.kind != HP_CL_OBJECT && h.kind != HP_CL_LIBRARY) ||
	    h.bc_size != n - sizeof(h) || !memchr(h.board, 0, sizeof(h.board)))
		return 0;
	if (board)
		memcpy(board, h.board, sizeof(h.board));
	return h.kind;
}
