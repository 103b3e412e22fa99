// SPDX-License-Identifier: MIT
/* The build cache (cache.h): keys, lookups, and keeping built objects. */
#define _GNU_SOURCE
#include "cache.h"
#include "compile.h"
#include "job.h"
#include "prebuilt.h"
#include "sha256.h"
#include "tools.h"
#include <dlfcn.h>
#include <errno.h>
#include <hartpool/api.h>
#include <hartpool/mbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file's identity: what a new version of it changes. */
static void add_file(clc_sha256 *s, const char *path)
{
	struct stat st;
	uint64_t v[5] = {0};
	if (path && !stat(path, &st)) {
		v[0] = (uint64_t)st.st_dev;
		v[1] = (uint64_t)st.st_ino;
		v[2] = (uint64_t)st.st_size;
		v[3] = (uint64_t)st.st_mtim.tv_sec;
		v[4] = (uint64_t)st.st_mtim.tv_nsec;
	}
	clc_sha256_str(s, "file", path);
	clc_sha256_add(s, v, sizeof(v));
}

bool clc_cache_key(const clc_job *j, char key[65])
{
	char dir[1100];
	if (!clc_cache_on() || !clc_cache_dir(dir, sizeof(dir)))
		return false;
	const hp_cl_build_options *o = j->o;
	clc_sha256 s;
	clc_sha256_init(&s);
	uint32_t ver[3] = {1, HP_MBOX_VERSION, HP_API_VERSION};
	clc_sha256_add(&s, ver, sizeof(ver));
	clc_sha256_request(&s, o);
	clc_sha256_str(&s, "arch", j->b.arch);
	clc_sha256_str(&s, "libarch", j->b.libarch);
	clc_sha256_str(&s, "abi", j->b.abi);
	/* the tools and data the object comes from */
	char p[1200];
	add_file(&s, j->cc);
	if (o->il && clc_translator())
		add_file(&s, clc_translator());
	add_file(&s, j->libbc);
	add_file(&s, "/usr/bin/riscv64-unknown-elf-gcc");
	add_file(&s, "/usr/lib/picolibc/riscv64-unknown-elf/lib/libc.a");
	static const char *const data[] = {
		"linker/object.ld", "include/hartpool/kernel.h",
		"include/hartpool/api.h", "include/hartpool/object.h"};
	for (size_t i = 0; i < sizeof(data) / sizeof(data[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", clc_root(), data[i]);
		add_file(&s, p);
	}
	/* and this code (the library or program it is linked into) */
	Dl_info di;
	if (dladdr((void *)clc_cache_key, &di) && di.dli_fname)
		add_file(&s, di.dli_fname);
	clc_sha256_hex(&s, key);
	return true;
}

static void path_of(char *out, size_t n, const char *key, const char *ext)
{
	char dir[1100];
	if (!clc_cache_dir(dir, sizeof(dir)))
		dir[0] = 0;
	snprintf(out, n, "%s/%s.%s", dir, key, ext);
}

bool clc_cache_get(const char *key, void **hpk, size_t *size, char **log,
		   const char *elf_path)
{
	char p[1200];
	size_t n = 0, ln = 0, en = 0;
	path_of(p, sizeof(p), key, "hpk");
	uint8_t *obj = clc_read_all(p, &n);
	path_of(p, sizeof(p), key, "log");
	uint8_t *l = obj ? clc_read_all(p, &ln) : NULL;
	uint8_t *elf = NULL;
	if (l && elf_path) {
		path_of(p, sizeof(p), key, "elf");
		elf = clc_read_all(p, &en);
	}
	if (!obj || !n || !l ||
	    (elf_path && (!elf || clc_write_all(elf_path, elf, en)))) {
		free(obj);
		free(l);
		free(elf);
		return false;
	}
	free(elf);
	*hpk = obj;
	*size = n;
	*log = (char *)l; /* read_all ends it with a NUL */
	return true;
}

/* Write @p path as a whole: a temporary file renamed over it. */
static void put_file(const char *key, const char *ext, const void *b, size_t n)
{
	char p[1200], tmp[1300];
	path_of(p, sizeof(p), key, ext);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", p, (int)getpid());
	if (clc_write_all(tmp, b, n) || rename(tmp, p))
		unlink(tmp);
}

void clc_cache_put(const char *key, const void *hpk, size_t size,
		   const char *log, const char *elf_path)
{
	size_t en = 0;
	uint8_t *elf = elf_path ? clc_read_all(elf_path, &en) : NULL;
	if (elf_path && !elf)
		return;
	if (elf)
		put_file(key, "elf", elf, en);
	free(elf);
	put_file(key, "log", log ? log : "", log ? strlen(log) : 0);
	/* the object last: a lookup finds it only with the rest */
	put_file(key, "hpk", hpk, size);
}
