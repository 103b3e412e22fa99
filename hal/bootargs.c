// SPDX-License-Identifier: MIT
/* A number in the kernel command line (/chosen/bootargs): fdt_bootarg_uint,
 * hal/fdt.h. */
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
			unsigned long v = 0;
			unsigned j = start + klen + 1;
			if (j == i)
				return -1;
			for (; j < i; j++) {
				if (args[j] < '0' || args[j] > '9' ||
				    v > (~0UL - 9) / 10)
					return -1;
				v = v * 10 + (unsigned long)(args[j] - '0');
			}
			*value = v;
			return 1;
		}
	}
	return 0;
}
