// SPDX-License-Identifier: MIT
/*
 * The kernel-object loader (loader.h, hartpool/object.h). Every value
 * comes from a file the firmware does not trust: each is read once into a
 * local, checked against the file or image it indexes with overflow-free
 * arithmetic, and only then used.
 */
#include "loader.h"
#include <hartpool/error.h>
#include <hartpool/frame.h>
#include <hartpool/mbox.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define CRC_START 24u /* bytes after the crc32 field */

static int bad(char *why, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return HP_INVALID_BINARY;
}

/* [off, off + len) inside [0, size)? */
static int within(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static int pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int hpk_check(const void *file, size_t size, const hpk_target *t,
	      hpk_header *hp, char *why, size_t n)
{
	hpk_header h;
	if (size < sizeof(h))
		return bad(why, n,
			   "truncated: %zu bytes, a kernel object header is "
			   "%zu",
			   size, sizeof(h));
	memcpy(&h, file, sizeof(h));
	if (memcmp(h.magic, HPK_MAGIC, sizeof(h.magic)) != 0)
		return bad(why, n, "not a kernel object (bad magic)");
	if (h.version != HPK_VERSION)
		return bad(why, n,
			   "object format version %u, the device reads %u",
			   (unsigned)h.version, HPK_VERSION);
	if (h.header_size != sizeof(h))
		return bad(why, n, "header size %u, expected %zu",
			   (unsigned)h.header_size, sizeof(h));
	if (h.file_size != size)
		return bad(why, n,
			   "%s: the header says %u bytes, %zu were sent",
			   h.file_size > size ? "truncated" : "trailing bytes",
			   (unsigned)h.file_size, size);
	uint32_t crc =
		hp_crc32((const uint8_t *)file + CRC_START, size - CRC_START);
	if (crc != h.crc32)
		return bad(why, n, "checksum mismatch (corrupted object)");
	if (h.xlen != t->xlen)
		return bad(why, n, "object built for RV%u, the device is RV%u",
			   (unsigned)h.xlen, t->xlen);
	if (h.float_abi != t->float_abi)
		return bad(why, n,
			   "float ABI %u of the object differs from the "
			   "firmware's %u (build it for this board)",
			   (unsigned)h.float_abi, t->float_abi);
	if (h.api_version != HP_API_VERSION)
		return bad(why, n, "kernel API version %u, the firmware has %u",
			   (unsigned)h.api_version, HP_API_VERSION);
	if (h.api_count > t->api_count)
		return bad(why, n,
			   "object needs %u kernel API entries, the firmware "
			   "has %u (newer kernel.h than firmware)",
			   (unsigned)h.api_count, (unsigned)t->api_count);
	if (!h.image_size || h.image_size > HPK_IMAGE_MAX)
		return bad(why, n, "image size %u outside 1..%u",
			   (unsigned)h.image_size, HPK_IMAGE_MAX);
	if (h.image_file_size > h.image_size ||
	    !within(h.image_offset, h.image_file_size, size) ||
	    h.image_offset < sizeof(h))
		return bad(why, n, "image bytes outside the file");
	if (!pow2(h.image_align) || h.image_align > HPK_IMAGE_ALIGN)
		return bad(why, n,
			   "image alignment %u not a power of two <= %u",
			   (unsigned)h.image_align, HPK_IMAGE_ALIGN);
	if (!h.text_size || h.text_size > h.image_file_size)
		return bad(why, n, "code size %u outside the image",
			   (unsigned)h.text_size);
	unsigned word = t->xlen / 8;
	if (!within(h.api_offset, word, h.image_size) || h.api_offset % word)
		return bad(why, n, "API table pointer outside the image");
	if (!within(h.kernels_offset, h.kernels_size, h.image_file_size) ||
	    h.kernels_offset % word)
		return bad(why, n, "kernel descriptors outside the image");
	if (!h.kernels_size || h.kernels_size % sizeof(hp_kernel) ||
	    h.kernels_size / sizeof(hp_kernel) > HPK_KERNELS_MAX)
		return bad(why, n,
			   "kernel descriptors: %u bytes, not 1..%u "
			   "descriptors of %zu",
			   (unsigned)h.kernels_size, HPK_KERNELS_MAX,
			   sizeof(hp_kernel));
	if (h.meta_size ? !within(h.meta_offset, h.meta_size, h.image_file_size)
			: h.meta_offset != 0)
		return bad(why, n, "OpenCL metadata outside the image");
	if (h.data_size ? !within(h.data_offset, h.data_size, h.image_size) ||
				  h.data_offset < h.text_size ||
				  h.data_offset % h.image_align
			: h.data_offset != 0)
		return bad(why, n,
			   "writable data (%u bytes at %#x) outside the image, "
			   "in the code or misaligned",
			   (unsigned)h.data_size, (unsigned)h.data_offset);
	if (h.reloc_count > HPK_RELOCS_MAX ||
	    !within(h.reloc_offset, (uint64_t)h.reloc_count * sizeof(hpk_reloc),
		    size) ||
	    (h.reloc_count && h.reloc_offset < sizeof(h)))
		return bad(why, n, "relocations outside the file");
	*hp = h;
	return 0;
}

/* The instruction at image offset @p off of the code, into *@p in. */
static const char *insn_at(const hpk_header *h, const uint8_t *img,
			   uint64_t off, uint32_t *in)
{
	if (!within(off, 4, h->text_size) || off % 2)
		return "instruction outside the code or misaligned";
	memcpy(in, img + off, 4);
	return NULL;
}

/* Value @p a's part into the instruction at @p r->offset: HI20 (of lui
 * or auipc, opcode @p hi_op), LO12_I or LO12_S as @p kind says. */
static const char *patch_value(const hpk_header *h, uint8_t *img,
			       const hpk_reloc *r, unsigned kind,
			       uint32_t hi_op, uint32_t a)
{
	uint32_t in;
	const char *e = insn_at(h, img, r->offset, &in);
	if (e)
		return e;
	uint32_t op = in & 0x7f;
	uint32_t lo = a & 0xfff;
	if (kind == HPK_R_HI20) {
		if (op != hi_op)
			return hi_op == 0x37 ? "HI20 not on a lui"
					     : "HI20 not on an auipc";
		in = (in & 0xfff) | ((a + 0x800) & 0xfffff000u);
	} else if (kind == HPK_R_LO12_I) {
		/* LOAD, LOAD-FP, OP-IMM, JALR */
		if (op != 0x03 && op != 0x07 && op != 0x13 && op != 0x67)
			return "LO12_I not on an I-type instruction";
		in = (in & 0xfffff) | lo << 20;
	} else {
		if (op != 0x23 && op != 0x27) /* STORE, STORE-FP */
			return "LO12_S not on a store";
		in = (in & 0x1fff07fu) | (lo >> 5) << 25 | (lo & 0x1f) << 7;
	}
	memcpy(img + r->offset, &in, 4);
	return NULL;
}

/* An absolute-address relocation in RV32 code (HPK_R_HI20 / LO12_I /
 * LO12_S): the instruction must be the kind the type names. */
static const char *patch_insn(const hpk_header *h, uint8_t *img,
			      const hpk_reloc *r)
{
	if (sizeof(uintptr_t) != 4)
		return "absolute-address relocation on RV64";
	if (r->addend > h->image_size)
		return "target outside the image";
	return patch_value(h, img, r, r->type, 0x37,
			   (uint32_t)((uintptr_t)img + (uintptr_t)r->addend));
}

/* A reference to the writable data (HPK_R_DATA_*), to the block at
 * @p data. */
static const char *patch_data(const hpk_header *h, uint8_t *img, uintptr_t data,
			      const hpk_reloc *r)
{
	uint64_t d = r->addend & 0xffffffffu, q = r->addend >> 32;
	if (!data)
		return "a reference to writable data in an object without any";
	if (d > h->data_size)
		return "target outside the writable data";
	uintptr_t target = data + (uintptr_t)d;
	uintptr_t pc = (uintptr_t)img + (uintptr_t)r->offset;
	/* auipc reaches +-2 GiB (RV32: everything, addresses wrap) */
	intptr_t far = (intptr_t)(target - (uintptr_t)img);
	if (sizeof(uintptr_t) == 8 &&
	    (far > (intptr_t)0x7f000000 || far < -(intptr_t)0x7f000000))
		return "the writable data's block is over 2 GiB from the code";
	uint32_t in;
	switch (r->type) {
	case HPK_R_DATA_HI20:
		return q ? "HI20 with an auipc offset"
			 : patch_value(h, img, r, HPK_R_HI20, 0x17,
				       (uint32_t)(target - pc));
	case HPK_R_DATA_LO12_I:
	case HPK_R_DATA_LO12_S: {
		/* its auipc: an auipc, in the code */
		const char *e = insn_at(h, img, q, &in);
		if (e || (in & 0x7f) != 0x17)
			return "LO12 whose pair is not an auipc";
		uintptr_t apc = (uintptr_t)img + (uintptr_t)q;
		return patch_value(h, img, r,
				   r->type == HPK_R_DATA_LO12_I ? HPK_R_LO12_I
								: HPK_R_LO12_S,
				   0, (uint32_t)(target - apc));
	}
	case HPK_R_DATA_ABS_HI20:
	case HPK_R_DATA_ABS_LO12_I:
	case HPK_R_DATA_ABS_LO12_S:
		if (sizeof(uintptr_t) != 4 || q)
			return "absolute-address relocation on RV64";
		return patch_value(h, img, r,
				   r->type - HPK_R_DATA_ABS_HI20 + HPK_R_HI20,
				   0x37, (uint32_t)target);
	default: /* HPK_R_DATA_WORD */
		if (q || !within(r->offset, sizeof(uintptr_t), h->image_size) ||
		    r->offset % sizeof(uintptr_t) || r->offset < h->text_size)
			return "word outside the image's data, or misaligned";
		memcpy(img + r->offset, &target, sizeof(target));
		return NULL;
	}
}

/* HPK_R_RELATIVE @p i: the word at r->offset = load address + addend. */
static int patch_relative(const hpk_header *h, uint8_t *img, uint32_t i,
			  const hpk_reloc *r, char *why, size_t n)
{
	const size_t word = sizeof(uintptr_t);
	if (!within(r->offset, word, h->image_size) || r->offset % word)
		return bad(why, n,
			   "relocation %u: offset %#x outside the image or "
			   "misaligned",
			   (unsigned)i, (unsigned)r->offset);
	if (r->offset < h->text_size)
		return bad(why, n, "relocation %u: offset %#x inside the code",
			   (unsigned)i, (unsigned)r->offset);
	if (r->addend > h->image_size)
		return bad(why, n,
			   "relocation %u: target %#llx outside the image",
			   (unsigned)i, (unsigned long long)r->addend);
	uintptr_t v = (uintptr_t)img + (uintptr_t)r->addend;
	memcpy(img + r->offset, &v, word);
	return 0;
}

int hpk_place(const hpk_header *h, const void *file, void *image,
	      const void *api, void *data, char *why, size_t n)
{
	uint8_t *img = image;
	const uint8_t *f = file;
	memcpy(img, f + h->image_offset, h->image_file_size);
	memset(img + h->image_file_size, 0, h->image_size - h->image_file_size);
	for (uint32_t i = 0; i < h->reloc_count; i++) {
		hpk_reloc r;
		memcpy(&r, f + h->reloc_offset + (size_t)i * sizeof(r),
		       sizeof(r));
		const char *e;
		if (r.type == HPK_R_RELATIVE) {
			int rc = patch_relative(h, img, i, &r, why, n);
			if (rc)
				return rc;
			continue;
		}
		if (r.type == HPK_R_HI20 || r.type == HPK_R_LO12_I ||
		    r.type == HPK_R_LO12_S)
			e = patch_insn(h, img, &r);
		else if (r.type >= HPK_R_DATA_HI20 &&
			 r.type <= HPK_R_DATA_ABS_LO12_S)
			e = patch_data(h, img, (uintptr_t)data, &r);
		else
			return bad(why, n,
				   "relocation %u: unsupported type %u (%u, "
				   "relative; %#x-%#x, writable data; on RV32 "
				   "also 26-28)",
				   (unsigned)i, (unsigned)r.type,
				   HPK_R_RELATIVE, HPK_R_DATA_HI20,
				   HPK_R_DATA_ABS_LO12_S);
		if (e)
			return bad(why, n, "relocation %u: %s", (unsigned)i, e);
	}
	uintptr_t a = (uintptr_t)api;
	memcpy(img + h->api_offset, &a, sizeof(a));
	/* the writable data as relocated: each object's own copy */
	if (h->data_size)
		memcpy(data, img + h->data_offset, h->data_size);
	return 0;
}

unsigned hpk_kernel_count(const hpk_header *h)
{
	return (unsigned)(h->kernels_size / sizeof(hp_kernel));
}

/* p points at [base, base + size) with room for len bytes? */
static int in_image(uintptr_t p, size_t len, uintptr_t base, size_t size)
{
	return p >= base && within(p - base, len, size);
}

/* A code pointer: inside the code, 2-byte aligned (RVC). */
static int code_ok(uintptr_t p, uintptr_t base, const hpk_header *h)
{
	return in_image(p, 2, base, h->text_size) && p % 2 == 0;
}

static int ident_char(char c, int first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* Kernel k's buffer-argument list, checked, into out->bufs. */
static int read_buffers(const hpk_header *h, const uint8_t *img,
			const hp_kernel *k, hpk_kernel *out, char *why,
			size_t n)
{
	uintptr_t base = (uintptr_t)img;
	if (k->num_buffers > HPK_BUFFERS_MAX)
		return bad(why, n, "kernel %s: more than %u buffer arguments",
			   out->name, HPK_BUFFERS_MAX);
	if (k->num_buffers && !in_image((uintptr_t)k->buffers,
					k->num_buffers * sizeof(hp_arg_buffer),
					base, h->image_size))
		return bad(why, n, "kernel %s: buffer list outside the image",
			   out->name);
	for (unsigned b = 0; b < k->num_buffers; b++) {
		hp_arg_buffer a;
		memcpy(&a, img + ((uintptr_t)k->buffers - base) + b * sizeof(a),
		       sizeof(a));
		bool arg_extent = a.extent == HP_EXTENT_ARG ||
				  a.extent == HP_EXTENT_ITEMS_PLUS_ARG;
		if (a.offset % 8 || a.offset + 8u > HP_MBOX_ARGS_MAX ||
		    a.extent > HP_EXTENT_ITEMS_PLUS_ARG ||
		    (a.align && (!pow2(a.align) || a.align > 4096)) ||
		    (arg_extent &&
		     (a.param % 8 || a.param > HP_MBOX_ARGS_MAX - 8)))
			return bad(why, n,
				   "kernel %s: buffer argument %u invalid",
				   out->name, b);
		out->bufs[b] = a;
	}
	return 0;
}

int hpk_kernel_read(const hpk_header *h, const void *image, unsigned i,
		    const hpk_target *t, hpk_kernel *out, char *why, size_t n)
{
	const uint8_t *img = image;
	uintptr_t base = (uintptr_t)img;
	hp_kernel k;
	memcpy(&k, img + h->kernels_offset + (size_t)i * sizeof(k), sizeof(k));
	memset(out, 0, sizeof(*out));

	/* The name: a C identifier inside the image. */
	uintptr_t np = (uintptr_t)k.name;
	if (!in_image(np, 1, base, h->image_size))
		return bad(why, n, "kernel %u: name outside the image", i);
	size_t len = 0, room = h->image_size - (np - base);
	while (len < room && len < sizeof(out->name) && img[np - base + len])
		len++;
	if (len == room || len == sizeof(out->name) || len == 0)
		return bad(why, n,
			   "kernel %u: name empty, unterminated or longer "
			   "than %zu bytes",
			   i, sizeof(out->name) - 1);
	memcpy(out->name, img + (np - base), len);
	for (size_t c = 0; c < len; c++)
		if (!ident_char(out->name[c], c == 0))
			return bad(why, n,
				   "kernel %u: name is not an identifier", i);

	if (!code_ok((uintptr_t)k.fn, base, h) ||
	    (k.row && !code_ok((uintptr_t)k.row, base, h)))
		return bad(why, n, "kernel %s: code pointer outside the code",
			   out->name);

	uint64_t reqd = 1;
	bool any_reqd = false;
	for (unsigned d = 0; d < 3; d++) {
		reqd *= k.reqd_work_group_size[d];
		/* Saturate past the limit: three 32-bit sizes can wrap the
		 * 64-bit product into 1..max (491650309 * 4294951704 * 463
		 * is 520 mod 2^64), and a 0 that follows still makes it 0. */
		if (reqd > t->max_work_group_size)
			reqd = (uint64_t)t->max_work_group_size + 1;
		any_reqd |= k.reqd_work_group_size[d] != 0;
	}
	if (any_reqd && (reqd == 0 || reqd > t->max_work_group_size))
		return bad(why, n,
			   "kernel %s: reqd_work_group_size outside 1..%u "
			   "work-items",
			   out->name, (unsigned)t->max_work_group_size);
	if (k.sub_group_size && (!pow2(k.sub_group_size) ||
				 !(t->sub_group_sizes & k.sub_group_size)))
		return bad(why, n, "kernel %s: sub-group size %u not supported",
			   out->name, (unsigned)k.sub_group_size);
	if (k.local_mem_bytes > t->local_mem_size)
		return bad(why, n,
			   "kernel %s: %u bytes of local memory, the device "
			   "has %u",
			   out->name, (unsigned)k.local_mem_bytes,
			   (unsigned)t->local_mem_size);
	if (k.args_size > HP_MBOX_ARGS_MAX)
		return bad(why, n, "kernel %s: argument block over %u bytes",
			   out->name, HP_MBOX_ARGS_MAX);
	if (k.stack_bytes > HPK_STACK_MAX)
		return bad(why, n, "kernel %s: stack over %u bytes", out->name,
			   HPK_STACK_MAX);
	unsigned char ub, uf, ug, us;
	memcpy(&ub, &k.uses_barriers, 1);
	if (ub > 1)
		return bad(why, n, "kernel %s: uses_barriers not a bool",
			   out->name);
	memcpy(&uf, &k.uses_fpu, 1);
	if (uf > 1)
		return bad(why, n, "kernel %s: uses_fpu not a bool", out->name);
	memcpy(&ug, &k.row_is_group, 1);
	if (ug > 1 || (ug && (!ub || !k.row)))
		return bad(why, n,
			   "kernel %s: row_is_group not a bool, or without "
			   "barriers or a row entry",
			   out->name);
	memcpy(&us, &k.row_spans_groups, 1);
	if (us > 1 || (us && (ub || !k.row)))
		return bad(why, n,
			   "kernel %s: row_spans_groups not a bool, or with "
			   "barriers or without a row entry",
			   out->name);

	int rc = read_buffers(h, img, &k, out, why, n);
	if (rc)
		return rc;

	out->k = k;
	out->k.name = out->name;
	out->k.buffers = k.num_buffers ? out->bufs : NULL;
	out->k.uses_barriers = ub != 0;
	out->k.uses_fpu = uf != 0;
	out->k.row_is_group = ug != 0;
	out->k.row_spans_groups = us != 0;
	return 0;
}

/* A 32-bit instruction that uses the F or D extension. */
static bool fp_insn32(uint32_t in)
{
	switch (in & 0x7f) {
	case 0x07: /* LOAD-FP: flw, fld */
	case 0x27: /* STORE-FP: fsw, fsd */
	case 0x43: /* FMADD */
	case 0x47: /* FMSUB */
	case 0x4b: /* FNMSUB */
	case 0x4f: /* FNMADD */
	case 0x53: /* OP-FP: arithmetic, moves, conversions, compares */
		return true;
	case 0x73: { /* SYSTEM: csrr* on fflags (1), frm (2), fcsr (3) */
		uint32_t f3 = (in >> 12) & 7, csr = in >> 20;
		return f3 != 0 && f3 != 4 && csr >= 1 && csr <= 3;
	}
	default:
		return false;
	}
}

/* A compressed instruction that loads or stores an FP register. */
static bool fp_insn16(uint32_t in, unsigned xlen)
{
	unsigned q = in & 3, f3 = (in >> 13) & 7;
	if (q != 0 && q != 2)
		return false;
	/* q0: c.fld (1), c.fsd (5); q2: c.fldsp (1), c.fsdsp (5). On RV32,
	 * 3 and 7 are their single-precision forms (RV64: c.ld, c.sd). */
	return f3 == 1 || f3 == 5 || (xlen == 32 && (f3 == 3 || f3 == 7));
}

bool hpk_code_uses_fpu(const hpk_header *h, const void *image, unsigned xlen)
{
	const uint8_t *c = image;
	size_t n = h->text_size, i = 0;
	while (i + 2 <= n) {
		uint32_t lo = (uint32_t)c[i] | (uint32_t)c[i + 1] << 8;
		if ((lo & 3) != 3) {
			if (fp_insn16(lo, xlen))
				return true;
			i += 2;
		} else if ((lo & 0x1f) != 0x1f) {
			if (i + 4 > n)
				break;
			uint32_t in = lo | (uint32_t)c[i + 2] << 16 |
				      (uint32_t)c[i + 3] << 24;
			if (fp_insn32(in))
				return true;
			i += 4;
		} else {
			/* 48-bit and longer encodings: none in RV64GC; take
			 * the 48- and 64-bit lengths, else step one parcel. */
			i += (lo & 0x3f) == 0x1f   ? 6
			     : (lo & 0x7f) == 0x3f ? 8
						   : 2;
		}
	}
	return false;
}
