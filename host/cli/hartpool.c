// SPDX-License-Identifier: MIT
/*
 * hartpool: the command-line host tool (DESIGN §4). Every command either
 * boots a device in QEMU for its own use (--board, --harts) or talks to a
 * running one (--connect shm:PATH | serial:DEV). Failures print
 * "hartpool: HP_NAME: message" on stderr and exit 1.
 */
#define _GNU_SOURCE
#include "build.h"
#include "drivers.h"
#include <errno.h>
#include <hartpool.h>
#include <hartpool/ids.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: hartpool COMMAND [options]\n"
	"\n"
	"commands:\n"
	"  up                 boot a device in the background; prints its "
	"connect string last\n"
	"  down               stop the device given by --connect\n"
	"  info               device limits and configuration (key: value)\n"
	"  ids                run the diagnostic kernel `ids`; CSV on stdout\n"
	"  run KERNEL         run a kernel (library kernels on generated "
	"data)\n"
	"  build SRC.c -o K.hpk   compile kernels into a kernel object "
	"(build --help)\n"
	"  bench              mailbox latency and throughput\n"
	"  kernels            list the device's kernels\n"
	"  demo               dependent kernels, checked results, timings "
	"(`make run`)\n"
	"\n"
	"device options:\n"
	"  --connect shm:PATH | serial:DEV   use a running device\n"
	"  --board B          board to boot (default qemu-virt)\n"
	"  --harts N          harts to boot (default 8)\n"
	"  --mem SIZE         DRAM to boot with, bytes or K/M/G (default "
	"2G;\n"
	"                     qemu-virt takes 512M..16G, qemu-virt32 "
	"512M..2G)\n"
	"  --append ARGS      extra bootargs (e.g. hartpool.poll_us=50)\n"
	"  --json             machine-readable output (info, run, bench)\n"
	"  --gdb              boot with QEMU's gdb stub on :1234 (or "
	"$HP_QEMU_GDB) and\n"
	"                     print the gdb-multiarch command (with a kernel "
	"object's\n"
	"                     symbols for run --kernel-file)\n"
	"\n"
	"range options (ids, run):\n"
	"  --global X[,Y[,Z]] --local X[,Y[,Z]] --offset X[,Y[,Z]]\n"
	"  --work-dim N  --reqd-wg-size X,Y,Z  --uniform  --sub-group-size S\n"
	"  --team-size T  --timeout-us US (HP_TIMEOUT past it)\n"
	"\n"
	"run options:\n"
	"  --arg NAME=VALUE   kernel parameter (see `hartpool run --list`)\n"
	"  --check            compare with the host reference; exit 1 on a "
	"mismatch\n"
	"  --repeat N         launch N times (one check at the end)\n"
	"  --printf-size N    bytes of hp_printf() output kept (default 65536, "
	"0: none)\n"
	"  --kernel-file F    load kernel object F (`hartpool build`) first; "
	"KERNEL is\n"
	"                     one of its kernels; unloaded at the end\n"
	"  --karg SPEC        argument for a kernel without a driver, in "
	"order:\n"
	"                     TYPE:VALUE or buf:TYPE:COUNT[:iota|rand|VALUE]\n"
	"                     (TYPE i32 u32 i64 u64 f32 f64; a buffer passes "
	"its address)\n"
	"  --print [N]        print the --karg buffers after the run (first N "
	"values,\n"
	"                     default 64)\n"
	"\n"
	"bench options:\n"
	"  --count N          round trips to time (default 2000)\n";

typedef struct opts {
	const char *cmd, *kernel, *connect, *board, *append, *kernel_file;
	unsigned harts;
	uint64_t mem_size;
	bool json, check, list;
	hp_ndrange r;
	int work_dim; /* -1: from the number of sizes */
	unsigned nglobal;
	const char *args[32];
	unsigned num_args;
	const char *kargs[32];
	unsigned num_kargs;
	bool print, gdb;
	unsigned long print_max;
	unsigned long repeat, count;
	uint32_t printf_size;
} opts;

static int die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "hartpool: %s: ", hp_error_name(code));
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 1;
}

static int lib_fail(int code)
{
	return die(code, "%s", hp_last_error());
}

static int cmd_bench(hp_device *d, const opts *o);

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* "X[,Y[,Z]]" -> up to 3 numbers; returns how many, -1 if malformed. */
static int parse_sizes(const char *s, uint64_t out[3])
{
	int n = 0;
	while (*s) {
		if (n == 3)
			return -1;
		char *end;
		if (*s == '-')
			return -1;
		unsigned long long v = strtoull(s, &end, 0);
		if (end == s || (*end && *end != ','))
			return -1;
		out[n++] = v;
		s = *end ? end + 1 : end;
	}
	return n;
}

/* "N", "NK", "NM" or "NG" (binary units) -> bytes; false if malformed or
 * past 2^64. */
static bool parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	unsigned shift = 0;
	switch (*end) {
	case 'K':
	case 'k':
		shift = 10, end++;
		break;
	case 'M':
	case 'm':
		shift = 20, end++;
		break;
	case 'G':
	case 'g':
		shift = 30, end++;
		break;
	}
	if (*end || errno || (shift && v > UINT64_MAX >> shift))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

static int parse(int argc, char **argv, opts *o)
{
	memset(o, 0, sizeof(*o));
	o->work_dim = -1;
	o->repeat = 1;
	o->printf_size = 65536;
	o->count = 2000;
	o->print_max = 64;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define VALUE()                                                                \
	do {                                                                   \
		if (!v)                                                        \
			return die(HP_INVALID_VALUE, "%s needs a value", a);   \
		i++;                                                           \
	} while (0)
		uint64_t s3[3] = {0, 0, 0};
		if (!strcmp(a, "--connect")) {
			VALUE();
			o->connect = v;
		} else if (!strcmp(a, "--board")) {
			VALUE();
			o->board = v;
		} else if (!strcmp(a, "--harts")) {
			VALUE();
			o->harts = (unsigned)strtoul(v, NULL, 0);
			if (!o->harts)
				return die(HP_INVALID_VALUE,
					   "--harts wants 1..512, not '%s'", v);
		} else if (!strcmp(a, "--mem")) {
			VALUE();
			if (!parse_bytes(v, &o->mem_size) || !o->mem_size)
				return die(
					HP_INVALID_VALUE,
					"--mem wants bytes or a size with K, "
					"M or G (e.g. 2G), not '%s'",
					v);
		} else if (!strcmp(a, "--append")) {
			VALUE();
			o->append = v;
		} else if (!strcmp(a, "--json")) {
			o->json = true;
		} else if (!strcmp(a, "--check")) {
			o->check = true;
		} else if (!strcmp(a, "--list")) {
			o->list = true;
		} else if (!strcmp(a, "--uniform")) {
			o->r.uniform = true;
		} else if (!strcmp(a, "--global") || !strcmp(a, "--local") ||
			   !strcmp(a, "--offset") ||
			   !strcmp(a, "--reqd-wg-size")) {
			VALUE();
			int n = parse_sizes(v, s3);
			if (n < 1)
				return die(HP_INVALID_VALUE,
					   "%s wants X[,Y[,Z]] (decimal), not "
					   "'%s'",
					   a, v);
			if (!strcmp(a, "--global")) {
				memcpy(o->r.global, s3, sizeof(s3));
				o->nglobal = (unsigned)n;
			} else if (!strcmp(a, "--local")) {
				memcpy(o->r.local, s3, sizeof(s3));
				o->r.local_given = true;
			} else if (!strcmp(a, "--offset")) {
				memcpy(o->r.offset, s3, sizeof(s3));
			} else {
				if (n != 3)
					return die(
						HP_INVALID_VALUE,
						"--reqd-wg-size wants X,Y,Z");
				for (unsigned d = 0; d < 3; d++) {
					if (s3[d] > UINT32_MAX)
						return die(HP_INVALID_VALUE,
							   "--reqd-wg-size too "
							   "large");
					o->r.reqd[d] = (uint32_t)s3[d];
				}
			}
		} else if (!strcmp(a, "--work-dim")) {
			VALUE();
			o->work_dim = atoi(v);
		} else if (!strcmp(a, "--sub-group-size")) {
			VALUE();
			o->r.sub_group_size = (uint32_t)strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--team-size")) {
			VALUE();
			o->r.team_size = (uint32_t)strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--printf-size")) {
			VALUE();
			o->printf_size = (uint32_t)strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--timeout-us")) {
			VALUE();
			o->r.timeout_us = strtoull(v, NULL, 0);
		} else if (!strcmp(a, "--arg")) {
			VALUE();
			if (o->num_args == 32 || !strchr(v, '='))
				return die(HP_INVALID_VALUE,
					   "--arg wants NAME=VALUE (at most "
					   "32)");
			o->args[o->num_args++] = v;
		} else if (!strcmp(a, "--repeat")) {
			VALUE();
			o->repeat = strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--count")) {
			VALUE();
			o->count = strtoul(v, NULL, 0);
		} else if (!strcmp(a, "--kernel-file")) {
			VALUE();
			o->kernel_file = v;
		} else if (!strcmp(a, "--karg")) {
			VALUE();
			if (o->num_kargs == 32)
				return die(HP_INVALID_VALUE,
					   "at most 32 --karg");
			o->kargs[o->num_kargs++] = v;
		} else if (!strcmp(a, "--print")) {
			o->print = true;
			if (v && v[0] >= '0' && v[0] <= '9') {
				o->print_max = strtoul(v, NULL, 0);
				i++;
			}
		} else if (!strcmp(a, "--gdb")) {
			o->gdb = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		} else if (a[0] == '-') {
			return die(HP_INVALID_VALUE, "unknown option %s", a);
		} else if (!o->cmd) {
			o->cmd = a;
		} else if (!o->kernel) {
			o->kernel = a;
		} else {
			return die(HP_INVALID_VALUE, "unexpected argument '%s'",
				   a);
		}
#undef VALUE
	}
	if (!o->cmd) {
		fputs(usage, stderr);
		return 1;
	}
	o->r.work_dim = o->work_dim >= 0 ? (unsigned)o->work_dim : o->nglobal;
	return 0;
}

/* The port of QEMU's gdb stub for devices this tool boots with --gdb. */
static const char *gdb_port(void)
{
	const char *p = getenv("HP_QEMU_GDB");
	return p && *p ? p : "1234";
}

/* How to attach: gdb-multiarch with the firmware's symbols, and those of
 * a loaded kernel object (its NAME.elf from `hartpool build`, at the
 * address the device loaded it). */
static void gdb_hint(const opts *o, const char *kfile, uint64_t addr)
{
	const char *board = o->board ? o->board : "qemu-virt";
	fprintf(stderr,
		"hartpool: attach gdb with:\n  gdb-multiarch "
		"%s/build/%s/hartpool.elf -ex 'target remote :%s'",
		HP_ROOT, board, gdb_port());
	if (kfile) {
		size_t l = strlen(kfile);
		int stem = l > 4 && !strcmp(kfile + l - 4, ".hpk")
				   ? (int)(l - 4)
				   : (int)l;
		fprintf(stderr, " -ex 'add-symbol-file %.*s.elf -o 0x%llx'",
			stem, kfile, (unsigned long long)addr);
	}
	fputc('\n', stderr);
}

static int open_device(const opts *o, bool detach, hp_device **d)
{
	if (o->gdb && !o->connect)
		setenv("HP_QEMU_GDB", gdb_port(), 1);
	hp_open_options oo = {
		.connect = o->connect,
		.board = o->board,
		.harts = o->harts,
		.append = o->append,
		.mem_size = o->mem_size,
		.detach = detach,
	};
	int rc = hp_open(&oo, d);
	return rc ? lib_fail(rc) : 0;
}

/* A progress line on a terminal, at most ten times a second. */
static void progress(const char *what, unsigned long done, unsigned long all)
{
	static double last;
	if (!isatty(2))
		return;
	double t = now_us();
	if (done < all && t - last < 100000)
		return;
	last = t;
	fprintf(stderr, "\r%s %lu/%lu (%lu%%)%s", what, done, all,
		all ? done * 100 / all : 100, done >= all ? "\n" : "");
}

/* ---- info ---- */

static void list_sizes(char *buf, size_t n, uint32_t mask)
{
	buf[0] = 0;
	for (unsigned k = 0; k < 32; k++)
		if (mask & (1u << k)) {
			size_t at = strlen(buf);
			snprintf(buf + at, n - at, "%s%u", at ? "," : "",
				 1u << k);
		}
}

/* A JSON string of at most @p n bytes of @p str (device text: escaped). */
static void json_str(const char *str, size_t n)
{
	putchar('"');
	for (size_t k = 0; k < n && str[k]; k++) {
		unsigned char ch = (unsigned char)str[k];
		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

/* "kernels": one object per kernel row in use. */
static void json_kernels(hp_device *d)
{
	printf("\"kernels\": [");
	for (unsigned k = 0, n = 0; k < hp_kernel_count(d); k++) {
		const hp_mbox_kernel *m = hp_kernel_at(d, k);
		if (!m)
			continue;
		printf("%s{\"name\": ", n++ ? ", " : "");
		json_str(m->name, sizeof(m->name));
		printf(", \"work_group_size\": %u, \"max_work_group_size\": "
		       "%u, "
		       "\"reqd_work_group_size\": [%u, %u, %u], "
		       "\"sub_group_size\": %u, \"local_mem_bytes\": %u, "
		       "\"args_size\": %u, \"barriers\": %s, \"loaded\": %s}",
		       m->work_group_size, m->max_work_group_size,
		       m->reqd_work_group_size[0], m->reqd_work_group_size[1],
		       m->reqd_work_group_size[2], (unsigned)m->sub_group_size,
		       m->local_mem_bytes, (unsigned)m->args_size,
		       m->flags & HP_KFLAG_BARRIERS ? "true" : "false",
		       m->flags & HP_KFLAG_LOADED ? "true" : "false");
	}
	putchar(']');
}

static int cmd_info(hp_device *d, const opts *o)
{
	hp_device_info i;
	int rc = hp_device_query(d, &i);
	if (rc)
		return lib_fail(rc);
	char sgs[64];
	list_sizes(sgs, sizeof(sgs), i.sub_group_sizes);
	char items[64];
	snprintf(items, sizeof(items), "%u,%u,%u", i.max_work_item_sizes[0],
		 i.max_work_item_sizes[1], i.max_work_item_sizes[2]);
	if (o->json) {
		printf("{\"harts\": %u, \"max_work_group_size\": %u, "
		       "\"max_work_item_sizes\": [%s], \"max_work_dim\": %u, "
		       "\"sub_group_sizes\": [%s], "
		       "\"default_sub_group_size\": %u, "
		       "\"local_mem_size\": %u, \"global_mem_size\": %llu, "
		       "\"max_mem_alloc_size\": %llu, \"dram_size\": %llu, "
		       "\"address_bits\": %u, \"max_args_size\": %u, "
		       "\"timer_hz\": %llu, \"board\": ",
		       i.harts, i.max_work_group_size, items, i.max_work_dim,
		       sgs, i.default_sub_group_size, i.local_mem_size,
		       (unsigned long long)i.global_mem_size,
		       (unsigned long long)i.max_mem_alloc_size,
		       (unsigned long long)i.dram_size, i.address_bits,
		       i.max_args_size, (unsigned long long)i.timer_hz);
		json_str(i.board, sizeof(i.board));
		printf(", \"firmware\": ");
		json_str(i.firmware, sizeof(i.firmware));
		printf(", \"connect\": ");
		json_str(hp_connect_string(d), SIZE_MAX);
		printf(", ");
		json_kernels(d);
		printf("}\n");
		return 0;
	}
	printf("harts: %u\n", i.harts);
	printf("max_work_group_size: %u\n", i.max_work_group_size);
	printf("max_work_item_sizes: %s\n", items);
	printf("max_work_dim: %u\n", i.max_work_dim);
	printf("sub_group_sizes: %s\n", sgs);
	printf("default_sub_group_size: %u\n", i.default_sub_group_size);
	printf("local_mem_size: %u\n", i.local_mem_size);
	printf("global_mem_size: %llu\n",
	       (unsigned long long)i.global_mem_size);
	printf("max_mem_alloc_size: %llu\n",
	       (unsigned long long)i.max_mem_alloc_size);
	printf("dram_size: %llu\n", (unsigned long long)i.dram_size);
	printf("address_bits: %u\n", i.address_bits);
	printf("max_args_size: %u\n", i.max_args_size);
	printf("non_uniform_work_groups: yes\n");
	printf("timer_hz: %llu\n", (unsigned long long)i.timer_hz);
	printf("board: %s\n", i.board);
	printf("firmware: %s\n", i.firmware);
	printf("queues: %u x %u packets\n", HP_MBOX_QUEUES, HP_MBOX_RING_SIZE);
	printf("kernels: ");
	for (unsigned k = 0, n = 0; k < hp_kernel_count(d); k++)
		if (hp_kernel_at(d, k))
			printf("%s%s", n++ ? "," : "",
			       hp_kernel_at(d, k)->name);
	printf("\nconnect: %s\n", hp_connect_string(d));
	return 0;
}

static int cmd_kernels(hp_device *d)
{
	for (unsigned k = 0; k < hp_kernel_count(d); k++) {
		const hp_mbox_kernel *m = hp_kernel_at(d, k);
		if (!m)
			continue;
		printf("%-16s args %3u B, local mem %5u B, %s", m->name,
		       (unsigned)m->args_size, m->local_mem_bytes,
		       m->flags & HP_KFLAG_BARRIERS ? "barriers"
						    : "no barriers");
		/* The largest local size it runs with (0: none fits). */
		if (m->work_group_size)
			printf(", max work-group %u", m->work_group_size);
		else
			printf(", cannot run on this device");
		if (m->reqd_work_group_size[0])
			printf(", reqd %u,%u,%u", m->reqd_work_group_size[0],
			       m->reqd_work_group_size[1],
			       m->reqd_work_group_size[2]);
		if (m->sub_group_size)
			printf(", sub-group %u", (unsigned)m->sub_group_size);
		const run_driver *drv = run_driver_find(m->name);
		if (m->flags & HP_KFLAG_LOADED)
			printf(", loaded (object %u)", HP_KFLAG_SLOT(m->flags));
		else if (drv)
			printf(" - %s", drv->help);
		putchar('\n');
	}
	return 0;
}

/* ---- run / ids ---- */

static uint64_t range_items(const hp_ndrange *r)
{
	if (r->work_dim < 1 || r->work_dim > 3)
		return 0;
	uint64_t n = 1;
	for (unsigned d = 0; d < r->work_dim; d++) {
		if (r->global[d] && n > UINT64_MAX / r->global[d])
			return UINT64_MAX;
		n *= r->global[d];
	}
	return n;
}

/* Launch c (prepared) `repeat` times, through the driver's enqueue hook
 * when it has one (a sequence of launches each time); the last launch's
 * info in c->info (a sequence's: see run_sequence_info). Returns 0 or
 * exits through die(). */
/* One line of hp_printf() output, tagged with the global id. */
static void print_line(void *ctx, const uint64_t gid[3], const char *text,
		       size_t n)
{
	unsigned dim = *(const unsigned *)ctx;
	printf("[%llu", (unsigned long long)gid[0]);
	for (unsigned d = 1; d < dim && d < 3; d++)
		printf(",%llu", (unsigned long long)gid[d]);
	printf("] %.*s", (int)n, text);
	if (!n || text[n - 1] != '\n')
		putchar('\n');
}

/* After the launch: the kernel's hp_printf() lines, then the buffer. */
static int printf_flush(run_ctx *c, hp_buffer b, uint32_t size)
{
	uint32_t dropped = 0;
	unsigned dim = c->r.work_dim ? c->r.work_dim : 1;
	int rc = hp_printf_read(c->d, b, size, print_line, &dim, &dropped);
	fflush(stdout);
	if (!rc && dropped)
		fprintf(stderr,
			"hartpool: printf buffer full: %u hp_printf() calls "
			"dropped (raise --printf-size)\n",
			dropped);
	hp_buffer_free(c->d, b);
	return rc ? lib_fail(rc) : 0;
}

static int launch(run_ctx *c, const opts *o, const void *args,
		  uint32_t args_size, double *round_us)
{
	hp_event ev = 0;
	bool hook = c->drv && c->drv->enqueue;
	hp_buffer pbuf = 0;
	uint32_t psize = (o->printf_size + 7) & ~7u;
	if (!hook && psize) {
		if (psize < HP_PRINTF_MIN_SIZE)
			psize = HP_PRINTF_MIN_SIZE;
		int rc = hp_buffer_alloc(c->d, psize, &pbuf);
		if (rc)
			return lib_fail(rc);
		c->r.printf_buf = pbuf;
		c->r.printf_size = psize;
	}
	double t0 = now_us();
	for (unsigned long i = 0; i < o->repeat; i++) {
		int rc;
		if (hook) {
			c->kargs = args;
			c->kargs_size = args_size;
			c->num_seq = 0;
			c->msg[0] = 0;
			rc = c->drv->enqueue(c, &ev);
			if (rc)
				return die(rc, "%s",
					   c->msg[0] ? c->msg
						     : hp_last_error());
		} else {
			rc = hp_enqueue_kernel(c->q, c->kernel, &c->r, args,
					       args_size, NULL, 0, &ev);
			if (rc)
				return lib_fail(rc);
		}
		if (o->repeat > 1)
			progress("run", i + 1, o->repeat);
	}
	int rc = hp_event_wait(c->d, ev, &c->info);
	*round_us = (now_us() - t0) / (double)o->repeat;
	if (rc)
		return lib_fail(rc);
	if (pbuf && printf_flush(c, pbuf, psize))
		return 1;
	if (hook)
		run_sequence_info(c, &c->info);
	return 0;
}

static int setup_run(hp_device *d, const opts *o, const char *kname,
		     const hp_object *obj, run_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->d = d;
	c->r = o->r;
	c->args = o->args;
	c->num_args = o->num_args;
	c->seed = 1;
	int rc = obj ? hp_object_kernel(d, *obj, kname, &c->kernel)
		     : hp_kernel_find(d, kname, &c->kernel);
	if (rc)
		return lib_fail(rc);
	c->k = hp_kernel_at(d, c->kernel);
	c->items = range_items(&c->r);
	c->seed = run_arg(c, "seed", 1);
	c->repeat = o->repeat;
	c->range_given = o->nglobal > 0;
	/* Library drivers for library kernels; a loaded one is generic. */
	c->drv = obj || o->num_kargs ? NULL : run_driver_find(kname);
	rc = hp_queue_create(d, HP_QUEUE_IN_ORDER, &c->q);
	return rc ? lib_fail(rc) : 0;
}

/* "AxBxC": the global size of @p r (its dimensions, 1..3 shown). */
static void global_str(const hp_ndrange *r, char *g, size_t n)
{
	unsigned dims = r->work_dim < 1 ? 1 : r->work_dim > 3 ? 3 : r->work_dim;
	g[0] = 0;
	for (unsigned k = 0; k < dims; k++) {
		size_t a = strlen(g);
		snprintf(g + a, n - a, "%s%llu", k ? "x" : "",
			 (unsigned long long)r->global[k]);
	}
}

/* The driver could not get its buffers (HP_OUT_OF_RESOURCES in c->msg).
 * A range the device refuses anyway deserves its own error, which the
 * device checks before the arguments: launch once with an argument block
 * of zeroes (no buffer is at address 0, so no kernel runs with it). The
 * allocation's error stands unless the range is wrong. */
static int prepare_failed(run_ctx *c, bool line, int rc)
{
	if (rc != HP_OUT_OF_RESOURCES || !c->drv || !c->k ||
	    c->k->flags & HP_KFLAG_LOADED)
		return die(rc, "%s", c->msg);
	static const uint64_t zero[HP_MBOX_ARGS_MAX / 8];
	hp_ndrange r = c->r;
	r.printf_buf = 0;
	r.printf_size = 0;
	hp_event ev;
	hp_event_info i;
	if (hp_enqueue_kernel(c->q, c->kernel, &r, zero, c->k->args_size, NULL,
			      0, &ev) ||
	    hp_event_wait(c->d, ev, &i) || !i.status ||
	    i.status == HP_INVALID_KERNEL_ARGS)
		return die(rc, "%s", c->msg);
	if (line) {
		char g[80];
		global_str(&r, g, sizeof(g));
		printf("run %s: global %s: %s - %s\n", c->k->name, g,
		       hp_error_name(i.status), i.detail);
	}
	return die(i.status, "%s: %s", c->k->name, i.detail);
}

static int cmd_ids(hp_device *d, const opts *o)
{
	run_ctx c;
	if (!o->nglobal)
		return die(HP_INVALID_GLOBAL_WORK_SIZE, "ids needs --global");
	if (setup_run(d, o, "ids", NULL, &c))
		return 1;
	const run_driver *drv = run_driver_find("ids");
	hp_ids_args a;
	uint32_t asz;
	int rc = drv->prepare(&c, &a, &asz);
	if (rc)
		return prepare_failed(&c, false, rc);
	double us;
	if (launch(&c, o, &a, asz, &us))
		return 1;
	if (c.info.status)
		return die(c.info.status, "%s", c.info.detail);
	uint64_t n = c.items;
	uint64_t *rec = c.host[0];
	uint32_t *cnt = c.host[1];
	if ((rc = hp_buffer_read(d, c.bufs[0], 0, rec,
				 n * sizeof(hp_ids_record))) ||
	    (rc = hp_buffer_read(d, c.bufs[1], 0, cnt, n * sizeof(uint32_t))))
		return lib_fail(rc);
	for (uint64_t i = 0; i < n; i++)
		if (cnt[i] != 1)
			return die(HP_KERNEL_FAULT,
				   "work-item %llu ran %u times",
				   (unsigned long long)i, cnt[i]);
	static const char *const names[] = {
#define HP_IDS_NAME_(id, name) name,
		HP_IDS_COLUMNS(HP_IDS_NAME_)
#undef HP_IDS_NAME_
	};
	for (unsigned k = 0; k < HP_IDS_NCOLS; k++)
		printf("%s%s", k ? "," : "", names[k]);
	putchar('\n');
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t *r = rec + i * HP_IDS_NCOLS;
		for (unsigned k = 0; k < HP_IDS_NCOLS; k++)
			printf("%s%llu", k ? "," : "",
			       (unsigned long long)r[k]);
		putchar('\n');
	}
	run_cleanup(&c);
	return 0;
}

static int run_kernel(hp_device *d, const opts *o, const hp_object *obj)
{
	run_ctx c;
	if (setup_run(d, o, o->kernel, obj, &c))
		return 1;
	const run_driver *drv = c.drv;
	if (!drv && !o->num_kargs && c.k && c.k->args_size)
		return die(HP_INVALID_KERNEL_ARGS,
			   "the host tool has no driver for kernel '%s' "
			   "(`hartpool run --list`): give its %u bytes of "
			   "arguments with --karg",
			   o->kernel, c.k->args_size);
	if (!c.r.work_dim && strcmp(o->kernel, "copy") &&
	    strcmp(o->kernel, "fill")) {
		c.r.work_dim = 1;
		c.r.global[0] = 1024;
		c.items = 1024;
	}
	uint64_t args[HP_MBOX_ARGS_MAX / 8];
	memset(args, 0, sizeof(args));
	uint32_t asz = 0;
	int rc = drv ? drv->prepare(&c, args, &asz)
		     : generic_prepare(&c, o->kargs, o->num_kargs, args, &asz);
	if (rc)
		return prepare_failed(&c, !o->json, rc);
	double us;
	if (launch(&c, o, args, asz, &us))
		return 1;
	const hp_event_info *i = &c.info;
	int check = -1;
	if (!i->status && o->check && !drv)
		return die(HP_INVALID_VALUE,
			   "--check: no host reference for '%s' (use --print)",
			   o->kernel);
	if (!i->status && o->check)
		check = drv->check(&c);
	const char *st = i->status ? hp_error_name(i->status) : "OK";
	/* A command the device refused (or a failed dependency aborted) never
	 * ran: it has no local size, groups or device times to show. */
	bool launched = !i->status || i->groups || i->local[0];
	if (o->json) {
		printf("{\"kernel\": ");
		json_str(o->kernel, SIZE_MAX);
		printf(", \"status\": \"%s\", \"detail\": ", st);
		json_str(i->detail, sizeof(i->detail));
		printf(", \"launched\": %s, \"global\": [%llu, %llu, %llu], ",
		       launched ? "true" : "false",
		       (unsigned long long)c.r.global[0],
		       (unsigned long long)c.r.global[1],
		       (unsigned long long)c.r.global[2]);
		if (launched)
			printf("\"local\": [%u, %u, %u], \"groups\": %llu, "
			       "\"device_us\": %.1f, \"queue_us\": %.1f, ",
			       i->local[0], i->local[1], i->local[2],
			       (unsigned long long)i->groups,
			       i->end_us - i->start_us,
			       i->start_us - i->queued_us);
		printf("\"round_trip_us\": %.1f, \"repeat\": %lu, "
		       "\"check\": \"%s\", \"compared\": %llu}\n",
		       us, o->repeat,
		       check < 0    ? "skipped"
		       : check == 0 ? "OK"
				    : "MISMATCH",
		       (unsigned long long)c.compared);
	} else {
		char g[80], l[40] = "";
		global_str(&c.r, g, sizeof(g));
		for (unsigned k = 0; k < 3 && (!k || k < c.r.work_dim); k++) {
			size_t b = strlen(l);
			snprintf(l + b, sizeof(l) - b, "%s%u", k ? "x" : "",
				 i->local[k]);
		}
		if (!launched) {
			printf("run %s: global %s: %s - %s\n", o->kernel, g, st,
			       i->detail);
		} else {
			printf("run %s: global %s, local %s, %llu groups: "
			       "%s%s%s\n",
			       o->kernel, g, l, (unsigned long long)i->groups,
			       st, i->status ? " - " : "", i->detail);
			printf("time: %.1f us on the device, %.1f us queued, "
			       "%.1f us round trip%s\n",
			       i->end_us - i->start_us,
			       i->start_us - i->queued_us, us,
			       o->repeat > 1 ? " (mean)" : "");
		}
		if (check == 0)
			printf("check: OK (%llu values)\n",
			       (unsigned long long)c.compared);
	}
	if (!drv && o->print && !i->status && generic_print(&c, o->print_max))
		return die(HP_INVALID_VALUE, "%s", c.msg);
	run_cleanup(&c);
	if (i->status)
		return die(i->status, "%s: %s", o->kernel, i->detail);
	if (check > 0)
		return die(HP_KERNEL_FAULT, "check failed: %s", c.msg);
	if (check < 0 && o->check)
		return 0;
	if (check != 0 && check != -1)
		return die(check, "check could not run: %s", c.msg);
	return 0;
}

static int cmd_run(hp_device *d, const opts *o)
{
	if (o->list || !o->kernel) {
		for (unsigned i = 0; run_drivers[i]; i++)
			printf("%-16s %s\n", run_drivers[i]->name,
			       run_drivers[i]->help);
		return o->kernel || o->list ? 0 : 1;
	}
	if (!o->kernel_file) {
		if (o->gdb)
			gdb_hint(o, NULL, 0);
		return run_kernel(d, o, NULL);
	}
	hp_object obj;
	uint64_t addr;
	int rc = hp_object_load_file(d, o->kernel_file, &obj, &addr);
	if (rc)
		return lib_fail(rc);
	if (o->gdb) {
		gdb_hint(o, o->kernel_file, addr);
		if (isatty(0)) {
			fprintf(stderr, "hartpool: press Enter to launch %s\n",
				o->kernel);
			getchar();
		}
	}
	rc = run_kernel(d, o, &obj);
	int rc2 = hp_object_unload(d, obj);
	if (!rc && rc2)
		rc = lib_fail(rc2);
	return rc;
}

/* ---- demo (`make run`) ---- */

static unsigned demo_failed;

static void demo_line(hp_device *d, const char *what, hp_event ev,
		      const char *check)
{
	hp_event_info i;
	int rc = hp_event_wait(d, ev, &i);
	if (rc) {
		printf("  %-44s %s\n", what, hp_last_error());
		demo_failed++;
		return;
	}
	bool ok = !i.status && (!check || !strcmp(check, "OK"));
	printf("  %-44s waited %8.1f us, ran %8.1f us  %s%s%s\n", what,
	       i.start_us - i.queued_us, i.end_us - i.start_us,
	       i.status ? hp_error_name(i.status)
	       : check	? check
			: "done",
	       i.status ? ": " : "", i.status ? i.detail : "");
	demo_failed += !ok;
}

/* A library kernel through its driver: launch, check, report. */
static void demo_kernel(hp_device *d, const char *name, hp_ndrange r,
			const char *what)
{
	opts o;
	memset(&o, 0, sizeof(o));
	o.r = r;
	o.repeat = 1;
	run_ctx c;
	if (setup_run(d, &o, name, NULL, &c)) {
		demo_failed++;
		return;
	}
	uint64_t args[HP_MBOX_ARGS_MAX / 8] = {0};
	uint32_t asz = 0;
	const run_driver *drv = run_driver_find(name);
	hp_event ev;
	if (drv->prepare(&c, args, &asz) ||
	    hp_enqueue_kernel(c.q, c.kernel, &c.r, args, asz, NULL, 0, &ev)) {
		printf("  %-44s %s\n", what,
		       c.msg[0] ? c.msg : hp_last_error());
		demo_failed++;
		return;
	}
	hp_event_wait(d, ev, &c.info);
	int chk = c.info.status ? -1 : drv->check(&c);
	demo_line(d, what, ev, chk == 0 ? "OK" : "WRONG");
	if (chk > 0)
		printf("    %s\n", c.msg);
	run_cleanup(&c);
	hp_queue_release(c.q);
}

static int cmd_demo(hp_device *d)
{
	const hp_device_info *di = hp_info(d);
	printf("demo: %s, %u harts, mailbox %s\n", di->board, di->harts,
	       hp_connect_string(d));
	printf("demo: 1. a diamond of dependent commands on an out-of-order "
	       "queue\n");
	enum { N = 100000 };
	hp_queue *q;
	hp_buffer a, b, c, s;
	uint32_t kaff, kadd;
	int rc;
	if ((rc = hp_queue_create(d, 0, &q)) ||
	    (rc = hp_kernel_find(d, "affine", &kaff)) ||
	    (rc = hp_kernel_find(d, "add", &kadd)) ||
	    (rc = hp_buffer_alloc(d, N * 4, &a)) ||
	    (rc = hp_buffer_alloc(d, N * 4, &b)) ||
	    (rc = hp_buffer_alloc(d, N * 4, &c)) ||
	    (rc = hp_buffer_alloc(d, N * 4, &s)))
		return lib_fail(rc);
	hp_ndrange r = {.work_dim = 1, .global = {N}};
	hp_event ef, ea, eb, ec, ej, es;
	struct {
		uint64_t y;
		uint32_t mul, add;
	} aa = {a, 3, 1}, ab = {b, 5, 0}, ac = {c, 1, 7};
	struct {
		uint64_t a, b, c;
	} sa = {b, c, s};
	double t0 = now_us();
	if ((rc = hp_enqueue_fill(q, a, N * 4, 2, 4, NULL, 0, &ef)) ||
	    (rc = hp_enqueue_kernel(q, kaff, &r, &aa, sizeof(aa), &ef, 1,
				    &ea)) ||
	    (rc = hp_enqueue_copy(q, b, a, N * 4, &ea, 1, &eb)) ||
	    (rc = hp_enqueue_copy(q, c, a, N * 4, &ea, 1, &ec)) ||
	    (rc = hp_enqueue_kernel(q, kaff, &r, &ab, sizeof(ab), &eb, 1,
				    &eb)) ||
	    (rc = hp_enqueue_kernel(q, kaff, &r, &ac, sizeof(ac), &ec, 1, &ec)))
		return lib_fail(rc);
	hp_event both[2] = {eb, ec};
	if ((rc = hp_enqueue_barrier_and(q, both, 2, &ej)) ||
	    (rc = hp_enqueue_kernel(q, kadd, &r, &sa, sizeof(sa), &ej, 1, &es)))
		return lib_fail(rc);
	demo_line(d, "fill a = 2", ef, NULL);
	demo_line(d, "a = 3a + 1            (after fill)", ea, NULL);
	demo_line(d, "b = 5 copy(a)         (after a)", eb, NULL);
	demo_line(d, "c = copy(a) + 7       (after a)", ec, NULL);
	demo_line(d, "barrier-AND (b, c)", ej, NULL);
	uint32_t *host = malloc(N * 4);
	if (!host)
		return die(HP_OUT_OF_RESOURCES,
			   "out of host memory (%u bytes for the result)",
			   N * 4);
	if ((rc = hp_event_wait(d, es, NULL)) ||
	    (rc = hp_buffer_read(d, s, 0, host, N * 4)))
		return lib_fail(rc);
	unsigned bad = 0;
	for (unsigned i = 0; i < N; i++)
		bad += host[i] != 5 * 7 + (7 + 7); /* a = 3 * 2 + 1 = 7 */
	demo_line(d, "s = b + c             (after barrier)", es,
		  bad ? "WRONG" : "OK");
	printf("  %u values checked on the host, %.1f ms from first enqueue to "
	       "result\n",
	       N, (now_us() - t0) / 1000);
	free(host);
	hp_buffer bufs[4] = {a, b, c, s};
	for (unsigned i = 0; i < 4; i++)
		hp_buffer_free(d, bufs[i]);
	hp_queue_release(q);

	printf("demo: 2. library kernels checked against host references\n");
	demo_kernel(d, "ids", (hp_ndrange){.work_dim = 2, .global = {100, 37}},
		    "ids 100x37, local chosen (OpenCL model)");
	demo_kernel(d, "wg_count",
		    (hp_ndrange){.work_dim = 2, .global = {1000, 37}},
		    "wg_count 1000x37 (remainder groups)");
	demo_kernel(d, "barrier_rotate",
		    (hp_ndrange){.work_dim = 3,
				 .global = {20, 9, 7},
				 .local = {8, 4, 2},
				 .local_given = true},
		    "barrier_rotate 20x9x7, local 8x4x2");
	demo_kernel(d, "sg_ops", (hp_ndrange){.work_dim = 1, .global = {500}},
		    "sg_ops 500 (every sub-group function)");
	printf("demo: 3. mailbox round trips\n");
	opts bo;
	memset(&bo, 0, sizeof(bo));
	bo.count = 500;
	if (cmd_bench(d, &bo))
		demo_failed++;
	printf("demo: %s\n", demo_failed ? "FAILED" : "all results OK");
	return demo_failed ? 1 : 0;
}

/* ---- bench ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int cmd_bench(hp_device *d, const opts *o)
{
	uint32_t k;
	int rc = hp_kernel_find(d, "empty", &k);
	if (rc)
		return lib_fail(rc);
	hp_queue *q;
	if ((rc = hp_queue_create(d, 0, &q)))
		return lib_fail(rc);
	unsigned long n = o->count ? o->count : 2000;
	double *lat = calloc(n, sizeof(double));
	if (!lat)
		return die(HP_OUT_OF_RESOURCES,
			   "out of host memory (%lu round-trip times of %zu "
			   "bytes)",
			   n, sizeof(double));
	hp_ndrange r = {.work_dim = 1, .global = {1}};
	/* Round trips: one empty kernel at a time, enqueue to completion
	 * seen by the host. */
	for (unsigned long i = 0; i < n; i++) {
		hp_event ev;
		hp_event_info info;
		double t0 = now_us();
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &ev)) ||
		    (rc = hp_event_wait(d, ev, &info)))
			return lib_fail(rc);
		lat[i] = now_us() - t0;
		if (info.status)
			return die(info.status, "%s", info.detail);
		progress("latency", i + 1, n);
	}
	qsort(lat, n, sizeof(double), cmp_double);
	double sum = 0;
	for (unsigned long i = 0; i < n; i++)
		sum += lat[i];
	double p50 = lat[n / 2],
	       p99 = lat[(n * 99) / 100 < n ? n * 99 / 100 : n - 1];
	/* Throughput: the ring kept full. */
	unsigned long m = n * 4;
	double t0 = now_us();
	hp_event last = 0;
	for (unsigned long i = 0; i < m; i++) {
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &last)))
			return lib_fail(rc);
		progress("throughput", i + 1, m);
	}
	if ((rc = hp_queue_finish(q)))
		return lib_fail(rc);
	double secs = (now_us() - t0) / 1e6;
	double kps = (double)m / secs;
	/* Doorbell after a quiet spell: the dispatcher has gone back to its
	 * slow checks (every poll_us after 5 ms without packets). */
	enum { COLD = 40 };
	double cold[COLD];
	for (unsigned i = 0; i < COLD; i++) {
		struct timespec gap = {0, 12 * 1000 * 1000};
		nanosleep(&gap, NULL);
		hp_event ev;
		hp_event_info info;
		double c0 = now_us();
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &ev)) ||
		    (rc = hp_event_wait(d, ev, &info)))
			return lib_fail(rc);
		cold[i] = now_us() - c0;
		progress("after idle", i + 1, COLD);
	}
	qsort(cold, COLD, sizeof(double), cmp_double);
	const hp_device_info *di = hp_info(d);
	if (o->json) {
		printf("{\"bench\": \"mailbox\", \"board\": \"%s\", \"harts\": "
		       "%u, \"transport\": \"%s\", \"round_trips\": %lu, "
		       "\"latency_us\": {\"p50\": %.1f, \"p99\": %.1f, "
		       "\"mean\": %.1f, \"min\": %.1f, \"max\": %.1f}, "
		       "\"throughput\": {\"kernels\": %lu, \"seconds\": %.3f, "
		       "\"kernels_per_s\": %.0f}, \"after_idle_us\": "
		       "{\"runs\": "
		       "%u, \"p50\": %.1f, \"max\": %.1f}}\n",
		       di->board, di->harts,
		       strncmp(hp_connect_string(d), "serial:", 7) ? "shm"
								   : "serial",
		       n, p50, p99, sum / (double)n, lat[0], lat[n - 1], m,
		       secs, kps, COLD, cold[COLD / 2], cold[COLD - 1]);
	} else {
		printf("mailbox round trip (empty kernel, %lu runs): p50 %.1f "
		       "us, p99 %.1f us, mean %.1f us, min %.1f us\n",
		       n, p50, p99, sum / (double)n, lat[0]);
		printf("mailbox throughput (%lu empty kernels, one queue): "
		       "%.0f kernels/s\n",
		       m, kps);
		printf("round trip after 12 ms idle (%u runs): p50 %.1f us, "
		       "max %.1f us\n",
		       COLD, cold[COLD / 2], cold[COLD - 1]);
	}
	free(lat);
	hp_queue_release(q);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "build"))
		return cmd_build(argc - 1, argv + 1);
	opts o;
	if (parse(argc, argv, &o))
		return 1;
	const char *cmd = o.cmd;
	bool known = !strcmp(cmd, "up") || !strcmp(cmd, "down") ||
		     !strcmp(cmd, "info") || !strcmp(cmd, "ids") ||
		     !strcmp(cmd, "run") || !strcmp(cmd, "bench") ||
		     !strcmp(cmd, "kernels") || !strcmp(cmd, "demo");
	if (!strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!known)
		return die(HP_INVALID_VALUE,
			   "unknown command '%s' (see hartpool --help)", cmd);
	if (!strcmp(cmd, "run") && (o.list || !o.kernel))
		return cmd_run(NULL, &o);
	if (!strcmp(cmd, "down") && !o.connect)
		return die(HP_INVALID_VALUE, "down needs --connect");
	hp_device *d;
	if (open_device(&o, !strcmp(cmd, "up"), &d))
		return 1;
	int rc = 0;
	if (!strcmp(cmd, "up")) {
		const hp_device_info *i = hp_info(d);
		fprintf(stderr, "hartpool: %s with %u harts is up\n", i->board,
			i->harts);
		if (o.gdb)
			gdb_hint(&o, NULL, 0);
		printf("%s\n", hp_connect_string(d));
	} else if (!strcmp(cmd, "down")) {
		if ((rc = hp_down(d)))
			rc = lib_fail(rc);
	} else if (!strcmp(cmd, "info")) {
		rc = cmd_info(d, &o);
	} else if (!strcmp(cmd, "kernels")) {
		rc = cmd_kernels(d);
	} else if (!strcmp(cmd, "ids")) {
		rc = cmd_ids(d, &o);
	} else if (!strcmp(cmd, "run")) {
		rc = cmd_run(d, &o);
	} else if (!strcmp(cmd, "bench")) {
		rc = cmd_bench(d, &o);
	} else if (!strcmp(cmd, "demo")) {
		rc = cmd_demo(d);
	}
	fflush(stdout);
	hp_close(d);
	return rc;
}
