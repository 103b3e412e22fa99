/* SPDX-License-Identifier: MIT */
/**
 * @file Minimal flattened device tree reader: just what boot needs (harts,
 * timebase, bootargs, memory). Pure C, bounds-checked against the blob's own
 * header, so a corrupt blob gives an error instead of a fault; unit-tested
 * and fuzzed on the host.
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

/** What boot learns from the device tree: harts, timebase, bootargs and
 * DRAM (the first range of the first /memory node). */
typedef struct {
	uint32_t *hart_ids;    /**< caller's array, filled sorted ascending */
	unsigned hart_ids_cap; /**< its capacity */
	unsigned hart_num;     /**< harts found (enabled cpus) */
	uint64_t timebase_hz;  /**< /cpus/timebase-frequency, 0 if absent */
	const char *bootargs;  /**< /chosen/bootargs inside the blob, or NULL */
	unsigned bootargs_len; /**< its length without the NUL */
	uint64_t mem_base;     /**< first /memory range, 0 if none */
	uint64_t mem_size;     /**< its size, 0 if none */
} fdt_info;

/** Total size the header claims, or 0 if @p blob is not a device tree. */
size_t fdt_total_size(const void *blob);

/**
 * Read harts, timebase and bootargs from the blob at @p blob, which the
 * caller guarantees is readable for @p max_size bytes.
 */
int fdt_read(const void *blob, size_t max_size, fdt_info *info);

/**
 * Look for `key=N` (decimal) among the space-separated words of @p args.
 * Returns 1 and sets *value if found, 0 if not, -1 if malformed.
 */
int fdt_bootarg_uint(const char *args, unsigned len, const char *key,
		     unsigned long *value);

#endif
