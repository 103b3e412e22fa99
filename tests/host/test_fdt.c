// SPDX-License-Identifier: MIT
/*
 * The device tree reader against real QEMU device trees (dumped by the test
 * runner with `-machine virt,dumpdtb=` and `-machine sifive_u,dumpdtb=`),
 * against hand-built trees for the cases QEMU does not produce (OpenSBI's
 * rewritten PLIC entries, aliases, DesignWare UARTs, ISA strings of every
 * style, more harts than the caller's arrays), and against corrupted blobs
 * (every truncation, random byte changes) which must give an error, never a
 * fault.
 *
 *   test_fdt DTB_DIR    (DTB_DIR holds virt-1.dtb, virt-8.dtb, virt-512.dtb,
 *                        virt-8-args.dtb from -append "quiet hartpool.harts=4",
 *                        sifive_u.dtb from -smp 5, and cluster-8.dtb from
 *                        the patched QEMU's virt,hp-cluster=on with a
 *                        doorbell if it is built; else that check is
 *                        skipped and says so)
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

#define ALL_CAPS (FDT_HART_F | FDT_HART_D | FDT_HART_MMU | FDT_HART_S)

static void check_virt(const char *dir, const char *name, unsigned harts,
		       uint64_t mem_size)
{
	size_t size;
	uint8_t *b = load(dir, name, &size);
	static uint32_t ids[512];
	static uint8_t caps[512];
	static int32_t sctx[512], mctx[512];
	fdt_info fi = {.hart_ids = ids,
		       .hart_ids_cap = 512,
		       .hart_caps = caps,
		       .hart_plic_ctx = sctx,
		       .plic_line = 9};
	memset(caps, 0xee, sizeof(caps));
	CHECK(fdt_total_size(b) > 40 && fdt_total_size(b) <= size);
	CHECK_EQ(fdt_read(b, size, &fi), FDT_OK);
	CHECK_EQ(fi.hart_num, harts);
	CHECK_EQ(fi.timebase_hz, 10000000);
	for (unsigned i = 0; i < harts && i < 512; i++) {
		CHECK_EQ(ids[i], i);
		CHECK_EQ(caps[i], ALL_CAPS);
		CHECK_EQ(sctx[i], 2 * i + 1); /* S external: odd contexts */
	}
	CHECK_EQ(fi.mem_base, 0x80000000u);
	CHECK_EQ(fi.mem_size, mem_size);
	CHECK_EQ(fi.uart.kind, FDT_UART_NS16550);
	CHECK_EQ(fi.uart.base, 0x10000000u);
	CHECK_EQ(fi.uart.irq, 10);
	CHECK_EQ(fi.uart.reg_shift, 0);
	CHECK_EQ(fi.uart.reg_io_width, 1);
	CHECK_EQ(fi.uart.clock_hz, 0x384000); /* QEMU's 3.6864 MHz */
	CHECK_EQ(fi.uart.baud, 0);
	CHECK_EQ(fi.plic_base, 0xc000000u);
	CHECK_EQ(fi.clint_base, 0x2000000u);
	CHECK_EQ(fi.test_base, 0x100000u);
	CHECK_EQ(fi.barrier_unit_base, 0); /* stock virt: no cluster devices */
	CHECK_EQ(fi.doorbell_base, 0);
	CHECK_EQ(fi.doorbell_irq, 0);

	/* M external: even contexts; the other outputs are the same. */
	fi.hart_plic_ctx = mctx;
	fi.plic_line = 11;
	CHECK_EQ(fdt_read(b, size, &fi), FDT_OK);
	for (unsigned i = 0; i < harts && i < 512; i++)
		CHECK_EQ(mctx[i], 2 * i);
	/* Without the parallel arrays: the same harts. */
	fi.hart_caps = NULL;
	fi.hart_plic_ctx = NULL;
	memset(ids, 0, sizeof(ids));
	CHECK_EQ(fdt_read(b, size, &fi), FDT_OK);
	CHECK_EQ(fi.hart_num, harts);
	CHECK_EQ(ids[harts - 1], harts - 1);
	free(b);
}

/* sifive_u -smp 5: hart 0 is the E51 monitor core (rv64imac, no MMU, only
 * an M-mode PLIC context), harts 1-4 are U54s; the console is a SiFive
 * UART. Values from `dtc -I dtb -O dts` of QEMU 7.2's dump. */
static void check_sifive_u(const char *dir)
{
	size_t size;
	uint8_t *b = load(dir, "sifive_u.dtb", &size);
	uint32_t ids[8];
	uint8_t caps[8];
	int32_t sctx[8], mctx[8];
	fdt_info fi = {.hart_ids = ids,
		       .hart_ids_cap = 8,
		       .hart_caps = caps,
		       .hart_plic_ctx = sctx,
		       .plic_line = 9};
	CHECK_EQ(fdt_read(b, size, &fi), FDT_OK);
	CHECK_EQ(fi.hart_num, 5);
	CHECK_EQ(fi.timebase_hz, 1000000);
	CHECK_EQ(caps[0], 0);
	CHECK_EQ(sctx[0], -1);
	for (unsigned i = 1; i < 5; i++) {
		CHECK_EQ(ids[i], i);
		CHECK_EQ(caps[i], ALL_CAPS);
		CHECK_EQ(sctx[i], 2 * i); /* <intc 11>, <intc 9> per U54 */
	}
	CHECK_EQ(fi.uart.kind, FDT_UART_SIFIVE);
	CHECK_EQ(fi.uart.base, 0x10010000u);
	CHECK_EQ(fi.uart.irq, 4);
	CHECK_EQ(fi.uart.reg_io_width, 1);
	CHECK_EQ(fi.plic_base, 0xc000000u);
	CHECK_EQ(fi.clint_base, 0x2000000u);
	CHECK_EQ(fi.test_base, 0); /* no finisher on sifive_u */
	CHECK_EQ(fi.mem_base, 0x80000000u);

	fi.hart_plic_ctx = mctx;
	fi.plic_line = 11;
	CHECK_EQ(fdt_read(b, size, &fi), FDT_OK);
	CHECK_EQ(mctx[0], 0);
	for (unsigned i = 1; i < 5; i++)
		CHECK_EQ(mctx[i], 2 * i - 1);
	free(b);
}

/* ---- a tiny device tree writer for hand-built cases ---- */
struct w {
	uint8_t st[16384], str[2048];
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
	/* Property names are stored once in the strings block, as dtc
	 * does. */
	size_t off = 0;
	while (off < w->nstr && strcmp((char *)w->str + off, name) != 0)
		off += strlen((char *)w->str + off) + 1;
	if (off == w->nstr) {
		memcpy(w->str + w->nstr, name, strlen(name) + 1);
		w->nstr += strlen(name) + 1;
	}
	tok(w, 3);
	put32(w->st + w->nst, len);
	put32(w->st + w->nst + 4, (uint32_t)off);
	w->nst += 8;
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
/* A string list: the strings with their NULs, len bytes in all. */
static void prop_list(struct w *w, const char *name, const char *s, size_t len)
{
	prop(w, name, s, (uint32_t)len);
}
#define PROP_LIST(w, name, lit) prop_list(w, name, lit, sizeof(lit))
/* n cells. */
static void prop_cells(struct w *w, const char *name, const uint32_t *c,
		       unsigned n)
{
	uint8_t b[256];
	for (unsigned i = 0; i < n; i++)
		put32(b + 4 * i, c[i]);
	prop(w, name, b, 4 * n);
}
#define PROP_CELLS(w, name, ...)                                               \
	prop_cells(w, name, (const uint32_t[]){__VA_ARGS__},                   \
		   sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))
static void end(struct w *w)
{
	tok(w, 2);
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

/* ---- a board as OpenSBI hands it on ---- */
static void board_cpu(struct w *w, uint32_t id, const char *isa,
		      const char *exts, size_t exts_len, const char *mmu,
		      const char *intc_name)
{
	char name[32];
	snprintf(name, sizeof(name), "cpu@%x", id);
	node(w, name);
	prop_str(w, "device_type", "cpu");
	PROP_CELLS(w, "reg", id);
	prop_str(w, "status", "okay");
	PROP_LIST(w, "compatible", "thead,c910\0riscv");
	if (isa)
		prop_str(w, "riscv,isa", isa);
	if (exts) {
		prop_str(w, "riscv,isa-base", "rv64i");
		prop_list(w, "riscv,isa-extensions", exts, exts_len);
	}
	if (mmu)
		prop_str(w, "mmu-type", mmu);
	node(w, "l1-cache"); /* not the interrupt controller */
	PROP_CELLS(w, "phandle", 0x40 + id);
	end(w);
	node(w, intc_name);
	PROP_CELLS(w, "#interrupt-cells", 1);
	prop(w, "interrupt-controller", "", 0);
	PROP_LIST(w, "compatible", "riscv,cpu-intc");
	/* Hart 3's is 0xffffffff, not a valid phandle: it has no context. */
	PROP_CELLS(w, "phandle", id == 3 ? 0xffffffff : 0x10 + id);
	end(w);
	end(w);
}

/* The console node comes before /chosen, whose stdout-path names it through
 * an alias (defined after /chosen) with options; a DesignWare UART with
 * reg-shift 2, reg-io-width 4 and a 2-cell reg in a 2-cell parent; the
 * PLIC's M-mode entries rewritten to 0xffffffff as OpenSBI does; cpus out of
 * id order, with ISA strings of every style; a CLINT below the depth bound,
 * a disabled CLINT and a test device at the deepest level read. */
static size_t build_board(uint8_t *blob)
{
	static struct w w;
	memset(&w, 0, sizeof(w));
	node(&w, "");
	PROP_CELLS(&w, "#address-cells", 2);
	PROP_CELLS(&w, "#size-cells", 2);
	PROP_LIST(&w, "compatible", "acme,board");
	node(&w, "soc");
	PROP_CELLS(&w, "#address-cells", 2);
	PROP_CELLS(&w, "#size-cells", 2);
	prop(&w, "ranges", "", 0);
	/* Levels 3 to 8, then a CLINT at level 9: not read. The test device
	 * at level 8 is (default cells 2/1 in the levels without any). */
	static const char *const deep[] = {"bus@3", "bus@4", "bus@5", "bus@6",
					   "bus@7"};
	for (unsigned i = 0; i < 5; i++)
		node(&w, deep[i]);
	node(&w, "test@100000");
	PROP_LIST(&w, "compatible", "sifive,test1\0sifive,test0\0syscon");
	PROP_CELLS(&w, "reg", 0, 0x100000, 0x1000);
	end(&w);
	node(&w, "bus@8");
	node(&w, "clint@1");
	PROP_LIST(&w, "compatible", "riscv,clint0");
	PROP_CELLS(&w, "reg", 0, 0x1, 0x1000);
	end(&w);
	end(&w);
	for (unsigned i = 0; i < 5; i++)
		end(&w);
	node(&w, "serial@4130000"); /* not the console */
	PROP_LIST(&w, "compatible", "ns16550a");
	PROP_CELLS(&w, "reg", 0, 0x4130000, 0, 0x10000);
	end(&w);
	node(&w, "serial@4140000");
	PROP_LIST(&w, "compatible", "starfive,jh7110-uart\0snps,dw-apb-uart");
	PROP_CELLS(&w, "reg", 0, 0x4140000, 0, 0x10000);
	PROP_CELLS(&w, "reg-shift", 2);
	PROP_CELLS(&w, "reg-io-width", 4);
	PROP_CELLS(&w, "clock-frequency", 24000000);
	PROP_CELLS(&w, "current-speed", 115200);
	PROP_CELLS(&w, "interrupts", 44, 4);
	prop_str(&w, "status", "okay");
	node(&w, "bluetooth"); /* a child: the UART's properties stand */
	PROP_LIST(&w, "compatible", "brcm,bcm43438-bt");
	PROP_CELLS(&w, "reg", 7);
	end(&w);
	end(&w);
	node(&w, "interrupt-controller@7000000");
	PROP_LIST(&w, "compatible", "thead,c900-plic\0sifive,plic-1.0.0");
	PROP_CELLS(&w, "reg", 0, 0x7000000, 0, 0x4000000);
	/* Pairs: 0 <h0 M>, 1 <h0 S>, 2 <h1 M>, 3 <h1 S>, 4 <h2 S>, 5 an
	 * entry whose phandle is 0xffffffff too, 6 <h4 M>, 7 <h4 S>,
	 * 8 <h5 S>; the M lines are 0xffffffff as OpenSBI leaves them. */
	PROP_CELLS(&w, "interrupts-extended", 0x10, 0xffffffff, 0x10, 9, 0x11,
		   0xffffffff, 0x11, 9, 0x12, 9, 0xffffffff, 9, 0x14,
		   0xffffffff, 0x14, 9, 0x15, 9);
	prop(&w, "interrupt-controller", "", 0);
	PROP_CELLS(&w, "phandle", 1);
	end(&w);
	node(&w, "clint@3000000");
	PROP_LIST(&w, "compatible", "riscv,clint0");
	PROP_CELLS(&w, "reg", 0, 0x3000000, 0, 0x10000);
	prop_str(&w, "status", "disabled");
	end(&w);
	node(&w, "timer@2000000");
	PROP_LIST(&w, "compatible", "acme,clint\0sifive,clint0");
	PROP_CELLS(&w, "reg", 0, 0x2000000, 0, 0x10000);
	end(&w);
	end(&w); /* soc */
	node(&w, "cpus");
	PROP_CELLS(&w, "#address-cells", 1);
	PROP_CELLS(&w, "#size-cells", 0);
	PROP_CELLS(&w, "timebase-frequency", 24000000);
	/* Expected caps: 0 all, 1 F|D|S, 2 F, 3 none, 4 none, 5 F|D. */
	board_cpu(&w, 4, "rv64imaczicsr_zfh_sstc_svpbmt", NULL, 0, NULL,
		  "interrupt-controller");
	board_cpu(&w, 1, "rv64imafdcsu", NULL, 0, NULL, "interrupt-controller");
	board_cpu(&w, 5, "RV64I2p1M2p0A2p1F2p2_zicsr2p0", "m\0d\0zfh",
		  sizeof("m\0d\0zfh"), NULL, "intc");
	board_cpu(&w, 0, "rv64gc", NULL, 0, "riscv,sv39",
		  "interrupt-controller");
	board_cpu(&w, 3, NULL, NULL, 0, NULL, "interrupt-controller");
	board_cpu(&w, 2, NULL, "i\0m\0a\0f\0c\0zicsr\0sstc",
		  sizeof("i\0m\0a\0f\0c\0zicsr\0sstc"), "riscv,none",
		  "interrupt-controller");
	end(&w);
	node(&w, "chosen");
	prop_str(&w, "bootargs", "hartpool.harts=6");
	prop_str(&w, "stdout-path", "serial0:115200n8");
	end(&w);
	node(&w, "aliases");
	prop_str(&w, "serial1", "/soc/serial@4130000");
	prop_str(&w, "serial0", "/soc/serial@4140000");
	end(&w);
	node(&w, "memory@80000000");
	prop_str(&w, "device_type", "memory");
	PROP_CELLS(&w, "reg", 0, 0x80000000u, 1, 0);
	end(&w);
	end(&w);
	return finish(&w, blob);
}

static void check_board(void)
{
	static uint8_t blob[32768];
	size_t size = build_board(blob);
	static const uint8_t want_caps[6] = {
		ALL_CAPS,   FDT_HART_F | FDT_HART_D | FDT_HART_S,
		FDT_HART_F, 0,
		0,	    FDT_HART_F | FDT_HART_D};
	static const int32_t want_sctx[6] = {1, 3, 4, -1, 7, 8};
	uint32_t ids[8];
	uint8_t caps[8];
	int32_t ctx[8];
	fdt_info fi = {.hart_ids = ids,
		       .hart_ids_cap = 8,
		       .hart_caps = caps,
		       .hart_plic_ctx = ctx,
		       .plic_line = 9};
	CHECK_EQ(fdt_read(blob, size, &fi), FDT_OK);
	CHECK_EQ(fi.hart_num, 6);
	for (unsigned i = 0; i < 6; i++) {
		CHECK_EQ(ids[i], i);
		CHECK_MSG(caps[i] == want_caps[i], "hart %u caps %#x", i,
			  caps[i]);
		CHECK_MSG(ctx[i] == want_sctx[i], "hart %u context %d", i,
			  ctx[i]);
	}
	CHECK_EQ(fi.timebase_hz, 24000000);
	CHECK_EQ(fi.mem_base, 0x80000000u);
	CHECK_EQ(fi.mem_size, 1ull << 32);
	CHECK_EQ(fi.bootargs_len, strlen("hartpool.harts=6"));
	CHECK_EQ(fi.uart.kind, FDT_UART_NS16550);
	CHECK_EQ(fi.uart.base, 0x4140000u);
	CHECK_EQ(fi.uart.reg_shift, 2);
	CHECK_EQ(fi.uart.reg_io_width, 4);
	CHECK_EQ(fi.uart.clock_hz, 24000000);
	CHECK_EQ(fi.uart.baud, 115200);
	CHECK_EQ(fi.uart.irq, 44);
	CHECK_EQ(fi.plic_base, 0x7000000u);
	CHECK_EQ(fi.clint_base, 0x2000000u); /* not level 9, not disabled */
	CHECK_EQ(fi.test_base, 0x100000u);   /* level 8 */

	/* The M-mode entries were rewritten: no hart has one. */
	fi.plic_line = 11;
	CHECK_EQ(fdt_read(blob, size, &fi), FDT_OK);
	for (unsigned i = 0; i < 6; i++)
		CHECK_EQ(ctx[i], -1);

	/* Capacity 3 with the cpus listed 4, 1, 5, 0, 3, 2: the lowest ids
	 * are kept, each with its own caps and context. */
	memset(ids, 0xff, sizeof(ids));
	memset(caps, 0xff, sizeof(caps));
	memset(ctx, 0x55, sizeof(ctx));
	fi.hart_ids_cap = 3;
	fi.plic_line = 9;
	CHECK_EQ(fdt_read(blob, size, &fi), FDT_OK);
	CHECK_EQ(fi.hart_num, 6);
	for (unsigned i = 0; i < 3; i++) {
		CHECK_EQ(ids[i], i);
		CHECK_EQ(caps[i], want_caps[i]);
		CHECK_EQ(ctx[i], want_sctx[i]);
	}
	CHECK_EQ(ids[3], 0xffffffffu); /* past the capacity: untouched */
	CHECK_EQ(caps[3], 0xff);
	CHECK_EQ(ctx[3], 0x55555555);
	/* Capacity 2: hart 5 then 0 arrive after 4 and 1 filled it. */
	fi.hart_ids_cap = 2;
	CHECK_EQ(fdt_read(blob, size, &fi), FDT_OK);
	for (unsigned i = 0; i < 2; i++) {
		CHECK_EQ(ids[i], i);
		CHECK_EQ(caps[i], want_caps[i]);
		CHECK_EQ(ctx[i], want_sctx[i]);
	}
	/* One array without the other. */
	fi.hart_ids_cap = 8;
	fi.hart_caps = NULL;
	CHECK_EQ(fdt_read(blob, size, &fi), FDT_OK);
	CHECK_EQ(ctx[5], 8);
	fi.hart_caps = caps;
	fi.hart_plic_ctx = NULL;
	CHECK_EQ(fdt_read(blob, size, &fi), FDT_OK);
	CHECK_EQ(caps[5], FDT_HART_F | FDT_HART_D);
}

/* ---- the console: stdout-path in its forms ---- */
struct console_tree {
	const char *stdout_path, *linux_stdout_path; /* NULL: none */
	const char *compat;			     /* of serial@10000000 */
	size_t compat_len;
	int chosen_first, aliases_first;
};

static size_t build_console(uint8_t *blob, const struct console_tree *c)
{
	static struct w w;
	memset(&w, 0, sizeof(w));
	node(&w, "");
	PROP_CELLS(&w, "#address-cells", 1);
	PROP_CELLS(&w, "#size-cells", 1);
	for (int pass = 0; pass < 2; pass++) {
		if (c->aliases_first == !pass) {
			node(&w, "aliases");
			prop_str(&w, "serial0", "/soc/serial@10000000");
			prop_str(&w, "serial1", "/soc/serial@10001000");
			prop_str(&w, "bad", "soc/serial@10000000");
			prop_str(&w, "deep",
				 "/soc/a/b/c/d/e/serial@8/serial@9");
			end(&w);
		}
		if (c->chosen_first == !pass) {
			node(&w, "chosen");
			if (c->linux_stdout_path)
				prop_str(&w, "linux,stdout-path",
					 c->linux_stdout_path);
			if (c->stdout_path)
				prop_str(&w, "stdout-path", c->stdout_path);
			end(&w);
		}
		if (pass == 0) {
			node(&w, "soc");
			PROP_CELLS(&w, "#address-cells", 1);
			PROP_CELLS(&w, "#size-cells", 1);
			node(&w, "serial@10000000");
			prop_list(&w, "compatible", c->compat, c->compat_len);
			PROP_CELLS(&w, "reg", 0x10000000, 0x100);
			PROP_CELLS(&w, "interrupts", 10);
			end(&w);
			node(&w, "serial@10001000");
			PROP_LIST(&w, "compatible", "ns16550a");
			PROP_CELLS(&w, "reg", 0x10001000, 0x100);
			PROP_CELLS(&w, "interrupts", 11);
			PROP_CELLS(&w, "reg-io-width", 1);
			end(&w);
			/* serial@8 at level 8 (read), serial@9 at 9 (not). */
			static const char *const deep[] = {"a", "b", "c", "d",
							   "e"};
			for (unsigned i = 0; i < 5; i++)
				node(&w, deep[i]);
			node(&w, "serial@8");
			PROP_LIST(&w, "compatible", "ns16550a");
			PROP_CELLS(&w, "reg", 0, 0x8, 0x100); /* cells 2/1 */
			node(&w, "serial@9");
			PROP_LIST(&w, "compatible", "ns16550a");
			PROP_CELLS(&w, "reg", 0, 0x9, 0x100);
			end(&w);
			end(&w);
			for (unsigned i = 0; i < 5; i++)
				end(&w);
			end(&w);
		}
	}
	end(&w);
	return finish(&w, blob);
}

/* Read the console of c; check its kind and base. */
static void console_case(unsigned line, const struct console_tree *c,
			 unsigned kind, uint64_t base)
{
	static uint8_t blob[32768];
	size_t size = build_console(blob, c);
	fdt_info fi = {0};
	int rc = fdt_read(blob, size, &fi);
	CHECK_MSG(rc == FDT_OK, "case at line %u: rc %d", line, rc);
	CHECK_MSG(fi.uart.kind == kind && fi.uart.base == base,
		  "case at line %u: kind %u base %#llx, want %u %#llx", line,
		  fi.uart.kind, (unsigned long long)fi.uart.base, kind,
		  (unsigned long long)base);
	if (kind == FDT_UART_NONE && base == 0) /* nothing read */
		CHECK(fi.uart.irq == 0 && fi.uart.reg_io_width == 1);
}

static void check_console(void)
{
	const unsigned NS = FDT_UART_NS16550, NONE = FDT_UART_NONE;
	struct console_tree c = {.compat = "ns16550a",
				 .compat_len = sizeof("ns16550a")};
	/* Full paths, the node earlier in the blob than /chosen. */
	c.stdout_path = "/soc/serial@10000000";
	console_case(__LINE__, &c, NS, 0x10000000);
	c.stdout_path = "/soc/serial@10001000:115200n8";
	console_case(__LINE__, &c, NS, 0x10001000);
	c.stdout_path = "/soc/serial"; /* unit address left out: the first */
	console_case(__LINE__, &c, NS, 0x10000000);
	c.stdout_path = "/soc/serial@1000"; /* a prefix is not a name */
	console_case(__LINE__, &c, NONE, 0);
	c.stdout_path = "/soc/serial@20000000"; /* no such node */
	console_case(__LINE__, &c, NONE, 0);
	c.stdout_path = "/soc"; /* a node, not a UART */
	console_case(__LINE__, &c, NONE, 0);
	c.stdout_path = "/soc/a/b/c/d/e/serial@8"; /* level 8 */
	console_case(__LINE__, &c, NS, 0x8);
	c.stdout_path = "/soc/a/b/c/d/e/serial@8/serial@9"; /* level 9 */
	console_case(__LINE__, &c, NONE, 0);
	c.stdout_path = "";
	console_case(__LINE__, &c, NONE, 0);
	c.stdout_path = NULL;
	console_case(__LINE__, &c, NONE, 0);
	/* /chosen before the console. */
	c.chosen_first = 1;
	c.stdout_path = "/soc/serial@10001000";
	console_case(__LINE__, &c, NS, 0x10001000);
	/* Aliases, after and before /chosen, with and without options. */
	c.stdout_path = "serial0:115200n8";
	console_case(__LINE__, &c, NS, 0x10000000);
	c.aliases_first = 1;
	console_case(__LINE__, &c, NS, 0x10000000);
	c.chosen_first = 0;
	c.stdout_path = "serial1";
	console_case(__LINE__, &c, NS, 0x10001000);
	c.stdout_path = "serial7"; /* no such alias */
	console_case(__LINE__, &c, NONE, 0);
	c.stdout_path = "bad"; /* an alias that is not a path */
	console_case(__LINE__, &c, NONE, 0);
	c.stdout_path = "deep"; /* an alias to a node past the bound */
	console_case(__LINE__, &c, NONE, 0);
	c.stdout_path = "serial"; /* a prefix of an alias */
	console_case(__LINE__, &c, NONE, 0);
	/* linux,stdout-path alone, then with stdout-path (which wins). */
	c.stdout_path = NULL;
	c.linux_stdout_path = "/soc/serial@10000000";
	console_case(__LINE__, &c, NS, 0x10000000);
	c.stdout_path = "serial1";
	console_case(__LINE__, &c, NS, 0x10001000);
	c.linux_stdout_path = NULL;

	/* Compatible lists. */
	c.stdout_path = "serial0";
	static const char *const ns[] = {
		"ns16550a",	    "ns16550",		 "ns16750",
		"snps,dw-apb-uart", "spacemit,pxa-uart", "mrvl,pxa-uart",
		"intel,xscale-uart"};
	for (unsigned i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		c.compat = ns[i];
		c.compat_len = strlen(ns[i]) + 1;
		console_case(__LINE__, &c, NS, 0x10000000);
	}
	c.compat = "sifive,fu740-c000-uart\0sifive,uart0";
	c.compat_len = sizeof("sifive,fu740-c000-uart\0sifive,uart0");
	console_case(__LINE__, &c, FDT_UART_SIFIVE, 0x10000000);
	c.compat = "canaan,k210-uarths\0sifive,uart0";
	c.compat_len = sizeof("canaan,k210-uarths\0sifive,uart0");
	console_case(__LINE__, &c, FDT_UART_SIFIVE, 0x10000000);
	/* Unknown: no driver, but the node's reg is still read. */
	c.compat = "acme,uart9000\0ns16550x";
	c.compat_len = sizeof("acme,uart9000\0ns16550x");
	console_case(__LINE__, &c, NONE, 0x10000000);
	/* A list whose last entry lost its NUL: that entry does not count
	 * (here it would read "ns16550"). */
	c.compat = "acme,uart\0ns16550a";
	c.compat_len = sizeof("acme,uart\0ns16550a") - 2;
	console_case(__LINE__, &c, NONE, 0x10000000);
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
	/* Hexadecimal after 0x. */
	CHECK_EQ(fdt_bootarg_uint("k=0x300F8000", 12, "k", &v), 1);
	CHECK_EQ(v, 0x300f8000);
	CHECK_EQ(fdt_bootarg_uint("k=0x", 4, "k", &v), -1);
	CHECK_EQ(fdt_bootarg_uint("k=0xg", 5, "k", &v), -1);
	CHECK_EQ(fdt_bootarg_uint("k=0x1ffffffffffffffff", 21, "k", &v), -1);
	CHECK_EQ(fdt_bootarg_uint("k=012", 5, "k", &v), 1);
	CHECK_EQ(v, 12);
}

/* Corruption: no input may make the reader read outside the blob (ASan
 * watches) or loop; results only need to be an error or a valid parse
 * whose outputs stay in range. The caps and context arrays are passed, so
 * that every new path is walked on corrupt input too. */
static void check_corrupt(const char *what, const uint8_t *orig, size_t size)
{
	uint32_t ids[16];
	uint8_t caps[16];
	int32_t ctx[16];
	fdt_info fi = {.hart_ids = ids,
		       .hart_ids_cap = 16,
		       .hart_caps = caps,
		       .hart_plic_ctx = ctx,
		       .plic_line = 9};
	CHECK_EQ(fdt_read(orig, size, &fi), FDT_OK);
	CHECK(fi.uart.kind != FDT_UART_NONE);
	for (size_t len = 0; len < size; len++) { /* every truncation */
		/* An exact-size copy so that ASan sees any overread. */
		uint8_t *cut = malloc(len ? len : 1);
		memcpy(cut, orig, len);
		int rc = fdt_read(cut, len, &fi);
		CHECK(rc != FDT_OK);
		free(cut);
	}
	/* Every shorter structure block (the header says so): the walk
	 * stops in the middle of a node, a property or a value. */
	uint8_t *b = malloc(size);
	uint32_t size_struct = (uint32_t)orig[36] << 24 |
			       (uint32_t)orig[37] << 16 |
			       (uint32_t)orig[38] << 8 | orig[39];
	for (uint32_t n = 0; n < size_struct; n += 4) {
		memcpy(b, orig, size);
		b[36] = (uint8_t)(n >> 24), b[37] = (uint8_t)(n >> 16);
		b[38] = (uint8_t)(n >> 8), b[39] = (uint8_t)n;
		CHECK_EQ(fdt_read(b, size, &fi), FDT_ERR_BADSTRUCT);
	}
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	unsigned ok = 0, consoles = 0;
	for (unsigned iter = 0; iter < 20000; iter++) {
		memcpy(b, orig, size);
		for (unsigned k = 0; k < 1 + iter % 4; k++) {
			seed ^= seed << 13, seed ^= seed >> 7,
				seed ^= seed << 17;
			b[seed % size] = (uint8_t)(seed >> 32);
		}
		fi.plic_line = iter & 1 ? 9 : 11;
		int rc = fdt_read(b, size, &fi);
		CHECK(rc <= 0 && rc >= FDT_ERR_TOOMANY);
		if (rc != FDT_OK)
			continue;
		ok++;
		CHECK(fi.hart_num <= size / 8);
		CHECK(fi.uart.kind <= FDT_UART_SIFIVE);
		consoles += fi.uart.kind != FDT_UART_NONE;
		for (unsigned i = 0; i < fi.hart_num && i < 16; i++) {
			CHECK(caps[i] <= 0xf);
			CHECK(ctx[i] == -1 ||
			      (ctx[i] >= 0 && (size_t)ctx[i] < size / 8));
			CHECK(i == 0 || ids[i - 1] < ids[i]);
		}
	}
	printf("test_fdt: %s: %u of 20000 corrupted blobs still parsed, %u "
	       "with a console\n",
	       what, ok, consoles);
	free(b);
}

static void check_corrupt_all(const char *dir)
{
	size_t size;
	static const char *const dumps[] = {"virt-8.dtb", "sifive_u.dtb"};
	for (unsigned i = 0; i < 2; i++) {
		uint8_t *orig = load(dir, dumps[i], &size);
		/* QEMU dumps a padded buffer; the tree is the first
		 * totalsize bytes. */
		check_corrupt(dumps[i], orig, fdt_total_size(orig));
		free(orig);
	}
	static uint8_t blob[32768];
	size = build_board(blob);
	check_corrupt("hand-built board", blob, size);
}

/* The patched QEMU's virt,hp-cluster=on,hp-doorbell=...: the barrier unit
 * and the doorbell (docs/barrier-unit.md), beside what virt has. */
static void check_cluster(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/cluster-8.dtb", dir);
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("test_fdt: no %s (the patched QEMU is not built): "
		       "cluster devices not checked\n",
		       path);
		return;
	}
	fclose(f);
	size_t size;
	uint8_t *b = load(dir, "cluster-8.dtb", &size);
	uint32_t ids[8];
	fdt_info fi = {.hart_ids = ids, .hart_ids_cap = 8};
	CHECK_EQ(fdt_read(b, size, &fi), FDT_OK);
	CHECK_EQ(fi.hart_num, 8);
	CHECK_EQ(fi.barrier_unit_base, 0x6000000u);
	CHECK_EQ(fi.doorbell_base, 0x6040000u);
	CHECK_EQ(fi.doorbell_irq, 12);
	CHECK_EQ(fi.plic_base, 0xc000000u);
	free(b);
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

	check_sifive_u(argv[1]);
	check_cluster(argv[1]);
	check_handmade();
	check_board();
	check_console();
	check_bootargs();
	check_corrupt_all(argv[1]);
	return check_report("test_fdt");
}
