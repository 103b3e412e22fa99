// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for hp_cl_program_parse (host/lib/clmeta.c): the input is a
 * kernel object (.hpk) that claims OpenCL metadata. For half of the inputs
 * (bit 0 of the first byte set) the fuzzer's bytes become the metadata text
 * of a well-formed object built around them, so the text parser is reached
 * directly; the other half go in as whole files. Invariants (an abort is a
 * finding), besides ASan and UBSan staying quiet:
 *   - the result is 0, HP_INVALID_BINARY, HP_INVALID_PROGRAM or
 *     HP_OUT_OF_RESOURCES;
 *   - a parsed program has at most HPK_KERNELS_MAX kernels, each with at
 *     most HP_CL_ARGS_MAX arguments and NUL-terminated names.
 */
#include <hartpool/error.h>
#include <hartpool/object.h>
#include <hartpool_cl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "fuzz_clmeta: line %d: %s\n",          \
				__LINE__, #c);                                 \
			abort();                                               \
		}                                                              \
	} while (0)

/* libhartpool's error setter (host/lib/device.c, which needs a device):
 * the parser only reports through it. */
int hp_fail(int code, const char *fmt, ...)
{
	va_list ap;
	char buf[256];
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return code;
}

static void check(const hp_cl_program *p)
{
	CHECK(p->num_kernels <= HPK_KERNELS_MAX);
	CHECK(memchr(p->build_options, 0, sizeof(p->build_options)));
	for (unsigned i = 0; i < p->num_kernels; i++) {
		const hp_cl_kmeta *k = &p->kernels[i];
		CHECK(k->num_args <= HP_CL_ARGS_MAX);
		CHECK(memchr(k->name, 0, sizeof(k->name)));
		CHECK(memchr(k->device_name, 0, sizeof(k->device_name)));
		CHECK(memchr(k->attributes, 0, sizeof(k->attributes)));
		for (unsigned a = 0; a < k->num_args; a++) {
			CHECK(memchr(k->args[a].name, 0,
				     sizeof(k->args[a].name)));
			CHECK(memchr(k->args[a].type_name, 0,
				     sizeof(k->args[a].type_name)));
		}
	}
}

/* A well-formed object: header, image = 80-byte descriptor + text. */
static uint8_t *wrap(const uint8_t *text, size_t n, size_t *out)
{
	size_t img = 80 + n;
	uint8_t *f = calloc(1, sizeof(hpk_header) + img);
	if (!f)
		return NULL;
	hpk_header h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, HPK_MAGIC, sizeof(h.magic));
	h.version = HPK_VERSION;
	h.header_size = sizeof(h);
	h.file_size = (uint32_t)(sizeof(h) + img);
	h.xlen = 64;
	h.image_offset = sizeof(h);
	h.image_file_size = h.image_size = (uint32_t)img;
	h.kernels_offset = 0;
	h.kernels_size = 80;
	h.meta_offset = 80;
	h.meta_size = (uint32_t)n;
	memcpy(f, &h, sizeof(h));
	/* the descriptor's name pointer: the text's first byte */
	uint64_t np = 80;
	memcpy(f + sizeof(h), &np, 8);
	memcpy(f + sizeof(h) + 80, text, n);
	*out = sizeof(h) + img;
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hp_cl_program *p = NULL;
	int rc;
	if (size && (data[0] & 1)) {
		size_t n;
		uint8_t *f = wrap(data + 1, size - 1, &n);
		if (!f)
			return 0;
		rc = hp_cl_program_parse(f, n, &p);
		free(f);
	} else {
		rc = hp_cl_program_parse(data, size, &p);
	}
	CHECK(rc == 0 || rc == HP_INVALID_BINARY || rc == HP_INVALID_PROGRAM ||
	      rc == HP_OUT_OF_RESOURCES);
	CHECK((rc == 0) == (p != NULL));
	if (p)
		check(p);
	hp_cl_program_free(p);
	return 0;
}
