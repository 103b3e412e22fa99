// SPDX-License-Identifier: MIT
/* Reading a linked kernel-object ELF (elfread.h). */
#include "elfread.h"
#include <elf.h>
#include <string.h>

bool elf_sect_at(const elf *e, unsigned i, sect *s)
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
const char *elf_str_at(const elf *e, unsigned strsec, uint64_t off)
{
	sect s;
	if (!elf_sect_at(e, strsec, &s) || off >= s.size)
		return "?";
	const char *p = (const char *)e->b + s.off + off;
	return memchr(p, 0, s.size - off) ? p : "?";
}

bool elf_sect_named(const elf *e, unsigned i, sect *s)
{
	if (!elf_sect_at(e, i, s))
		return false;
	s->name = elf_str_at(e, e->shstrndx, (uint64_t)(uintptr_t)s->name);
	return true;
}

int elf_find_sect(const elf *e, const char *name, sect *out)
{
	for (unsigned i = 1; i < e->shnum; i++)
		if (elf_sect_named(e, i, out) && !strcmp(out->name, name))
			return (int)i;
	return -1;
}

bool elf_sym_at(const elf *e, const sect *symtab, uint64_t i, sym *out)
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
	out->name = elf_str_at(e, symtab->link, name);
	return true;
}

bool elf_open(elf *e, const uint8_t *b, size_t size)
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
