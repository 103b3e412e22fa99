/* SPDX-License-Identifier: MIT */
/**
 * @file Minimal flattened device tree reader: just what boot needs (harts,
 * timebase, bootargs, memory, the console, the PLIC, CLINT and test
 * devices). Pure C, bounds-checked against the blob's own header, so a
 * corrupt blob gives an error instead of a fault; unit-tested and fuzzed on
 * the host. Nodes are read to 8 levels deep (the root is level 1, so
 * /cpus/cpu@0/interrupt-controller is level 4); deeper ones are checked but
 * not read. No allocation, under 1 KiB of stack.
 */
#ifndef HAL_FDT_H
#define HAL_FDT_H

#include <stddef.h>
#include <stdint.h>

#define FDT_OK 0
#define FDT_ERR_MAGIC (-1)     /**< not a device tree (bad magic / version) */
#define FDT_ERR_BADSIZE (-2)   /**< header sizes or offsets inconsistent */
#define FDT_ERR_BADSTRUCT (-3) /**< structure block malformed */
#define FDT_ERR_TOOMANY (-4)   /**< more harts than the caller's array */

/* What a hart can do (fdt_info.hart_caps), from its cpu node. FDT_HART_S:
 * S-mode, i.e. FDT_HART_MMU or an 's' among the single letters of riscv,isa
 * (old trees write "rv64imafdcsu"). */
#define FDT_HART_F 0x01u   /**< riscv,isa (or riscv,isa-extensions) has F */
#define FDT_HART_D 0x02u   /**< ... has D ('g' means IMAFD) */
#define FDT_HART_MMU 0x04u /**< mmu-type present and not "riscv,none" */
#define FDT_HART_S 0x08u   /**< S-mode (see above) */

/* fdt_uart.kind: the console's driver, from its compatible list. */
#define FDT_UART_NONE 0	   /**< no stdout-path, or no driver for it */
#define FDT_UART_NS16550 1 /**< "ns16550a", "snps,dw-apb-uart", ... */
#define FDT_UART_SIFIVE 2  /**< "sifive,uart0" */

/** The console: the node /chosen/stdout-path (or linux,stdout-path) names
 * (an alias or a path; ":options" after it ignored). base is the node's reg
 * in its parent's cells (1 or 2 each). When the node is found but has no
 * driver here, kind is FDT_UART_NONE and the other fields are still read. */
typedef struct {
	unsigned kind;	       /**< FDT_UART_* */
	uint64_t base;	       /**< first reg address */
	uint32_t reg_shift;    /**< reg-shift, 0 if absent */
	uint32_t reg_io_width; /**< reg-io-width, 1 if absent */
	uint32_t clock_hz;     /**< clock-frequency, 0 if absent */
	uint32_t baud;	       /**< current-speed, 0 if absent */
	uint32_t irq;	       /**< first cell of interrupts, 0 if absent */
} fdt_uart;

/** What boot learns from the device tree: harts, timebase, bootargs and
 * DRAM (the first range of the first /memory node). */
typedef struct {
	uint32_t *hart_ids;    /**< caller's array, filled sorted ascending */
	unsigned hart_ids_cap; /**< its capacity */
	unsigned hart_num;     /**< harts found (enabled cpus) */
	/** Caller's arrays parallel to hart_ids (same capacity), or NULL:
	 * each hart's FDT_HART_* bits, and the PLIC context (the index of
	 * the pair <its cpu's interrupt-controller phandle, plic_line> among
	 * the cell pairs of the first PLIC's interrupts-extended, i.e. its
	 * cell position divided by 2), -1 if none. */
	uint8_t *hart_caps;
	int32_t *hart_plic_ctx;
	/** Input: the PLIC line hart_plic_ctx looks for: 9 (S-mode external
	 * interrupt) or 11 (M-mode). */
	uint32_t plic_line;
	fdt_uart uart; /**< the console (kind FDT_UART_NONE if none) */
	/* Device bases: the first reg address of the first node (not
	 * disabled by its status) compatible with the names given, 0 if
	 * none. */
	uint64_t plic_base;  /**< "riscv,plic0"/"sifive,plic-1.0.0" */
	uint64_t clint_base; /**< "riscv,clint0"/"sifive,clint0" */
	uint64_t test_base;  /**< "sifive,test0"/"sifive,test1" (QEMU exit) */
	/** "hartpool,barrier-unit" and "hartpool,doorbell"
	 * (docs/barrier-unit.md), the doorbell's interrupt: the first cell of
	 * its interrupts, 0 if none. */
	uint64_t barrier_unit_base;
	uint64_t doorbell_base;
	uint32_t doorbell_irq;
	uint64_t timebase_hz;  /**< /cpus/timebase-frequency, 0 if absent */
	const char *bootargs;  /**< /chosen/bootargs inside the blob, or NULL */
	unsigned bootargs_len; /**< its length without the NUL */
	uint64_t mem_base;     /**< first /memory range, 0 if none */
	uint64_t mem_size;     /**< its size, 0 if none */
} fdt_info;

/** Total size the header claims, or 0 if @p blob is not a device tree. */
size_t fdt_total_size(const void *blob);

/**
 * Read what fdt_info describes from the blob at @p blob, which the caller
 * guarantees is readable for @p max_size bytes. On an error the outputs
 * are partial and hart_plic_ctx may hold phandles, not contexts.
 */
int fdt_read(const void *blob, size_t max_size, fdt_info *info);

/**
 * Look for `key=N` (decimal, or hexadecimal after 0x) among the
 * space-separated words of @p args.
 * Returns 1 and sets *value if found, 0 if not, -1 if malformed.
 */
int fdt_bootarg_uint(const char *args, unsigned len, const char *key,
		     unsigned long *value);

#endif
