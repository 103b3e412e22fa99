// SPDX-License-Identifier: MIT
/* Minimal device tree reader; see hal/fdt.h. Every offset is checked
 * against the sizes in the header before it is used.
 *
 * Two passes over the structure block. The first reads the harts (with
 * their capabilities and the phandles of their interrupt controllers),
 * timebase, bootargs, memory, the first PLIC, CLINT and test device, and
 * /chosen/stdout-path; the second looks for the node stdout-path names,
 * which may come anywhere in the blob. Nodes are followed to MAX_DEPTH
 * levels (the root is level 1): deeper ones are still walked over and
 * checked, but not read. The state is a few hundred bytes of stack. */
#include "fdt_int.h"
#include <hal/fdt.h>
#include <stdbool.h>
#include <string.h>

#define FDT_MAGIC 0xd00dfeedu
#define FDT_BEGIN_NODE 1u
#define FDT_END_NODE 2u
#define FDT_PROP 3u
#define FDT_NOP 4u
#define FDT_END 9u

/* Deepest node level read: /soc/bus/serial@... is level 4,
 * /cpus/cpu@N/interrupt-controller level 4. */
#define MAX_DEPTH 8
#define NO_MATCH UINT32_MAX
#define BAD_CELLS 0xffu

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

/* Whether the string list v[0..len) has an entry equal to one of the
 * NULL-terminated names (an entry cut by len without its NUL does not
 * count). */
static bool list_has(const uint8_t *v, uint32_t len, const char *const *names)
{
	uint32_t i = 0;
	while (i < len) {
		const uint8_t *nul = memchr(v + i, 0, len - i);
		if (!nul)
			return false;
		uint32_t n = (uint32_t)(nul - (v + i));
		for (const char *const *w = names; *w; w++)
			if (strlen(*w) == n && memcmp(v + i, *w, n) == 0)
				return true;
		i += n + 1;
	}
	return false;
}

static uint64_t prop_uint(const uint8_t *v, uint32_t len)
{
	if (len == 4)
		return be32(v);
	if (len == 8)
		return (uint64_t)be32(v) << 32 | be32(v + 4);
	return 0;
}

/* A #address-cells / #size-cells value, BAD_CELLS if above 2. */
static uint8_t cells_value(const uint8_t *v, uint32_t len)
{
	uint64_t c = prop_uint(v, len);
	return c > 2 ? BAD_CELLS : (uint8_t)c;
}

/* The first address of a reg property in its parent's cells (address 1 or
 * 2 cells, size 0 to 2); 0 if it does not fit. */
static uint64_t reg_address(const uint8_t *v, uint32_t len, uint8_t acells,
			    uint8_t scells)
{
	if (acells < 1 || acells > 2 || scells > 2 ||
	    len < 4u * (acells + scells))
		return 0;
	return prop_uint(v, 4u * acells);
}

/* The bit pattern of v as an int32_t (hart_plic_ctx holds a phandle
 * between the two steps). */
static int32_t i32_bits(uint32_t v)
{
	int32_t r;
	memcpy(&r, &v, sizeof(r));
	return r;
}

static uint32_t u32_bits(int32_t v)
{
	uint32_t r;
	memcpy(&r, &v, sizeof(r));
	return r;
}

/* Insert id into the sorted array ids[0..*n), keeping at most cap entries
 * (the smallest ids), its caps and interrupt controller phandle moving with
 * it in the parallel arrays. Duplicates are kept once. */
static void add_hart(fdt_info *info, unsigned *kept, uint32_t id, uint8_t caps,
		     uint32_t intc)
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
	size_t moved = n - i;
	memmove(&info->hart_ids[i + 1], &info->hart_ids[i],
		moved * sizeof(info->hart_ids[0]));
	info->hart_ids[i] = id;
	if (info->hart_caps) {
		memmove(&info->hart_caps[i + 1], &info->hart_caps[i],
			moved * sizeof(info->hart_caps[0]));
		info->hart_caps[i] = caps;
	}
	if (info->hart_plic_ctx) {
		memmove(&info->hart_plic_ctx[i + 1], &info->hart_plic_ctx[i],
			moved * sizeof(info->hart_plic_ctx[0]));
		info->hart_plic_ctx[i] = i32_bits(intc);
	}
	*kept = n + 1;
}

/* The first (address, size) pair of a /memory node's reg, with the root's
 * #address-cells and #size-cells (1 or 2 each). */
static void read_memory_reg(fdt_info *info, const uint8_t *v, uint32_t len,
			    uint8_t acells, uint8_t scells)
{
	if (info->mem_size || acells < 1 || acells > 2 || scells < 1 ||
	    scells > 2 || len < 4u * (acells + scells))
		return;
	info->mem_base = prop_uint(v, 4u * acells);
	info->mem_size = prop_uint(v + 4u * acells, 4u * scells);
}

static const char *const ext_f[] = {"f", NULL};
static const char *const ext_d[] = {"d", NULL};
static const char *const compat_plic[] = {"riscv,plic0", "sifive,plic-1.0.0",
					  NULL};
static const char *const compat_clint[] = {"riscv,clint0", "sifive,clint0",
					   NULL};
static const char *const compat_test[] = {"sifive,test0", "sifive,test1", NULL};
static const char *const compat_barrier[] = {"hartpool,barrier-unit", NULL};
static const char *const compat_doorbell[] = {"hartpool,doorbell", NULL};
static const char *const compat_ns16550[] = {
	"ns16550a",	     "ns16550",
	"ns16750",	     "snps,dw-apb-uart",
	"spacemit,pxa-uart", "mrvl,pxa-uart",
	"intel,xscale-uart", NULL};
static const char *const compat_sifive_uart[] = {"sifive,uart0", NULL};

/* The structure and strings blocks, inside the blob. */
typedef struct {
	const uint8_t *st, *strs;
	uint32_t size_struct, size_strings;
} blocks;

/* One token of the structure block. */
typedef struct {
	uint32_t tok;
	const char *name;  /* BEGIN_NODE: the node's; PROP: the property's */
	uint32_t name_len; /* its length without the NUL */
	uint32_t off, len; /* PROP: the value's offset in st, its length */
} token;

/* Read the token at *pos and move *pos past it. */
static int next_token(const blocks *b, uint32_t *pos, token *t)
{
	uint32_t p = *pos;
	if (b->size_struct - p < 4)
		return FDT_ERR_BADSTRUCT;
	t->tok = be32(b->st + p);
	p += 4;
	if (t->tok == FDT_BEGIN_NODE) {
		long n = str_len(b->st + p, b->size_struct - p);
		if (n < 0)
			return FDT_ERR_BADSTRUCT;
		t->name = (const char *)b->st + p;
		t->name_len = (uint32_t)n;
		uint64_t next = (uint64_t)p + (((uint64_t)n + 4) & ~3ull);
		if (next > b->size_struct)
			return FDT_ERR_BADSTRUCT;
		p = (uint32_t)next;
	} else if (t->tok == FDT_PROP) {
		if (b->size_struct - p < 8)
			return FDT_ERR_BADSTRUCT;
		uint32_t len = be32(b->st + p), nameoff = be32(b->st + p + 4);
		p += 8;
		if (len > b->size_struct - p || nameoff >= b->size_strings)
			return FDT_ERR_BADSTRUCT;
		long n = str_len(b->strs + nameoff, b->size_strings - nameoff);
		if (n < 0)
			return FDT_ERR_BADSTRUCT;
		t->name = (const char *)b->strs + nameoff;
		t->name_len = (uint32_t)n;
		t->off = p;
		t->len = len;
		uint64_t next = (uint64_t)p + (((uint64_t)len + 3) & ~3ull);
		if (next > b->size_struct)
			return FDT_ERR_BADSTRUCT;
		p = (uint32_t)next;
	} else if (t->tok != FDT_END_NODE && t->tok != FDT_NOP &&
		   t->tok != FDT_END) {
		return FDT_ERR_BADSTRUCT;
	}
	*pos = p;
	return FDT_OK;
}

/* The properties of a node that device matching and the console read. */
enum {
	P_COMPAT,
	P_REG,
	P_STATUS,
	P_PHANDLE,
	P_LINUX_PHANDLE,
	P_INTC,
	P_IRQS_EXT,
	P_REG_SHIFT,
	P_IO_WIDTH,
	P_CLOCK,
	P_SPEED,
	P_IRQS,
	P_NUM
};
static const char *const prop_names[P_NUM] = {"compatible",
					      "reg",
					      "status",
					      "phandle",
					      "linux,phandle",
					      "interrupt-controller",
					      "interrupts-extended",
					      "reg-shift",
					      "reg-io-width",
					      "clock-frequency",
					      "current-speed",
					      "interrupts"};

enum { OTHER, CPUS, CPU, CPU_CHILD, CPU_INTC, CHOSEN, MEMORY, ALIASES };

typedef struct {
	const blocks *b;
	fdt_info *info;
	bool second;	     /* the second pass: looking for the console */
	const uint8_t *path; /* its target path and length (second pass) */
	uint32_t path_len;
	/* Per level 1..MAX_DEPTH of the nodes open now. */
	uint8_t kind[MAX_DEPTH + 1];
	uint8_t acells[MAX_DEPTH + 1], scells[MAX_DEPTH + 1];
	uint32_t match[MAX_DEPTH + 1]; /* end of the path matched, NO_MATCH */
	/* The properties of the node being read (offset 0 = absent), until
	 * its first child or its end (properties come before children). */
	bool cur_open;
	unsigned cur_depth;
	uint32_t off[P_NUM], len[P_NUM];
	/* The cpu node being read. */
	bool cpu_is_cpu, cpu_has_reg, cpu_enabled;
	uint8_t cpu_caps;
	uint32_t cpu_reg, cpu_intc;
	uint64_t cpu_timebase;
	/* First pass results used after it. */
	unsigned kept;
	bool stdout_std, plic_seen, clint_seen, test_seen, uart_seen;
	bool barrier_seen, doorbell_seen;
	uint32_t stdout_off, stdout_len, aliases_pos, irqs_ext_off,
		irqs_ext_len;
} walker;

static const uint8_t *cur_val(const walker *w, unsigned p)
{
	return w->b->st + w->off[p];
}

static uint32_t cur_u32(const walker *w, unsigned p, uint32_t dflt)
{
	return w->off[p] && w->len[p] == 4 ? be32(cur_val(w, p)) : dflt;
}

static bool cur_has(const walker *w, unsigned p, const char *const *names)
{
	return w->off[p] && list_has(cur_val(w, p), w->len[p], names);
}

static uint64_t cur_reg(const walker *w, unsigned depth)
{
	if (!w->off[P_REG])
		return 0;
	return reg_address(cur_val(w, P_REG), w->len[P_REG],
			   w->acells[depth - 1], w->scells[depth - 1]);
}

static void read_uart(walker *w, unsigned depth)
{
	fdt_uart *u = &w->info->uart;
	if (cur_has(w, P_COMPAT, compat_ns16550))
		u->kind = FDT_UART_NS16550;
	else if (cur_has(w, P_COMPAT, compat_sifive_uart))
		u->kind = FDT_UART_SIFIVE;
	u->base = cur_reg(w, depth);
	u->reg_shift = cur_u32(w, P_REG_SHIFT, 0);
	u->reg_io_width = cur_u32(w, P_IO_WIDTH, 1);
	uint64_t clock = w->off[P_CLOCK] ? prop_uint(cur_val(w, P_CLOCK),
						     w->len[P_CLOCK])
					 : 0;
	u->clock_hz = clock <= UINT32_MAX ? (uint32_t)clock : 0;
	u->baud = cur_u32(w, P_SPEED, 0);
	u->irq = w->off[P_IRQS] && w->len[P_IRQS] >= 4
			 ? be32(cur_val(w, P_IRQS))
			 : 0;
}

/* The node at depth has all its properties: match it. */
static void node_done(walker *w, unsigned depth)
{
	w->cur_open = false;
	if (depth < 2)
		return;
	if (w->second) {
		if (w->match[depth] == w->path_len && !w->uart_seen) {
			read_uart(w, depth);
			w->uart_seen = true;
		}
		return;
	}
	if ((w->kind[depth] == CPU_INTC ||
	     (w->kind[depth] == CPU_CHILD && w->off[P_INTC])) &&
	    !w->cpu_intc) {
		w->cpu_intc = cur_u32(w, P_PHANDLE, 0);
		if (!w->cpu_intc)
			w->cpu_intc = cur_u32(w, P_LINUX_PHANDLE, 0);
	}
	if (!w->off[P_COMPAT] ||
	    (w->off[P_STATUS] &&
	     !prop_is(cur_val(w, P_STATUS), w->len[P_STATUS], "okay") &&
	     !prop_is(cur_val(w, P_STATUS), w->len[P_STATUS], "ok")))
		return;
	fdt_info *info = w->info;
	if (!w->plic_seen && cur_has(w, P_COMPAT, compat_plic)) {
		w->plic_seen = true;
		info->plic_base = cur_reg(w, depth);
		w->irqs_ext_off = w->off[P_IRQS_EXT];
		w->irqs_ext_len = w->len[P_IRQS_EXT];
	} else if (!w->clint_seen && cur_has(w, P_COMPAT, compat_clint)) {
		w->clint_seen = true;
		info->clint_base = cur_reg(w, depth);
	} else if (!w->test_seen && cur_has(w, P_COMPAT, compat_test)) {
		w->test_seen = true;
		info->test_base = cur_reg(w, depth);
	} else if (!w->barrier_seen && cur_has(w, P_COMPAT, compat_barrier)) {
		w->barrier_seen = true;
		info->barrier_unit_base = cur_reg(w, depth);
	} else if (!w->doorbell_seen && cur_has(w, P_COMPAT, compat_doorbell)) {
		w->doorbell_seen = true;
		info->doorbell_base = cur_reg(w, depth);
		info->doorbell_irq = cur_u32(w, P_IRQS, 0);
	}
}

/* Where the path component after w->match[depth - 1] ends if it names the
 * node called name (the unit address may be left out of the path), else
 * NO_MATCH. */
static uint32_t match_name(const walker *w, unsigned depth, const token *t)
{
	uint32_t m = w->match[depth - 1], len = w->path_len;
	if (m == NO_MATCH || m >= len || w->path[m] != '/')
		return NO_MATCH;
	uint32_t c = m + 1, e = c;
	while (e < len && w->path[e] != '/')
		e++;
	uint32_t n = e - c;
	if (n == 0 || n > t->name_len || memcmp(t->name, w->path + c, n) != 0)
		return NO_MATCH;
	if (n == t->name_len ||
	    (t->name[n] == '@' && !memchr(w->path + c, '@', n)))
		return e;
	return NO_MATCH;
}

static void begin_node(walker *w, unsigned depth, const token *t, uint32_t body)
{
	const char *name = t->name;
	uint8_t k = OTHER;
	if (depth == 2 && strcmp(name, "cpus") == 0)
		k = CPUS;
	else if (depth == 2 && strcmp(name, "chosen") == 0)
		k = CHOSEN;
	else if (depth == 2 && (strcmp(name, "memory") == 0 ||
				strncmp(name, "memory@", 7) == 0))
		k = MEMORY;
	else if (depth == 2 && strcmp(name, "aliases") == 0)
		k = ALIASES;
	else if (depth == 3 && w->kind[2] == CPUS &&
		 strncmp(name, "cpu@", 4) == 0)
		k = CPU;
	else if (depth == 4 && w->kind[3] == CPU)
		k = strcmp(name, "interrupt-controller") == 0 ||
				    strncmp(name, "interrupt-controller@",
					    21) == 0
			    ? CPU_INTC
			    : CPU_CHILD;
	w->kind[depth] = k;
	w->acells[depth] = 2; /* the specification's defaults */
	w->scells[depth] = 1;
	w->cur_open = true;
	w->cur_depth = depth;
	memset(w->off, 0, sizeof(w->off));
	if (w->second) {
		w->match[depth] = depth == 1 ? 0 : match_name(w, depth, t);
		return;
	}
	if (k == CPU) {
		w->cpu_is_cpu = w->cpu_has_reg = false;
		w->cpu_enabled = true;
		w->cpu_timebase = 0;
		w->cpu_caps = 0;
		w->cpu_intc = 0;
	} else if (k == ALIASES && !w->aliases_pos) {
		w->aliases_pos = body;
	}
}

static void end_cpu(walker *w)
{
	if (w->cpu_is_cpu && w->cpu_has_reg && w->cpu_enabled)
		add_hart(w->info, &w->kept, w->cpu_reg, w->cpu_caps,
			 w->cpu_intc);
	if (!w->info->timebase_hz)
		w->info->timebase_hz = w->cpu_timebase;
}

static void cpu_prop(walker *w, const char *pname, const uint8_t *v,
		     uint32_t len)
{
	if (strcmp(pname, "device_type") == 0) {
		w->cpu_is_cpu = prop_is(v, len, "cpu");
	} else if (strcmp(pname, "reg") == 0 && len >= 4 && len % 4 == 0) {
		w->cpu_reg = be32(v + len - 4);
		w->cpu_has_reg = true;
	} else if (strcmp(pname, "status") == 0) {
		w->cpu_enabled =
			prop_is(v, len, "okay") || prop_is(v, len, "ok");
	} else if (strcmp(pname, "timebase-frequency") == 0) {
		w->cpu_timebase = prop_uint(v, len);
	} else if (strcmp(pname, "riscv,isa") == 0) {
		w->cpu_caps |= fdt_isa_caps(v, len);
	} else if (strcmp(pname, "riscv,isa-extensions") == 0) {
		if (list_has(v, len, ext_f))
			w->cpu_caps |= FDT_HART_F;
		if (list_has(v, len, ext_d))
			w->cpu_caps |= FDT_HART_D;
	} else if (strcmp(pname, "mmu-type") == 0 &&
		   !prop_is(v, len, "riscv,none")) {
		w->cpu_caps |= FDT_HART_MMU | FDT_HART_S;
	}
}

static void node_prop(walker *w, unsigned depth, const token *t)
{
	const uint8_t *v = w->b->st + t->off;
	uint32_t len = t->len;
	const char *pname = t->name;
	if (strcmp(pname, "#address-cells") == 0)
		w->acells[depth] = cells_value(v, len);
	else if (strcmp(pname, "#size-cells") == 0)
		w->scells[depth] = cells_value(v, len);
	if (w->cur_open && w->cur_depth == depth)
		for (unsigned p = 0; p < P_NUM; p++)
			if (strcmp(pname, prop_names[p]) == 0) {
				w->off[p] = t->off;
				w->len[p] = len;
				break;
			}
	if (w->second)
		return;
	fdt_info *info = w->info;
	uint8_t k = w->kind[depth];
	if (k == MEMORY && strcmp(pname, "reg") == 0) {
		read_memory_reg(info, v, len, w->acells[1], w->scells[1]);
	} else if (k == CPUS && strcmp(pname, "timebase-frequency") == 0) {
		info->timebase_hz = prop_uint(v, len);
	} else if (k == CHOSEN && strcmp(pname, "bootargs") == 0) {
		if (len > 0 && v[len - 1] == 0) {
			info->bootargs = (const char *)v;
			info->bootargs_len = len - 1;
		}
	} else if (k == CHOSEN && !w->stdout_std &&
		   (strcmp(pname, "stdout-path") == 0 ||
		    strcmp(pname, "linux,stdout-path") == 0)) {
		w->stdout_std = strcmp(pname, "stdout-path") == 0;
		w->stdout_off = t->off;
		w->stdout_len = len;
	} else if (k == CPU) {
		cpu_prop(w, pname, v, len);
	}
}

/* One pass over the structure block. */
static int walk(walker *w)
{
	uint32_t pos = 0;
	unsigned depth = 0;
	token t;
	for (;;) {
		int rc = next_token(w->b, &pos, &t);
		if (rc != FDT_OK)
			return rc;
		if (t.tok == FDT_BEGIN_NODE) {
			if (w->cur_open && w->cur_depth == depth)
				node_done(w, depth);
			depth++;
			if (depth <= MAX_DEPTH)
				begin_node(w, depth, &t, pos);
		} else if (t.tok == FDT_END_NODE) {
			if (depth == 0)
				return FDT_ERR_BADSTRUCT;
			if (w->cur_open && w->cur_depth == depth)
				node_done(w, depth);
			if (!w->second && depth == 3 && w->kind[3] == CPU)
				end_cpu(w);
			depth--;
		} else if (t.tok == FDT_PROP) {
			if (depth >= 1 && depth <= MAX_DEPTH)
				node_prop(w, depth, &t);
		} else if (t.tok == FDT_END) {
			if (depth != 0)
				return FDT_ERR_BADSTRUCT;
			return FDT_OK;
		}
		if (w->second && w->uart_seen)
			return FDT_OK;
	}
}

/* Length of the path in a stdout-path or alias value: up to ':' or the
 * NUL; 0 if the value is not a string. */
static uint32_t path_length(const uint8_t *v, uint32_t len)
{
	const uint8_t *nul = memchr(v, 0, len);
	if (!nul)
		return 0;
	uint32_t n = (uint32_t)(nul - v);
	const uint8_t *colon = memchr(v, ':', n);
	return colon ? (uint32_t)(colon - v) : n;
}

/* The value of the property called name[0..n) among the properties of
 * /aliases (whose body starts at pos); false if none. */
static bool find_alias(const blocks *b, uint32_t pos, const uint8_t *name,
		       uint32_t n, uint32_t *off, uint32_t *len)
{
	token t;
	while (next_token(b, &pos, &t) == FDT_OK) {
		if (t.tok == FDT_NOP)
			continue;
		if (t.tok != FDT_PROP)
			return false;
		if (t.name_len == n && memcmp(t.name, name, n) == 0) {
			*off = t.off;
			*len = t.len;
			return true;
		}
	}
	return false;
}

/* The PLIC context of the hart whose interrupt controller is intc: the
 * index of the pair <intc line> in the PLIC's interrupts-extended. */
static int32_t plic_context(const walker *w, uint32_t intc, uint32_t line)
{
	if (intc == 0 || intc == UINT32_MAX || !w->irqs_ext_off)
		return -1;
	const uint8_t *v = w->b->st + w->irqs_ext_off;
	for (uint32_t k = 0; k < w->irqs_ext_len / 8; k++)
		if (be32(v + 8 * k) == intc && be32(v + 8 * k + 4) == line)
			return (int32_t)k;
	return -1;
}

int fdt_read(const void *blob, size_t max_size, fdt_info *info)
{
	const uint8_t *b = blob;
	info->hart_num = 0;
	info->timebase_hz = 0;
	info->bootargs = NULL;
	info->bootargs_len = 0;
	info->mem_base = info->mem_size = 0;
	info->plic_base = info->clint_base = info->test_base = 0;
	info->barrier_unit_base = info->doorbell_base = 0;
	info->doorbell_irq = 0;
	memset(&info->uart, 0, sizeof(info->uart));
	info->uart.kind = FDT_UART_NONE;
	info->uart.reg_io_width = 1;

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

	const blocks bl = {b + off_struct, b + off_strings, size_struct,
			   size_strings};
	walker w;
	memset(&w, 0, sizeof(w));
	w.b = &bl;
	w.info = info;
	w.acells[0] = 2;
	w.scells[0] = 1;
	int rc = walk(&w);
	if (rc != FDT_OK)
		return rc;

	/* hart_plic_ctx held each hart's interrupt controller phandle. */
	for (unsigned i = 0; info->hart_plic_ctx && i < w.kept; i++)
		info->hart_plic_ctx[i] = plic_context(
			&w, u32_bits(info->hart_plic_ctx[i]), info->plic_line);

	/* The console: stdout-path, through /aliases if it is not a path. */
	if (!w.stdout_off)
		return FDT_OK;
	const uint8_t *path = bl.st + w.stdout_off;
	uint32_t path_len = path_length(path, w.stdout_len);
	if (path_len > 0 && path[0] != '/') {
		uint32_t off, len;
		if (!w.aliases_pos ||
		    !find_alias(&bl, w.aliases_pos, path, path_len, &off, &len))
			return FDT_OK;
		path = bl.st + off;
		path_len = path_length(path, len);
	}
	if (path_len < 2 || path[0] != '/')
		return FDT_OK;
	w.second = true;
	w.path = path;
	w.path_len = path_len;
	w.cur_open = false;
	return walk(&w);
}
