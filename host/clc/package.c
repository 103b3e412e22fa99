// SPDX-License-Identifier: MIT
/*
 * The package stage: a linked kernel-object ELF -> .hpk
 * (include/hartpool/object.h; docs/kernel-objects.md). The image is the
 * allocated sections from address 0; every PC-relative relocation is
 * already right at any address, every absolute XLEN-wide pointer becomes an
 * HPK_R_RELATIVE entry; the writable data (.data, .bss) is a range of its
 * own whose every reference (an auipc pair, a pointer word) becomes an
 * HPK_R_DATA_* entry, pointed at each loaded copy's block; anything else
 * that would need the load address inside code is refused.
 */
#define _GNU_SOURCE
#include "package.h"
#include "elfread.h"
#include "fail.h"
#include "kdesc.h"
#include <elf.h>
#include <errno.h>
#include <hartpool/api.h>
#include <hartpool/error.h>
#include <hartpool/frame.h>
#include <hartpool/kernel.h>
#include <hartpool/object.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Relocation types that are right wherever the image is (relative to the
 * instruction, or differences of two image addresses). */
static bool reloc_position_independent(uint32_t t)
{
	switch (t) {
	case R_RISCV_NONE:
	case R_RISCV_BRANCH:
	case R_RISCV_JAL:
	case R_RISCV_CALL:
	case R_RISCV_CALL_PLT:
	case R_RISCV_PCREL_HI20:
	case R_RISCV_PCREL_LO12_I:
	case R_RISCV_PCREL_LO12_S:
	case R_RISCV_ADD8:
	case R_RISCV_ADD16:
	case R_RISCV_ADD32:
	case R_RISCV_ADD64:
	case R_RISCV_SUB8:
	case R_RISCV_SUB16:
	case R_RISCV_SUB32:
	case R_RISCV_SUB64:
	case R_RISCV_ALIGN:
	case R_RISCV_RVC_BRANCH:
	case R_RISCV_RVC_JUMP:
	case R_RISCV_RELAX:
	case R_RISCV_SUB6:
	case R_RISCV_SET6:
	case R_RISCV_SET8:
	case R_RISCV_SET16:
	case R_RISCV_SET32:
	case R_RISCV_32_PCREL:
	case 22: /* R_RISCV_TLS_GD_HI20: its GOT pair, in the image */
	case 60: /* R_RISCV_SET_ULEB128 */
	case 61: /* R_RISCV_SUB_ULEB128 */
		return true;
	default:
		return false;
	}
}

typedef struct {
	hpk_reloc *r;
	size_t n, cap;
} relocs;

static bool reloc_add(relocs *rs, uint64_t off, uint64_t target, uint32_t type)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		hpk_reloc *nr = realloc(rs->r, cap * sizeof(*nr));
		if (!nr)
			return false;
		rs->r = nr, rs->cap = cap;
	}
	rs->r[rs->n++] = (hpk_reloc){(uint32_t)off, type, target};
	return true;
}

/* A kernel-scope __local variable of OpenCL C kernel K: a TLS symbol named
 * "K.var" (clang's name; hp_cl_build makes them thread-local). The end of
 * the furthest one is the local memory K needs before its __local
 * arguments. */
static uint64_t tls_end_of(const elf *e, const sect *st, const char *kname)
{
	uint64_t end = 0;
	size_t kl = kname ? strlen(kname) : 0;
	for (uint64_t i = 1;; i++) {
		sym y;
		if (!elf_sym_at(e, st, i, &y))
			break;
		if (y.type == STT_TLS &&
		    (!kname ||
		     (!strncmp(y.name, kname, kl) && y.name[kl] == '.')) &&
		    y.value + y.size > end)
			end = y.value + y.size;
	}
	return end;
}

/* TLS symbols that are not a kernel's __local variables (libc's errno,
 * _Thread_local in C): refused. */
static int tls_foreign(clc_log *l, const elf *e, const sect *st, int kern_idx)
{
	for (uint64_t i = 1;; i++) {
		sym y;
		if (!elf_sym_at(e, st, i, &y))
			break;
		/* the OpenCL run-time's own local variables (hpcl_wg_scratch)
		 */
		if (y.type != STT_TLS || !y.name[0] ||
		    !strncmp(y.name, "hpcl_", 5))
			continue;
		const char *dot = strchr(y.name, '.');
		bool ours = false;
		for (uint64_t k = 1; dot && !ours; k++) {
			sym d;
			if (!elf_sym_at(e, st, k, &d))
				break;
			ours = d.shndx == (unsigned)kern_idx &&
			       !strncmp(d.name, "hp_kernel_", 10) &&
			       strlen(d.name + 10) == (size_t)(dot - y.name) &&
			       !strncmp(d.name + 10, y.name,
					(size_t)(dot - y.name));
		}
		if (!ours)
			return clc_fail(
				l, HP_BUILD_PROGRAM_FAILURE,
				"thread-local data ('%s') is not supported",
				y.name);
	}
	return 0;
}

/* @p name is in the NULL-ended @p list (may be NULL). */
static bool listed(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/* What the conversion reads from the ELF and builds up. */
typedef struct {
	elf e;
	const uint8_t *b;
	unsigned xlen;
	sect text, kern, st;
	int api_idx, kern_idx;
	size_t nk;
	uint64_t image_size, file_end, align, api_off;
	uint8_t *img;
	relocs rs;
	/* the writable data: [dlo, dhi), the auipcs that reach into it
	 * (address, target; sorted by address) */
	uint64_t dlo, dhi;
	struct conv_hi {
		uint64_t at, target;
	} * hi;
	size_t nhi;
	clc_log *log; /* where failures are said */
} conv;

/* The sections and descriptors a kernel object needs; 0 or an HP_ error (said).
 */
static int conv_check(conv *c)
{
	elf *e = &c->e;
	sect api;
	if (elf_find_sect(e, ".hp_kernels", &c->kern) < 0 || !c->kern.size)
		return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
				"no kernels: register them with HP_REGISTER()");
	if (elf_find_sect(e, ".text", &c->text) < 0 || c->text.addr != 0 ||
	    !c->text.size)
		return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
				"no code (.text) at address 0");
	c->api_idx = elf_find_sect(e, ".hp_api", &api);
	c->kern_idx = elf_find_sect(e, ".hp_kernels", &c->kern);
	if (elf_find_sect(e, ".symtab", &c->st) < 0)
		return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
				"no symbol table");
	/* One descriptor per hp_kernel_NAME symbol (HP_REGISTER). */
	for (uint64_t i = 1;; i++) {
		sym y;
		if (!elf_sym_at(e, &c->st, i, &y))
			break;
		c->nk += y.shndx == (unsigned)c->kern_idx &&
			 !strncmp(y.name, "hp_kernel_", 10);
	}
	if (!c->nk || c->kern.size % c->nk ||
	    (c->xlen == 8 * sizeof(void *) &&
	     c->kern.size != c->nk * sizeof(hp_kernel)))
		return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
				".hp_kernels holds something else than kernel "
				"descriptors");
	return tls_foreign(c->log, e, &c->st, c->kern_idx);
}

/* The image: every allocated section, from address 0. 0 or an HP_ error (said).
 */
static int conv_image(conv *c)
{
	elf *e = &c->e;
	c->align = 1;
	for (unsigned i = 1; i < e->shnum; i++) {
		sect s;
		if (!elf_sect_named(e, i, &s) || !(s.flags & SHF_ALLOC) ||
		    !s.size)
			continue;
		if (s.flags & SHF_TLS) {
			/* OpenCL __local variables: work-group local memory,
			 * not part of the image (tls_foreign() checked). */
			if (s.type != SHT_NOBITS)
				return clc_fail(
					c->log, HP_BUILD_PROGRAM_FAILURE,
					"initialised thread-local data (%s) "
					"is not supported",
					s.name);
			continue;
		}
		if (s.addr + s.size > c->image_size)
			c->image_size = s.addr + s.size;
		if (s.type != SHT_NOBITS && s.addr + s.size > c->file_end)
			c->file_end = s.addr + s.size;
		if (s.align > c->align)
			c->align = s.align;
	}
	if (c->image_size > HPK_IMAGE_MAX)
		return clc_fail(
			c->log, HP_BUILD_PROGRAM_FAILURE,
			"image of %llu bytes, the device loads at most %u",
			(unsigned long long)c->image_size, HPK_IMAGE_MAX);
	if (c->align > HPK_IMAGE_ALIGN)
		return clc_fail(
			c->log, HP_BUILD_PROGRAM_FAILURE,
			"a section wants %llu-byte alignment, at most %u",
			(unsigned long long)c->align, HPK_IMAGE_ALIGN);
	c->img = calloc(1, c->image_size ? c->image_size : 1);
	if (!c->img)
		return clc_fail(c->log, HP_OUT_OF_RESOURCES, "out of memory");
	for (unsigned i = 1; i < e->shnum; i++) {
		sect s;
		if (elf_sect_named(e, i, &s) && (s.flags & SHF_ALLOC) &&
		    s.type != SHT_NOBITS && s.size)
			memcpy(c->img + s.addr, c->b + s.off, s.size);
	}
	/* hp_api_ptr: where the loader puts the table's address. */
	c->api_off = UINT64_MAX;
	for (uint64_t i = 1;; i++) {
		sym y;
		if (!elf_sym_at(e, &c->st, i, &y))
			break;
		if (!strcmp(y.name, "hp_api_ptr") && c->api_idx >= 0 &&
		    y.shndx == (unsigned)c->api_idx)
			c->api_off = y.value;
	}
	if (c->api_off == UINT64_MAX)
		return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
				"no hp_api_ptr (include <hartpool/kernel.h>)");
	return 0;
}

/* Relocation @p k of @p rsec: its offset, addend, type and symbol. */
static bool rela_at(const conv *c, const sect *rsec, const sect *symtab,
		    uint64_t k, uint64_t *off, int64_t *add, uint32_t *type,
		    sym *y)
{
	size_t es = c->e.is64 ? sizeof(Elf64_Rela) : sizeof(Elf32_Rela);
	const uint8_t *p = c->b + rsec->off + k * es;
	uint64_t symi;
	if (c->e.is64) {
		Elf64_Rela r;
		memcpy(&r, p, sizeof(r));
		*off = r.r_offset, *add = r.r_addend;
		*type = ELF64_R_TYPE(r.r_info);
		symi = ELF64_R_SYM(r.r_info);
	} else {
		Elf32_Rela r;
		memcpy(&r, p, sizeof(r));
		*off = r.r_offset, *add = r.r_addend;
		*type = ELF32_R_TYPE(r.r_info);
		symi = ELF32_R_SYM(r.r_info);
	}
	*y = (sym){"", 0, 0, symi ? SHN_UNDEF : SHN_ABS, 0};
	return !symi || elf_sym_at(&c->e, symtab, symi, y);
}

static bool in_data(const conv *c, uint64_t a)
{
	return a >= c->dlo && a < c->dhi;
}

static int hi_cmp(const void *a, const void *b)
{
	const struct conv_hi *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

typedef int (*rela_fn)(conv *c, const sect *rsec, const sect *tgt,
		       const sect *symtab, uint64_t k);

/* @p fn on every relocation of the sections that have @p flags, until
 * one fails. */
static int each_rela(conv *c, uint64_t flags, rela_fn fn)
{
	int rc = 0;
	for (unsigned i = 1; i < c->e.shnum && !rc; i++) {
		sect rsec, tgt, symtab;
		if (!elf_sect_named(&c->e, i, &rsec) || rsec.type != SHT_RELA ||
		    !elf_sect_named(&c->e, rsec.info, &tgt) ||
		    !(tgt.flags & flags) ||
		    !elf_sect_at(&c->e, rsec.link, &symtab))
			continue;
		size_t es = c->e.is64 ? sizeof(Elf64_Rela) : sizeof(Elf32_Rela);
		for (uint64_t k = 0; k < rsec.size / es && !rc; k++)
			rc = fn(c, &rsec, &tgt, &symtab, k);
	}
	return rc;
}

/* An auipc reaching into the writable data: noted (c->hi). */
static int note_hi(conv *c, const sect *rsec, const sect *tgt,
		   const sect *symtab, uint64_t k)
{
	(void)tgt;
	uint64_t off;
	int64_t add;
	uint32_t type;
	sym y;
	if (!rela_at(c, rsec, symtab, k, &off, &add, &type, &y) ||
	    type != R_RISCV_PCREL_HI20 || !in_data(c, y.value + (uint64_t)add))
		return 0;
	struct conv_hi *n = realloc(c->hi, (c->nhi + 1) * sizeof(*n));
	if (!n)
		return clc_fail(c->log, HP_OUT_OF_RESOURCES, "out of memory");
	c->hi = n;
	c->hi[c->nhi++] = (struct conv_hi){off, y.value + (uint64_t)add};
	return 0;
}

/* The writable data (.data, then .bss: one range after the read-only
 * part) and every auipc that reaches into it. 0 or an HP_ error
 * (said). */
static int conv_data(conv *c)
{
	sect d, b;
	bool hd = elf_find_sect(&c->e, ".data", &d) >= 0 && d.size,
	     hb = elf_find_sect(&c->e, ".bss", &b) >= 0 && b.size;
	if (!hd && !hb)
		return 0;
	c->dlo = hd ? d.addr : b.addr;
	c->dhi = hb ? b.addr + b.size : d.addr + d.size;
	if (c->dlo % c->align || c->dlo < c->text.size || c->dhi < c->dlo)
		return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
				"writable data at %#llx: not after the code "
				"or not aligned (linker/object.ld)",
				(unsigned long long)c->dlo);
	int rc = each_rela(c, SHF_EXECINSTR, note_hi);
	if (rc)
		return rc;
	qsort(c->hi, c->nhi, sizeof(*c->hi), hi_cmp);
	return 0;
}

/* A reference to the writable data: its HPK_R_DATA_* entry, or 0 when
 * @p type at @p off does not reach into it (*done false). */
static int data_reloc(conv *c, uint64_t off, uint32_t type, uint64_t target,
		      bool insn, bool *done)
{
	uint64_t d = target - c->dlo, pair = 0;
	uint32_t t = 0;
	*done = false;
	if (type == R_RISCV_PCREL_LO12_I || type == R_RISCV_PCREL_LO12_S) {
		/* target: the auipc's label; its pair says where */
		struct conv_hi key = {target, 0},
			       *h = bsearch(&key, c->hi, c->nhi, sizeof(*c->hi),
					    hi_cmp);
		if (!h)
			return 0;
		d = h->target - c->dlo;
		pair = h->at;
		t = type == R_RISCV_PCREL_LO12_I ? HPK_R_DATA_LO12_I
						 : HPK_R_DATA_LO12_S;
	} else if (!in_data(c, target)) {
		return 0;
	} else if (type == R_RISCV_PCREL_HI20) {
		t = HPK_R_DATA_HI20;
	} else if (insn) {
		t = type - R_RISCV_HI20 + HPK_R_DATA_ABS_HI20;
	} else if (type == (c->xlen == 64 ? R_RISCV_64 : R_RISCV_32)) {
		t = HPK_R_DATA_WORD;
	} else {
		return 0;
	}
	*done = true;
	return reloc_add(&c->rs, off, d | pair << 32, t)
		       ? 0
		       : clc_fail(c->log, HP_OUT_OF_RESOURCES, "out of memory");
}

/* One relocation @p k of section @p rsec (target @p tgt): kept
 * (position-independent), recorded, or refused. 0 or an HP_ error (said). */
static int conv_reloc(conv *c, const sect *rsec, const sect *tgt,
		      const sect *symtab, uint64_t k)
{
	uint64_t off;
	int64_t add;
	uint32_t type;
	sym y;
	if (!rela_at(c, rsec, symtab, k, &off, &add, &type, &y))
		return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
				"relocation names a missing symbol");
	/* RV32: lui/addi pairs of picolibc's medlow code, patched by the
	 * loader (object.h) */
	bool insn = c->xlen == 32 &&
		    (type == R_RISCV_HI20 || type == R_RISCV_LO12_I ||
		     type == R_RISCV_LO12_S) &&
		    (tgt->flags & SHF_EXECINSTR) && y.shndx != SHN_UNDEF &&
		    y.shndx != SHN_ABS;
	bool done = false;
	int rc = c->dhi ? data_reloc(c, off, type, y.value + (uint64_t)add,
				     insn, &done)
			: 0;
	if (rc || done)
		return rc;
	if (reloc_position_independent(type))
		return 0;
	uint32_t abs = c->xlen == 64 ? R_RISCV_64 : R_RISCV_32;
	if (insn)
		return !reloc_add(&c->rs, off, y.value + (uint64_t)add, type)
			       ? clc_fail(c->log, HP_OUT_OF_RESOURCES,
					  "out of memory")
			       : 0;
	if (type != abs)
		return clc_fail(
			c->log, HP_BUILD_PROGRAM_FAILURE,
			"%s+%#llx: relocation type %u (symbol '%s') needs "
			"the load address in code; compile with "
			"-mcmodel=medany, no -fpic",
			tgt->name, (unsigned long long)off, type, y.name);
	if (y.shndx == SHN_UNDEF && y.name[0])
		return clc_fail(
			c->log, HP_BUILD_PROGRAM_FAILURE,
			"undefined symbol '%s': kernel objects call only "
			"hartpool/kernel.h and libc/libgcc functions",
			y.name);
	if (y.shndx != SHN_ABS)
		return !reloc_add(&c->rs, off, y.value + (uint64_t)add,
				  HPK_R_RELATIVE)
			       ? clc_fail(c->log, HP_OUT_OF_RESOURCES,
					  "out of memory")
			       : 0;
	return 0;
}

/* Relocations of allocated sections. 0 or an HP_ error (said). */
static int conv_relocs(conv *c)
{
	return each_rela(c, SHF_ALLOC, conv_reloc);
}

/* Each kernel's __local variables: its local_mem_bytes (rounded to 64,
 * where its __local arguments start). 0 or an HP_ error (said). */
static int conv_local(conv *c, const char *const *all_local)
{
	for (uint64_t i = 1;; i++) {
		sym y;
		if (!elf_sym_at(&c->e, &c->st, i, &y))
			break;
		if (y.shndx != (unsigned)c->kern_idx ||
		    strncmp(y.name, "hp_kernel_", 10))
			continue;
		uint64_t at = y.value + HP_KDESC_LOCAL_MEM(c->xlen);
		uint32_t lm;
		if (at + 4 > c->image_size)
			return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
					"descriptor %s outside the image",
					y.name);
		memcpy(&lm, c->img + at, 4);
		uint64_t end = tls_end_of(
			&c->e, &c->st,
			listed(all_local, y.name + 10) ? NULL : y.name + 10);
		if (end > UINT32_MAX - 128)
			return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
					"%s: too much __local memory",
					y.name + 10);
		/* __local arguments start 128-byte aligned (a long16) */
		uint32_t need = (uint32_t)((end + 127) & ~127ull);
		if (need > lm)
			lm = need;
		memcpy(c->img + at, &lm, 4);
	}
	return 0;
}

/* Program-scope variables (globals.c): where the block's word and its
 * initial bytes are, into the metadata's "globals" line (its fixed-width
 * fields). 0, or an HP_ error (said). */
static int conv_globals(conv *c)
{
	sect meta;
	if (elf_find_sect(&c->e, ".hp_clmeta", &meta) < 0 || !meta.size)
		return 0;
	char *m = (char *)c->img + meta.addr;
	char *g = memmem(m, meta.size, "\nglobals\t", 9);
	if (!g++)
		return 0;
	uint64_t at[3] = {UINT64_MAX, UINT64_MAX, 0};
	for (uint64_t i = 1;; i++) {
		sym y;
		if (!elf_sym_at(&c->e, &c->st, i, &y))
			break;
		if (!strcmp(y.name, "__hpcl_globals"))
			at[0] = y.value;
		if (!strcmp(y.name, "__hpcl_globals_init"))
			at[1] = y.value;
		if (!strcmp(y.name, "__hpcl_globals_rel"))
			at[2] = y.value;
	}
	if (at[0] == UINT64_MAX || at[1] == UINT64_MAX ||
	    g + 8 + 5 * 11 > m + meta.size)
		return clc_fail(c->log, HP_BUILD_PROGRAM_FAILURE,
				"the program-scope variables' block is not in "
				"the image");
	char f[12];
	for (int k = 0; k < 3; k++) {
		snprintf(f, sizeof(f), "%010u", (unsigned)at[k]);
		memcpy(g + 8 + 11 * (k + 1), f, 10);
	}
	return 0;
}

/* The .hpk file: header, image, relocations. 0 or an HP_ error (said). */
static int conv_write(conv *c, void **outp, size_t *outn)
{
	hpk_header h;
	sect meta;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, HPK_MAGIC, sizeof(h.magic));
	h.version = HPK_VERSION;
	h.header_size = sizeof(h);
	h.xlen = c->xlen;
	h.float_abi = (c->e.flags & EF_RISCV_FLOAT_ABI) >> 1;
	h.api_version = HP_API_VERSION;
	h.api_count = (uint32_t)HP_API_COUNT;
	h.image_offset = sizeof(h);
	h.image_file_size = (uint32_t)c->file_end;
	h.image_size = (uint32_t)c->image_size;
	h.image_align = (uint32_t)c->align;
	h.text_size = (uint32_t)c->text.size;
	h.api_offset = (uint32_t)c->api_off;
	h.kernels_offset = (uint32_t)c->kern.addr;
	h.kernels_size = (uint32_t)c->kern.size;
	if (elf_find_sect(&c->e, ".hp_clmeta", &meta) >= 0 && meta.size &&
	    meta.type != SHT_NOBITS) {
		h.meta_offset = (uint32_t)meta.addr;
		h.meta_size = (uint32_t)meta.size;
	}
	h.data_offset = (uint32_t)c->dlo;
	h.data_size = (uint32_t)(c->dhi - c->dlo);
	h.reloc_offset = (uint32_t)(sizeof(h) + ((c->file_end + 7) & ~7ull));
	h.reloc_count = (uint32_t)c->rs.n;
	h.file_size =
		h.reloc_offset + h.reloc_count * (uint32_t)sizeof(hpk_reloc);
	uint8_t *f = calloc(1, h.file_size);
	if (!f)
		return clc_fail(c->log, HP_OUT_OF_RESOURCES, "out of memory");
	memcpy(f + h.image_offset, c->img, c->file_end);
	memcpy(f + h.reloc_offset, c->rs.r, c->rs.n * sizeof(hpk_reloc));
	memcpy(f, &h, sizeof(h));
	h.crc32 = hp_crc32(f + HPK_CRC_START, h.file_size - HPK_CRC_START);
	memcpy(f, &h, sizeof(h));
	/* Said on stderr by `hartpool build`; a build log (hp_cl_build)
	 * stays empty when all went well, as OpenCL programs expect. */
	if (!c->log || !c->log->f)
		fprintf(stderr,
			"hartpool: built %zu kernel%s, %u bytes of code and "
			"data, %zu relocations\n",
			c->nk, c->nk == 1 ? "" : "s", h.image_size, c->rs.n);
	*outp = f;
	*outn = h.file_size;
	return 0;
}

int clc_convert(clc_log *l, const uint8_t *b, size_t size, unsigned xlen,
		const char *const *all_local, void **outp, size_t *outn)
{
	conv c;
	memset(&c, 0, sizeof(c));
	c.b = b;
	c.xlen = xlen;
	c.log = l;
	if (!elf_open(&c.e, b, size) || (c.e.is64 ? 64u : 32u) != xlen)
		return clc_fail(l, HP_BUILD_PROGRAM_FAILURE,
				"linker output is not a RISC-V ELF%u", xlen);
	int rc = conv_check(&c);
	if (!rc)
		rc = conv_image(&c);
	if (!rc)
		rc = conv_data(&c);
	if (!rc)
		rc = conv_relocs(&c);
	if (!rc)
		rc = conv_local(&c, all_local);
	if (!rc)
		rc = conv_globals(&c);
	if (!rc)
		rc = conv_write(&c, outp, outn);
	free(c.img);
	free(c.rs.r);
	free(c.hi);
	return rc;
}

int clc_meta_object(clc_log *l, unsigned xlen, unsigned float_abi,
		    const char *meta, void **outp, size_t *outn)
{
	size_t n = strlen(meta) + 1;
	hpk_header h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, HPK_MAGIC, sizeof(h.magic));
	h.version = HPK_VERSION;
	h.header_size = sizeof(h);
	h.xlen = xlen;
	h.float_abi = float_abi;
	h.api_version = HP_API_VERSION;
	h.api_count = (uint32_t)HP_API_COUNT;
	h.image_offset = sizeof(h);
	h.image_file_size = h.image_size = (uint32_t)n;
	h.image_align = 8;
	h.meta_size = (uint32_t)n;
	h.reloc_offset = (uint32_t)(sizeof(h) + ((n + 7) & ~(size_t)7));
	h.file_size = h.reloc_offset;
	uint8_t *f = calloc(1, h.file_size);
	if (!f)
		return clc_fail(l, HP_OUT_OF_RESOURCES, "out of memory");
	memcpy(f + h.image_offset, meta, n);
	memcpy(f, &h, sizeof(h));
	h.crc32 = hp_crc32(f + HPK_CRC_START, h.file_size - HPK_CRC_START);
	memcpy(f, &h, sizeof(h));
	*outp = f;
	*outn = h.file_size;
	return 0;
}
