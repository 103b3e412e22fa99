// SPDX-License-Identifier: MIT
/* Minimal device tree reader; see hal/fdt.h. Every offset is checked
 * against the sizes in the header before it is used. */
#include <hal/fdt.h>
#include <stdbool.h>
#include <string.h>

#define FDT_MAGIC 0xd00dfeedu
#define FDT_BEGIN_NODE 1u
#define FDT_END_NODE 2u
#define FDT_PROP 3u
#define FDT_NOP 4u
#define FDT_END 9u

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

size_t fdt_total_size(const void *blob)
{
	const uint8_t *b = blob;
	if (!b || be32(b) != FDT_MAGIC)
		return 0;
	return be32(b + 4);
}

/* Length of the NUL-terminated string at s, or -1 if none within max. */
static long str_len(const uint8_t *s, size_t max)
{
	const uint8_t *nul = memchr(s, 0, max);
	return nul ? nul - s : -1;
}

static bool prop_is(const uint8_t *v, uint32_t len, const char *want)
{
	size_t n = strlen(want);
	return len == n + 1 && memcmp(v, want, n + 1) == 0;
}

/* Insert id into the sorted array ids[0..*n), keeping at most cap entries
 * (the smallest ids). Duplicates are kept once. */
static void add_hart(fdt_info *info, unsigned *kept, uint32_t id)
{
	unsigned n = *kept, i = n;
	while (i > 0 && info->hart_ids[i - 1] > id)
		i--;
	if (i > 0 && info->hart_ids[i - 1] == id)
		return;
	info->hart_num++;
	if (i >= info->hart_ids_cap)
		return;
	if (n == info->hart_ids_cap)
		n--; /* drop the largest */
	memmove(&info->hart_ids[i + 1], &info->hart_ids[i],
		(n - i) * sizeof(info->hart_ids[0]));
	info->hart_ids[i] = id;
	*kept = n + 1;
}

static uint64_t prop_uint(const uint8_t *v, uint32_t len)
{
	if (len == 4)
		return be32(v);
	if (len == 8)
		return (uint64_t)be32(v) << 32 | be32(v + 4);
	return 0;
}

/* The first (address, size) pair of a /memory node's reg, with the root's
 * #address-cells and #size-cells (1 or 2 each). */
static void read_memory_reg(fdt_info *info, const uint8_t *v, uint32_t len,
			    uint32_t acells, uint32_t scells)
{
	if (info->mem_size || acells < 1 || acells > 2 || scells < 1 ||
	    scells > 2 || len < 4 * (acells + scells))
		return;
	info->mem_base = prop_uint(v, 4 * acells);
	info->mem_size = prop_uint(v + 4 * acells, 4 * scells);
}

int fdt_read(const void *blob, size_t max_size, fdt_info *info)
{
	const uint8_t *b = blob;
	info->hart_num = 0;
	info->timebase_hz = 0;
	info->bootargs = NULL;
	info->bootargs_len = 0;
	info->mem_base = info->mem_size = 0;

	if (!b || max_size < 40 || be32(b) != FDT_MAGIC)
		return FDT_ERR_MAGIC;
	uint32_t total = be32(b + 4), off_struct = be32(b + 8),
		 off_strings = be32(b + 12), version = be32(b + 20),
		 size_strings = be32(b + 32), size_struct = be32(b + 36);
	if (version < 17)
		return FDT_ERR_MAGIC;
	if (total > max_size || off_struct > total ||
	    size_struct > total - off_struct || off_strings > total ||
	    size_strings > total - off_strings || size_struct % 4)
		return FDT_ERR_BADSIZE;

	const uint8_t *st = b + off_struct, *strs = b + off_strings;
	uint32_t pos = 0;
	unsigned depth = 0, kept = 0;
	/* State of the node being read: which of the nodes we care about. */
	enum { OTHER, CPUS, CPU, CHOSEN, MEMORY } kind[4] = {OTHER};
	/* The root's cell counts (the specification's defaults). */
	uint32_t acells = 2, scells = 1;
	bool cpu_is_cpu = false, cpu_has_reg = false, cpu_enabled = true;
	uint32_t cpu_reg = 0;
	uint64_t cpu_timebase = 0;

	for (;;) {
		if (size_struct - pos < 4)
			return FDT_ERR_BADSTRUCT;
		uint32_t tok = be32(st + pos);
		pos += 4;
		if (tok == FDT_BEGIN_NODE) {
			long n = str_len(st + pos, size_struct - pos);
			if (n < 0)
				return FDT_ERR_BADSTRUCT;
			const char *name = (const char *)st + pos;
			pos += ((uint32_t)n + 4) & ~3u;
			if (pos > size_struct)
				return FDT_ERR_BADSTRUCT;
			depth++;
			if (depth < 4) {
				kind[depth] = OTHER;
				if (depth == 2 && strcmp(name, "cpus") == 0)
					kind[depth] = CPUS;
				else if (depth == 2 &&
					 strcmp(name, "chosen") == 0)
					kind[depth] = CHOSEN;
				else if (depth == 2 &&
					 (strcmp(name, "memory") == 0 ||
					  strncmp(name, "memory@", 7) == 0))
					kind[depth] = MEMORY;
				else if (depth == 3 && kind[2] == CPUS &&
					 strncmp(name, "cpu@", 4) == 0)
					kind[depth] = CPU;
			}
			if (depth == 3 && kind[3] == CPU) {
				cpu_is_cpu = cpu_has_reg = false;
				cpu_enabled = true;
				cpu_timebase = 0;
			}
		} else if (tok == FDT_END_NODE) {
			if (depth == 0)
				return FDT_ERR_BADSTRUCT;
			if (depth == 3 && kind[3] == CPU) {
				if (cpu_is_cpu && cpu_has_reg && cpu_enabled)
					add_hart(info, &kept, cpu_reg);
				if (!info->timebase_hz)
					info->timebase_hz = cpu_timebase;
			}
			depth--;
		} else if (tok == FDT_PROP) {
			if (size_struct - pos < 8)
				return FDT_ERR_BADSTRUCT;
			uint32_t len = be32(st + pos),
				 nameoff = be32(st + pos + 4);
			pos += 8;
			if (len > size_struct - pos || nameoff >= size_strings)
				return FDT_ERR_BADSTRUCT;
			long n =
				str_len(strs + nameoff, size_strings - nameoff);
			if (n < 0)
				return FDT_ERR_BADSTRUCT;
			const char *pname = (const char *)strs + nameoff;
			const uint8_t *v = st + pos;
			pos += (len + 3) & ~3u;
			if (pos > size_struct)
				return FDT_ERR_BADSTRUCT;
			if (depth >= 4)
				continue;
			if (depth == 1 && strcmp(pname, "#address-cells") == 0)
				acells = (uint32_t)prop_uint(v, len);
			else if (depth == 1 &&
				 strcmp(pname, "#size-cells") == 0)
				scells = (uint32_t)prop_uint(v, len);
			else if (depth == 2 && kind[2] == MEMORY &&
				 strcmp(pname, "reg") == 0)
				read_memory_reg(info, v, len, acells, scells);
			else if (depth == 2 && kind[2] == CPUS &&
				 strcmp(pname, "timebase-frequency") == 0)
				info->timebase_hz = prop_uint(v, len);
			else if (depth == 2 && kind[2] == CHOSEN &&
				 strcmp(pname, "bootargs") == 0 && len > 0 &&
				 v[len - 1] == 0) {
				info->bootargs = (const char *)v;
				info->bootargs_len = len - 1;
			} else if (depth == 3 && kind[3] == CPU) {
				if (strcmp(pname, "device_type") == 0)
					cpu_is_cpu = prop_is(v, len, "cpu");
				else if (strcmp(pname, "reg") == 0 &&
					 len >= 4 && len % 4 == 0) {
					cpu_reg = be32(v + len - 4);
					cpu_has_reg = true;
				} else if (strcmp(pname, "status") == 0)
					cpu_enabled = prop_is(v, len, "okay") ||
						      prop_is(v, len, "ok");
				else if (strcmp(pname, "timebase-frequency") ==
					 0)
					cpu_timebase = prop_uint(v, len);
			}
		} else if (tok == FDT_NOP) {
			continue;
		} else if (tok == FDT_END) {
			if (depth != 0)
				return FDT_ERR_BADSTRUCT;
			break;
		} else {
			return FDT_ERR_BADSTRUCT;
		}
	}
	return FDT_OK;
}

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
