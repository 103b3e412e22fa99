// SPDX-License-Identifier: MIT
/*
 * `hartpool build`: kernel sources -> a kernel object (.hpk,
 * docs/kernel-objects.md). C sources (against hartpool/kernel.h) build with
 * the cross gcc (host/clc/objlink.c); OpenCL C sources (.cl) with clang-19
 * and SPIR-V modules (.spv) with the translator, through hp_cl_build
 * (host/clc/clc.c, docs/opencl.md).
 */
#include "build.h"
#include <hartpool.h>
#include <hartpool_boards.h>
#include <hartpool_cl.h>
#include <objlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parsed by cmd_build() itself: compiler-style, -IDIR and -O2 in one. */
static const cli_option build_rows[] = {
	{.name = "--board",
	 .takes = CLI_VALUE,
	 .value = "B",
	 .help = "board to build for (its -march, -mabi; default qemu-virt)"},
	{.name = "-I",
	 .takes = CLI_VALUE,
	 .value = "DIR",
	 .help = "include directory for the sources (-IDIR too)"},
	{.name = "-D",
	 .takes = CLI_VALUE,
	 .value = "NAME[=V]",
	 .help = "define a macro (-DNAME[=V] too)"},
	{.name = "-OLEVEL", .help = "optimisation, as for gcc (default -O2)"},
	{.name = "-cl-...",
	 .help = ".cl sources: OpenCL build options (-cl-std=CL3.0, "
		 "-cl-opt-disable, ...: docs/opencl.md)"},
	{.name = "-o",
	 .takes = CLI_VALUE,
	 .value = "OUT.hpk",
	 .help = "the kernel object to write (and OUT.elf)"},
	{.name = NULL},
};

const cli_group build_options = {"build options", build_rows};

static int usage_err(const char *fmt, const char *a)
{
	fprintf(stderr,
		"hartpool: %s: build: ", hp_error_name(HP_INVALID_VALUE));
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	return 1;
}

static bool is_cl(const char *p)
{
	size_t n = strlen(p);
	return (n > 3 && !strcmp(p + n - 3, ".cl")) ||
	       (n > 4 && !strcmp(p + n - 4, ".spv"));
}

static bool is_spv(const char *p)
{
	size_t n = strlen(p);
	return n > 4 && !strcmp(p + n - 4, ".spv");
}

/* OpenCL C: one program from the .cl sources, or a SPIR-V module (.spv,
 * alone). */
static int build_cl(const char *board, const char *const *srcs, unsigned ns,
		    const char *const *extra, unsigned ne, const char *out)
{
	char opts[4096] = "";
	size_t ol = 0;
	for (unsigned i = 0; i < ne && ol < sizeof(opts) - 1; i++)
		ol += (size_t)snprintf(opts + ol, sizeof(opts) - ol, "%s%s",
				       i ? " " : "", extra[i]);
	char *text[64];
	size_t len0 = 0;
	unsigned nt = 0;
	int rc = 0;
	bool spv = is_spv(srcs[0]);
	if (spv && ns > 1)
		return usage_err("%s: a SPIR-V module is built alone", srcs[0]);
	for (; nt < ns; nt++) {
		size_t n;
		text[nt] = (char *)clc_slurp(srcs[nt], &n);
		if (!nt)
			len0 = n;
		if (!text[nt]) {
			rc = usage_err("cannot read %s", srcs[nt]);
			break;
		}
	}
	char elfout[1100];
	size_t l = strlen(out);
	if (l > 4 && !strcmp(out + l - 4, ".hpk"))
		snprintf(elfout, sizeof(elfout), "%.*s.elf", (int)(l - 4), out);
	else
		snprintf(elfout, sizeof(elfout), "%s.elf", out);
	if (!rc) {
		bool cached = false;
		hp_cl_build_options o = {
			.board = board,
			.options = opts,
			.sources = (const char *const *)text,
			.count = ns,
			.source_name = ns == 1 ? srcs[0] : NULL,
			.elf_path = elfout,
			.from_cache = &cached,
		};
		if (spv) {
			o.il = text[0], o.il_size = len0;
			o.sources = NULL, o.count = 0;
		}
		void *hpk = NULL;
		size_t n = 0;
		char *log = NULL;
		int e = hp_cl_build(&o, &hpk, &n, &log);
		if (log)
			fputs(log, stderr);
		if (e) {
			/* the log says it, "hartpool: NAME: build: why" */
			if (!log || !*log)
				fprintf(stderr, "hartpool: %s: %s\n",
					hp_error_name(e), hp_last_error());
			rc = 1;
		} else {
			rc = clc_write(NULL, out, hpk, n) ? 1 : 0;
			hp_cl_program *p = NULL;
			if (!rc && !hp_cl_program_parse(hpk, n, &p))
				fprintf(stderr,
					"hartpool: built %u kernel%s, %zu "
					"bytes%s\n",
					p->num_kernels,
					p->num_kernels == 1 ? "" : "s", n,
					cached ? " (from the build cache)"
					       : "");
			hp_cl_program_free(p);
		}
		free(log);
		free(hpk);
	}
	for (unsigned i = 0; i < nt; i++)
		free(text[i]);
	return rc;
}

int cmd_build(const cli_command *self, int argc, char **argv)
{
	const char *board = "qemu-virt", *out = NULL, *opt = "-O2";
	const char *srcs[64], *extra[64];
	unsigned ns = 0, ne = 0, ncl = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cli_help(stdout, self);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--board")) {
			if (!v)
				return usage_err("%s needs a value", a);
			*(!strcmp(a, "-o") ? &out : &board) = v;
			i++;
		} else if ((!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2)) &&
			   ne < 60) {
			extra[ne++] = a;
			if (!a[2]) {
				if (!v)
					return usage_err("%s needs a value", a);
				extra[ne++] = v;
				i++;
			}
		} else if (!strncmp(a, "-cl-", 4) || !strcmp(a, "-w") ||
			   !strcmp(a, "-Werror")) {
			if (ne < 60)
				extra[ne++] = a;
		} else if (!strncmp(a, "-O", 2)) {
			opt = a;
		} else if (a[0] == '-') {
			usage_err("unknown option %s", a);
			cli_help(stderr, self);
			return 1;
		} else if (ns < 64) {
			ncl += is_cl(a);
			srcs[ns++] = a;
		}
	}
	if (!ns || !out) {
		cli_help(stderr, self);
		return 1;
	}
	if (!hp_board_find(board)) {
		char names[512];
		fprintf(stderr,
			"hartpool: %s: build: no board '%s': the boards are "
			"%s\n",
			hp_error_name(HP_INVALID_VALUE), board,
			hp_board_names(names, sizeof(names)));
		return 1;
	}
	if (ncl && ncl != ns)
		return usage_err(
			"%s: OpenCL C (.cl, .spv) and C sources cannot "
			"be mixed in one object",
			srcs[0]);
	if (ncl)
		return build_cl(board, srcs, ns, extra, ne, out);
	for (unsigned i = 0; i < ne; i++)
		if (!strncmp(extra[i], "-cl-", 4))
			return usage_err("%s is for OpenCL C (.cl) sources",
					 extra[i]);
	return clc_build_c(board, srcs, ns, extra, ne, opt, out) ? 1 : 0;
}
