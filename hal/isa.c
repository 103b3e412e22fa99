// SPDX-License-Identifier: MIT
/* What a hart's riscv,isa string says it has (fdt_int.h): the device tree
 * reader (fdt.c) asks for each cpu node. */
#include "fdt_int.h"
#include <hal/fdt.h>
#include <stdbool.h>

static int lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static bool is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

/* F, D and S from riscv,isa: the single letters after rv32/rv64, up to the
 * first '_' (or a 'z'/'x' extension written without one; the digits of
 * version numbers such as "2p0" are skipped, its 'p' sets nothing). */
uint8_t fdt_isa_caps(const uint8_t *v, uint32_t len)
{
	if (len < 4 || lower(v[0]) != 'r' || lower(v[1]) != 'v' ||
	    !((v[2] == '3' && v[3] == '2') || (v[2] == '6' && v[3] == '4')))
		return 0;
	uint8_t caps = 0;
	for (uint32_t i = 4; i < len; i++) {
		int c = lower(v[i]);
		if (is_digit(v[i])) {
			continue;
		}
		if (c < 'a' || c > 'z' || c == 'z' || c == 'x')
			break;
		if (c == 'g')
			caps |= FDT_HART_F | FDT_HART_D;
		else if (c == 'f')
			caps |= FDT_HART_F;
		else if (c == 'd')
			caps |= FDT_HART_D;
		else if (c == 's')
			caps |= FDT_HART_S;
	}
	return caps;
}
