// SPDX-License-Identifier: MIT
/* The build cache (cache.h): keys, lookups, and keeping built objects. */
#define _GNU_SOURCE
#include "cache.h"
#include "job.h"
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

/* The folder, made if need be: $HARTPOOL_CACHE_DIR, else
 * $XDG_CACHE_HOME/hartpool/kernels, else ~/.cache/hartpool/kernels. */
static bool cache_dir(char *out, size_t n)
{
	const char *d = getenv("HARTPOOL_CACHE_DIR"), *x, *h;
	if (d && *d)
		snprintf(out, n, "%s", d);
	else if ((x = getenv("XDG_CACHE_HOME")) && *x)
		snprintf(out, n, "%s/hartpool/kernels", x);
	else if ((h = getenv("HOME")) && *h)
		snprintf(out, n, "%s/.cache/hartpool/kernels", h);
	else
		return false;
	/* mkdir -p */
	for (char *p = out + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = 0;
		int rc = mkdir(out, 0700);
		*p = c;
		if (rc && errno != EEXIST)
			return false;
		if (!c)
			return true;
	}
}

static bool cache_on(void)
{
	const char *e = getenv("HARTPOOL_CACHE");
	return !e || (strcmp(e, "0") && strcmp(e, "off") && strcmp(e, "no"));
}

static void add_str(clc_sha256 *s, const char *tag, const char *v)
{
	uint64_t n = v ? strlen(v) : 0;
	clc_sha256_add(s, tag, strlen(tag) + 1);
	clc_sha256_add(s, &n, sizeof(n));
	if (n)
		clc_sha256_add(s, v, n);
}

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
	add_str(s, "file", path);
	clc_sha256_add(s, v, sizeof(v));
}

bool clc_cache_key(const clc_job *j, char key[65])
{
	char dir[1100];
	if (!cache_on() || !cache_dir(dir, sizeof(dir)))
		return false;
	const hp_cl_build_options *o = j->o;
	clc_sha256 s;
	clc_sha256_init(&s);
	uint32_t ver[3] = {1, HP_MBOX_VERSION, HP_API_VERSION};
	clc_sha256_add(&s, ver, sizeof(ver));
	add_str(&s, "options", o->options);
	add_str(&s, "board", o->board ? o->board : "qemu-virt");
	add_str(&s, "arch", j->b.arch);
	add_str(&s, "libarch", j->b.libarch);
	add_str(&s, "abi", j->b.abi);
	add_str(&s, "name", o->source_name);
	uint64_t lim[2] = {o->local_mem_size, o->count};
	clc_sha256_add(&s, lim, sizeof(lim));
	for (unsigned i = 0; i < o->count; i++) {
		uint64_t n = o->lengths && o->lengths[i]
				     ? o->lengths[i]
				     : strlen(o->sources[i]);
		clc_sha256_add(&s, &n, sizeof(n));
		clc_sha256_add(&s, o->sources[i], n);
	}
	/* the tools and data the object comes from */
	char p[1200];
	add_file(&s, j->cc);
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

/* Quiet file reads and writes (a cache that cannot work costs time only,
 * never a message): the whole file, malloc'd, NUL after its bytes. */
static uint8_t *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *b = NULL;
	if (f && !fstat(fileno(f), &st) && st.st_size >= 0 &&
	    (b = malloc((size_t)st.st_size + 1)) &&
	    fread(b, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		free(b);
		b = NULL;
	}
	if (b) {
		b[st.st_size] = 0;
		*n = (size_t)st.st_size;
	}
	if (f)
		fclose(f);
	return b;
}

static int write_all(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	int bad = !f || fwrite(b, 1, n, f) != n;
	if (f && fclose(f))
		bad = 1;
	return bad;
}

static void path_of(char *out, size_t n, const char *key, const char *ext)
{
	char dir[1100];
	if (!cache_dir(dir, sizeof(dir)))
		dir[0] = 0;
	snprintf(out, n, "%s/%s.%s", dir, key, ext);
}

bool clc_cache_get(const char *key, void **hpk, size_t *size, char **log,
		   const char *elf_path)
{
	char p[1200];
	size_t n = 0, ln = 0, en = 0;
	path_of(p, sizeof(p), key, "hpk");
	uint8_t *obj = read_all(p, &n);
	path_of(p, sizeof(p), key, "log");
	uint8_t *l = obj ? read_all(p, &ln) : NULL;
	uint8_t *elf = NULL;
	if (l && elf_path) {
		path_of(p, sizeof(p), key, "elf");
		elf = read_all(p, &en);
	}
	if (!obj || !n || !l ||
	    (elf_path && (!elf || write_all(elf_path, elf, en)))) {
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
	if (write_all(tmp, b, n) || rename(tmp, p))
		unlink(tmp);
}

void clc_cache_put(const char *key, const void *hpk, size_t size,
		   const char *log, const char *elf_path)
{
	size_t en = 0;
	uint8_t *elf = elf_path ? read_all(elf_path, &en) : NULL;
	if (elf_path && !elf)
		return;
	if (elf)
		put_file(key, "elf", elf, en);
	free(elf);
	put_file(key, "log", log ? log : "", log ? strlen(log) : 0);
	/* the object last: a lookup finds it only with the rest */
	put_file(key, "hpk", hpk, size);
}
