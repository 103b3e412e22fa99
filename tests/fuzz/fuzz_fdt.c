// SPDX-License-Identifier: MIT
/* libFuzzer target for the device tree reader and the bootargs parser: any
 * input must give a result or an error, never a fault (ASan+UBSan watch).
 * Every output is read, the per-hart arrays passed, so the paths that fill
 * them (capabilities, PLIC contexts, the console) run on every input. */
#include <hal/fdt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Reads every byte of the value, so that ASan checks each output that
 * points into the blob (volatile: not optimised away). */
static volatile unsigned sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t ids[8];
	uint8_t caps[8];
	int32_t ctx[8];
	fdt_info fi = {.hart_ids = ids,
		       .hart_ids_cap = 8,
		       .hart_caps = caps,
		       .hart_plic_ctx = ctx,
		       /* the line from the input too: 9 or 11 */
		       .plic_line = size && (data[size - 1] & 1) ? 11 : 9};
	/* An exact-size copy, so any read past the end is caught. */
	uint8_t *blob = malloc(size ? size : 1);
	memcpy(blob, data, size);
	if (fdt_read(blob, size, &fi) == FDT_OK) {
		unsigned long v;
		unsigned kept = fi.hart_num < 8 ? fi.hart_num : 8;
		for (unsigned i = 1; i < kept; i++)
			if (ids[i - 1] >= ids[i])
				abort(); /* must be sorted, no duplicates */
		for (unsigned i = 0; i < kept; i++) {
			if (caps[i] & ~0xfu)
				abort(); /* only the FDT_HART_* bits */
			if (ctx[i] != -1 &&
			    (ctx[i] < 0 || (size_t)ctx[i] >= size / 8))
				abort(); /* a pair index inside the blob */
			sink += caps[i] + (unsigned)ctx[i];
		}
		if (fi.uart.kind > FDT_UART_SIFIVE)
			abort();
		sink += fi.uart.kind + (unsigned)fi.uart.base +
			fi.uart.reg_shift + fi.uart.reg_io_width +
			fi.uart.clock_hz + fi.uart.baud + fi.uart.irq;
		sink += (unsigned)(fi.plic_base + fi.clint_base + fi.test_base +
				   fi.timebase_hz + fi.mem_base + fi.mem_size);
		for (unsigned i = 0; fi.bootargs && i < fi.bootargs_len; i++)
			sink += (uint8_t)fi.bootargs[i];
		fdt_bootarg_uint(fi.bootargs, fi.bootargs_len, "hartpool.harts",
				 &v);
	}
	free(blob);
	return 0;
}
