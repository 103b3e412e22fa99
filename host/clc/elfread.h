/* SPDX-License-Identifier: MIT */
/* Reading a linked kernel-object ELF (32 or 64 bits, little-endian
 * RISC-V): sections, symbols, strings, each access checked against the
 * file (package.c converts it). */
#ifndef HOST_CLC_ELFREAD_H
#define HOST_CLC_ELFREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/** Section @p i into *@p s (its name unresolved); false if outside the
 * file. */
bool elf_sect_at(const elf *e, unsigned i, sect *s);
/** String at offset @p off of string table section @p strsec ("?" if
 * none). */
const char *elf_str_at(const elf *e, unsigned strsec, uint64_t off);
/** Section @p i with its name. */
bool elf_sect_named(const elf *e, unsigned i, sect *s);
/** The section named @p name: its index, -1 if none. */
int elf_find_sect(const elf *e, const char *name, sect *out);
/** Symbol @p i of @p symtab with its name; false past the table. */
bool elf_sym_at(const elf *e, const sect *symtab, uint64_t i, sym *out);
/** Open @p b (@p size bytes) as a RISC-V ELF; false if it is not one. */
bool elf_open(elf *e, const uint8_t *b, size_t size);

#endif
