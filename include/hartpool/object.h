/* SPDX-License-Identifier: MIT */
/**
 * @file Kernel objects (.hpk): kernels compiled apart from the firmware and
 * loaded at run time through the mailbox (docs/kernel-objects.md).
 *
 * `hartpool build` compiles kernel sources against hartpool/kernel.h
 * (HP_KERNEL_OBJECT), links them at address 0 and writes:
 *
 *     hpk_header | image bytes | hpk_reloc[reloc_count]
 *
 * The image is one read-only block: code first ([0, text_size)), then
 * read-only data, which holds the kernel descriptors (hp_kernel[],
 * `kernels_offset`) and the pointer to the firmware's API table
 * (`api_offset`, hartpool/api.h). Code reaches everything in the image
 * PC-relatively, so the image works at any address once its absolute
 * pointers (those in the descriptors, in tables of pointers) are
 * relocated: each relocation adds the load address to one XLEN-wide word.
 * Writable data (.data, .bss: `data_size` bytes at image offset
 * `data_offset`, after the code) is not used in the image: the loader
 * gives each loaded object a block of its session's memory, copies that
 * range of the relocated image into it, and points the code's references
 * at the block (the HPK_R_DATA_* relocations). The block lives as long as
 * the object; another session's kernels cannot reach it.
 *
 * All multi-byte fields are little-endian. The firmware treats a file as
 * hostile input: every field, range and relocation is checked
 * (HP_INVALID_BINARY with a one-line detail otherwise).
 */
#ifndef HARTPOOL_OBJECT_H
#define HARTPOOL_OBJECT_H

#include <stdint.h>

#define HPK_MAGIC "\x7fHPKOBJ\n"
/** Incremented on every incompatible change of this file. */
#define HPK_VERSION 1u

/** Limits the firmware enforces. */
#define HPK_IMAGE_MAX (1u << 20) /**< bytes of one image */
#define HPK_RELOCS_MAX 16384u	 /**< relocations of one object */
/** Where a kernel object's CRC-32 starts (after the header's first
 * fields, crc32 among them). */
#define HPK_CRC_START 24u
#define HPK_KERNELS_MAX 64u /**< kernels of one object */
#define HPK_BUFFERS_MAX 8u  /**< buffer arguments of one kernel */
#define HPK_IMAGE_ALIGN                                                        \
	128u /**< largest alignment an image needs (a long16)                  \
	      */
#define HPK_STACK_MAX (64u << 10) /**< a kernel's fiber stack_bytes */

/** Float ABI of the code (ELF e_flags bits 1-2 of RISC-V). */
enum hpk_float_abi {
	HPK_FLOAT_SOFT = 0,
	HPK_FLOAT_SINGLE = 1,
	HPK_FLOAT_DOUBLE = 2,
};

typedef struct hpk_header {
	char magic[8];	      /**< HPK_MAGIC */
	uint32_t version;     /**< HPK_VERSION */
	uint32_t header_size; /**< sizeof(hpk_header) */
	uint32_t file_size;   /**< bytes of the whole file */
	uint32_t crc32;	      /**< CRC-32 of bytes [HPK_CRC_START, file_size) */
	uint32_t xlen;	      /**< 32 or 64: the device's */
	uint32_t float_abi;   /**< enum hpk_float_abi: the firmware's */
	uint32_t api_version; /**< HP_API_VERSION it was built with */
	uint32_t api_count;   /**< entries of the table it may call */
	uint32_t image_offset;	  /**< file offset of the image */
	uint32_t image_file_size; /**< image bytes in the file */
	uint32_t image_size;	  /**< bytes in memory (the rest zero) */
	uint32_t image_align;	  /**< a power of two, <= HPK_IMAGE_ALIGN */
	uint32_t text_size;	  /**< [0, text_size): code */
	uint32_t api_offset;	  /**< image offset of hp_api_ptr */
	uint32_t kernels_offset;  /**< image offset of hp_kernel[] */
	uint32_t kernels_size;	  /**< its bytes */
	uint32_t reloc_offset;	  /**< file offset of hpk_reloc[] */
	uint32_t reloc_count;
	/** OpenCL argument metadata (hartpool_cl.h): image offset and bytes
	 * of its text, 0 0 for objects built from C. The device checks it
	 * lies inside the image and otherwise ignores it. */
	uint32_t meta_offset;
	uint32_t meta_size;
	/** Writable data: image offset (after the code, a multiple of
	 * image_align) and bytes of the range each loaded object gets a
	 * block for; 0 0: none. */
	uint32_t data_offset;
	uint32_t data_size;
} hpk_header;

/** Relocation types (RISC-V ELF numbers). */
#define HPK_R_RELATIVE 3u /**< word at `offset` = load address + addend */
/* RV32 only: absolute addresses in code (picolibc's rv32 multilib is
 * built for the medlow code model): the instruction at `offset` gets the
 * part of A = load address + addend that %hi / %lo give. */
#define HPK_R_HI20 26u	 /**< lui: (A + 0x800) >> 12 */
#define HPK_R_LO12_I 27u /**< I-type (load, addi, jalr): A's low 12 bits */
#define HPK_R_LO12_S 28u /**< S-type (store): A's low 12 bits */

/* References to the writable data (its block at load: B; addend's low
 * 32 bits: an offset D in the data range; P: the instruction's own
 * address). */
#define HPK_R_DATA_HI20 0x100u /**< auipc: hi20 of B + D - P */
/** I-/S-type: lo12 of B + D - Q, Q the address of the auipc at image
 * offset addend >> 32 (its HPK_R_DATA_HI20 pair) */
#define HPK_R_DATA_LO12_I 0x101u
#define HPK_R_DATA_LO12_S 0x102u
#define HPK_R_DATA_WORD 0x103u /**< XLEN-wide word at `offset` = B + D */
/** RV32 lui / addi / store pairs of absolute addresses: as HI20, LO12_I,
 * LO12_S with A = B + D. */
#define HPK_R_DATA_ABS_HI20 0x104u
#define HPK_R_DATA_ABS_LO12_I 0x105u
#define HPK_R_DATA_ABS_LO12_S 0x106u

typedef struct hpk_reloc {
	uint32_t offset; /**< image offset of an XLEN-wide, aligned word */
	uint32_t type;	 /**< HPK_R_* */
	uint64_t addend; /**< image offset the word points to */
} hpk_reloc;

#ifdef __cplusplus
#define HPK_ASSERT_ static_assert
#else
#define HPK_ASSERT_ _Static_assert
#endif
HPK_ASSERT_(sizeof(hpk_header) == 96, "hpk header size");
HPK_ASSERT_(sizeof(hpk_reloc) == 16, "hpk relocation size");
#undef HPK_ASSERT_

#endif
