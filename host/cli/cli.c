// SPDX-License-Identifier: MIT
/*
 * The hartpool CLI's plumbing (cli.h): the parser and the help text, both
 * driven by the command table of hartpool.c, and what the commands share:
 * errors in one format, opening the device, gdb hints, progress lines and
 * JSON strings.
 */
#include "cli.h"
#include <hartpool_boards.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Help text: the option or command, then its help from this column on. */
#define HELP_COLUMN 21

/* ---- the table ---- */

const cli_command *cli_find(const cli_command *const *table, const char *name)
{
	for (unsigned i = 0; table[i]; i++)
		if (!strcmp(table[i]->name, name))
			return table[i];
	return NULL;
}

/* Does command @p c take option @p opt? */
static bool takes(const cli_command *c, const cli_option *opt)
{
	for (unsigned g = 0; c->groups && c->groups[g]; g++)
		for (const cli_option *o = c->groups[g]->options; o->name; o++)
			if (o == opt)
				return true;
	return false;
}

/* The option called @p name of the commands cli_parse() reads, or NULL. */
static const cli_option *any_option(const cli_command *const *table,
				    const char *name)
{
	for (unsigned i = 0; table[i]; i++) {
		const cli_command *c = table[i];
		for (unsigned g = 0; !c->main && c->groups && c->groups[g]; g++)
			for (const cli_option *o = c->groups[g]->options;
			     o->name; o++)
				if (!strcmp(o->name, name))
					return o;
	}
	return NULL;
}

/* ---- parsing ---- */

int cli_parse(const cli_command *const *table, int argc, char **argv,
	      cli_opts *o, const cli_command **cmd)
{
	/* Options are parsed (and their values checked) as they come, for
	 * any command; whether this command takes them is checked after. */
	const cli_option *given[argc > 0 ? argc : 1];
	unsigned ngiven = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			const cli_command *c =
				o->cmd ? cli_find(table, o->cmd) : NULL;
			if (c && !c->main)
				cli_help(stdout, c);
			else
				cli_usage(stdout, table);
			return 0;
		}
		if (a[0] != '-') {
			if (!o->cmd)
				o->cmd = a;
			else if (!o->kernel)
				o->kernel = a;
			else
				return cli_die(HP_INVALID_VALUE,
					       "unexpected argument '%s'", a);
			continue;
		}
		const cli_option *opt = any_option(table, a);
		if (!opt)
			return cli_die(HP_INVALID_VALUE, "unknown option %s",
				       a);
		if (opt->takes == CLI_VALUE) {
			if (!v)
				return cli_die(HP_INVALID_VALUE,
					       "%s needs a value", a);
			i++;
		} else if (opt->takes == CLI_OPT_NUMBER && v && v[0] >= '0' &&
			   v[0] <= '9') {
			i++;
		} else {
			v = NULL;
		}
		if (opt->set(o, opt, v))
			return 1;
		given[ngiven++] = opt;
	}
	if (!o->cmd) {
		cli_usage(stderr, table);
		return 1;
	}
	/* A command with its own parser is one only as the first word. */
	const cli_command *c = cli_find(table, o->cmd);
	if (!c || c->main)
		return cli_die(HP_INVALID_VALUE,
			       "unknown command '%s' (see hartpool --help)",
			       o->cmd);
	for (unsigned k = 0; k < ngiven; k++)
		if (!takes(c, given[k]))
			return cli_die(
				HP_INVALID_VALUE,
				"%s is not an option of %s (see hartpool "
				"%s --help)",
				given[k]->name, c->name, c->name);
	if (o->kernel && !c->operands)
		return cli_die(HP_INVALID_VALUE, "unexpected argument '%s'",
			       o->kernel);
	*cmd = c;
	return -1;
}

static void *field(cli_opts *o, const cli_option *opt)
{
	return (char *)o + opt->field;
}

int cli_set_flag(cli_opts *o, const cli_option *opt, const char *value)
{
	(void)value;
	*(bool *)field(o, opt) = true;
	return 0;
}

int cli_set_str(cli_opts *o, const cli_option *opt, const char *value)
{
	*(const char **)field(o, opt) = value;
	return 0;
}

int cli_set_u32(cli_opts *o, const cli_option *opt, const char *value)
{
	*(uint32_t *)field(o, opt) = (uint32_t)strtoul(value, NULL, 0);
	return 0;
}

int cli_set_ulong(cli_opts *o, const cli_option *opt, const char *value)
{
	*(unsigned long *)field(o, opt) = strtoul(value, NULL, 0);
	return 0;
}

int cli_set_u64(cli_opts *o, const cli_option *opt, const char *value)
{
	*(uint64_t *)field(o, opt) = strtoull(value, NULL, 0);
	return 0;
}

/* ---- help ---- */

/* "  LEFT   help", the help from HELP_COLUMN on (on the next line if LEFT
 * reaches it), each "\n" of it starting a line there. */
static void help_row(FILE *f, const char *left, const char *help)
{
	int pad = HELP_COLUMN - 3;
	if ((int)strlen(left) <= pad)
		fprintf(f, "  %-*s ", pad, left);
	else
		fprintf(f, "  %s\n%*s", left, HELP_COLUMN, "");
	for (const char *p = help; *p; p++) {
		fputc(*p, f);
		if (*p == '\n')
			fprintf(f, "%*s", HELP_COLUMN, "");
	}
	fputc('\n', f);
}

static void option_rows(FILE *f, const cli_group *g)
{
	for (const cli_option *o = g->options; o->name; o++) {
		char left[96];
		if (o->takes == CLI_FLAG)
			snprintf(left, sizeof(left), "%s", o->name);
		else
			snprintf(left, sizeof(left),
				 o->takes == CLI_OPT_NUMBER ? "%s [%s]"
							    : "%s %s",
				 o->name, o->value);
		help_row(f, left, o->help);
	}
}

static bool uses(const cli_command *c, const cli_group *g)
{
	for (unsigned k = 0; c->groups && c->groups[k]; k++)
		if (c->groups[k] == g)
			return true;
	return false;
}

void cli_usage(FILE *f, const cli_command *const *table)
{
	fprintf(f, "usage: hartpool COMMAND [options]\n\ncommands:\n");
	for (unsigned i = 0; table[i]; i++) {
		char left[96];
		snprintf(left, sizeof(left), "%s%s%s", table[i]->name,
			 table[i]->operands ? " " : "",
			 table[i]->operands ? table[i]->operands : "");
		help_row(f, left, table[i]->summary);
	}
	/* Every group once, where it first appears, with its commands. */
	for (unsigned i = 0; table[i]; i++)
		for (unsigned k = 0; table[i]->groups && table[i]->groups[k];
		     k++) {
			const cli_group *g = table[i]->groups[k];
			bool first = true;
			for (unsigned j = 0; j < i; j++)
				first &= !uses(table[j], g);
			if (!first)
				continue;
			fprintf(f, "\n%s (", g->title);
			for (unsigned j = i, n = 0; table[j]; j++)
				if (uses(table[j], g))
					fprintf(f, "%s%s", n++ ? ", " : "",
						table[j]->name);
			fprintf(f, "):\n");
			option_rows(f, g);
		}
	fprintf(f, "\n`hartpool COMMAND --help` shows what one command "
		   "takes.\n");
}

void cli_help(FILE *f, const cli_command *c)
{
	bool opts = c->groups && c->groups[0];
	fprintf(f, "usage: hartpool %s%s%s%s\n%s\n", c->name,
		opts ? " [options]" : "", c->operands ? " " : "",
		c->operands ? c->operands : "", c->summary);
	if (c->about)
		fprintf(f, "%s\n", c->about);
	for (unsigned k = 0; opts && c->groups[k]; k++) {
		fprintf(f, "\n%s:\n", c->groups[k]->title);
		option_rows(f, c->groups[k]);
	}
	fprintf(f, "\n");
	help_row(f, "-h, --help", "this text");
}

/* ---- what the commands share ---- */

int cli_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "hartpool: %s: ", hp_error_name(code));
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 1;
}

int cli_lib_fail(int code)
{
	return cli_die(code, "%s", hp_last_error());
}

/* The port of QEMU's gdb stub for devices this tool boots with --gdb. */
static const char *gdb_port(void)
{
	const char *p = getenv("HP_QEMU_GDB");
	return p && *p ? p : "1234";
}

void cli_gdb_hint(const cli_opts *o, const char *kfile, uint64_t addr)
{
	const char *board = o->board ? o->board : "qemu-virt";
	fprintf(stderr,
		"hartpool: attach gdb with:\n  gdb-multiarch "
		"%s/build/%s/hartpool.elf -ex 'target remote :%s'",
		hp_data_dir(), board, gdb_port());
	if (kfile) {
		/* The symbols: NAME.elf of `hartpool build`, beside NAME.hpk.
		 */
		size_t l = strlen(kfile);
		int stem = l > 4 && !strcmp(kfile + l - 4, ".hpk")
				   ? (int)(l - 4)
				   : (int)l;
		fprintf(stderr, " -ex 'add-symbol-file %.*s.elf -o 0x%llx'",
			stem, kfile, (unsigned long long)addr);
	}
	fputc('\n', stderr);
}

int cli_open_device(const cli_opts *o, bool detach, bool ending, hp_device **d)
{
	if (o->gdb && !o->connect)
		setenv("HP_QEMU_GDB", gdb_port(), 1);
	/* up --quota: bootargs after --append's. */
	char append[1024];
	snprintf(append, sizeof(append), "%s%s%s", o->append ? o->append : "",
		 o->append && o->quota_args[0] ? " " : "", o->quota_args);
	hp_open_options oo = {
		.connect = o->connect,
		.board = o->board,
		.harts = o->harts,
		.append = append[0] ? append : NULL,
		.boot = o->boot,
		.mem_size = o->mem_size,
		.detach = detach,
		.ending = ending,
		.count_file = getenv("HP_QEMU_COUNT"),
	};
	int rc = hp_open(&oo, d);
	return rc ? cli_lib_fail(rc) : 0;
}

unsigned cli_device_count(const cli_opts *o)
{
	if (o->devices && o->num_connects && o->devices != o->num_connects) {
		cli_die(HP_INVALID_VALUE,
			"--devices %u with %u --connect: give one --connect "
			"per "
			"device, or none to boot %u devices",
			o->devices, o->num_connects, o->devices);
		return 0;
	}
	if (o->devices)
		return o->devices;
	return o->num_connects ? o->num_connects : 1;
}

int cli_open_devices(const cli_opts *o, unsigned n, hp_device **d)
{
	if (o->gdb)
		return cli_die(HP_INVALID_VALUE,
			       "--gdb is for one device, not %u (QEMU's gdb "
			       "stub has one port)",
			       n);
	for (unsigned k = 0; k < n; k++) {
		const char *conn = o->num_connects ? o->connects[k] : NULL;
		hp_open_options oo = {
			.connect = conn,
			.board = o->board,
			.harts = o->harts,
			.append = o->append,
			.boot = o->boot,
			.mem_size = o->mem_size,
			.count_file = getenv("HP_QEMU_COUNT"),
		};
		int rc = hp_open(&oo, &d[k]);
		if (!rc)
			continue;
		/* the message first: closing the others may set another */
		char why[512];
		snprintf(why, sizeof(why), "%s", hp_last_error());
		for (unsigned j = 0; j < k; j++)
			hp_close(d[j]);
		if (conn)
			return cli_die(rc, "device %u of %u (--connect %s): %s",
				       k, n, conn, why);
		return cli_die(rc, "device %u of %u (booting %s): %s", k, n,
			       o->board ? o->board : "qemu-virt", why);
	}
	return 0;
}

double cli_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void cli_progress(const char *what, unsigned long done, unsigned long all)
{
	static double last;
	if (!isatty(2))
		return;
	double t = cli_now_us();
	if (done < all && t - last < 100000)
		return;
	last = t;
	fprintf(stderr, "\r%s %lu/%lu (%lu%%)%s", what, done, all,
		all ? done * 100 / all : 100, done >= all ? "\n" : "");
}

void cli_json_str(const char *str, size_t n)
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
