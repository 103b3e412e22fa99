// SPDX-License-Identifier: MIT
/*
 * The build's tools: its log, the boards' ISAs (hartpool_boards.h), running
 * the compilers and linkers, reading and writing files. Every stage of the
 * kernel build pipeline (objbuild.h, job.h) uses them.
 */
#define _GNU_SOURCE
#include "objbuild.h"
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

__thread FILE *hpb_log;

static FILE *logf_(void)
{
	return hpb_log ? hpb_log : stderr;
}

int hpb_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(logf_(),
		"hartpool: %s: build: ", hp_error_name(HP_INVALID_BINARY));
	vfprintf(logf_(), fmt, ap);
	fputc('\n', logf_());
	va_end(ap);
	return 1;
}
#define err hpb_err

const char *clc_root(void)
{
	return hp_data_dir();
}

/* Variable KEY of board B, from the table make generated from
 * board/B/board.mk (hartpool_boards.h). */
bool hpb_board_var(const char *board, const char *key, char *out, size_t n)
{
	const hp_board_info *b = hp_board_find(board);
	const char *v = b ? hp_board_var(b, key) : NULL;
	if (!v || !*v)
		return false;
	snprintf(out, n, "%s", v);
	return true;
}

int clc_run(char *const argv[])
{
	if (getenv("HARTPOOL_BUILD_VERBOSE")) {
		for (unsigned i = 0; argv[i]; i++)
			fprintf(stderr, "%s%s", i ? " " : "", argv[i]);
		fputc('\n', stderr);
	}
	/* The child's messages go to the log: through a file, read back. */
	FILE *cap = hpb_log ? tmpfile() : NULL;
	if (hpb_log && !cap)
		fprintf(hpb_log,
			"hartpool: build: cannot capture the messages of %s "
			"(tmpfile: %s): they go to stderr\n",
			argv[0], strerror(errno));
	fflush(logf_());
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
			fwrite(buf, 1, n, hpb_log);
		fclose(cap);
	}
	if (rc)
		return rc;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int clc_write(const char *path, const void *b, size_t n)
{
	FILE *o = fopen(path, "wb");
	int rc = !o || fwrite(b, 1, n, o) != n;
	if (o && fclose(o))
		rc = 1;
	return rc ? err("cannot write %s: %s", path, strerror(errno)) : 0;
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

int clc_board_get(const char *board, clc_board *o)
{
	char xlen_s[8];
	memset(o, 0, sizeof(*o));
	if (!hpb_board_var(board, "BOARD_ARCH", o->arch, sizeof(o->arch)) ||
	    !hpb_board_var(board, "BOARD_ABI", o->abi, sizeof(o->abi)) ||
	    !hpb_board_var(board, "BOARD_XLEN", xlen_s, sizeof(xlen_s)))
		return err("no board '%s' (the boards: %s)", board,
			   hp_board_names((char[512]){0}, 512));
	o->xlen = (unsigned)atoi(xlen_s);
	/* The ISA that selects the picolibc/libgcc multilib for linking. */
	if (!hpb_board_var(board, "BOARD_LIB_ARCH", o->libarch,
			   sizeof(o->libarch)))
		snprintf(o->libarch, sizeof(o->libarch), "%s", o->arch);
	return 0;
}
