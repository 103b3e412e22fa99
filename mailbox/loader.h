/* SPDX-License-Identifier: MIT */
/**
 * @file The kernel-object loader (hartpool/object.h): checks a .hpk file
 * as hostile input, places and relocates its image, and reads its kernel
 * descriptors into firmware-owned copies. Portable: the dispatcher uses it
 * on the device (kobj.c), the host tests and the fuzzer on the host.
 */
#ifndef MAILBOX_LOADER_H
#define MAILBOX_LOADER_H

#include <hartpool/kernel.h>
#include <hartpool/object.h>
#include <stdbool.h>
#include <stddef.h>

/** What the loading device is and allows. */
typedef struct hpk_target {
	unsigned xlen;	    /**< 32 or 64 */
	unsigned float_abi; /**< enum hpk_float_abi */
	uint32_t api_count; /**< entries of the firmware's table */
	uint32_t max_work_group_size;
	uint32_t local_mem_size;  /**< bytes per work-group */
	uint32_t sub_group_sizes; /**< bit k: size 1 << k allowed */
} hpk_target;

/** A loaded kernel, owned by the firmware: the descriptor with its name
 * and buffer list copied out of the image. */
typedef struct hpk_kernel {
	hp_kernel k;
	char name[32];
	hp_arg_buffer bufs[HPK_BUFFERS_MAX];
} hpk_kernel;

/**
 * Check the header and layout of the @p size bytes at @p file for target
 * @p t: magic, version, sizes, checksum, every range inside the file and
 * the image. 0 with *h filled, or HP_INVALID_BINARY with a one-line
 * reason in @p why (@p n bytes).
 */
int hpk_check(const void *file, size_t size, const hpk_target *t, hpk_header *h,
	      char *why, size_t n);

/**
 * Place a checked object: copy its image to @p image (h->image_size
 * bytes, aligned to h->image_align), zero the rest, apply every
 * relocation (each checked; references to the writable data go to
 * @p data, h->data_size bytes aligned as the image, NULL if it has
 * none), set its API table pointer to @p api, then copy the writable
 * data's range of the relocated image to @p data. 0 or
 * HP_INVALID_BINARY with @p why.
 */
int hpk_place(const hpk_header *h, const void *file, void *image,
	      const void *api, void *data, char *why, size_t n);

/** Kernels a checked object declares. */
unsigned hpk_kernel_count(const hpk_header *h);

/**
 * Read and check kernel descriptor @p i of a placed image: name inside the
 * image (a C identifier of at most 31 bytes), code pointers inside its
 * code, attributes within the device's limits, buffer arguments inside
 * the argument block. 0 with *out filled (pointing at its own copies, code
 * at the image), or HP_INVALID_BINARY with @p why.
 */
int hpk_kernel_read(const hpk_header *h, const void *image, unsigned i,
		    const hpk_target *t, hpk_kernel *out, char *why, size_t n);

/**
 * Does the code of a checked object ([0, h->text_size) of @p image, placed
 * or not: relocations never touch code) use the FPU? True if it holds an
 * F or D instruction: LOAD-FP, STORE-FP, OP-FP, FMADD/FMSUB/FNMSUB/FNMADD,
 * C.FLD/C.FSD/C.FLDSP/C.FSDSP (and C.FLW/C.FSW/C.FLWSP/C.FSWSP on RV32),
 * or a CSR instruction on fflags, frm or fcsr. The code is decoded in
 * order from its first byte, 2 or 4 bytes per instruction by its low bits,
 * as the hart fetches it. Every kernel of an object that does needs an FPU
 * (docs/design.md, 34); the descriptor's uses_fpu can only add to it.
 */
bool hpk_code_uses_fpu(const hpk_header *h, const void *image, unsigned xlen);

#endif
