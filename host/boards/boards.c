// SPDX-License-Identifier: MIT
/*
 * The boards (hartpool_boards.h): lookups in the table make generated from
 * board/<B>/board.mk, and the folder the tools find their data in.
 */
#define _GNU_SOURCE
#include "table.h"
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef HP_ROOT
#define HP_ROOT "."
#endif

const hp_board_info *hp_board_find(const char *name)
{
	for (size_t i = 0; name && i < hp_boards_table_count; i++)
		if (!strcmp(hp_boards_table[i].name, name))
			return &hp_boards_table[i];
	return NULL;
}

size_t hp_board_count(void)
{
	return hp_boards_table_count;
}

const hp_board_info *hp_board_at(size_t i)
{
	return i < hp_boards_table_count ? &hp_boards_table[i] : NULL;
}

const char *hp_board_var(const hp_board_info *b, const char *key)
{
	for (size_t i = 0; b && key && b->vars[i][0]; i++)
		if (!strcmp(b->vars[i][0], key))
			return b->vars[i][1];
	return NULL;
}

char *hp_board_names(char *buf, size_t n)
{
	size_t l = 0;
	if (n)
		buf[0] = 0;
	for (size_t i = 0; i < hp_boards_table_count && l < n; i++) {
		int k = snprintf(buf + l, n - l, "%s%s", i ? ", " : "",
				 hp_boards_table[i].name);
		if (k < 0)
			break;
		l += (size_t)k;
	}
	return buf;
}

/* ---- the data folder ---------------------------------------------------- */

static char data_dir[PATH_MAX + 32];
static pthread_once_t data_once = PTHREAD_ONCE_INIT;

/* DIR/../share/hartpool of the file @p file (a program or library in
 * PREFIX/bin or PREFIX/lib) into data_dir, if it holds boards.txt. */
static bool beside(const char *file)
{
	char real[PATH_MAX], probe[PATH_MAX + 32];
	if (!file || !strchr(file, '/') || !realpath(file, real))
		return false;
	char *slash = strrchr(real, '/');
	*slash = 0; /* PREFIX/bin */
	slash = strrchr(real, '/');
	if (!slash)
		return false;
	*slash = 0; /* PREFIX */
	snprintf(probe, sizeof(probe), "%s/share/hartpool/boards.txt", real);
	if (access(probe, R_OK))
		return false;
	snprintf(data_dir, sizeof(data_dir), "%s/share/hartpool", real);
	return true;
}

static void find_data_dir(void)
{
	const char *env = getenv("HARTPOOL_DATA");
	if (env && *env) {
		snprintf(data_dir, sizeof(data_dir), "%s", env);
		return;
	}
	/* The library this code is in (libhartpool-icd.so, loaded by any
	 * program), then the program (the CLI, linked statically). */
	Dl_info di;
	if (dladdr((void *)hp_data_dir, &di) && beside(di.dli_fname))
		return;
	if (beside("/proc/self/exe"))
		return;
#ifdef HP_DATA_PREFIX
	/* The installed libhartpool.a: the prefix make install put it in. */
	if (!access(HP_DATA_PREFIX "/boards.txt", R_OK)) {
		snprintf(data_dir, sizeof(data_dir), "%s", HP_DATA_PREFIX);
		return;
	}
#endif
	env = getenv("HARTPOOL_ROOT");
	if (env && *env) {
		snprintf(data_dir, sizeof(data_dir), "%s", env);
		return;
	}
	/* The source tree this was built in, while it is there; else the
	 * usual prefixes (a user's program linked with an installed
	 * libhartpool.a is in neither PREFIX/bin nor PREFIX/lib). */
	static const char *const dirs[] = {"/usr/local/share/hartpool",
					   "/usr/share/hartpool"};
	const char *dir = HP_ROOT;
	if (access(HP_ROOT "/build/host/boards.txt", R_OK))
		for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
			char probe[PATH_MAX];
			snprintf(probe, sizeof(probe), "%s/boards.txt",
				 dirs[i]);
			if (!access(probe, R_OK)) {
				dir = dirs[i];
				break;
			}
		}
	snprintf(data_dir, sizeof(data_dir), "%s", dir);
}

const char *hp_data_dir(void)
{
	pthread_once(&data_once, find_data_dir);
	return data_dir;
}
