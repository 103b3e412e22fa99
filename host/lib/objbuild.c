// SPDX-License-Identifier: MIT
/*
 * Building kernel objects (.hpk, include/hartpool/object.h;
 * docs/kernel-objects.md) from C (`hartpool build`, hpb_build_c) and, with
 * clc.c, from OpenCL C:
 *
 * 1. Compile each source with the RISC-V cross compiler for the board
 *    (its -march/-mabi from board/B/board.mk), -mcmodel=medany (every
 *    reference PC-relative), -mno-relax (no gp-relative accesses: gp is the
 *    firmware's), -DHP_KERNEL_OBJECT (API calls through the table).
 * 2. Link at address 0 with linker/object.ld, picolibc and libgcc, keeping
 *    the relocations (--emit-relocs). That ELF is kept next to the object
 *    (NAME.elf) for gdb: `add-symbol-file NAME.elf -o LOAD_ADDRESS`.
 * 3. Convert: the image is the allocated sections from address 0; every
 *    PC-relative relocation is already right at any address, every
 *    absolute XLEN-wide pointer becomes an HPK_R_RELATIVE entry; anything
 *    that would need the load address inside code is refused.
 */
#define _GNU_SOURCE
#include "objbuild.h"
#include <elf.h>
#include <errno.h>
#include <hartpool/api.h>
#include <hartpool/error.h>
#include <hartpool/frame.h>
#include <hartpool/kernel.h>
#include <hartpool/object.h>
#include <hartpool_boards.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CRC_START 24u

__thread FILE *hpb_log;

static FILE *logf_(void)
{
	return hpb_log ? hpb_log : stderr;
}

int hpb_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(logf_(),
		"hartpool: %s: build: ", hp_error_name(HP_INVALID_BINARY));
	vfprintf(logf_(), fmt, ap);
	fputc('\n', logf_());
	va_end(ap);
	return 1;
}
#define err hpb_err

const char *hpb_root(void)
{
	return hp_data_dir();
}

/* Variable KEY of board B, from the table make generated from
 * board/B/board.mk (hartpool_boards.h). */
bool hpb_board_var(const char *board, const char *key, char *out, size_t n)
{
	const hp_board_info *b = hp_board_find(board);
	const char *v = b ? hp_board_var(b, key) : NULL;
	if (!v || !*v)
		return false;
	snprintf(out, n, "%s", v);
	return true;
}

int hpb_run(char *const argv[])
{
	if (getenv("HARTPOOL_BUILD_VERBOSE")) {
		for (unsigned i = 0; argv[i]; i++)
			fprintf(stderr, "%s%s", i ? " " : "", argv[i]);
		fputc('\n', stderr);
	}
	/* The child's messages go to the log: through a file, read back. */
	FILE *cap = hpb_log ? tmpfile() : NULL;
	if (hpb_log && !cap)
		fprintf(hpb_log,
			"hartpool: build: cannot capture the messages of %s "
			"(tmpfile: %s): they go to stderr\n",
			argv[0], strerror(errno));
	fflush(logf_());
	pid_t pid = fork();
	if (pid < 0) {
		if (cap)
			fclose(cap);
		return -1;
	}
	if (pid == 0) {
		if (cap) {
			dup2(fileno(cap), 1);
			dup2(fileno(cap), 2);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "hartpool: build: cannot run %s: %s%s\n",
			argv[0], strerror(errno),
			errno == ENOENT ? " (install gcc-riscv64-unknown-elf "
					  "and picolibc-riscv64-unknown-elf)"
					: "");
		_exit(127);
	}
	int st, rc = 0;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			rc = -1;
			break;
		}
	if (cap) {
		char buf[4096];
		size_t n;
		rewind(cap);
		while ((n = fread(buf, 1, sizeof(buf), cap)) > 0)
			fwrite(buf, 1, n, hpb_log);
		fclose(cap);
	}
	if (rc)
		return rc;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* ---- ELF (32 or 64 bits, little-endian RISC-V) ---- */

typedef struct {
	const uint8_t *b;
	size_t size;
	bool is64;
	unsigned shnum, shstrndx;
	uint64_t shoff;
	uint32_t flags;
} elf;

typedef struct {
	const char *name;
	uint32_t type;
	uint64_t flags, addr, off, size, align, entsize;
	uint32_t link, info;
} sect;

typedef struct {
	const char *name;
	uint64_t value, size;
	unsigned shndx;
	unsigned type; /* STT_* */
} sym;

static bool sect_at(const elf *e, unsigned i, sect *s)
{
	size_t es = e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	uint64_t at = e->shoff + (uint64_t)i * es;
	if (i >= e->shnum || at > e->size || es > e->size - at)
		return false;
	if (e->is64) {
		Elf64_Shdr h;
		memcpy(&h, e->b + at, sizeof(h));
		*s = (sect){NULL,	    h.sh_type,	  h.sh_flags,
			    h.sh_addr,	    h.sh_offset,  h.sh_size,
			    h.sh_addralign, h.sh_entsize, h.sh_link,
			    h.sh_info};
		s->name = (const char *)(uintptr_t)h.sh_name;
	} else {
		Elf32_Shdr h;
		memcpy(&h, e->b + at, sizeof(h));
		*s = (sect){NULL,	    h.sh_type,	  h.sh_flags,
			    h.sh_addr,	    h.sh_offset,  h.sh_size,
			    h.sh_addralign, h.sh_entsize, h.sh_link,
			    h.sh_info};
		s->name = (const char *)(uintptr_t)h.sh_name;
	}
	if (s->type != SHT_NOBITS &&
	    (s->off > e->size || s->size > e->size - s->off))
		return false;
	return true;
}

/* String at offset `off` of string table section `strsec`. */
static const char *str_at(const elf *e, unsigned strsec, uint64_t off)
{
	sect s;
	if (!sect_at(e, strsec, &s) || off >= s.size)
		return "?";
	const char *p = (const char *)e->b + s.off + off;
	return memchr(p, 0, s.size - off) ? p : "?";
}

static bool sect_named(const elf *e, unsigned i, sect *s)
{
	if (!sect_at(e, i, s))
		return false;
	s->name = str_at(e, e->shstrndx, (uint64_t)(uintptr_t)s->name);
	return true;
}

static int find_sect(const elf *e, const char *name, sect *out)
{
	for (unsigned i = 1; i < e->shnum; i++)
		if (sect_named(e, i, out) && !strcmp(out->name, name))
			return (int)i;
	return -1;
}

static bool sym_at(const elf *e, const sect *symtab, uint64_t i, sym *out)
{
	size_t es = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	if (i >= symtab->size / es)
		return false;
	const uint8_t *p = e->b + symtab->off + i * es;
	uint32_t name;
	if (e->is64) {
		Elf64_Sym s;
		memcpy(&s, p, sizeof(s));
		name = s.st_name;
		*out = (sym){NULL, s.st_value, s.st_size, s.st_shndx,
			     ELF64_ST_TYPE(s.st_info)};
	} else {
		Elf32_Sym s;
		memcpy(&s, p, sizeof(s));
		name = s.st_name;
		*out = (sym){NULL, s.st_value, s.st_size, s.st_shndx,
			     ELF32_ST_TYPE(s.st_info)};
	}
	out->name = str_at(e, symtab->link, name);
	return true;
}

static bool elf_open(elf *e, const uint8_t *b, size_t size)
{
	memset(e, 0, sizeof(*e));
	e->b = b;
	e->size = size;
	if (size < sizeof(Elf32_Ehdr) || memcmp(b, ELFMAG, SELFMAG) ||
	    b[EI_DATA] != ELFDATA2LSB)
		return false;
	e->is64 = b[EI_CLASS] == ELFCLASS64;
	if (e->is64) {
		Elf64_Ehdr h;
		if (size < sizeof(h))
			return false;
		memcpy(&h, b, sizeof(h));
		if (h.e_machine != EM_RISCV)
			return false;
		e->shoff = h.e_shoff, e->shnum = h.e_shnum;
		e->shstrndx = h.e_shstrndx, e->flags = h.e_flags;
	} else {
		Elf32_Ehdr h;
		memcpy(&h, b, sizeof(h));
		if (h.e_machine != EM_RISCV)
			return false;
		e->shoff = h.e_shoff, e->shnum = h.e_shnum;
		e->shstrndx = h.e_shstrndx, e->flags = h.e_flags;
	}
	return true;
}

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

/* Writable data: name the variables, refuse. */
static int writable(const elf *e, const char *secname)
{
	sect s, st;
	int idx = find_sect(e, secname, &s);
	if (idx < 0 || !s.size)
		return 0;
	char names[512] = "";
	int symidx = find_sect(e, ".symtab", &st);
	for (uint64_t i = 1; symidx >= 0; i++) {
		sym y;
		if (!sym_at(e, &st, i, &y))
			break;
		if (y.shndx == (unsigned)idx && y.name[0] && y.name[0] != '.' &&
		    y.name[0] != '$' && strlen(names) < 400) {
			size_t l = strlen(names);
			snprintf(names + l, sizeof(names) - l, "%s%s",
				 l ? ", " : "", y.name);
		}
	}
	return err("writable global data (%s, %llu bytes: %s): kernel "
		   "objects are read-only; keep state in buffers or local "
		   "memory (make it const if it never changes)",
		   secname, (unsigned long long)s.size, names[0] ? names : "?");
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
		if (!sym_at(e, st, i, &y))
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
static int tls_foreign(const elf *e, const sect *st, int kern_idx)
{
	for (uint64_t i = 1;; i++) {
		sym y;
		if (!sym_at(e, st, i, &y))
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
			if (!sym_at(e, st, k, &d))
				break;
			ours = d.shndx == (unsigned)kern_idx &&
			       !strncmp(d.name, "hp_kernel_", 10) &&
			       strlen(d.name + 10) == (size_t)(dot - y.name) &&
			       !strncmp(d.name + 10, y.name,
					(size_t)(dot - y.name));
		}
		if (!ours)
			return err("thread-local data ('%s') is not supported",
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

int hpb_convert(const uint8_t *b, size_t size, unsigned xlen,
		const char *const *all_local, void **outp, size_t *outn)
{
	elf e;
	if (!elf_open(&e, b, size) || (e.is64 ? 64u : 32u) != xlen)
		return err("linker output is not a RISC-V ELF%u", xlen);
	if (writable(&e, ".data") || writable(&e, ".bss"))
		return 1;
	sect text, kern, api, st, meta;
	if (find_sect(&e, ".hp_kernels", &kern) < 0 || !kern.size)
		return err("no kernels: register them with HP_REGISTER()");
	if (find_sect(&e, ".text", &text) < 0 || text.addr != 0 || !text.size)
		return err("no code (.text) at address 0");
	int api_idx = find_sect(&e, ".hp_api", &api);
	int kern_idx = find_sect(&e, ".hp_kernels", &kern);
	if (find_sect(&e, ".symtab", &st) < 0)
		return err("no symbol table");
	/* One descriptor per hp_kernel_NAME symbol (HP_REGISTER). */
	size_t nk = 0;
	for (uint64_t i = 1;; i++) {
		sym y;
		if (!sym_at(&e, &st, i, &y))
			break;
		nk += y.shndx == (unsigned)kern_idx &&
		      !strncmp(y.name, "hp_kernel_", 10);
	}
	if (!nk || kern.size % nk ||
	    (xlen == 8 * sizeof(void *) && kern.size != nk * sizeof(hp_kernel)))
		return err(".hp_kernels holds something else than kernel "
			   "descriptors");
	if (tls_foreign(&e, &st, kern_idx))
		return 1;

	/* The image: every allocated section, from address 0. */
	uint64_t image_size = 0, file_end = 0, align = 1;
	for (unsigned i = 1; i < e.shnum; i++) {
		sect s;
		if (!sect_named(&e, i, &s) || !(s.flags & SHF_ALLOC) || !s.size)
			continue;
		if (s.flags & SHF_TLS) {
			/* OpenCL __local variables: work-group local memory,
			 * not part of the image (tls_foreign() checked). */
			if (s.type != SHT_NOBITS)
				return err("initialised thread-local data (%s) "
					   "is not supported",
					   s.name);
			continue;
		}
		if (s.addr + s.size > image_size)
			image_size = s.addr + s.size;
		if (s.type != SHT_NOBITS && s.addr + s.size > file_end)
			file_end = s.addr + s.size;
		if (s.align > align)
			align = s.align;
	}
	if (image_size > HPK_IMAGE_MAX)
		return err("image of %llu bytes, the device loads at most %u",
			   (unsigned long long)image_size, HPK_IMAGE_MAX);
	if (align > HPK_IMAGE_ALIGN)
		return err("a section wants %llu-byte alignment, at most %u",
			   (unsigned long long)align, HPK_IMAGE_ALIGN);
	uint8_t *img = calloc(1, image_size ? image_size : 1);
	relocs rs = {0};
	uint64_t api_off = UINT64_MAX;
	int rc = 0;
	for (unsigned i = 1; i < e.shnum && img && !rc; i++) {
		sect s;
		if (sect_named(&e, i, &s) && (s.flags & SHF_ALLOC) &&
		    s.type != SHT_NOBITS && s.size)
			memcpy(img + s.addr, b + s.off, s.size);
	}
	/* hp_api_ptr: where the loader puts the table's address. */
	for (uint64_t i = 1; img; i++) {
		sym y;
		if (!sym_at(&e, &st, i, &y))
			break;
		if (!strcmp(y.name, "hp_api_ptr") && api_idx >= 0 &&
		    y.shndx == (unsigned)api_idx)
			api_off = y.value;
	}
	if (img && api_off == UINT64_MAX)
		rc = err("no hp_api_ptr (include <hartpool/kernel.h>)");

	/* Relocations of allocated sections. */
	for (unsigned i = 1; i < e.shnum && img && !rc; i++) {
		sect rsec, tgt, symtab;
		if (!sect_named(&e, i, &rsec) || rsec.type != SHT_RELA ||
		    !sect_named(&e, rsec.info, &tgt) ||
		    !(tgt.flags & SHF_ALLOC) ||
		    !sect_at(&e, rsec.link, &symtab))
			continue;
		size_t es = e.is64 ? sizeof(Elf64_Rela) : sizeof(Elf32_Rela);
		for (uint64_t k = 0; k < rsec.size / es && !rc; k++) {
			const uint8_t *p = b + rsec.off + k * es;
			uint64_t off, symi;
			int64_t add;
			uint32_t type;
			if (e.is64) {
				Elf64_Rela r;
				memcpy(&r, p, sizeof(r));
				off = r.r_offset, add = r.r_addend;
				type = ELF64_R_TYPE(r.r_info);
				symi = ELF64_R_SYM(r.r_info);
			} else {
				Elf32_Rela r;
				memcpy(&r, p, sizeof(r));
				off = r.r_offset, add = r.r_addend;
				type = ELF32_R_TYPE(r.r_info);
				symi = ELF32_R_SYM(r.r_info);
			}
			sym y = {"", 0, 0, SHN_ABS, 0};
			if (symi && !sym_at(&e, &symtab, symi, &y))
				rc = err("relocation names a missing symbol");
			if (rc || reloc_position_independent(type))
				continue;
			uint32_t abs = xlen == 64 ? R_RISCV_64 : R_RISCV_32;
			/* RV32: lui/addi pairs of picolibc's medlow code,
			 * patched by the loader (object.h) */
			bool insn = xlen == 32 &&
				    (type == R_RISCV_HI20 ||
				     type == R_RISCV_LO12_I ||
				     type == R_RISCV_LO12_S) &&
				    (tgt.flags & SHF_EXECINSTR) &&
				    y.shndx != SHN_UNDEF && y.shndx != SHN_ABS;
			if (insn) {
				rc = !reloc_add(&rs, off,
						y.value + (uint64_t)add, type)
					     ? err("out of memory")
					     : 0;
				continue;
			}
			if (type != abs) {
				rc = err("%s+%#llx: relocation type %u "
					 "(symbol '%s') needs the load "
					 "address in code; compile with "
					 "-mcmodel=medany, no -fpic",
					 tgt.name, (unsigned long long)off,
					 type, y.name);
				continue;
			}
			if (y.shndx == SHN_UNDEF && y.name[0])
				rc = err("undefined symbol '%s': kernel "
					 "objects call only hartpool/kernel.h "
					 "and libc/libgcc functions",
					 y.name);
			else if (y.shndx != SHN_ABS && symi)
				rc = !reloc_add(&rs, off,
						y.value + (uint64_t)add,
						HPK_R_RELATIVE)
					     ? err("out of memory")
					     : 0;
		}
	}
	if (!img && !rc)
		rc = err("out of memory");
	/* Each kernel's __local variables: its local_mem_bytes (rounded to
	 * 64, where its __local arguments start). */
	for (uint64_t i = 1; img && !rc; i++) {
		sym y;
		if (!sym_at(&e, &st, i, &y))
			break;
		if (y.shndx != (unsigned)kern_idx ||
		    strncmp(y.name, "hp_kernel_", 10))
			continue;
		uint64_t at = y.value + HPB_KDESC_LOCAL_MEM(xlen);
		uint32_t lm;
		if (at + 4 > image_size) {
			rc = err("descriptor %s outside the image", y.name);
			continue;
		}
		memcpy(&lm, img + at, 4);
		uint64_t end = tls_end_of(
			&e, &st,
			listed(all_local, y.name + 10) ? NULL : y.name + 10);
		if (end > UINT32_MAX - 64) {
			rc = err("%s: too much __local memory", y.name + 10);
			continue;
		}
		uint32_t need = (uint32_t)((end + 63) & ~63ull);
		if (need > lm)
			lm = need;
		memcpy(img + at, &lm, 4);
	}
	if (rc) {
		free(img);
		free(rs.r);
		return rc;
	}

	hpk_header h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, HPK_MAGIC, sizeof(h.magic));
	h.version = HPK_VERSION;
	h.header_size = sizeof(h);
	h.xlen = xlen;
	h.float_abi = (e.flags & EF_RISCV_FLOAT_ABI) >> 1;
	h.api_version = HP_API_VERSION;
	h.api_count = (uint32_t)HP_API_COUNT;
	h.image_offset = sizeof(h);
	h.image_file_size = (uint32_t)file_end;
	h.image_size = (uint32_t)image_size;
	h.image_align = (uint32_t)align;
	h.text_size = (uint32_t)text.size;
	h.api_offset = (uint32_t)api_off;
	h.kernels_offset = (uint32_t)kern.addr;
	h.kernels_size = (uint32_t)kern.size;
	if (find_sect(&e, ".hp_clmeta", &meta) >= 0 && meta.size &&
	    meta.type != SHT_NOBITS) {
		h.meta_offset = (uint32_t)meta.addr;
		h.meta_size = (uint32_t)meta.size;
	}
	h.reloc_offset = (uint32_t)(sizeof(h) + ((file_end + 7) & ~7ull));
	h.reloc_count = (uint32_t)rs.n;
	h.file_size =
		h.reloc_offset + h.reloc_count * (uint32_t)sizeof(hpk_reloc);
	uint8_t *f = calloc(1, h.file_size);
	if (!f) {
		free(img);
		free(rs.r);
		return err("out of memory");
	}
	memcpy(f + h.image_offset, img, file_end);
	memcpy(f + h.reloc_offset, rs.r, rs.n * sizeof(hpk_reloc));
	memcpy(f, &h, sizeof(h));
	h.crc32 = hp_crc32(f + CRC_START, h.file_size - CRC_START);
	memcpy(f, &h, sizeof(h));
	/* Said on stderr by `hartpool build`; a build log (hp_cl_build)
	 * stays empty when all went well, as OpenCL programs expect. */
	if (!hpb_log)
		fprintf(stderr,
			"hartpool: built %zu kernel%s, %u bytes of code and "
			"data, %zu relocations\n",
			nk, nk == 1 ? "" : "s", h.image_size, rs.n);
	*outp = f;
	*outn = h.file_size;
	free(img);
	free(rs.r);
	return 0;
}

int hpb_meta_object(unsigned xlen, unsigned float_abi, const char *meta,
		    void **outp, size_t *outn)
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
		return err("out of memory");
	memcpy(f + h.image_offset, meta, n);
	memcpy(f, &h, sizeof(h));
	h.crc32 = hp_crc32(f + CRC_START, h.file_size - CRC_START);
	memcpy(f, &h, sizeof(h));
	*outp = f;
	*outn = h.file_size;
	return 0;
}

int hpb_write(const char *path, const void *b, size_t n)
{
	FILE *o = fopen(path, "wb");
	int rc = !o || fwrite(b, 1, n, o) != n;
	if (o && fclose(o))
		rc = 1;
	return rc ? err("cannot write %s: %s", path, strerror(errno)) : 0;
}

uint8_t *hpb_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat sb;
	uint8_t *b = NULL;
	if (!fstat(fileno(f), &sb) && sb.st_size > 0 &&
	    (b = malloc((size_t)sb.st_size + 1)) &&
	    fread(b, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
		free(b);
		b = NULL;
	}
	if (b)
		b[sb.st_size] = 0;
	fclose(f);
	*n = b ? (size_t)sb.st_size : 0;
	return b;
}

int hpb_board_get(const char *board, hpb_board *o)
{
	char xlen_s[8];
	memset(o, 0, sizeof(*o));
	if (!hpb_board_var(board, "BOARD_ARCH", o->arch, sizeof(o->arch)) ||
	    !hpb_board_var(board, "BOARD_ABI", o->abi, sizeof(o->abi)) ||
	    !hpb_board_var(board, "BOARD_XLEN", xlen_s, sizeof(xlen_s)))
		return err("no board '%s' (the boards: %s)", board,
			   hp_board_names((char[512]){0}, 512));
	o->xlen = (unsigned)atoi(xlen_s);
	/* The ISA that selects the picolibc/libgcc multilib for linking. */
	if (!hpb_board_var(board, "BOARD_LIB_ARCH", o->libarch,
			   sizeof(o->libarch)))
		snprintf(o->libarch, sizeof(o->libarch), "%s", o->arch);
	return 0;
}

int hpb_link(const hpb_board *b, const char *const *objs, unsigned n,
	     const char *elfout)
{
	char mlibarch[80], mabi[48], ld[1100];
	snprintf(mlibarch, sizeof(mlibarch), "-march=%s", b->libarch);
	snprintf(mabi, sizeof(mabi), "-mabi=%s", b->abi);
	/* -T itself (not -Wl,-T): picolibc.specs adds its own script
	 * unless the driver sees one. */
	snprintf(ld, sizeof(ld), "%s/linker/object.ld", hpb_root());
	if (n > 64)
		return err("too many objects");
	const char *lk[96] = {"riscv64-unknown-elf-gcc",
			      mlibarch,
			      mabi,
			      "--specs=picolibc.specs",
			      "-nostartfiles",
			      "-static",
			      "-Wl,--emit-relocs",
			      "-Wl,--no-relax",
			      "-Wl,--no-warn-rwx-segments",
			      "-Wl,--gc-sections",
			      "-Wl,-e,0",
			      "-T",
			      ld,
			      "-o",
			      elfout};
	unsigned k = 15;
	for (unsigned i = 0; i < n; i++)
		lk[k++] = objs[i];
	lk[k++] = "-lm";
	lk[k++] = "-lc";
	lk[k++] = "-lgcc";
	lk[k] = NULL;
	return hpb_run((char *const *)lk) ? err("linking %s failed", elfout)
					  : 0;
}

/* OUT.hpk -> OUT.elf (else OUT.elf appended). */
static void elf_path(const char *out, char *elfout, size_t n)
{
	size_t ol = strlen(out);
	if (ol > 4 && !strcmp(out + ol - 4, ".hpk"))
		snprintf(elfout, n, "%.*s.elf", (int)(ol - 4), out);
	else
		snprintf(elfout, n, "%s.elf", out);
}

int hpb_build_c(const char *board, const char *const *srcs, unsigned ns,
		const char *const *extra, unsigned ne, const char *opt,
		const char *out)
{
	hpb_board b;
	if (hpb_board_get(board, &b))
		return 1;
	if (ns > 64 || ne > 64)
		return err("too many sources or options");
	char tmp[] = "/tmp/hartpool-build-XXXXXX";
	if (!mkdtemp(tmp))
		return err("mkdtemp: %s", strerror(errno));
	char march[80], mabi[48], inc[1100], elfout[1100];
	snprintf(march, sizeof(march), "-march=%s", b.arch);
	snprintf(mabi, sizeof(mabi), "-mabi=%s", b.abi);
	snprintf(inc, sizeof(inc), "-I%s/include", hpb_root());
	elf_path(out, elfout, sizeof(elfout));

	static __thread char objs[64][1200];
	const char *objp[64];
	int rc = 0;
	for (unsigned i = 0; i < ns && !rc; i++) {
		snprintf(objs[i], sizeof(objs[i]), "%s/%u.o", tmp, i);
		objp[i] = objs[i];
		const char *cc[160] = {"riscv64-unknown-elf-gcc",
				       march,
				       mabi,
				       "-mcmodel=medany",
				       "-mno-relax",
				       "--specs=picolibc.specs",
				       opt,
				       "-g",
				       "-std=gnu11",
				       "-Wall",
				       "-Wextra",
				       "-ffunction-sections",
				       "-fdata-sections",
				       "-fno-common",
				       "-fno-jump-tables",
				       "-DHP_KERNEL_OBJECT",
				       inc};
		unsigned n = 17;
		for (unsigned k = 0; k < ne; k++)
			cc[n++] = extra[k];
		cc[n++] = "-c";
		cc[n++] = srcs[i];
		cc[n++] = "-o";
		cc[n++] = objs[i];
		cc[n] = NULL;
		if (hpb_run((char *const *)cc))
			rc = err("compiling %s failed", srcs[i]);
	}
	if (!rc)
		rc = hpb_link(&b, objp, ns, elfout);
	for (unsigned i = 0; i < ns; i++)
		unlink(objs[i]);
	rmdir(tmp);
	if (rc)
		return rc;
	size_t n;
	uint8_t *e = hpb_slurp(elfout, &n);
	if (!e)
		return err("cannot read %s", elfout);
	void *hpk;
	size_t hn;
	rc = hpb_convert(e, n, b.xlen, NULL, &hpk, &hn);
	free(e);
	if (!rc) {
		rc = hpb_write(out, hpk, hn);
		free(hpk);
	}
	return rc;
}
