// SPDX-License-Identifier: MIT
/*
 * hartpool: the command-line host tool (docs/mailbox.md, the CLI). Every
 * command either boots a device in QEMU for its own use (--board, --harts) or
 * talks to a running one (--connect shm:PATH | devmem[:ADDR] |
 * serial:DEV[,baud=N]). Failures
 * print "hartpool: HP_NAME: message" on stderr and exit 1.
 *
 * This file is the command table: each command with its options (groups
 * that commands share), its help and its handler (info.c, run.c, bench.c,
 * demo.c, build.c); cli.c parses the command line and writes the help
 * from it.
 */
#include "bench.h"
#include "build.h"
#include "cli.h"
#include "demo.h"
#include "info.h"
#include "keeper.h"
#include "run.h"
#include "split.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- how options are stored (cli_set_* for plain values) ---- */

#define FIELD(f) offsetof(cli_opts, f)

static int set_harts(cli_opts *o, const cli_option *opt, const char *v)
{
	(void)opt;
	o->harts = (unsigned)strtoul(v, NULL, 0);
	if (!o->harts)
		return cli_die(HP_INVALID_VALUE,
			       "--harts wants 1..512, not '%s'", v);
	return 0;
}

/* --connect: every one kept (run and info take several: a list of
 * devices); o->connect is the first. */
static int set_connect(cli_opts *o, const cli_option *opt, const char *v)
{
	(void)opt;
	if (o->num_connects == CLI_MAX_DEVICES)
		return cli_die(HP_INVALID_VALUE, "at most %u --connect",
			       CLI_MAX_DEVICES);
	if (!o->num_connects)
		o->connect = v;
	o->connects[o->num_connects++] = v;
	return 0;
}

static int set_devices(cli_opts *o, const cli_option *opt, const char *v)
{
	(void)opt;
	char *end;
	unsigned long n = strtoul(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || n < 1 || n > CLI_MAX_DEVICES)
		return cli_die(HP_INVALID_VALUE,
			       "--devices wants 1..%u, not '%s'",
			       CLI_MAX_DEVICES, v);
	o->devices = (unsigned)n;
	return 0;
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

static int set_mem(cli_opts *o, const cli_option *opt, const char *v)
{
	(void)opt;
	if (!parse_bytes(v, &o->mem_size) || !o->mem_size)
		return cli_die(HP_INVALID_VALUE,
			       "--mem wants bytes or a size with K, M or G "
			       "(e.g. 2G), not '%s'",
			       v);
	return 0;
}

/* up --quota R=N,... and --quota-min R=N,...: the firmware's bootargs
 * hartpool.quota.R=N and hartpool.quota_min.R=N (firmware/main.c). */
static int set_quota(cli_opts *o, const cli_option *opt, const char *v)
{
	static const char *const keys[] = {"heap", "buffers", "objects",
					   "rows", "queues",  "commands"};
	bool floor = !strcmp(opt->name, "--quota-min");
	char item[64];
	for (const char *at = v; *at;) {
		size_t n = strcspn(at, ",");
		snprintf(item, sizeof(item), "%.*s", (int)n, at);
		at += n + (at[n] == ',');
		char *eq = strchr(item, '=');
		unsigned k = 0;
		if (eq) {
			*eq = 0;
			while (k < 6 && strcmp(item, keys[k]))
				k++;
		}
		uint64_t val;
		/* Sizes in K/M/G for all (buffers=64K is 65536 buffers). */
		if (!eq || k == 6 || !parse_bytes(eq + 1, &val))
			return cli_die(HP_INVALID_VALUE,
				       "%s wants R=N,... with R one of heap, "
				       "buffers, objects, rows, queues, "
				       "commands and N a number (K, M or G), "
				       "not '%s'",
				       opt->name, v);
		size_t len = strlen(o->quota_args);
		snprintf(o->quota_args + len, sizeof(o->quota_args) - len,
			 "%shartpool.quota%s.%s=%llu", len ? " " : "",
			 floor ? "_min" : "", keys[k], (unsigned long long)val);
	}
	return 0;
}

/* up --slice-us N: the firmware's bootarg hartpool.slice_us=N (the time
 * slice between sessions, docs/sessions.md). */
static int set_slice(cli_opts *o, const cli_option *opt, const char *v)
{
	char *end;
	unsigned long us = strtoul(v, &end, 10);
	if (!*v || *end || us > 10000000ul)
		return cli_die(HP_INVALID_VALUE,
			       "%s wants microseconds from 0 (never preempt) "
			       "to 10000000, not '%s'",
			       opt->name, v);
	size_t len = strlen(o->quota_args);
	snprintf(o->quota_args + len, sizeof(o->quota_args) - len,
		 "%shartpool.slice_us=%lu", len ? " " : "", us);
	return 0;
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

/* --global, --local, --offset, --reqd-wg-size: X[,Y[,Z]] into @p s3 (the
 * rest 0); how many, or 0 after cli_die() (@p s3 unchanged). */
static int sizes(const cli_option *opt, const char *v, uint64_t s3[3])
{
	uint64_t got[3] = {0, 0, 0};
	int n = parse_sizes(v, got);
	if (n < 1) {
		cli_die(HP_INVALID_VALUE,
			"%s wants X[,Y[,Z]] (decimal), not '%s'", opt->name, v);
		return 0;
	}
	memcpy(s3, got, sizeof(got));
	return n;
}

static int set_global(cli_opts *o, const cli_option *opt, const char *v)
{
	int n = sizes(opt, v, o->r.global);
	if (!n)
		return 1;
	o->nglobal = (unsigned)n;
	return 0;
}

static int set_local(cli_opts *o, const cli_option *opt, const char *v)
{
	if (!sizes(opt, v, o->r.local))
		return 1;
	o->r.local_given = true;
	return 0;
}

static int set_offset(cli_opts *o, const cli_option *opt, const char *v)
{
	return sizes(opt, v, o->r.offset) ? 0 : 1;
}

static int set_reqd(cli_opts *o, const cli_option *opt, const char *v)
{
	uint64_t s3[3];
	int n = sizes(opt, v, s3);
	if (!n)
		return 1;
	if (n != 3)
		return cli_die(HP_INVALID_VALUE, "--reqd-wg-size wants X,Y,Z");
	for (unsigned d = 0; d < 3; d++) {
		if (s3[d] > UINT32_MAX)
			return cli_die(HP_INVALID_VALUE,
				       "--reqd-wg-size too large");
		o->r.reqd[d] = (uint32_t)s3[d];
	}
	return 0;
}

static int set_work_dim(cli_opts *o, const cli_option *opt, const char *v)
{
	(void)opt;
	o->work_dim = atoi(v);
	return 0;
}

static int set_arg(cli_opts *o, const cli_option *opt, const char *v)
{
	(void)opt;
	if (o->num_args == 32 || !strchr(v, '='))
		return cli_die(HP_INVALID_VALUE,
			       "--arg wants NAME=VALUE (at most 32)");
	o->args[o->num_args++] = v;
	return 0;
}

static int set_karg(cli_opts *o, const cli_option *opt, const char *v)
{
	(void)opt;
	if (o->num_kargs == 32)
		return cli_die(HP_INVALID_VALUE, "at most 32 --karg");
	o->kargs[o->num_kargs++] = v;
	return 0;
}

static int set_print(cli_opts *o, const cli_option *opt, const char *v)
{
	(void)opt;
	o->print = true;
	if (v)
		o->print_max = strtoul(v, NULL, 0);
	return 0;
}

/* ---- the options ---- */

static const cli_option device_rows[] = {
	{"--connect", CLI_VALUE,
	 "shm:PATH | devmem[:ADDR] | serial:DEV[,baud=N]",
	 "use a running device (`hartpool up` prints one); a tty\n"
	 "runs raw 8N1 at N baud (default 115200), a socket is\n"
	 "paced to N (9600..4000000; ,flow=rtscts on a tty);\n"
	 "devmem: /dev/mem from the mailbox at physical ADDR\n"
	 "(default: the device tree's, else 0x90000000: a Linux\n"
	 "beside the firmware; waits sleep on the device's bell\n"
	 "where it has one, devmem:wait=poll polls instead);\n"
	 "run and info take it again for each further device",
	 set_connect, 0},
	{"--board", CLI_VALUE, "B", "board to boot (default qemu-virt)",
	 cli_set_str, FIELD(board)},
	{"--harts", CLI_VALUE, "N",
	 "harts to boot (default 8, at most 512; a board with a\n"
	 "fixed count boots all, --harts below it caps the use)",
	 set_harts, 0},
	{"--mem", CLI_VALUE, "SIZE",
	 "DRAM to boot with, bytes or K/M/G (default 2G;\n"
	 "qemu-virt takes 512M..16G, qemu-virt32 512M..2G)",
	 set_mem, 0},
	{"--boot", CLI_VALUE, "direct|uboot",
	 "how QEMU starts the firmware: the ELF (default), or\n"
	 "OpenSBI, U-Boot, then boot.scr and hartpool.bin from\n"
	 "build/B/sdcard.img (`make image`; boards with QEMU_UBOOT)",
	 cli_set_str, FIELD(boot)},
	{"--append", CLI_VALUE, "ARGS",
	 "extra bootargs (e.g. hartpool.poll_us=50)", cli_set_str,
	 FIELD(append)},
	{"--gdb", CLI_FLAG, NULL,
	 "boot with QEMU's gdb stub on :1234 (or $HP_QEMU_GDB);\n"
	 "up and run print the gdb-multiarch command (with a\n"
	 "kernel object's symbols for run --kernel-file)",
	 cli_set_flag, FIELD(gdb)},
	{NULL},
};

static const cli_option quota_rows[] = {
	{"--quota", CLI_VALUE, "R=N,...",
	 "a session's most of R: heap (bytes, K/M/G), buffers,\n"
	 "objects, rows (kernel-table rows), queues, commands (in\n"
	 "flight); default: half of each (commands: a quarter)",
	 set_quota, 0},
	{"--quota-min", CLI_VALUE, "R=N,...",
	 "a session's floor of R, kept free for it however full\n"
	 "the device is (default: an eighth; queues 1, commands\n"
	 "256); docs/sessions.md, \"Quotas\"",
	 set_quota, 0},
	{"--slice-us", CLI_VALUE, "N",
	 "the time slice between sessions: a kernel that runs\n"
	 "longer while another session waits is preempted\n"
	 "(default 10000; 0: never); docs/sessions.md",
	 set_slice, 0},
	{NULL},
};

static const cli_option devices_rows[] = {
	{"--devices", CLI_VALUE, "N",
	 "use N devices (1..16): boot N like --board/--harts, or\n"
	 "one per --connect; run deals the range out to them",
	 set_devices, 0},
	{NULL},
};

static const cli_option output_rows[] = {
	{"--json", CLI_FLAG, NULL, "machine-readable output", cli_set_flag,
	 FIELD(json)},
	{NULL},
};

static const cli_option range_rows[] = {
	{"--global", CLI_VALUE, "X[,Y[,Z]]",
	 "global size; as many dimensions as numbers", set_global, 0},
	{"--local", CLI_VALUE, "X[,Y[,Z]]",
	 "work-group size (default: the device chooses)", set_local, 0},
	{"--offset", CLI_VALUE, "X[,Y[,Z]]", "global offset", set_offset, 0},
	{"--work-dim", CLI_VALUE, "N",
	 "work dimensions (default: how many --global has)", set_work_dim, 0},
	{"--reqd-wg-size", CLI_VALUE, "X,Y,Z",
	 "as if the kernel had reqd_work_group_size(X,Y,Z)", set_reqd, 0},
	{"--uniform", CLI_FLAG, NULL,
	 "uniform work-groups only (-cl-uniform-work-group-size)", cli_set_flag,
	 FIELD(r.uniform)},
	{"--sub-group-size", CLI_VALUE, "S",
	 "sub-group size (default: the kernel's or the board's)", cli_set_u32,
	 FIELD(r.sub_group_size)},
	{"--team-size", CLI_VALUE, "T", "harts sharing a work-group",
	 cli_set_u32, FIELD(r.team_size)},
	{"--timeout-us", CLI_VALUE, "US",
	 "time limit of each launch (HP_TIMEOUT past it)", cli_set_u64,
	 FIELD(r.timeout_us)},
	{NULL},
};

static const cli_option launch_rows[] = {
	{"--repeat", CLI_VALUE, "N", "launch N times (one check at the end)",
	 cli_set_ulong, FIELD(repeat)},
	{"--printf-size", CLI_VALUE, "N",
	 "bytes of hp_printf() output kept (default 65536, 0: none)",
	 cli_set_u32, FIELD(printf_size)},
	{NULL},
};

static const cli_option run_rows[] = {
	{"--list", CLI_FLAG, NULL,
	 "the kernels the tool has test data and a check for", cli_set_flag,
	 FIELD(list)},
	{"--arg", CLI_VALUE, "NAME=VALUE",
	 "kernel parameter (see `hartpool run --list`)", set_arg, 0},
	{"--check", CLI_FLAG, NULL,
	 "compare with the host reference; exit 1 on a mismatch", cli_set_flag,
	 FIELD(check)},
	{"--kernel-file", CLI_VALUE, "F",
	 "load kernel object F (`hartpool build`) first, or build\n"
	 "OpenCL C F.cl for the device; KERNEL is one of its\n"
	 "kernels; unloaded at the end",
	 cli_set_str, FIELD(kernel_file)},
	{"--cl-options", CLI_VALUE, "OPTS",
	 "build options of a .cl --kernel-file (-cl-std=CL3.0, -D...)",
	 cli_set_str, FIELD(cl_options)},
	{"--karg", CLI_VALUE, "SPEC",
	 "argument of a kernel not in `run --list`, in order:\n"
	 "TYPE:VALUE, buf:TYPE:COUNT[:iota|rand|VALUE] or local:BYTES\n"
	 "(TYPE i32 u32 i64 u64 f32 f64; a buffer passes its address,\n"
	 "local: an OpenCL __local argument of BYTES)",
	 set_karg, 0},
	{"--print", CLI_OPT_NUMBER, "N",
	 "print the --karg buffers after the run (first N values,\n"
	 "default 64)",
	 set_print, 0},
	{"--trace", CLI_VALUE, "FILE.json",
	 "write a timeline of the run from device timestamps\n"
	 "(Chrome / Perfetto trace: one track per hart, docs/trace.md)",
	 cli_set_str, FIELD(trace)},
	{"--trace-records", CLI_VALUE, "N",
	 "records each hart keeps for --trace (default 4096)", cli_set_u32,
	 FIELD(trace_records)},
	{NULL},
};

static const cli_option bench_rows[] = {
	{"--count", CLI_VALUE, "N", "round trips to time (default 2000)",
	 cli_set_ulong, FIELD(count)},
	{NULL},
};

static const cli_group device = {"device options", device_rows};
static const cli_group devices = {"device list options", devices_rows};
static const cli_group quota = {"sharing options (up)", quota_rows};
static const cli_group output = {"output options", output_rows};
static const cli_group range = {"range options", range_rows};
static const cli_group launch = {"launch options", launch_rows};
static const cli_group run = {"run options", run_rows};
static const cli_group bench = {"bench options", bench_rows};

/* ---- up, down, help ---- */

static int cmd_up(hp_device *d, const cli_opts *o)
{
	const hp_device_info *i = hp_info(d);
	fprintf(stderr, "hartpool: %s with %u harts is up\n", i->board,
		i->harts);
	if (o->gdb)
		cli_gdb_hint(o, NULL, 0);
	fflush(stderr);
	printf("%s\n", hp_connect_string(d));
	fflush(stdout);
	/* Dead hosts' sessions are ended even when nobody else uses it. */
	if (cli_keeper_start(hp_connect_string(d)))
		fprintf(stderr, "hartpool: warning: no keeper for the device "
				"(fork failed): a killed host's session ends "
				"only when another host comes\n");
	return 0;
}

static int down_early(const cli_opts *o)
{
	return o->connect ? -1
			  : cli_die(HP_INVALID_VALUE, "down needs --connect");
}

static int cmd_down(hp_device *d, const cli_opts *o)
{
	(void)o;
	int rc = hp_down(d);
	return rc ? cli_lib_fail(rc) : 0;
}

static int help_early(const cli_opts *o);

/* ---- the commands ---- */

#define GROUPS(...) ((const cli_group *const[]){__VA_ARGS__, NULL})

static const cli_command up_cmd = {
	.name = "up",
	.summary = "boot a device that stays up; its connect string last",
	.about = "The connect string (the last line on stdout) is for "
		 "--connect; "
		 "the device\nruns until `hartpool down --connect ...`. A "
		 "keeper process stays with it and\nends the sessions of "
		 "host processes that died (docs/sessions.md).\nHosts share "
		 "it: each session has quotas, so a host that comes\nlast "
		 "still finds room for a program, a queue and its floor.",
	.groups = GROUPS(&device, &quota),
	.run = cmd_up,
	.detach = true,
};
static const cli_command down_cmd = {
	.name = "down",
	.summary = "stop the device given by --connect",
	.about = "Waits for its QEMU to end (killing it after 10 s) and "
		 "removes its files.",
	.groups = GROUPS(&device),
	.early = down_early,
	.run = cmd_down,
	.ending = true,
};
static const cli_command info_cmd = {
	.name = "info",
	.summary = "device limits and configuration (key: value)",
	.groups = GROUPS(&device, &devices, &output),
	.run = cmd_info,
	.run_devices = cmd_info_devices,
};
static const cli_command ids_cmd = {
	.name = "ids",
	.summary = "run the diagnostic kernel `ids`; CSV on stdout",
	.about = "One row per work-item with every work-item function; "
		 "--global is needed.",
	.groups = GROUPS(&device, &range, &launch),
	.run = cmd_ids,
};
static const cli_command run_cmd = {
	.name = "run",
	.operands = "KERNEL",
	.summary = "run a kernel (library kernels on generated data)",
	.about = "Without --global: the sizes of the kernel's workload (`run "
		 "--list`), else\n1024 work-items. With several devices: "
		 "slabs of work-groups along one\ndimension, one per device "
		 "(docs/mailbox.md, \"Several devices\").",
	.groups = GROUPS(&device, &devices, &output, &range, &launch, &run),
	.early = run_list,
	.run = cmd_run,
	.run_devices = cmd_run_devices,
};
static const cli_command build_cmd = {
	.name = "build",
	.operands = "SOURCE.c... | SOURCE.cl... -o OUT.hpk",
	.summary = "compile kernels into a kernel object",
	.about = "C sources are written against <hartpool/kernel.h>, .cl "
		 "sources in OpenCL C\n(clang-19, docs/opencl.md); the "
		 "object is for\n`hartpool run --kernel-file OUT.hpk KERNEL`, "
		 "and OUT.elf next to it has\nthe symbols for gdb.",
	.groups = GROUPS(&build_options),
	.main = cmd_build,
};
static const cli_command bench_cmd = {
	.name = "bench",
	.summary = "mailbox latency and throughput",
	.groups = GROUPS(&device, &output, &bench),
	.run = cmd_bench,
};
static const cli_command kernels_cmd = {
	.name = "kernels",
	.summary = "list the device's kernels",
	.groups = GROUPS(&device),
	.run = cmd_kernels,
};
static const cli_command demo_cmd = {
	.name = "demo",
	.summary = "dependent kernels, checked results, timings (`make run`)",
	.groups = GROUPS(&device),
	.run = cmd_demo,
};
static const cli_command help_cmd = {
	.name = "help",
	.operands = "[COMMAND]",
	.summary = "this text, or what one command takes",
	.early = help_early,
};

static const cli_command *const commands[] = {
	&up_cmd,    &down_cmd,	  &info_cmd, &ids_cmd,	&run_cmd, &build_cmd,
	&bench_cmd, &kernels_cmd, &demo_cmd, &help_cmd, NULL,
};

static int help_early(const cli_opts *o)
{
	const cli_command *c = o->kernel ? cli_find(commands, o->kernel) : NULL;
	if (o->kernel && !c)
		return cli_die(HP_INVALID_VALUE,
			       "unknown command '%s' (see hartpool --help)",
			       o->kernel);
	if (c)
		cli_help(stdout, c);
	else
		cli_usage(stdout, commands);
	return 0;
}

/* A command on several devices (--devices N, several --connect). */
static int run_on_devices(const cli_command *c, const cli_opts *o, unsigned n)
{
	if (!c->run_devices)
		return cli_die(HP_INVALID_VALUE,
			       "%s takes one device, not %u (several --connect "
			       "are for run and info)",
			       c->name, n);
	hp_device *d[CLI_MAX_DEVICES];
	if (cli_open_devices(o, n, d))
		return 1;
	int rc = c->run_devices(d, n, o);
	fflush(stdout);
	for (unsigned k = 0; k < n; k++)
		hp_close(d[k]);
	return rc;
}

int main(int argc, char **argv)
{
	const cli_command *c = argc > 1 ? cli_find(commands, argv[1]) : NULL;
	if (c && c->main)
		return c->main(c, argc - 1, argv + 1);
	cli_opts o = {
		.work_dim = -1,
		.repeat = 1,
		.printf_size = 65536,
		.count = 2000,
		.print_max = 64,
	};
	int rc = cli_parse(commands, argc, argv, &o, &c);
	if (rc >= 0)
		return rc;
	o.r.work_dim = o.work_dim >= 0 ? (unsigned)o.work_dim : o.nglobal;
	if (c->early && (rc = c->early(&o)) >= 0)
		return rc;
	if (!c->run)
		return 0;
	unsigned n = cli_device_count(&o);
	if (!n)
		return 1;
	if (n > 1)
		return run_on_devices(c, &o, n);
	hp_device *d;
	if (cli_open_device(&o, c->detach, c->ending, &d))
		return 1;
	rc = c->run(d, &o);
	fflush(stdout);
	hp_close(d);
	return rc;
}
