// SPDX-License-Identifier: MIT
/*
 * `hartpool build`: kernel sources -> a kernel object (.hpk,
 * include/hartpool/object.h; docs/kernel-objects.md).
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
#include "build.h"
#include <elf.h>
#include <errno.h>
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

#define CRC_START 24u

static int err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr,
		"hartpool: %s: build: ", hp_error_name(HP_INVALID_BINARY));
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 1;
}

static const char *root(void)
{
	const char *r = getenv("HARTPOOL_ROOT");
	return r && *r ? r : HP_ROOT;
}

/* KEY := VALUE of board/B/board.mk. */
static bool board_var(const char *board, const char *key, char *out, size_t n)
{
	char path[1024], line[512];
	snprintf(path, sizeof(path), "%s/board/%s/board.mk", root(), board);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool found = false;
	size_t kl = strlen(key);
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, kl) ||
		    (line[kl] != ' ' && line[kl] != ':'))
			continue;
		char *v = strstr(line, ":=");
		if (!v)
			continue;
		v += 2;
		while (*v == ' ' || *v == '\t')
			v++;
		size_t l = strcspn(v, " \t\n#");
		snprintf(out, n, "%.*s", (int)l, v);
		found = l > 0;
	}
	fclose(f);
	return found;
}

/* Run argv; 0 if it exited 0. */
static int run(char *const argv[])
{
	if (getenv("HARTPOOL_BUILD_VERBOSE")) {
		for (unsigned i = 0; argv[i]; i++)
			fprintf(stderr, "%s%s", i ? " " : "", argv[i]);
		fputc('\n', stderr);
	}
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "hartpool: build: cannot run %s: %s%s\n",
			argv[0], strerror(errno),
			errno == ENOENT ? " (install gcc-riscv64-unknown-elf "
					  "and picolibc-riscv64-unknown-elf)"
					: "");
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
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
		*out = (sym){NULL, s.st_value, s.st_size, s.st_shndx};
	} else {
		Elf32_Sym s;
		memcpy(&s, p, sizeof(s));
		name = s.st_name;
		*out = (sym){NULL, s.st_value, s.st_size, s.st_shndx};
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

static bool reloc_add(relocs *rs, uint64_t off, uint64_t target)
{
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		hpk_reloc *nr = realloc(rs->r, cap * sizeof(*nr));
		if (!nr)
			return false;
		rs->r = nr, rs->cap = cap;
	}
	rs->r[rs->n++] = (hpk_reloc){(uint32_t)off, HPK_R_RELATIVE, target};
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

static int convert(const uint8_t *b, size_t size, const char *out,
		   unsigned xlen)
{
	elf e;
	if (!elf_open(&e, b, size) || (e.is64 ? 64u : 32u) != xlen)
		return err("linker output is not a RISC-V ELF%u", xlen);
	if (writable(&e, ".data") || writable(&e, ".bss"))
		return 1;
	sect text, kern, api, st;
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

	/* The image: every allocated section, from address 0. */
	uint64_t image_size = 0, file_end = 0, align = 1;
	for (unsigned i = 1; i < e.shnum; i++) {
		sect s;
		if (!sect_named(&e, i, &s) || !(s.flags & SHF_ALLOC) || !s.size)
			continue;
		if (s.flags & SHF_TLS)
			return err("thread-local data (%s) is not supported",
				   s.name);
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
			sym y = {"", 0, 0, SHN_ABS};
			if (symi && !sym_at(&e, &symtab, symi, &y))
				rc = err("relocation names a missing symbol");
			if (rc || reloc_position_independent(type))
				continue;
			uint32_t abs = xlen == 64 ? R_RISCV_64 : R_RISCV_32;
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
						y.value + (uint64_t)add)
					     ? err("out of memory")
					     : 0;
		}
	}
	if (!img && !rc)
		rc = err("out of memory");
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
	FILE *o = fopen(out, "wb");
	rc = !o || fwrite(f, 1, h.file_size, o) != h.file_size;
	if (o && fclose(o))
		rc = 1;
	if (rc)
		err("cannot write %s: %s", out, strerror(errno));
	else
		fprintf(stderr,
			"hartpool: built %s: %zu kernel%s, %u bytes of code "
			"and data, %zu relocations\n",
			out, nk, nk == 1 ? "" : "s", h.image_size, rs.n);
	free(f);
	free(img);
	free(rs.r);
	return rc;
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat sb;
	uint8_t *b = NULL;
	if (!fstat(fileno(f), &sb) && sb.st_size > 0 &&
	    (b = malloc((size_t)sb.st_size)) &&
	    fread(b, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*n = b ? (size_t)sb.st_size : 0;
	return b;
}

/* Parsed by cmd_build() itself: compiler-style, -IDIR and -O2 in one. */
static const cli_option build_rows[] = {
	{.name = "--board",
	 .takes = CLI_VALUE,
	 .value = "B",
	 .help = "board to build for (its -march, -mabi; default qemu-virt)"},
	{.name = "-I",
	 .takes = CLI_VALUE,
	 .value = "DIR",
	 .help = "include directory for the sources (-IDIR too)"},
	{.name = "-D",
	 .takes = CLI_VALUE,
	 .value = "NAME[=V]",
	 .help = "define a macro (-DNAME[=V] too)"},
	{.name = "-OLEVEL", .help = "optimisation, as for gcc (default -O2)"},
	{.name = "-o",
	 .takes = CLI_VALUE,
	 .value = "OUT.hpk",
	 .help = "the kernel object to write (and OUT.elf)"},
	{.name = NULL},
};

const cli_group build_options = {"build options", build_rows};

int cmd_build(const cli_command *self, int argc, char **argv)
{
	const char *board = "qemu-virt", *out = NULL, *opt = "-O2";
	const char *srcs[64], *extra[64];
	unsigned ns = 0, ne = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_help(stdout, self);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--board")) {
			if (!v)
				return err("%s needs a value", a);
			*(!strcmp(a, "-o") ? &out : &board) = v;
			i++;
		} else if ((!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2)) &&
			   ne < 60) {
			extra[ne++] = a;
			if (!a[2]) {
				if (!v)
					return err("%s needs a value", a);
				extra[ne++] = v;
				i++;
			}
		} else if (!strncmp(a, "-O", 2)) {
			opt = a;
		} else if (a[0] == '-') {
			err("unknown option %s", a);
			cli_help(stderr, self);
			return 1;
		} else if (ns < 64) {
			srcs[ns++] = a;
		}
	}
	if (!ns || !out) {
		cli_help(stderr, self);
		return 1;
	}
	char arch[64], libarch[64], abi[32], xlen_s[8];
	if (!board_var(board, "BOARD_ARCH", arch, sizeof(arch)) ||
	    !board_var(board, "BOARD_ABI", abi, sizeof(abi)) ||
	    !board_var(board, "BOARD_XLEN", xlen_s, sizeof(xlen_s)))
		return err("no board '%s' (%s/board/%s/board.mk)", board,
			   root(), board);
	unsigned xlen = (unsigned)atoi(xlen_s);
	/* The ISA that selects the picolibc/libgcc multilib for linking. */
	if (!board_var(board, "BOARD_LIB_ARCH", libarch, sizeof(libarch)))
		snprintf(libarch, sizeof(libarch), "%s", arch);

	char tmp[] = "/tmp/hartpool-build-XXXXXX";
	if (!mkdtemp(tmp))
		return err("mkdtemp: %s", strerror(errno));
	char march[80], mlibarch[80], mabi[48], inc[1100], ld[1100],
		elfout[1100];
	snprintf(march, sizeof(march), "-march=%s", arch);
	snprintf(mlibarch, sizeof(mlibarch), "-march=%s", libarch);
	snprintf(mabi, sizeof(mabi), "-mabi=%s", abi);
	snprintf(inc, sizeof(inc), "-I%s/include", root());
	/* -T itself (not -Wl,-T): picolibc.specs adds its own script
	 * unless the driver sees one. */
	snprintf(ld, sizeof(ld), "%s/linker/object.ld", root());
	size_t ol = strlen(out);
	if (ol > 4 && !strcmp(out + ol - 4, ".hpk"))
		snprintf(elfout, sizeof(elfout), "%.*s.elf", (int)(ol - 4),
			 out);
	else
		snprintf(elfout, sizeof(elfout), "%s.elf", out);

	static char objs[64][1200];
	int rc = 0;
	for (unsigned i = 0; i < ns && !rc; i++) {
		snprintf(objs[i], sizeof(objs[i]), "%s/%u.o", tmp, i);
		const char *cc[96] = {"riscv64-unknown-elf-gcc",
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
		if (run((char *const *)cc))
			rc = err("compiling %s failed", srcs[i]);
	}
	if (!rc) {
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
		unsigned n = 15;
		for (unsigned i = 0; i < ns; i++)
			lk[n++] = objs[i];
		lk[n++] = "-lc";
		lk[n++] = "-lgcc";
		lk[n] = NULL;
		if (run((char *const *)lk))
			rc = err("linking %s failed", elfout);
	}
	for (unsigned i = 0; i < ns; i++)
		unlink(objs[i]);
	rmdir(tmp);
	if (rc)
		return rc;
	size_t n;
	uint8_t *b = slurp(elfout, &n);
	if (!b)
		return err("cannot read %s", elfout);
	rc = convert(b, n, out, xlen);
	free(b);
	return rc;
}
