// SPDX-License-Identifier: MIT
/*
 * The device tree reader against real QEMU device trees (dumped by the test
 * runner with `-machine virt,dumpdtb=`), against hand-built trees for the
 * cases QEMU does not produce, and against corrupted blobs (every
 * truncation, random byte changes) which must give an error, never a fault.
 *
 *   test_fdt DTB_DIR    (DTB_DIR holds virt-1.dtb, virt-8.dtb, virt-512.dtb,
 *                        virt-8-args.dtb from -append "quiet hartpool.harts=4")
 */
#include "check.h"
#include <hal/fdt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *load(const char *dir, const char *name, size_t *size)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "test_fdt: cannot open %s\n", path);
		exit(2);
	}
	uint8_t *buf = malloc(1 << 20);
	*size = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void check_virt(const char *dir, const char *name, unsigned harts,
		       uint64_t mem_size)
{
	size_t size;
	uint8_t *b = load(dir, name, &size);
	uint32_t ids[512];
	fdt_info fi = {.hart_ids = ids, .hart_ids_cap = 512};
	CHECK(fdt_total_size(b) > 40 && fdt_total_size(b) <= size);
	CHECK_EQ(fdt_read(b, size, &fi), FDT_OK);
	CHECK_EQ(fi.hart_num, harts);
	CHECK_EQ(fi.timebase_hz, 10000000);
	for (unsigned i = 0; i < harts && i < 512; i++)
		CHECK_EQ(ids[i], i);
	CHECK_EQ(fi.mem_base, 0x80000000u);
	CHECK_EQ(fi.mem_size, mem_size);
	free(b);
}

/* ---- a tiny device tree writer for hand-built cases ---- */
struct w {
	uint8_t st[4096], str[1024];
	size_t nst, nstr;
};
static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24, p[1] = v >> 16, p[2] = v >> 8, p[3] = v;
}
static void tok(struct w *w, uint32_t t)
{
	put32(w->st + w->nst, t);
	w->nst += 4;
}
static void node(struct w *w, const char *name)
{
	tok(w, 1);
	size_t n = strlen(name) + 1;
	memset(w->st + w->nst, 0, (n + 3) & ~3u);
	memcpy(w->st + w->nst, name, n);
	w->nst += (n + 3) & ~3u;
}
static void prop(struct w *w, const char *name, const void *v, uint32_t len)
{
	tok(w, 3);
	put32(w->st + w->nst, len);
	put32(w->st + w->nst + 4, (uint32_t)w->nstr);
	w->nst += 8;
	memcpy(w->str + w->nstr, name, strlen(name) + 1);
	w->nstr += strlen(name) + 1;
	memset(w->st + w->nst, 0, (len + 3) & ~3u);
	memcpy(w->st + w->nst, v, len);
	w->nst += (len + 3) & ~3u;
}
static void prop_u32(struct w *w, const char *name, uint32_t v)
{
	uint8_t b[4];
	put32(b, v);
	prop(w, name, b, 4);
}
static void prop_str(struct w *w, const char *name, const char *s)
{
	prop(w, name, s, (uint32_t)strlen(s) + 1);
}
static void cpu(struct w *w, uint32_t id, const char *type, const char *status)
{
	char name[32];
	snprintf(name, sizeof(name), "cpu@%x", id);
	node(w, name);
	if (type)
		prop_str(w, "device_type", type);
	uint8_t reg[8] = {0};
	put32(reg + 4, id); /* #address-cells = 2 style */
	prop(w, "reg", reg, 8);
	if (status)
		prop_str(w, "status", status);
	node(w, "interrupt-controller");
	prop_u32(w, "reg", 0x999); /* must not be taken as a hart */
	tok(w, 2);
	tok(w, 2);
}
static size_t finish(struct w *w, uint8_t *out)
{
	tok(w, 9);
	size_t off_st = 40 + 16, off_str = off_st + w->nst;
	size_t total = off_str + w->nstr;
	memset(out, 0, off_st);
	put32(out, 0xd00dfeed);
	put32(out + 4, (uint32_t)total);
	put32(out + 8, (uint32_t)off_st);
	put32(out + 12, (uint32_t)off_str);
	put32(out + 16, 40);
	put32(out + 20, 17);
	put32(out + 24, 16);
	put32(out + 32, (uint32_t)w->nstr);
	put32(out + 36, (uint32_t)w->nst);
	memcpy(out + off_st, w->st, w->nst);
	memcpy(out + off_str, w->str, w->nstr);
	return total;
}

static void check_handmade(void)
{
	static struct w w;
	static uint8_t blob[8192];
	memset(&w, 0, sizeof(w));
	node(&w, "");
	prop_u32(&w, "#address-cells", 1);
	prop_u32(&w, "#size-cells", 1);
	node(&w, "cpus");
	cpu(&w, 7, "cpu", "okay");
	cpu(&w, 3, "cpu", NULL); /* no status = enabled */
	cpu(&w, 5, "cpu", "disabled");
	cpu(&w, 9, "memory", "okay"); /* not a cpu */
	cpu(&w, 1, "cpu", "okay");
	cpu(&w, 3, "cpu", "okay"); /* duplicate id counted once */
	tok(&w, 2);
	node(&w, "chosen");
	prop_str(&w, "bootargs", "hartpool.harts=2");
	tok(&w, 2);
	/* One address and one size cell; the second memory node is not
	 * taken. */
	node(&w, "memory@40000000");
	uint8_t reg[16];
	put32(reg, 0x40000000u), put32(reg + 4, 0x20000000u);
	put32(reg + 8, 0), put32(reg + 12, 0x1000);
	prop(&w, "reg", reg, 16);
	prop_str(&w, "device_type", "memory");
	tok(&w, 2);
	node(&w, "memory@0");
	prop(&w, "reg", reg + 8, 8);
	tok(&w, 2);
	tok(&w, 2);
	size_t size = finish(&w, blob);

	uint32_t ids[8];
	fdt_info fi = {.hart_ids = ids, .hart_ids_cap = 8};
	CHECK_EQ(fdt_read(blob, size, &fi), FDT_OK);
	CHECK_EQ(fi.hart_num, 3);
	CHECK_EQ(ids[0], 1);
	CHECK_EQ(ids[1], 3);
	CHECK_EQ(ids[2], 7);
	CHECK_EQ(fi.timebase_hz, 0);
	CHECK_EQ(fi.mem_base, 0x40000000u);
	CHECK_EQ(fi.mem_size, 0x20000000u);
	unsigned long v = 0;
	CHECK_EQ(fdt_bootarg_uint(fi.bootargs, fi.bootargs_len,
				  "hartpool.harts", &v),
		 1);
	CHECK_EQ(v, 2);

	/* Capacity below the count keeps the lowest ids, counts them all. */
	fdt_info small = {.hart_ids = ids, .hart_ids_cap = 2};
	CHECK_EQ(fdt_read(blob, size, &small), FDT_OK);
	CHECK_EQ(small.hart_num, 3);
	CHECK_EQ(ids[0], 1);
	CHECK_EQ(ids[1], 3);

	/* Claimed size beyond what the caller may read. */
	CHECK_EQ(fdt_read(blob, size - 1, &fi), FDT_ERR_BADSIZE);
	CHECK_EQ(fdt_read(NULL, 0, &fi), FDT_ERR_MAGIC);
	CHECK_EQ(fdt_total_size(NULL), 0);
}

static void check_bootargs(void)
{
	unsigned long v = 0;
	const char *a = "console=ttyS0 hartpool.harts=12 x";
	CHECK_EQ(fdt_bootarg_uint(a, strlen(a), "hartpool.harts", &v), 1);
	CHECK_EQ(v, 12);
	CHECK_EQ(fdt_bootarg_uint(a, strlen(a), "hartpool.hart", &v), 0);
	CHECK_EQ(fdt_bootarg_uint("k=", 2, "k", &v), -1);
	CHECK_EQ(fdt_bootarg_uint("k=1x", 4, "k", &v), -1);
	CHECK_EQ(fdt_bootarg_uint("k=99999999999999999999999", 25, "k", &v),
		 -1);
	CHECK_EQ(fdt_bootarg_uint(NULL, 0, "k", &v), 0);
	/* Only the given length counts. */
	CHECK_EQ(fdt_bootarg_uint("k=12", 3, "k", &v), 1);
	CHECK_EQ(v, 1);
}

/* Corruption: no input may make the reader read outside the blob (ASan
 * watches) or loop; results only need to be an error or a valid parse. */
static void check_corrupt(const char *dir)
{
	size_t size;
	uint8_t *orig = load(dir, "virt-8.dtb", &size);
	/* QEMU dumps a padded buffer; the tree is the first totalsize bytes. */
	size = fdt_total_size(orig);
	uint32_t ids[16];
	fdt_info fi = {.hart_ids = ids, .hart_ids_cap = 16};
	for (size_t len = 0; len < size; len++) { /* every truncation */
		/* An exact-size copy so that ASan sees any overread. */
		uint8_t *cut = malloc(len ? len : 1);
		memcpy(cut, orig, len);
		int rc = fdt_read(cut, len, &fi);
		CHECK(rc != FDT_OK);
		free(cut);
	}
	uint8_t *b = malloc(size);
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned ok = 0;
	for (unsigned iter = 0; iter < 20000; iter++) {
		memcpy(b, orig, size);
		for (unsigned k = 0; k < 1 + iter % 4; k++) {
			seed ^= seed << 13, seed ^= seed >> 7,
				seed ^= seed << 17;
			b[seed % size] = (uint8_t)(seed >> 32);
		}
		int rc = fdt_read(b, size, &fi);
		CHECK(rc <= 0 && rc >= FDT_ERR_TOOMANY);
		ok += rc == FDT_OK;
		CHECK(fi.hart_num <= size / 8);
	}
	printf("test_fdt: %u of 20000 corrupted blobs still parsed\n", ok);
	free(b);
	free(orig);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_fdt DTB_DIR\n");
		return 2;
	}
	check_virt(argv[1], "virt-1.dtb", 1, 128u << 20);
	check_virt(argv[1], "virt-8.dtb", 8, 128u << 20);
	check_virt(argv[1], "virt-512.dtb", 512, 5ull << 30); /* -m 5G */

	size_t size;
	uint8_t *b = load(argv[1], "virt-8-args.dtb", &size);
	uint32_t ids[8];
	fdt_info fi = {.hart_ids = ids, .hart_ids_cap = 8};
	CHECK_EQ(fdt_read(b, size, &fi), FDT_OK);
	unsigned long v = 0;
	CHECK(fi.bootargs != NULL);
	CHECK_EQ(fdt_bootarg_uint(fi.bootargs, fi.bootargs_len,
				  "hartpool.harts", &v),
		 1);
	CHECK_EQ(v, 4);
	free(b);

	check_handmade();
	check_bootargs();
	check_corrupt(argv[1]);
	return check_report("test_fdt");
}
