// SPDX-License-Identifier: MIT
/* The cache's folder and files, and the prebuilt store (prebuilt.h). */
#define _GNU_SOURCE
#include "prebuilt.h"
#include <errno.h>
#include <hartpool/api.h>
#include <hartpool/mbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool clc_cache_on(void)
{
	const char *e = getenv("HARTPOOL_CACHE");
	return !e || (strcmp(e, "0") && strcmp(e, "off") && strcmp(e, "no"));
}

/* mkdir -p @p path (changed and restored in place) */
static bool mkdirs(char *path)
{
	for (char *p = path + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = 0;
		int rc = mkdir(path, 0700);
		*p = c;
		if (rc && errno != EEXIST)
			return false;
		if (!c)
			return true;
	}
}

bool clc_cache_dir(char *out, size_t n)
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
	return mkdirs(out);
}

uint8_t *clc_read_all(const char *path, size_t *n)
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

int clc_write_all(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	int bad = !f || fwrite(b, 1, n, f) != n;
	if (f && fclose(f))
		bad = 1;
	return bad;
}

void clc_sha256_str(clc_sha256 *s, const char *tag, const char *v)
{
	uint64_t n = v ? strlen(v) : 0;
	clc_sha256_add(s, tag, strlen(tag) + 1);
	clc_sha256_add(s, &n, sizeof(n));
	if (n)
		clc_sha256_add(s, v, n);
}

void clc_sha256_request(clc_sha256 *s, const hp_cl_build_options *o)
{
	clc_sha256_str(s, "options", o->options);
	clc_sha256_str(s, "board", o->board ? o->board : "qemu-virt");
	clc_sha256_str(s, "name", o->source_name);
	uint64_t lim[2] = {o->local_mem_size, o->count};
	clc_sha256_add(s, lim, sizeof(lim));
	uint64_t mode = o->mode;
	clc_sha256_add(s, &mode, sizeof(mode));
	for (unsigned i = 0; i < o->num_headers; i++) {
		uint64_t n = o->header_lengths && o->header_lengths[i]
				     ? o->header_lengths[i]
				     : strlen(o->header_sources[i]);
		clc_sha256_str(s, "header", o->header_names[i]);
		clc_sha256_add(s, &n, sizeof(n));
		clc_sha256_add(s, o->header_sources[i], n);
	}
	for (unsigned i = 0; i < o->num_objects; i++) {
		uint64_t n = o->object_sizes[i];
		clc_sha256_str(s, "object", "");
		clc_sha256_add(s, &n, sizeof(n));
		clc_sha256_add(s, o->objects[i], n);
	}
	if (o->il) {
		uint64_t n = o->il_size;
		clc_sha256_str(s, "il", "spirv");
		clc_sha256_add(s, &n, sizeof(n));
		clc_sha256_add(s, o->il, o->il_size);
	}
	for (unsigned i = 0; o->sources && i < o->count; i++) {
		uint64_t n = o->lengths && o->lengths[i]
				     ? o->lengths[i]
				     : strlen(o->sources[i]);
		clc_sha256_add(s, &n, sizeof(n));
		clc_sha256_add(s, o->sources[i], n);
	}
}

/* What the build was asked, hashed: the same on every host. */
static void key_of(const hp_cl_build_options *o, char key[65])
{
	clc_sha256 s;
	clc_sha256_init(&s);
	clc_sha256_str(&s, "prebuilt", "1");
	/* an object works with the firmware of its interface versions; a
	 * newer build of the same request replaces it */
	uint32_t ver[2] = {HP_MBOX_VERSION, HP_API_VERSION};
	clc_sha256_add(&s, ver, sizeof(ver));
	clc_sha256_request(&s, o);
	clc_sha256_hex(&s, key);
}

void clc_prebuilt_dir(const char *board, char *out, size_t n)
{
	const char *d = getenv("HARTPOOL_PREBUILT_DIR");
	char dir[1100];
	if (d && *d)
		snprintf(out, n, "%s/%s", d, board ? board : "qemu-virt");
	else if (clc_cache_dir(dir, sizeof(dir)))
		snprintf(out, n, "%s/prebuilt/%s", dir,
			 board ? board : "qemu-virt");
	else
		snprintf(out, n, "prebuilt/%s", board ? board : "qemu-virt");
}

void clc_prebuilt_put(const hp_cl_build_options *o, const void *hpk,
		      size_t size, const char *log)
{
	char dir[1200], key[65], p[1300], tmp[1320];
	if (!clc_cache_on() || !clc_cache_dir(dir, sizeof(dir)))
		return;
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/prebuilt/%s",
		 o->board ? o->board : "qemu-virt");
	if (!mkdirs(dir))
		return;
	key_of(o, key);
	/* the same object there already (a build from the cache): kept */
	size_t have_n = 0;
	snprintf(p, sizeof(p), "%s/%s.hpk", dir, key);
	uint8_t *have = clc_read_all(p, &have_n);
	bool same = have && have_n == size && !memcmp(have, hpk, size);
	free(have);
	if (same)
		return;
	static const char *const ext[] = {"log", "hpk"};
	const void *b[] = {log ? log : "", hpk};
	size_t n[] = {log ? strlen(log) : 0, size};
	/* the object last: a lookup finds it only with its log */
	for (unsigned i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/%s.%s", dir, key, ext[i]);
		snprintf(tmp, sizeof(tmp), "%s.%d", p, (int)getpid());
		if (clc_write_all(tmp, b[i], n[i]) || rename(tmp, p)) {
			unlink(tmp);
			return;
		}
	}
}

bool clc_prebuilt_get(const hp_cl_build_options *o, void **hpk, size_t *size,
		      char **log)
{
	char dir[1200], key[65], p[1300];
	clc_prebuilt_dir(o->board, dir, sizeof(dir));
	key_of(o, key);
	size_t n = 0, ln = 0;
	snprintf(p, sizeof(p), "%s/%s.hpk", dir, key);
	uint8_t *obj = clc_read_all(p, &n);
	snprintf(p, sizeof(p), "%s/%s.log", dir, key);
	uint8_t *l = obj ? clc_read_all(p, &ln) : NULL;
	if (!obj || !n || !l) {
		free(obj);
		free(l);
		return false;
	}
	*hpk = obj;
	*size = n;
	*log = (char *)l;
	return true;
}
