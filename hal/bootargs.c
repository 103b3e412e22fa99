// SPDX-License-Identifier: MIT
/* A number in the kernel command line (/chosen/bootargs): fdt_bootarg_uint,
 * hal/fdt.h (decimal, or hexadecimal after 0x). */
#include <hal/fdt.h>
#include <string.h>

int fdt_bootarg_uint(const char *args, unsigned len, const char *key,
		     unsigned long *value)
{
	size_t klen = strlen(key);
	unsigned i = 0;
	while (args && i < len) {
		while (i < len && args[i] == ' ')
			i++;
		unsigned start = i;
		while (i < len && args[i] != ' ')
			i++;
		if (i - start > klen && memcmp(args + start, key, klen) == 0 &&
		    args[start + klen] == '=') {
			unsigned long v = 0, base = 10;
			unsigned j = start + klen + 1;
			if (i - j > 2 && args[j] == '0' &&
			    (args[j + 1] == 'x' || args[j + 1] == 'X')) {
				base = 16;
				j += 2;
			}
			if (j == i)
				return -1;
			for (; j < i; j++) {
				int c = args[j],
				    d = c >= '0' && c <= '9'   ? c - '0'
					: c >= 'a' && c <= 'f' ? c - 'a' + 10
					: c >= 'A' && c <= 'F' ? c - 'A' + 10
							       : 99;
				if ((unsigned long)d >= base ||
				    v > (~0UL - (unsigned long)d) / base)
					return -1;
				v = v * base + (unsigned long)d;
			}
			*value = v;
			return 1;
		}
	}
	return 0;
}
