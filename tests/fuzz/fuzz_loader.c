// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the kernel-object loader (mailbox/loader.c): the
 * input is a .hpk file for an RV64 device (the host's hp_kernel layout is
 * RV64's). For half of the inputs (bit 0 of the header's crc32 field set)
 * the checksum is recomputed into a copy first, so the fuzzer reaches the
 * checks behind it; the other half go in as they are. An object
 * hpk_check accepts is placed into an image buffer of exactly its size
 * and alignment, and every kernel descriptor is read. Invariants (an
 * abort is a finding), besides ASan and UBSan staying quiet:
 *   - a refusal is HP_INVALID_BINARY with a one-line reason;
 *   - a kernel read is what hartpool/object.h promises: its name a C
 *     identifier of 1..31 bytes in its own copy, code pointers inside the
 *     code and 2-byte aligned, every attribute within the device's limits,
 *     at most HPK_BUFFERS_MAX buffer arguments in its own copy.
 */
#include <hartpool/api.h>
#include <hartpool/error.h>
#include <hartpool/frame.h>
#include <hartpool/mbox.h>
#include <mailbox/loader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "fuzz_loader: line %d: %s\n",          \
				__LINE__, #c);                                 \
			abort();                                               \
		}                                                              \
	} while (0)

static const hpk_target target = {
	.xlen = 64,
	.float_abi = HPK_FLOAT_DOUBLE,
	.api_count = HP_API_COUNT,
	.max_work_group_size = 1024,
	.local_mem_size = 65536,
	.sub_group_sizes = 0xff,
};

static const int api_table; /* stands for the firmware's struct hp_api */

/* A refusal: HP_INVALID_BINARY and one non-empty line. */
static void refused(int rc, const char *why)
{
	CHECK(rc == HP_INVALID_BINARY);
	CHECK(why[0] != '\0' && !strchr(why, '\n'));
}

static bool ident(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > 31)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!(c == '_' || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z') || (i && c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

static bool code(const void *p, uintptr_t base, const hpk_header *h)
{
	uintptr_t a = (uintptr_t)p;
	return a >= base && a - base + 2 <= h->text_size && a % 2 == 0;
}

static void check_kernel(const hpk_kernel *k, uintptr_t base,
			 const hpk_header *h)
{
	CHECK(k->k.name == k->name && ident(k->name));
	CHECK(code((const void *)(uintptr_t)k->k.fn, base, h));
	CHECK(!k->k.row || code((const void *)(uintptr_t)k->k.row, base, h));
	const uint32_t *r = k->k.reqd_work_group_size;
	if (r[0] || r[1] || r[2]) {
		CHECK(r[0] && r[1] && r[2]);
		CHECK(r[0] <= target.max_work_group_size &&
		      r[1] <= target.max_work_group_size &&
		      (uint64_t)r[0] * r[1] <= target.max_work_group_size &&
		      (uint64_t)r[0] * r[1] * r[2] <=
			      target.max_work_group_size);
	}
	uint32_t sg = k->k.sub_group_size;
	CHECK(!sg || (!(sg & (sg - 1)) && (target.sub_group_sizes & sg)));
	CHECK(k->k.local_mem_bytes <= target.local_mem_size);
	CHECK(k->k.args_size <= HP_MBOX_ARGS_MAX);
	CHECK(k->k.stack_bytes <= HPK_STACK_MAX);
	unsigned char ub;
	memcpy(&ub, &k->k.uses_barriers, 1);
	CHECK(ub <= 1);
	CHECK(k->k.num_buffers <= HPK_BUFFERS_MAX);
	CHECK(k->k.num_buffers ? k->k.buffers == k->bufs : !k->k.buffers);
	for (unsigned b = 0; b < k->k.num_buffers; b++) {
		const hp_arg_buffer *a = &k->bufs[b];
		CHECK(a->offset % 8 == 0 && a->offset + 8u <= HP_MBOX_ARGS_MAX);
		CHECK(a->extent <= HP_EXTENT_ITEMS_PLUS_ARG);
		CHECK(!a->align ||
		      (!(a->align & (a->align - 1)) && a->align <= 4096));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *file = data;
	uint8_t *copy = NULL;
	hpk_header h;
	if (size >= sizeof(h)) {
		memcpy(&h, data, sizeof(h));
		if (h.crc32 & 1) {
			copy = malloc(size);
			CHECK(copy != NULL);
			memcpy(copy, data, size);
			h.crc32 = hp_crc32(copy + 24, size - 24);
			memcpy(copy + offsetof(hpk_header, crc32), &h.crc32,
			       sizeof(h.crc32));
			file = copy;
		}
	}

	char why[128] = "";
	int rc = hpk_check(file, size, &target, &h, why, sizeof(why));
	if (rc) {
		refused(rc, why);
		free(copy);
		return 0;
	}
	CHECK(h.image_size >= 1 && h.image_size <= HPK_IMAGE_MAX);
	/* Exactly image_size bytes, so that ASan sees any access past them
	 * (aligned_alloc would want a multiple of the alignment), aligned
	 * to image_align (posix_memalign wants at least a pointer's). */
	void *image = NULL;
	size_t align =
		h.image_align < sizeof(void *) ? sizeof(void *) : h.image_align;
	CHECK(posix_memalign(&image, align, h.image_size) == 0);
	/* the writable data's block: exactly its size too */
	void *block = NULL;
	if (h.data_size)
		CHECK(posix_memalign(&block, align, h.data_size) == 0);
	rc = hpk_place(&h, file, image, &api_table, block, why, sizeof(why));
	if (rc) {
		refused(rc, why);
	} else {
		uintptr_t api;
		memcpy(&api, (uint8_t *)image + h.api_offset, sizeof(api));
		CHECK(api == (uintptr_t)&api_table);
		unsigned n = hpk_kernel_count(&h);
		CHECK(n >= 1 && n <= HPK_KERNELS_MAX);
		for (unsigned i = 0; i < n; i++) {
			hpk_kernel k;
			why[0] = '\0';
			rc = hpk_kernel_read(&h, image, i, &target, &k, why,
					     sizeof(why));
			if (rc)
				refused(rc, why);
			else
				check_kernel(&k, (uintptr_t)image, &h);
		}
	}
	free(image);
	free(block);
	free(copy);
	return 0;
}
