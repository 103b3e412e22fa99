// SPDX-License-Identifier: MIT
/*
 * The build options of hp_cl_build (clBuildProgram's), the compiler it
 * runs and what the board's ISA means for clang and LLVM's target: the
 * OpenCL C extensions and the target features. No LLVM here.
 */
#define _GNU_SOURCE
#include "options.h"
#include "tools.h"
#include <hartpool/error.h>
#include <hartpool_cl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- growable text ---- */

static void sb_vadd(clc_sbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || b->oom)
		return;
	if (b->n + (size_t)n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 4096) + (size_t)n;
		char *p = realloc(b->s, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->s = p, b->cap = cap;
	}
	vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
	b->n += (size_t)n;
}

void clc_sb_add(clc_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vadd(b, fmt, ap);
	va_end(ap);
}

/* ---- the compiler ---- */

const char *clc_tool(const char *env, const char *const *names, size_t n)
{
	const char *e = getenv(env);
	if (e && *e)
		return access(e, X_OK) ? NULL : e;
	for (size_t i = 0; i < n; i++)
		if (!access(names[i], X_OK))
			return names[i];
	return NULL;
}

const char *hp_cl_compiler(void)
{
	static const char *const names[] = {"/usr/bin/clang-19",
					    "/usr/lib/llvm-19/bin/clang"};
	return clc_tool("HP_CLANG", names, sizeof(names) / sizeof(names[0]));
}

/* ---- options ---- */

void clc_opts_free(clc_opts *o)
{
	for (unsigned i = 0; i < o->n; i++)
		free(o->words[i]);
}

/* The options clBuildProgram takes and clang understands as they are. */
static const char *const pass_opts[] = {
	"-cl-mad-enable",
	"-cl-no-signed-zeros",
	"-cl-unsafe-math-optimizations",
	"-cl-finite-math-only",
	"-cl-fast-relaxed-math",
	"-cl-denorms-are-zero",
	"-cl-single-precision-constant",
	"-cl-fp32-correctly-rounded-divide-sqrt",
	"-cl-uniform-work-group-size",
	"-cl-no-subgroup-ifp",
	"-w",
	"-Werror",
	"-g",
};

/* The options of a link (the specification's "linker options"). */
static const char *const link_opts[] = {
	"-cl-denorms-are-zero",		 "-cl-no-signed-zeros",
	"-cl-unsafe-math-optimizations", "-cl-finite-math-only",
	"-cl-fast-relaxed-math",	 "-cl-no-subgroup-ifp",
};

static int link_parse(char *copy, clc_opts *o, clc_sbuf *log)
{
	char *save = NULL;
	bool enable = false;
	for (char *w = strtok_r(copy, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save)) {
		bool ok = !strcmp(w, "-create-library") ||
			  !strcmp(w, "-enable-link-options");
		o->create_library |= !strcmp(w, "-create-library");
		enable |= !strcmp(w, "-enable-link-options");
		for (size_t i = 0; i < sizeof(link_opts) / sizeof(*link_opts);
		     i++)
			ok |= !strcmp(w, link_opts[i]);
		if (!ok) {
			clc_sb_add(log, "error: unknown link option '%s'\n", w);
			return HP_INVALID_BUILD_OPTIONS;
		}
	}
	if (enable && !o->create_library) {
		clc_sb_add(log, "error: -enable-link-options is for a link "
				"with -create-library\n");
		return HP_INVALID_BUILD_OPTIONS;
	}
	return 0;
}

int clc_opts_parse(const char *s, bool link, clc_opts *o, clc_sbuf *log)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->std, sizeof(o->std), "CL1.2");
	char *copy = strdup(s ? s : ""), *save = NULL;
	if (!copy)
		return HP_OUT_OF_RESOURCES;
	if (link) {
		int lr = link_parse(copy, o, log);
		free(copy);
		return lr;
	}
	int rc = 0;
	for (char *w = strtok_r(copy, " \t\n", &save); w && !rc;
	     w = strtok_r(NULL, " \t\n", &save)) {
		bool two = (!strcmp(w, "-D") || !strcmp(w, "-I"));
		if (two || !strncmp(w, "-D", 2) || !strncmp(w, "-I", 2)) {
			if (o->n + 2 > 120) {
				rc = HP_INVALID_BUILD_OPTIONS;
				break;
			}
			o->words[o->n++] = strdup(w);
			if (two) {
				char *v = strtok_r(NULL, " \t\n", &save);
				if (!v) {
					clc_sb_add(log,
						   "error: %s needs a value\n",
						   w);
					rc = HP_INVALID_BUILD_OPTIONS;
					break;
				}
				o->words[o->n++] = strdup(v);
			}
			continue;
		}
		if (!strncmp(w, "-cl-std=", 8)) {
			const char *v = w + 8;
			if (strcmp(v, "CL1.0") && strcmp(v, "CL1.1") &&
			    strcmp(v, "CL1.2") && strcmp(v, "CL3.0")) {
				clc_sb_add(
					log,
					"error: %s: the device's OpenCL C "
					"versions are 1.0, 1.1, 1.2 and 3.0\n",
					w);
				rc = HP_INVALID_BUILD_OPTIONS;
			}
			snprintf(o->std, sizeof(o->std), "%s", v);
			continue;
		}
		if (!strcmp(w, "-cl-opt-disable")) {
			o->opt_disable = true;
			continue;
		}
		if (!strcmp(w, "-cl-hartpool-item-calls")) {
			o->item_calls = true;
			continue;
		}
		if (!strcmp(w, "-cl-kernel-arg-info") ||
		    !strcmp(w, "-cl-strict-aliasing"))
			continue; /* always on / deprecated, no effect */
		bool ok = false;
		for (size_t i = 0; i < sizeof(pass_opts) / sizeof(*pass_opts);
		     i++)
			ok |= !strcmp(w, pass_opts[i]);
		if (!ok) {
			clc_sb_add(log, "error: unknown build option '%s'\n",
				   w);
			rc = HP_INVALID_BUILD_OPTIONS;
		} else if (o->n < 120) {
			o->words[o->n++] = strdup(w);
		}
	}
	free(copy);
	for (unsigned i = 0; i < o->n; i++)
		if (!o->words[i])
			rc = HP_OUT_OF_RESOURCES;
	return rc;
}

/* ---- the board ---- */

static void ext_add(char *out, size_t n, const char *const *e, size_t ne)
{
	for (size_t i = 0; i < ne; i++)
		snprintf(out + strlen(out), n - strlen(out), ",+%s", e[i]);
}

bool clc_board_has_d(const clc_board *b)
{
	/* rv64imafdc...: the letters before the first '_' */
	const char *p = b->arch + 4;
	for (; *p && *p != '_'; p++)
		if (*p == 'd' || *p == 'g')
			return true;
	return false;
}

/* -cl-ext: the extensions of hartpool_cl.h and the 3.0 features behind
 * them */
void clc_extensions(const clc_board *b, char *out, size_t n)
{
	static const char *const base[] = {
		HP_CL_EXTENSIONS, "__opencl_c_subgroups", "__opencl_c_int64"};
	static const char *const rv64[] = {HP_CL_EXTENSIONS_RV64};
	static const char *const fp64[] = {HP_CL_EXTENSIONS_FP64,
					   "__opencl_c_fp64"};
	snprintf(out, n, "-cl-ext=-all");
	ext_add(out, n, base, sizeof(base) / sizeof(base[0]));
	if (b->xlen == 64)
		ext_add(out, n, rv64, sizeof(rv64) / sizeof(rv64[0]));
	if (clc_board_has_d(b))
		ext_add(out, n, fp64, sizeof(fp64) / sizeof(fp64[0]));
}

bool clc_board_vector(const clc_board *b)
{
	for (const char *c = b->arch + 4; *c && *c != '_'; c++)
		if (*c == 'v')
			return true;
	return false;
}

void clc_features(const clc_board *b, char *out, size_t n)
{
	/* the letters before the first '_'; g is imafd */
	size_t at = 0;
	out[0] = 0;
	for (const char *c = b->arch + 4; *c && *c != '_'; c++) {
		const char *l = *c == 'g' ? "mafd" : c;
		for (size_t k = 0; k < (*c == 'g' ? 4u : 1u); k++)
			if (strchr("mafdcv", l[k]) && at + 8 < n)
				at += (size_t)snprintf(out + at, n - at, "+%c,",
						       l[k]);
	}
	snprintf(out + at, n - at, "-relax");
}
