// SPDX-License-Identifier: MIT
/*
 * The kernel-object loader (mailbox/loader.c) on hand-built objects. On
 * the host hp_kernel has RV64's layout, so an object for an RV64 device
 * can be written field by field: header | image | relocations, the image
 * holding a few bytes of "code", the API table slot, two buffer arguments,
 * two kernel descriptors (their pointer fields image offsets, each with an
 * R_RELATIVE relocation) and the names. The valid object must pass
 * hpk_check, hpk_place and hpk_kernel_read with every attribute, pointer
 * and buffer argument as written; then every mutation of it (the checksum
 * fixed up unless the checksum is the point) must be refused with
 * HP_INVALID_BINARY, at the right step, with the right reason, and the
 * limits themselves must be accepted.
 *
 * With HP_LOADER_SEEDS=<dir> in the environment it also writes the valid
 * object and a few accepted variants into <dir>: the fuzzer's seeds,
 * tests/fuzz/corpus/loader/.
 */
#include "check.h"
#include <hartpool/api.h>
#include <hartpool/error.h>
#include <hartpool/frame.h>
#include <hartpool/mbox.h>
#include <mailbox/loader.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(hp_kernel) == 80, "hp_kernel has RV64's layout");
_Static_assert(sizeof(hp_arg_buffer) == 16, "hp_arg_buffer size");

/* The file: header, image at IMG, relocations after it. */
#define IMG 96u
/* The image. */
#define I_TEXT 16u    /* code: [0, 16): four nops */
#define I_API 16u     /* the hp_api pointer */
#define I_BUFS 24u    /* vadd's two buffer arguments */
#define I_KERNELS 64u /* vadd, reduce */
#define I_NAMES 224u  /* "vadd\0reduce\0", then room for test names */
#define I_SPARE 240u  /* [240, 288): free name room */
#define I_FILE 288u   /* image bytes in the file */
#define I_SIZE 320u   /* image bytes in memory: 32 zero bytes after */
#define I_ALIGN 16u
#define NAME_VADD I_NAMES
#define NAME_REDUCE (I_NAMES + 5)
#define K(i) (I_KERNELS + (i) * (unsigned)sizeof(hp_kernel))
#define KF(i, field) (K(i) + (unsigned)offsetof(hp_kernel, field))
#define NRELOC 6u
#define RELOCS (IMG + I_FILE)
#define FILE_SIZE (RELOCS + NRELOC * (unsigned)sizeof(hpk_reloc))
#define OBJ_MAX 8192u

/* The relocations, in file order. */
enum { R_NAME0, R_FN0, R_ROW0, R_BUFS0, R_NAME1, R_FN1 };

static const hpk_target target = {
	.xlen = 64,
	.float_abi = HPK_FLOAT_DOUBLE,
	.api_count = HP_API_COUNT,
	.max_work_group_size = 1024,
	.local_mem_size = 65536,
	.sub_group_sizes = 0xff,
};

static const int api_table; /* stands for the firmware's struct hp_api */

typedef struct obj {
	hpk_header h; /* written into f by seal() */
	size_t size;
	_Alignas(64) uint8_t f[OBJ_MAX];
} obj;

static hp_kernel kget(const obj *o, unsigned i)
{
	hp_kernel k;
	memcpy(&k, o->f + IMG + K(i), sizeof(k));
	return k;
}

static void kput(obj *o, unsigned i, const hp_kernel *k)
{
	memcpy(o->f + IMG + K(i), k, sizeof(*k));
}

static hp_arg_buffer bget(const obj *o, unsigned b)
{
	hp_arg_buffer a;
	memcpy(&a, o->f + IMG + I_BUFS + b * sizeof(a), sizeof(a));
	return a;
}

static void bput(obj *o, unsigned b, const hp_arg_buffer *a)
{
	memcpy(o->f + IMG + I_BUFS + b * sizeof(*a), a, sizeof(*a));
}

static hpk_reloc rget(const obj *o, unsigned j)
{
	hpk_reloc r;
	memcpy(&r, o->f + o->h.reloc_offset + j * sizeof(r), sizeof(r));
	return r;
}

static void rput(obj *o, unsigned j, const hpk_reloc *r)
{
	memcpy(o->f + o->h.reloc_offset + j * sizeof(*r), r, sizeof(*r));
}

/* Relocation j now points at image offset @p addend. */
static void retarget(obj *o, unsigned j, uint64_t addend)
{
	hpk_reloc r = rget(o, j);
	r.addend = addend;
	rput(o, j, &r);
}

/* Relocation j now patches image offset @p off. */
static void repatch(obj *o, unsigned j, uint32_t off)
{
	hpk_reloc r = rget(o, j);
	r.offset = off;
	rput(o, j, &r);
}

/* Header into the file, with the checksum of bytes [24, size). */
static void seal(obj *o)
{
	o->h.crc32 = 0;
	memcpy(o->f, &o->h, sizeof(o->h));
	if (o->size >= 24 && o->size <= OBJ_MAX)
		o->h.crc32 = hp_crc32(o->f + 24, o->size - 24);
	memcpy(o->f, &o->h, sizeof(o->h));
}

#define OFF(x) ((void *)(uintptr_t)(x)) /* an image offset as a pointer */

static void build(obj *o)
{
	memset(o, 0, sizeof(*o));
	hpk_header *h = &o->h;
	memcpy(h->magic, HPK_MAGIC, sizeof(h->magic));
	h->version = HPK_VERSION;
	h->header_size = sizeof(*h);
	h->file_size = FILE_SIZE;
	h->xlen = 64;
	h->float_abi = HPK_FLOAT_DOUBLE;
	h->api_version = HP_API_VERSION;
	h->api_count = HP_API_COUNT;
	h->image_offset = IMG;
	h->image_file_size = I_FILE;
	h->image_size = I_SIZE;
	h->image_align = I_ALIGN;
	h->text_size = I_TEXT;
	h->api_offset = I_API;
	h->kernels_offset = I_KERNELS;
	h->kernels_size = 2 * sizeof(hp_kernel);
	h->reloc_offset = RELOCS;
	h->reloc_count = NRELOC;
	o->size = FILE_SIZE;

	uint8_t *img = o->f + IMG;
	for (unsigned i = 0; i < I_TEXT; i += 4)
		memcpy(img + i, "\x13\0\0\0", 4); /* addi x0, x0, 0 */
	memcpy(img + I_NAMES, "vadd\0reduce", 12);
	const hp_arg_buffer bufs[2] = {
		{.offset = 0,
		 .align = 4,
		 .elem_size = 4,
		 .extent = HP_EXTENT_ITEMS},
		{.offset = 8,
		 .align = 4,
		 .elem_size = 4,
		 .extent = HP_EXTENT_ARG,
		 .param = 16},
	};
	bput(o, 0, &bufs[0]);
	bput(o, 1, &bufs[1]);
	const hp_kernel k[2] = {
		{
			.name = OFF(NAME_VADD),
			.fn = (hp_kernel_fn)OFF(0),
			.row = (hp_kernel_row_fn)OFF(8),
			.max_work_group_size = 256,
			.args_size = 24,
			.buffers = OFF(I_BUFS),
			.num_buffers = 2,
		},
		{
			.name = OFF(NAME_REDUCE),
			.fn = (hp_kernel_fn)OFF(4),
			.reqd_work_group_size = {64, 2, 1},
			.sub_group_size = 8,
			.local_mem_bytes = 4096,
			.args_size = 16,
			.stack_bytes = 8192,
			.uses_barriers = true,
		},
	};
	kput(o, 0, &k[0]);
	kput(o, 1, &k[1]);
	const hpk_reloc r[NRELOC] = {
		[R_NAME0] = {KF(0, name), HPK_R_RELATIVE, NAME_VADD},
		[R_FN0] = {KF(0, fn), HPK_R_RELATIVE, 0},
		[R_ROW0] = {KF(0, row), HPK_R_RELATIVE, 8},
		[R_BUFS0] = {KF(0, buffers), HPK_R_RELATIVE, I_BUFS},
		[R_NAME1] = {KF(1, name), HPK_R_RELATIVE, NAME_REDUCE},
		[R_FN1] = {KF(1, fn), HPK_R_RELATIVE, 4},
	};
	for (unsigned j = 0; j < NRELOC; j++)
		rput(o, j, &r[j]);
	seal(o);
}

/* An image buffer as the dispatcher would give it: aligned, its size a
 * multiple of the alignment (aligned_alloc), filled with garbage. */
static void *image_alloc(const hpk_header *h)
{
	size_t a = h->image_align;
	size_t sz = (h->image_size + a - 1) / a * a;
	void *p = aligned_alloc(a, sz);
	if (p)
		memset(p, 0xaa, sz);
	return p;
}

/* ---- the valid object ---------------------------------------------- */

static void valid(void)
{
	static obj o;
	build(&o);
	char why[160] = "";
	hpk_header h;
	int rc = hpk_check(o.f, o.size, &target, &h, why, sizeof(why));
	CHECK_MSG(rc == 0, "valid object refused: %s", why);
	if (rc)
		return;
	CHECK(memcmp(&h, o.f, sizeof(h)) == 0);
	CHECK_EQ(hpk_kernel_count(&h), 2);

	uint8_t *img = image_alloc(&h);
	CHECK(img != NULL);
	if (!img)
		return;
	rc = hpk_place(&h, o.f, img, &api_table, NULL, why, sizeof(why));
	CHECK_MSG(rc == 0, "valid object not placed: %s", why);
	uintptr_t base = (uintptr_t)img;
	/* The image bytes, the zero tail, the API pointer, the relocated
	 * descriptor pointers. */
	CHECK(memcmp(img, o.f + IMG, I_API) == 0);
	CHECK(memcmp(img + I_BUFS, o.f + IMG + I_BUFS, I_KERNELS - I_BUFS) ==
	      0);
	CHECK(memcmp(img + I_NAMES, o.f + IMG + I_NAMES, I_FILE - I_NAMES) ==
	      0);
	bool zero = true;
	for (unsigned i = I_FILE; i < I_SIZE; i++)
		zero &= img[i] == 0;
	CHECK(zero);
	uintptr_t api;
	memcpy(&api, img + I_API, sizeof(api));
	CHECK(api == (uintptr_t)&api_table);
	hp_kernel placed[2];
	memcpy(placed, img + I_KERNELS, sizeof(placed));
	CHECK((uintptr_t)placed[0].name == base + NAME_VADD);
	CHECK((uintptr_t)placed[0].fn == base);
	CHECK((uintptr_t)placed[0].row == base + 8);
	CHECK((uintptr_t)placed[0].buffers == base + I_BUFS);
	CHECK((uintptr_t)placed[1].name == base + NAME_REDUCE);
	CHECK((uintptr_t)placed[1].fn == base + 4);
	CHECK(placed[1].row == NULL && placed[1].buffers == NULL);

	hpk_kernel k;
	rc = hpk_kernel_read(&h, img, 0, &target, &k, why, sizeof(why));
	CHECK_MSG(rc == 0, "kernel 0 refused: %s", why);
	CHECK(strcmp(k.name, "vadd") == 0 && k.k.name == k.name);
	CHECK((uintptr_t)k.k.fn == base);
	CHECK((uintptr_t)k.k.row == base + 8);
	CHECK_EQ(k.k.max_work_group_size, 256);
	CHECK_EQ(k.k.args_size, 24);
	CHECK(!k.k.uses_barriers);
	CHECK_EQ(k.k.reqd_work_group_size[0] | k.k.reqd_work_group_size[1] |
			 k.k.reqd_work_group_size[2],
		 0);
	CHECK_EQ(k.k.num_buffers, 2);
	CHECK(k.k.buffers == k.bufs);
	CHECK(k.bufs[0].offset == 0 && k.bufs[0].align == 4 &&
	      k.bufs[0].elem_size == 4 && k.bufs[0].extent == HP_EXTENT_ITEMS);
	CHECK(k.bufs[1].offset == 8 && k.bufs[1].align == 4 &&
	      k.bufs[1].elem_size == 4 && k.bufs[1].extent == HP_EXTENT_ARG &&
	      k.bufs[1].param == 16);

	rc = hpk_kernel_read(&h, img, 1, &target, &k, why, sizeof(why));
	CHECK_MSG(rc == 0, "kernel 1 refused: %s", why);
	CHECK(strcmp(k.name, "reduce") == 0 && k.k.name == k.name);
	CHECK((uintptr_t)k.k.fn == base + 4);
	CHECK(k.k.row == NULL);
	CHECK(k.k.reqd_work_group_size[0] == 64 &&
	      k.k.reqd_work_group_size[1] == 2 &&
	      k.k.reqd_work_group_size[2] == 1);
	CHECK_EQ(k.k.sub_group_size, 8);
	CHECK_EQ(k.k.local_mem_bytes, 4096);
	CHECK_EQ(k.k.args_size, 16);
	CHECK_EQ(k.k.stack_bytes, 8192);
	CHECK(k.k.uses_barriers);
	CHECK_EQ(k.k.num_buffers, 0);
	CHECK(k.k.buffers == NULL);
	/* The copies are the firmware's: the image may go. */
	memset(img, 0, I_SIZE);
	CHECK(strcmp(k.name, "reduce") == 0);
	free(img);
}

/* ---- mutations ------------------------------------------------------ */

enum { S_CHECK, S_PLACE, S_READ0, S_READ1 };
static const char *const stage_name[] = {"hpk_check", "hpk_place",
					 "hpk_kernel_read 0",
					 "hpk_kernel_read 1", "accepted"};

typedef struct tcase {
	const char *what;
	void (*mut)(obj *o);
	int stage;	 /* where it must be refused (S_*) */
	const char *why; /* in the reason; NULL: must be accepted */
	bool raw;	 /* keep the checksum the mutation leaves */
} tcase;

#define MUT(name, ...)                                                         \
	static void name(obj *o)                                               \
	{                                                                      \
		hpk_header *h = &o->h;                                         \
		(void)h;                                                       \
		__VA_ARGS__;                                                   \
	}
/* Field @p field of kernel descriptor @p i. */
#define KSET(i, field, value)                                                  \
	do {                                                                   \
		hp_kernel k_ = kget(o, i);                                     \
		k_.field = value;                                              \
		kput(o, i, &k_);                                               \
	} while (0)
/* Field @p field of vadd's buffer argument @p b. */
#define BSET(b, field, value)                                                  \
	do {                                                                   \
		hp_arg_buffer a_ = bget(o, b);                                 \
		a_.field = value;                                              \
		bput(o, b, &a_);                                               \
	} while (0)
#define NAME_AT(off, s) memcpy(o->f + IMG + (off), s, sizeof(s))

/* header */
MUT(m_short, o->size = sizeof(hpk_header) - 1)
MUT(m_empty, o->size = 0)
MUT(m_magic, h->magic[1] = 'h')
MUT(m_version, h->version = 2)
MUT(m_header_size, h->header_size = 100)
MUT(m_truncated, o->size -= 1)
MUT(m_trailing, o->size += 4)
MUT(m_crc_byte, o->f[IMG + I_NAMES] ^= 1)
MUT(m_crc_field, o->f[20] ^= 0x80)
MUT(m_crc_last, o->f[o->size - 1] ^= 0x01)
MUT(m_data_in_code, {
	h->data_offset = 0;
	h->data_size = 8;
})
MUT(m_data_outside, {
	h->data_offset = I_FILE;
	h->data_size = I_SIZE;
})
MUT(m_data_misaligned, {
	h->data_offset = I_FILE + 4;
	h->data_size = 8;
})
MUT(m_data_reloc_no_data, {
	hpk_reloc r = rget(o, R_NAME0);
	r.type = HPK_R_DATA_WORD;
	r.addend = 0;
	rput(o, R_NAME0, &r);
})
MUT(m_meta_outside, {
	h->meta_offset = h->image_file_size - 4;
	h->meta_size = 8;
})
MUT(m_meta_offset_only, h->meta_offset = 8)
MUT(m_xlen, h->xlen = 32)
MUT(m_float, h->float_abi = HPK_FLOAT_SINGLE)
MUT(m_api_version, h->api_version = HP_API_VERSION + 1)
MUT(m_api_count, h->api_count = HP_API_COUNT + 1)
MUT(m_api_count_0, h->api_count = 0)
MUT(m_image_0, h->image_size = 0)
MUT(m_image_big, h->image_size = HPK_IMAGE_MAX + 1)
MUT(m_image_max, h->image_size = HPK_IMAGE_MAX)
MUT(m_image_file_big, h->image_file_size = I_SIZE + 1)
MUT(m_image_past, h->image_offset = FILE_SIZE - I_FILE + 1)
MUT(m_image_in_header, h->image_offset = sizeof(hpk_header) - 8)
MUT(m_image_offset_huge, h->image_offset = 0xfffffff0u)
MUT(m_align_24, h->image_align = 24)
MUT(m_align_0, h->image_align = 0)
MUT(m_align_256, h->image_align = 2 * HPK_IMAGE_ALIGN)
MUT(m_align_64, h->image_align = 64)
MUT(m_align_max, h->image_align = HPK_IMAGE_ALIGN)
MUT(m_text_0, h->text_size = 0)
MUT(m_text_big, h->text_size = I_FILE + 1)
MUT(m_api_outside, h->api_offset = I_SIZE - 4)
MUT(m_api_huge, h->api_offset = 0xfffffffcu)
MUT(m_api_misaligned, h->api_offset = 20)
MUT(m_api_tail, h->api_offset = I_SIZE - 8)
MUT(m_kernels_outside, h->kernels_offset = I_FILE - sizeof(hp_kernel))
MUT(m_kernels_in_tail, h->kernels_offset = I_FILE)
MUT(m_kernels_misaligned, h->kernels_offset = I_KERNELS + 4)
MUT(m_kernels_size_0, h->kernels_size = 0)
MUT(m_kernels_size_100, h->kernels_size = 100)
MUT(m_kernels_65, {
	/* A bigger image of 65 (zero) descriptors, no relocations. */
	h->image_file_size = I_KERNELS + 65 * sizeof(hp_kernel);
	h->image_size = h->image_file_size;
	h->kernels_size = 65 * sizeof(hp_kernel);
	h->reloc_count = 0;
	o->size = IMG + h->image_file_size;
	h->file_size = (uint32_t)o->size;
	memset(o->f + RELOCS, 0, o->size - RELOCS);
})
MUT(m_kernels_1, h->kernels_size = sizeof(hp_kernel))
MUT(m_reloc_count, h->reloc_count = NRELOC + 1)
MUT(m_reloc_count_max, h->reloc_count = HPK_RELOCS_MAX + 1)
MUT(m_reloc_in_header, h->reloc_offset = sizeof(hpk_header) - 16)
MUT(m_reloc_huge, h->reloc_offset = 0xfffffff0u)
MUT(m_reloc_none, {
	h->reloc_count = 0;
	h->reloc_offset = 0;
})
/* relocations */
MUT(m_rtype, {
	hpk_reloc r = rget(o, R_NAME0);
	r.type = 2;
	rput(o, R_NAME0, &r);
})
MUT(m_rtype_hi20, {
	hpk_reloc r = rget(o, R_NAME0);
	r.type = HPK_R_HI20;
	r.offset = 0;
	rput(o, R_NAME0, &r);
})
MUT(m_roff_outside, repatch(o, R_FN0, I_SIZE - 4))
MUT(m_roff_huge, repatch(o, R_FN0, 0xfffffff8u))
MUT(m_roff_misaligned, repatch(o, R_FN0, KF(0, fn) + 4))
MUT(m_roff_code, repatch(o, R_NAME0, 8))
MUT(m_raddend, retarget(o, R_FN1, I_SIZE + 1))
MUT(m_raddend_huge, retarget(o, R_FN1, 0x100000000ull + 4))
MUT(m_rextra, {
	/* A 7th relocation into the zero tail, one past the image. */
	hpk_reloc r = {I_SIZE - 8, HPK_R_RELATIVE, I_SIZE};
	h->reloc_count = NRELOC + 1;
	rput(o, NRELOC, &r);
	o->size += sizeof(r);
	h->file_size = (uint32_t)o->size;
})
/* names */
MUT(m_name_outside, retarget(o, R_NAME0, I_SIZE))
MUT(m_name_unrelocated, repatch(o, R_NAME0, I_SIZE - 8))
MUT(m_name_empty, retarget(o, R_NAME0, I_FILE))
MUT(m_name_unterminated, {
	h->image_size = I_FILE;
	memset(o->f + IMG + I_SPARE, 'a', I_FILE - I_SPARE);
	retarget(o, R_NAME0, I_FILE - 10);
})
MUT(m_name_32, {
	NAME_AT(I_SPARE, "abcdefghijklmnopqrstuvwxyz_01234");
	retarget(o, R_NAME0, I_SPARE);
})
MUT(m_name_31, {
	NAME_AT(I_SPARE, "abcdefghijklmnopqrstuvwxyz_0123");
	retarget(o, R_NAME0, I_SPARE);
})
MUT(m_name_digit, {
	NAME_AT(I_SPARE, "1abc");
	retarget(o, R_NAME1, I_SPARE);
})
MUT(m_name_dash, {
	NAME_AT(I_SPARE, "va-dd");
	retarget(o, R_NAME1, I_SPARE);
})
MUT(m_name_high, {
	NAME_AT(I_SPARE, "v\xe4");
	retarget(o, R_NAME1, I_SPARE);
})
MUT(m_name_ident, {
	NAME_AT(I_SPARE, "_Vadd_2");
	retarget(o, R_NAME1, I_SPARE);
})
MUT(m_name_in_code, retarget(o, R_NAME0, 0)) /* 0x13 0 */
/* code pointers */
MUT(m_fn_outside, retarget(o, R_FN0, I_TEXT))
MUT(m_fn_last, retarget(o, R_FN0, I_TEXT - 2))
MUT(m_fn_straddle, retarget(o, R_FN0, I_TEXT - 1))
MUT(m_fn_odd, retarget(o, R_FN1, 3))
MUT(m_fn_null, {
	KSET(0, fn, NULL);
	repatch(o, R_FN0, I_SIZE - 8);
})
MUT(m_row_outside, retarget(o, R_ROW0, I_TEXT))
MUT(m_row_misaligned, retarget(o, R_ROW0, 9))
MUT(m_row_null, {
	KSET(0, row, NULL);
	repatch(o, R_ROW0, I_SIZE - 8);
})
/* attributes (of reduce unless vadd is named) */
#define REQD(x, y, z)                                                          \
	do {                                                                   \
		hp_kernel k_ = kget(o, 1);                                     \
		k_.reqd_work_group_size[0] = x;                                \
		k_.reqd_work_group_size[1] = y;                                \
		k_.reqd_work_group_size[2] = z;                                \
		kput(o, 1, &k_);                                               \
	} while (0)
MUT(m_reqd_big, REQD(64, 32, 1))
MUT(m_reqd_zero, REQD(64, 0, 1))
MUT(m_reqd_huge, REQD(0xffffffffu, 1, 1))
/* Three sizes whose 64-bit product wraps to 520 (regression: the loader
 * multiplied them unchecked and accepted this). */
MUT(m_reqd_wrap, REQD(491650309u, 4294951704u, 463u))
MUT(m_reqd_max, REQD(1024, 1, 1))
MUT(m_reqd_max3, REQD(8, 8, 16))
MUT(m_sg_3, KSET(1, sub_group_size, 3))
MUT(m_sg_256, KSET(1, sub_group_size, 256))
MUT(m_sg_top, KSET(1, sub_group_size, 0x80000000u))
MUT(m_sg_128, KSET(1, sub_group_size, 128))
MUT(m_sg_0, KSET(1, sub_group_size, 0))
MUT(m_local_big, KSET(1, local_mem_bytes, 65537))
MUT(m_local_max, KSET(1, local_mem_bytes, 65536))
MUT(m_args_big, KSET(0, args_size, HP_MBOX_ARGS_MAX + 1))
MUT(m_args_max, KSET(0, args_size, HP_MBOX_ARGS_MAX))
MUT(m_stack_big, KSET(1, stack_bytes, HPK_STACK_MAX + 1))
MUT(m_stack_max, KSET(1, stack_bytes, HPK_STACK_MAX))
MUT(m_barriers_2, o->f[IMG + KF(1, uses_barriers)] = 2)
MUT(m_barriers_ff, o->f[IMG + KF(0, uses_barriers)] = 0xff)
MUT(m_spans_2, o->f[IMG + KF(0, row_spans_groups)] = 2)
MUT(m_spans_ok, o->f[IMG + KF(0, row_spans_groups)] = 1)
/* reduce: barriers and no row entry */
MUT(m_spans_reduce, o->f[IMG + KF(1, row_spans_groups)] = 1)
/* buffer arguments */
MUT(m_nbuf_9, KSET(0, num_buffers, HPK_BUFFERS_MAX + 1))
MUT(m_nbuf_huge, KSET(0, num_buffers, 0x80000000u))
MUT(m_nbuf_8, {
	/* Eight zero buffer arguments in a bigger zero tail. */
	h->image_size = I_SIZE + 8 * sizeof(hp_arg_buffer);
	KSET(0, num_buffers, 8);
	retarget(o, R_BUFS0, I_SIZE);
})
MUT(m_bufs_outside, retarget(o, R_BUFS0, I_SIZE - sizeof(hp_arg_buffer)))
MUT(m_bufs_past, retarget(o, R_BUFS0, I_SIZE))
MUT(m_bufs_null, {
	KSET(0, buffers, NULL);
	repatch(o, R_BUFS0, I_SIZE - 8);
})
MUT(m_bufs_misaligned, {
	/* Copies of the two arguments one byte on: read byte-wise. */
	memmove(o->f + IMG + I_SPARE + 1, o->f + IMG + I_BUFS,
		2 * sizeof(hp_arg_buffer));
	retarget(o, R_BUFS0, I_SPARE + 1);
})
MUT(m_barg_offset_4, BSET(1, offset, 4))
MUT(m_barg_offset_end, BSET(1, offset, HP_MBOX_ARGS_MAX))
MUT(m_barg_offset_last, BSET(1, offset, HP_MBOX_ARGS_MAX - 8))
MUT(m_barg_offset_huge, BSET(0, offset, 0xfff8))
MUT(m_barg_extent, BSET(1, extent, HP_EXTENT_ITEMS_PLUS_ARG + 1))
MUT(m_barg_align_3, BSET(0, align, 3))
MUT(m_barg_align_8192, BSET(0, align, 8192))
MUT(m_barg_align_4096, BSET(0, align, 4096))
MUT(m_barg_align_0, BSET(0, align, 0))
MUT(m_barg_param_4, BSET(1, param, 4))
MUT(m_barg_param_end, BSET(1, param, HP_MBOX_ARGS_MAX))
MUT(m_barg_param_last, BSET(1, param, HP_MBOX_ARGS_MAX - 8))
MUT(m_barg_ipa_param, {
	BSET(1, extent, HP_EXTENT_ITEMS_PLUS_ARG);
	BSET(1, param, 12);
})
MUT(m_barg_fixed_param, {
	/* param is an element count for FIXED, not an offset */
	BSET(1, extent, HP_EXTENT_FIXED);
	BSET(1, param, 12345);
})

#define BAD_K(n) "kernel " n ": "
static const tcase cases[] = {
	/* header */
	{"shorter than a header", m_short, S_CHECK,
	 "truncated: 95 bytes, a kernel object header is 96", false},
	{"empty file", m_empty, S_CHECK, "truncated: 0 bytes", false},
	{"bad magic", m_magic, S_CHECK, "not a kernel object (bad magic)",
	 false},
	{"version", m_version, S_CHECK,
	 "object format version 2, the device reads 1", false},
	{"header_size", m_header_size, S_CHECK, "header size 100, expected 96",
	 false},
	{"file_size > size", m_truncated, S_CHECK,
	 "truncated: the header says 480 bytes, 479 were sent", false},
	{"file_size < size", m_trailing, S_CHECK,
	 "trailing bytes: the header says 480 bytes, 484 were sent", false},
	{"a flipped image bit", m_crc_byte, S_CHECK,
	 "checksum mismatch (corrupted object)", true},
	{"a flipped CRC bit", m_crc_field, S_CHECK, "checksum mismatch", true},
	{"a flipped last bit", m_crc_last, S_CHECK, "checksum mismatch", true},
	{"writable data in the code", m_data_in_code, S_CHECK,
	 "writable data (8 bytes at 0) outside the image, in the code or "
	 "misaligned",
	 false},
	{"writable data past the image", m_data_outside, S_CHECK,
	 "outside the image, in the code or misaligned", false},
	{"writable data misaligned", m_data_misaligned, S_CHECK,
	 "outside the image, in the code or misaligned", false},
	{"a data reference without data", m_data_reloc_no_data, S_PLACE,
	 "relocation 0: a reference to writable data in an object without "
	 "any",
	 false},
	{"OpenCL metadata past the image", m_meta_outside, S_CHECK,
	 "OpenCL metadata outside the image", false},
	{"metadata offset without size", m_meta_offset_only, S_CHECK,
	 "OpenCL metadata outside the image", false},
	{"xlen", m_xlen, S_CHECK, "object built for RV32, the device is RV64",
	 false},
	{"float ABI", m_float, S_CHECK,
	 "float ABI 1 of the object differs from the firmware's 2", false},
	{"api_version", m_api_version, S_CHECK,
	 "kernel API version 3, the firmware has 2", false},
	{"api_count too high", m_api_count, S_CHECK,
	 "kernel API entries, the firmware has", false},
	{"api_count 0", m_api_count_0, 0, NULL, false},
	{"image_size 0", m_image_0, S_CHECK, "image size 0 outside 1..1048576",
	 false},
	{"image_size > HPK_IMAGE_MAX", m_image_big, S_CHECK,
	 "image size 1048577 outside 1..1048576", false},
	{"image_size HPK_IMAGE_MAX", m_image_max, 0, NULL, false},
	{"image_file_size > image_size", m_image_file_big, S_CHECK,
	 "image bytes outside the file", false},
	{"image past the file", m_image_past, S_CHECK,
	 "image bytes outside the file", false},
	{"image inside the header", m_image_in_header, S_CHECK,
	 "image bytes outside the file", false},
	{"image_offset near 2^32", m_image_offset_huge, S_CHECK,
	 "image bytes outside the file", false},
	{"image_align 24", m_align_24, S_CHECK,
	 "image alignment 24 not a power of two <= 128", false},
	{"image_align 0", m_align_0, S_CHECK, "image alignment 0 not", false},
	{"image_align 256", m_align_256, S_CHECK, "image alignment 256 not",
	 false},
	{"image_align 64", m_align_64, 0, NULL, false},
	{"image_align 128", m_align_max, 0, NULL, false},
	{"text_size 0", m_text_0, S_CHECK, "code size 0 outside the image",
	 false},
	{"text_size > image_file_size", m_text_big, S_CHECK,
	 "code size 289 outside the image", false},
	{"api_offset outside", m_api_outside, S_CHECK,
	 "API table pointer outside the image", false},
	{"api_offset near 2^32", m_api_huge, S_CHECK,
	 "API table pointer outside the image", false},
	{"api_offset misaligned", m_api_misaligned, S_CHECK,
	 "API table pointer outside the image", false},
	{"api_offset in the zero tail", m_api_tail, 0, NULL, false},
	{"kernels past the image bytes", m_kernels_outside, S_CHECK,
	 "kernel descriptors outside the image", false},
	{"kernels in the zero tail", m_kernels_in_tail, S_CHECK,
	 "kernel descriptors outside the image", false},
	{"kernels misaligned", m_kernels_misaligned, S_CHECK,
	 "kernel descriptors outside the image", false},
	{"kernels_size 0", m_kernels_size_0, S_CHECK,
	 "kernel descriptors: 0 bytes, not 1..64 descriptors of 80", false},
	{"kernels_size 100", m_kernels_size_100, S_CHECK,
	 "kernel descriptors: 100 bytes, not 1..64 descriptors of 80", false},
	{"65 kernels", m_kernels_65, S_CHECK,
	 "kernel descriptors: 5200 bytes, not 1..64", false},
	{"one kernel of two", m_kernels_1, 0, NULL, false},
	{"relocations past the file", m_reloc_count, S_CHECK,
	 "relocations outside the file", false},
	{"reloc_count > HPK_RELOCS_MAX", m_reloc_count_max, S_CHECK,
	 "relocations outside the file", false},
	{"relocations in the header", m_reloc_in_header, S_CHECK,
	 "relocations outside the file", false},
	{"reloc_offset near 2^32", m_reloc_huge, S_CHECK,
	 "relocations outside the file", false},
	/* Offsets left as they are: pointers near address 0. */
	{"no relocations", m_reloc_none, S_READ0,
	 "kernel 0: name outside the image", false},
	/* relocations */
	{"reloc type 2", m_rtype, S_PLACE,
	 "relocation 0: unsupported type 2 (3, relative; 0x100-0x106, "
	 "writable data; on RV32 also 26-28)",
	 false},
	/* the host is 64-bit: like an RV64 device */
	{"lui relocation on RV64", m_rtype_hi20, S_PLACE,
	 "relocation 0: absolute-address relocation on RV64", false},
	{"reloc offset outside", m_roff_outside, S_PLACE,
	 "relocation 1: offset 0x13c outside the image or misaligned", false},
	{"reloc offset near 2^32", m_roff_huge, S_PLACE,
	 "relocation 1: offset 0xfffffff8 outside the image or misaligned",
	 false},
	{"reloc offset misaligned", m_roff_misaligned, S_PLACE,
	 "relocation 1: offset 0x4c outside the image or misaligned", false},
	{"reloc offset in the code", m_roff_code, S_PLACE,
	 "relocation 0: offset 0x8 inside the code", false},
	{"reloc addend outside", m_raddend, S_PLACE,
	 "relocation 5: target 0x141 outside the image", false},
	{"reloc addend over 32 bits", m_raddend_huge, S_PLACE,
	 "relocation 5: target 0x100000004 outside the image", false},
	{"reloc into the tail, one past the end", m_rextra, 0, NULL, false},
	/* names */
	{"name one past the image", m_name_outside, S_READ0,
	 "kernel 0: name outside the image", false},
	{"name not relocated", m_name_unrelocated, S_READ0,
	 "kernel 0: name outside the image", false},
	{"name empty", m_name_empty, S_READ0,
	 "kernel 0: name empty, unterminated or longer than 31 bytes", false},
	{"name unterminated", m_name_unterminated, S_READ0,
	 "kernel 0: name empty, unterminated", false},
	{"name of 32 bytes", m_name_32, S_READ0,
	 "kernel 0: name empty, unterminated or longer than 31 bytes", false},
	{"name of 31 bytes", m_name_31, 0, NULL, false},
	{"name starts with a digit", m_name_digit, S_READ1,
	 "kernel 1: name is not an identifier", false},
	{"name with a dash", m_name_dash, S_READ1,
	 "kernel 1: name is not an identifier", false},
	{"name with a high byte", m_name_high, S_READ1,
	 "kernel 1: name is not an identifier", false},
	{"name _Vadd_2", m_name_ident, 0, NULL, false},
	{"name in the code", m_name_in_code, S_READ0,
	 "kernel 0: name is not an identifier", false},
	/* code pointers */
	{"fn past the code", m_fn_outside, S_READ0,
	 BAD_K("vadd") "code pointer outside the code", false},
	{"fn at the last instruction", m_fn_last, 0, NULL, false},
	{"fn straddling the code's end", m_fn_straddle, S_READ0,
	 BAD_K("vadd") "code pointer outside the code", false},
	{"fn odd", m_fn_odd, S_READ1,
	 BAD_K("reduce") "code pointer outside the code", false},
	{"fn NULL", m_fn_null, S_READ0,
	 BAD_K("vadd") "code pointer outside the code", false},
	{"row past the code", m_row_outside, S_READ0,
	 BAD_K("vadd") "code pointer outside the code", false},
	{"row misaligned", m_row_misaligned, S_READ0,
	 BAD_K("vadd") "code pointer outside the code", false},
	{"row NULL", m_row_null, 0, NULL, false},
	/* attributes */
	{"reqd 64x32x1", m_reqd_big, S_READ1,
	 BAD_K("reduce") "reqd_work_group_size outside 1..1024 work-items",
	 false},
	{"reqd 64x0x1", m_reqd_zero, S_READ1,
	 BAD_K("reduce") "reqd_work_group_size outside 1..1024", false},
	{"reqd 2^32-1", m_reqd_huge, S_READ1,
	 BAD_K("reduce") "reqd_work_group_size outside 1..1024", false},
	{"reqd wrapping to 520", m_reqd_wrap, S_READ1,
	 BAD_K("reduce") "reqd_work_group_size outside 1..1024", false},
	{"reqd 1024x1x1", m_reqd_max, 0, NULL, false},
	{"reqd 8x8x16", m_reqd_max3, 0, NULL, false},
	{"sub-group size 3", m_sg_3, S_READ1,
	 BAD_K("reduce") "sub-group size 3 not supported", false},
	{"sub-group size 256", m_sg_256, S_READ1,
	 BAD_K("reduce") "sub-group size 256 not supported", false},
	{"sub-group size 2^31", m_sg_top, S_READ1,
	 BAD_K("reduce") "sub-group size 2147483648 not supported", false},
	{"sub-group size 128", m_sg_128, 0, NULL, false},
	{"sub-group size 0", m_sg_0, 0, NULL, false},
	{"local memory 65537", m_local_big, S_READ1,
	 BAD_K("reduce") "65537 bytes of local memory, the device has 65536",
	 false},
	{"local memory 65536", m_local_max, 0, NULL, false},
	{"args_size 1537", m_args_big, S_READ0,
	 BAD_K("vadd") "argument block over 1536 bytes", false},
	{"args_size 1536", m_args_max, 0, NULL, false},
	{"stack 64 KiB + 1", m_stack_big, S_READ1,
	 BAD_K("reduce") "stack over 65536 bytes", false},
	{"stack 64 KiB", m_stack_max, 0, NULL, false},
	{"uses_barriers byte 2", m_barriers_2, S_READ1,
	 BAD_K("reduce") "uses_barriers not a bool", false},
	{"uses_barriers byte 0xff", m_barriers_ff, S_READ0,
	 BAD_K("vadd") "uses_barriers not a bool", false},
	{"row_spans_groups byte 2", m_spans_2, S_READ0,
	 BAD_K("vadd") "row_spans_groups not a bool", false},
	{"row_spans_groups on vadd", m_spans_ok, 0, NULL, false},
	{"row_spans_groups with barriers", m_spans_reduce, S_READ1,
	 BAD_K("reduce") "row_spans_groups not a bool, or with barriers",
	 false},
	/* buffer arguments */
	{"9 buffers", m_nbuf_9, S_READ0,
	 BAD_K("vadd") "more than 8 buffer arguments", false},
	{"2^31 buffers", m_nbuf_huge, S_READ0,
	 BAD_K("vadd") "more than 8 buffer arguments", false},
	{"8 buffers", m_nbuf_8, 0, NULL, false},
	{"buffer list past the image", m_bufs_outside, S_READ0,
	 BAD_K("vadd") "buffer list outside the image", false},
	{"buffer list at the image's end", m_bufs_past, S_READ0,
	 BAD_K("vadd") "buffer list outside the image", false},
	{"buffer list NULL", m_bufs_null, S_READ0,
	 BAD_K("vadd") "buffer list outside the image", false},
	{"buffer list misaligned", m_bufs_misaligned, 0, NULL, false},
	{"buffer offset 4", m_barg_offset_4, S_READ0,
	 BAD_K("vadd") "buffer argument 1 invalid", false},
	{"buffer offset 1536", m_barg_offset_end, S_READ0,
	 BAD_K("vadd") "buffer argument 1 invalid", false},
	{"buffer offset 1528", m_barg_offset_last, 0, NULL, false},
	{"buffer offset 0xfff8", m_barg_offset_huge, S_READ0,
	 BAD_K("vadd") "buffer argument 0 invalid", false},
	{"buffer extent 5", m_barg_extent, S_READ0,
	 BAD_K("vadd") "buffer argument 1 invalid", false},
	{"buffer align 3", m_barg_align_3, S_READ0,
	 BAD_K("vadd") "buffer argument 0 invalid", false},
	{"buffer align 8192", m_barg_align_8192, S_READ0,
	 BAD_K("vadd") "buffer argument 0 invalid", false},
	{"buffer align 4096", m_barg_align_4096, 0, NULL, false},
	{"buffer align 0", m_barg_align_0, 0, NULL, false},
	{"ARG extent, param 4", m_barg_param_4, S_READ0,
	 BAD_K("vadd") "buffer argument 1 invalid", false},
	{"ARG extent, param 1536", m_barg_param_end, S_READ0,
	 BAD_K("vadd") "buffer argument 1 invalid", false},
	{"ARG extent, param 1528", m_barg_param_last, 0, NULL, false},
	{"ITEMS_PLUS_ARG extent, param 12", m_barg_ipa_param, S_READ0,
	 BAD_K("vadd") "buffer argument 1 invalid", false},
	{"FIXED extent, param 12345", m_barg_fixed_param, 0, NULL, false},
};

static const char *seeds; /* HP_LOADER_SEEDS */
static unsigned seeds_written;
/* The accepted objects that become seeds (besides the valid one, "two"):
 * one of each shape. */
static const struct {
	void (*mut)(obj *o);
	const char *name;
} seed_muts[] = {
	{m_kernels_1, "one"},	     {m_rextra, "reloc-to-end"},
	{m_api_tail, "api-in-tail"}, {m_align_64, "align-64"},
	{m_name_31, "name-31"},	     {m_row_null, "no-row"},
	{m_nbuf_8, "eight-buffers"}, {m_bufs_misaligned, "buffers-unaligned"},
};

static const char *seed_name(void (*mut)(obj *o))
{
	for (unsigned i = 0; i < sizeof(seed_muts) / sizeof(seed_muts[0]); i++)
		if (seed_muts[i].mut == mut)
			return seed_muts[i].name;
	return NULL;
}

static void write_seed(const obj *o, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", seeds, name);
	FILE *f = fopen(path, "wb");
	CHECK_MSG(f != NULL, "cannot write %s", path);
	if (!f)
		return;
	CHECK(fwrite(o->f, 1, o->size, f) == o->size);
	CHECK(fclose(f) == 0);
	seeds_written++;
}

/* Build, mutate, seal; check, place, read every kernel; the step that
 * refused it and its reason must be the case's. */
static void run(const tcase *c)
{
	static obj o;
	build(&o);
	if (c->mut)
		c->mut(&o);
	if (!c->raw)
		seal(&o);

	char why[160] = "";
	hpk_header h;
	uint8_t *img = NULL;
	int stage = S_CHECK;
	int rc = hpk_check(o.f, o.size, &target, &h, why, sizeof(why));
	if (rc == 0) {
		stage = S_PLACE;
		img = image_alloc(&h);
		CHECK(img != NULL);
		rc = img ? hpk_place(&h, o.f, img, &api_table, NULL, why,
				     sizeof(why))
			 : -1;
	}
	for (unsigned i = 0; rc == 0 && i < hpk_kernel_count(&h); i++) {
		hpk_kernel k;
		stage = S_READ0 + (int)i;
		rc = hpk_kernel_read(&h, img, i, &target, &k, why, sizeof(why));
		if (rc == 0)
			CHECK_MSG(k.k.name == k.name && k.k.fn != NULL,
				  "%s: kernel %u read inconsistently", c->what,
				  i);
	}
	if (rc == 0)
		stage = S_READ1 + 1;
	if (!c->why) {
		CHECK_MSG(rc == 0, "%s: refused by %s: %s", c->what,
			  stage_name[stage], why);
		if (rc == 0 && seeds && seed_name(c->mut))
			write_seed(&o, seed_name(c->mut));
	} else {
		CHECK_MSG(rc == HP_INVALID_BINARY && stage == c->stage &&
				  strstr(why, c->why) != NULL,
			  "%s: want %s to refuse it with \"%s\"; got %d from "
			  "%s: \"%s\"",
			  c->what, stage_name[c->stage], c->why, rc,
			  stage_name[stage], why);
	}
	free(img);
}

/* hpk_code_uses_fpu on hand-assembled code: integer code (RVC and
 * 32-bit) is not, each kind of F/D instruction is, and decoding keeps the
 * instruction boundaries (a 32-bit instruction whose upper half looks like
 * c.fld is still integer). */
static void code_fpu(void)
{
	static const struct {
		const char *what;
		uint16_t parcels[6]; /* little-endian 16-bit parcels, 0-ended */
		unsigned xlen;
		bool fpu;
	} cs[] = {
		/* addi a0,a0,1; c.addi a0,1; ret */
		{"integer", {0x0513, 0x0015, 0x0505, 0x8082}, 64, false},
		/* lui a1,0x2000 (upper parcel 0x2000 = c.fld's pattern) */
		{"upper half like c.fld", {0x05b7, 0x2000, 0x8082}, 64, false},
		{"flw fa0,0(a0)", {0x2507, 0x0005}, 64, true},
		{"fsd fa0,0(a0)", {0x3027, 0x00a5}, 64, true},
		{"fadd.s fa0,fa0,fa1", {0x7553, 0x00b5}, 64, true},
		{"fmadd.s", {0x7543, 0x60b5}, 64, true},
		{"csrr a0,fcsr", {0x2573, 0x0030}, 64, true},
		{"csrr a0,cycle (not FP)", {0x2573, 0xc000}, 64, false},
		{"c.fld fa0,0(a0)", {0x2108}, 64, true},
		{"c.fsdsp fa0,0(sp)", {0xa02a}, 64, true},
		{"c.ld a0,0(a0) on RV64", {0x6108}, 64, false},
		{"c.flw fa0,0(a0) on RV32", {0x6108}, 32, true},
		{"after integer code",
		 {0x0505, 0x0513, 0x0015, 0x7553, 0x00b5},
		 64,
		 true},
	};
	for (unsigned i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		uint8_t code[12];
		unsigned n = 0;
		while (n < 6 && cs[i].parcels[n]) {
			code[2 * n] = (uint8_t)cs[i].parcels[n];
			code[2 * n + 1] = (uint8_t)(cs[i].parcels[n] >> 8);
			n++;
		}
		hpk_header h = {.text_size = 2 * n};
		CHECK_MSG(hpk_code_uses_fpu(&h, code, cs[i].xlen) == cs[i].fpu,
			  "code_fpu %s: want %d", cs[i].what, cs[i].fpu);
	}
}

/* The immediates of an auipc (hi) and of the I- or S-type instruction
 * after it (lo): the address they make from the auipc's @p pc. */
static uintptr_t pair_target(const uint8_t *img, unsigned at, bool store)
{
	uint32_t hi, lo;
	memcpy(&hi, img + at, 4);
	memcpy(&lo, img + at + 4, 4);
	int32_t imm = store ? (int32_t)(((lo >> 25) << 5) | ((lo >> 7) & 0x1f))
			    : (int32_t)(lo >> 20);
	imm = (imm << 20) >> 20; /* sign-extend 12 bits */
	return (uintptr_t)img + at +
	       (uintptr_t)(intptr_t)(int32_t)(hi & 0xfffff000u) +
	       (uintptr_t)(intptr_t)imm;
}

/* Writable data: [I_SPARE, I_SIZE) goes to a block of its own; the code's
 * auipc/addi and auipc/sw pairs and the words that point into it point
 * at the block, a pointer to code inside it is relocated as ever. */
static void data_object(void)
{
	static obj o;
	build(&o);
	uint8_t *img = o.f + IMG;
	static const uint32_t code[4] = {
		0x00000517, /* auipc a0, 0 */
		0x00050513, /* addi a0, a0, 0 */
		0x00000517, /* auipc a0, 0 */
		0x00b52023, /* sw a1, 0(a0) */
	};
	memcpy(img, code, sizeof(code));
	memcpy(img + I_SPARE, "DATA1234", 8);
	const unsigned D = I_SPARE, DSIZE = I_SIZE - I_SPARE;
	const hpk_reloc extra[5] = {
		{0, HPK_R_DATA_HI20, 8},
		{4, HPK_R_DATA_LO12_I, 8},
		{8, HPK_R_DATA_HI20, 20},
		{12, HPK_R_DATA_LO12_S, 20 | (uint64_t)8 << 32},
		{D + 16, HPK_R_DATA_WORD, 0},
	};
	for (unsigned j = 0; j < 5; j++)
		rput(&o, NRELOC + j, &extra[j]);
	const hpk_reloc code_ptr = {D + 24, HPK_R_RELATIVE, 4};
	rput(&o, NRELOC + 5, &code_ptr);
	o.h.reloc_count = NRELOC + 6;
	o.size = RELOCS + o.h.reloc_count * sizeof(hpk_reloc);
	o.h.file_size = (uint32_t)o.size;
	o.h.data_offset = D;
	o.h.data_size = DSIZE;
	seal(&o);
	if (seeds)
		write_seed(&o, "data");
	char why[160] = "";
	hpk_header h;
	int rc = hpk_check(o.f, o.size, &target, &h, why, sizeof(why));
	CHECK_MSG(rc == 0, "object with data refused: %s", why);
	/* one allocation: the block near the code, as auipc needs (a
	 * sanitizer's allocator puts sizes far apart) */
	uint8_t *im = aligned_alloc(16, I_SIZE + DSIZE);
	CHECK(im != NULL);
	if (!im)
		return;
	uint8_t *data = im + I_SIZE;
	memset(im, 0xaa, I_SIZE + DSIZE);
	rc = hpk_place(&h, o.f, im, &api_table, data, why, sizeof(why));
	CHECK_MSG(rc == 0, "object with data not placed: %s", why);
	CHECK_EQ(pair_target(im, 0, false), (uintptr_t)data + 8);
	CHECK_EQ(pair_target(im, 8, true), (uintptr_t)data + 20);
	CHECK(memcmp(data, "DATA1234", 8) == 0);
	uintptr_t w;
	memcpy(&w, data + 16, sizeof(w));
	CHECK_EQ(w, (uintptr_t)data);
	memcpy(&w, data + 24, sizeof(w));
	CHECK_EQ(w, (uintptr_t)im + 4);
	bool zero = true;
	for (unsigned i = 32; i < DSIZE; i++)
		zero &= data[i] == 0;
	CHECK(zero);
	/* without a block, or an LO12 whose pair is no auipc */
	rc = hpk_place(&h, o.f, im, &api_table, NULL, why, sizeof(why));
	CHECK(rc == HP_INVALID_BINARY && strstr(why, "without any"));
	hpk_reloc bad_pair = {12, HPK_R_DATA_LO12_S, 20 | (uint64_t)4 << 32};
	rput(&o, NRELOC + 3, &bad_pair);
	seal(&o);
	rc = hpk_check(o.f, o.size, &target, &h, why, sizeof(why));
	CHECK_EQ(rc, 0);
	rc = hpk_place(&h, o.f, im, &api_table, data, why, sizeof(why));
	CHECK(rc == HP_INVALID_BINARY && strstr(why, "not an auipc"));
	free(im);
}

int main(void)
{
	seeds = getenv("HP_LOADER_SEEDS");
	code_fpu();
	valid();
	data_object();
	if (seeds) {
		static obj o;
		build(&o);
		write_seed(&o, "two");
	}
	unsigned n = sizeof(cases) / sizeof(cases[0]);
	for (unsigned i = 0; i < n; i++)
		run(&cases[i]);
	printf("test_loader: %u objects refused or accepted as they must be\n",
	       n + 1);
	if (seeds)
		printf("test_loader: %u seeds written to %s\n", seeds_written,
		       seeds);
	return check_report("test_loader");
}
