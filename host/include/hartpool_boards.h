/* SPDX-License-Identifier: MIT */
/**
 * @file The boards the host tools know (host/boards, in libhartpool.a):
 * a table make generates from board/<B>/board.mk when it builds the tools
 * (make evaluates each board.mk, includes and defaults too, and prints its
 * variables: host/boards/objects.mk), and where the tools find their data
 * (firmware images, the OpenCL built-in library, kernel headers).
 *
 *     const hp_board_info *b = hp_board_find("qemu-virt");
 *     if (!b) { char names[512]; hp_board_names(names, sizeof(names)); ... }
 *     printf("%s: -march=%s -mabi=%s\n", b->name, b->arch, b->abi);
 *
 * Every string is there (empty when the board.mk leaves the variable
 * unset and has no default); a board QEMU does not model has an empty
 * qemu_system. docs/design.md (57), docs/install.md.
 */
#ifndef HARTPOOL_BOARDS_H
#define HARTPOOL_BOARDS_H

#include <stddef.h>

/** One board: its board.mk's variables after make has read it. */
typedef struct hp_board_info {
	const char *name;	 /**< the folder under board/ */
	char mode;		 /**< 'M', or 'S' (BOARD_PRIV: under SBI) */
	const char *arch;	 /**< BOARD_ARCH: -march of the code */
	const char *abi;	 /**< BOARD_ABI: -mabi */
	const char *lib_arch;	 /**< BOARD_LIB_ARCH: picks the multilib */
	unsigned xlen;		 /**< BOARD_XLEN: 32 or 64 */
	unsigned max_harts;	 /**< BOARD_MAX_HARTS */
	unsigned sub_group_size; /**< BOARD_SUB_GROUP_SIZE */
	unsigned stack_size;	 /**< BOARD_STACK_SIZE, bytes per hart */
	const char *image;	 /**< BOARD_IMAGE: "" or "booti" */
	/* How QEMU boots it (qemu/hp-qemu; defaults of qemu/query.mk). */
	const char *qemu_system;    /**< QEMU_SYSTEM: "" if not modelled */
	const char *qemu_machine;   /**< QEMU_MACHINE */
	const char *qemu_cpu;	    /**< QEMU_CPU */
	const char *qemu_bios;	    /**< QEMU_BIOS: none, default or a file */
	const char *qemu_load;	    /**< QEMU_LOAD: kernel or bios */
	const char *qemu_smp;	    /**< QEMU_SMP: "" or the fixed harts */
	const char *qemu_max_harts; /**< QEMU_MAX_HARTS */
	const char *qemu_max_harts_why; /**< QEMU_MAX_HARTS_WHY */
	const char *qemu_uboot; /**< QEMU_UBOOT: U-Boot of --boot uboot */
	const char *qemu_uboot_max_harts; /**< QEMU_UBOOT_MAX_HARTS */
	const char *qemu_exit;		  /**< QEMU_EXIT: "" or semihosting */
	const char *qemu_accel;	   /**< QEMU_ACCEL: auto, single, multi */
	const char *qemu_patched;  /**< QEMU_PATCHED: "" or 1 */
	const char *qemu_doorbell; /**< QEMU_DOORBELL: "" or 1 */
	const char *qemu_mem;	   /**< QEMU_MEM: default DRAM */
	const char *qemu_mem_min;  /**< QEMU_MEM_MIN */
	const char *qemu_mem_max;  /**< QEMU_MEM_MAX */
	/** Every variable as {NAME, VALUE} pairs, {NULL, NULL} at the end. */
	const char *const (*vars)[2];
} hp_board_info;

/** The board called @p name, or NULL. */
const hp_board_info *hp_board_find(const char *name);
/** How many boards there are (board/template is not one). */
size_t hp_board_count(void);
/** Board @p i (0..hp_board_count()-1, in the order of board/), or NULL. */
const hp_board_info *hp_board_at(size_t i);
/** Variable @p key (BOARD_ARCH, QEMU_MEM, ...) of @p b, or NULL if the
 * table has no such variable. */
const char *hp_board_var(const hp_board_info *b, const char *key);
/** The boards' names, ", " between them, into @p buf (for "no board X:
 * the boards are ..."); returns @p buf. */
char *hp_board_names(char *buf, size_t n);

/**
 * Where the tools' data is: $HARTPOOL_DATA if set; else
 * PREFIX/share/hartpool beside the installed library or program
 * (PREFIX/lib/libhartpool-icd.so, PREFIX/bin/hartpool) when it holds
 * boards.txt; else $HARTPOOL_ROOT; else the source tree the tools were
 * built in while it has its build, else /usr/local/share/hartpool or
 * /usr/share/hartpool if there. It has the source tree's layout for what it
 * holds: build/BOARD/hartpool.elf, build/opencl/ABI/hpcl.bc, include/,
 * linker/object.ld, qemu/hp-qemu (docs/install.md).
 */
const char *hp_data_dir(void);

#endif
