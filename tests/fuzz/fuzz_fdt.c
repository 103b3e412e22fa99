// SPDX-License-Identifier: MIT
/* libFuzzer target for the device tree reader and the bootargs parser: any
 * input must give a result or an error, never a fault (ASan+UBSan watch). */
#include <hal/fdt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t ids[8];
	fdt_info fi = {.hart_ids = ids, .hart_ids_cap = 8};
	/* An exact-size copy, so any read past the end is caught. */
	uint8_t *blob = malloc(size ? size : 1);
	memcpy(blob, data, size);
	if (fdt_read(blob, size, &fi) == FDT_OK) {
		unsigned long v;
		for (unsigned i = 1; i < fi.hart_num && i < 8; i++)
			if (ids[i - 1] >= ids[i])
				abort(); /* must be sorted, no duplicates */
		fdt_bootarg_uint(fi.bootargs, fi.bootargs_len, "hartpool.harts",
				 &v);
	}
	free(blob);
	return 0;
}
