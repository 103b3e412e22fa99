// SPDX-License-Identifier: MIT
/*
 * The build's tools (tools.h): the boards' ISAs from the typed board table
 * (hartpool_boards.h), running the compilers and linkers into the build's
 * log, reading and writing files. Every stage of the kernel compiler
 * (job.h) and `hartpool build` of C sources (objlink.c) use them.
 */
#define _GNU_SOURCE
#include "tools.h"
#include "fail.h"
#include <elf.h>
#include <errno.h>
#include <hartpool/api.h>
#include <hartpool/error.h>
#include <hartpool/frame.h>
#include <hartpool/kernel.h>
#include <hartpool/object.h>
#include <hartpool_boards.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *clc_root(void)
{
	return hp_data_dir();
}

int clc_run(clc_log *l, char *const argv[])
{
	if (getenv("HARTPOOL_BUILD_VERBOSE")) {
		for (unsigned i = 0; argv[i]; i++)
			fprintf(stderr, "%s%s", i ? " " : "", argv[i]);
		fputc('\n', stderr);
	}
	/* The child's messages go to the log: through a file, read back. */
	FILE *log = l ? l->f : NULL;
	FILE *cap = log ? tmpfile() : NULL;
	if (log && !cap)
		fprintf(log,
			"hartpool: build: cannot capture the messages of %s "
			"(tmpfile: %s): they go to stderr\n",
			argv[0], strerror(errno));
	fflush(clc_out(l));
	pid_t pid = fork();
	if (pid < 0) {
		if (cap)
			fclose(cap);
		return -1;
	}
	if (pid == 0) {
		if (cap) {
			dup2(fileno(cap), 1);
			dup2(fileno(cap), 2);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "hartpool: build: cannot run %s: %s%s\n",
			argv[0], strerror(errno),
			errno == ENOENT ? " (install gcc-riscv64-unknown-elf "
					  "and picolibc-riscv64-unknown-elf)"
					: "");
		_exit(127);
	}
	int st, rc = 0;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			rc = -1;
			break;
		}
	if (cap) {
		char buf[4096];
		size_t n;
		rewind(cap);
		while ((n = fread(buf, 1, sizeof(buf), cap)) > 0)
			fwrite(buf, 1, n, log);
		fclose(cap);
	}
	if (rc)
		return rc;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int clc_write(clc_log *l, const char *path, const void *b, size_t n)
{
	FILE *o = fopen(path, "wb");
	int rc = !o || fwrite(b, 1, n, o) != n;
	if (o && fclose(o))
		rc = 1;
	return rc ? clc_fail(l, HP_OUT_OF_RESOURCES, "cannot write %s: %s",
			     path, strerror(errno))
		  : 0;
}

uint8_t *clc_slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat sb;
	uint8_t *b = NULL;
	if (!fstat(fileno(f), &sb) && sb.st_size > 0 &&
	    (b = malloc((size_t)sb.st_size + 1)) &&
	    fread(b, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
		free(b);
		b = NULL;
	}
	if (b)
		b[sb.st_size] = 0;
	fclose(f);
	*n = b ? (size_t)sb.st_size : 0;
	return b;
}

int clc_board_get(clc_log *l, const char *board, clc_board *o)
{
	const hp_board_info *b = hp_board_find(board);
	memset(o, 0, sizeof(*o));
	if (!b || !*b->arch || !*b->abi || !b->xlen)
		return clc_fail(l, HP_INVALID_VALUE,
				"no board '%s' (the boards: %s)", board,
				hp_board_names((char[512]){0}, 512));
	snprintf(o->arch, sizeof(o->arch), "%s", b->arch);
	snprintf(o->abi, sizeof(o->abi), "%s", b->abi);
	o->xlen = b->xlen;
	/* The ISA that selects the picolibc/libgcc multilib for linking. */
	snprintf(o->libarch, sizeof(o->libarch), "%s",
		 *b->lib_arch ? b->lib_arch : b->arch);
	return 0;
}
