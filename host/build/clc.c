// SPDX-License-Identifier: MIT
/*
 * hp_cl_build: OpenCL C -> kernel object (docs/opencl.md).
 *
 * clang-19 compiles the program to LLVM IR for the board; this file reads
 * the IR as text: the kernels, their lowered parameter types and argument
 * metadata, the struct types, the call graph. It makes every kernel-scope
 * __local variable thread_local (the library's __tls_get_addr puts them in
 * the work-group's local memory), appends one entry per kernel that unpacks
 * the argument block, links the built-in library's bitcode, internalizes,
 * optimizes and compiles. A C file with the descriptors and the metadata
 * text is compiled with the cross gcc; objbuild.c links and converts.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "objbuild.h"
#include <ctype.h>
#include <errno.h>
#include <hartpool/kernel.h>
#include <hartpool/object.h>
#include <hartpool_cl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- growable text ---- */

typedef struct {
	char *s;
	size_t n, cap;
	bool oom;
} sbuf;

static void sb_vadd(sbuf *b, const char *fmt, va_list ap)
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

static void sb_add(sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vadd(b, fmt, ap);
	va_end(ap);
}

/* ---- the compiler ---- */

const char *hp_cl_compiler(void)
{
	static const char *const names[] = {"/usr/bin/clang-19",
					    "/usr/lib/llvm-19/bin/clang"};
	const char *e = getenv("HP_CLANG");
	if (e && *e)
		return access(e, X_OK) ? NULL : e;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!access(names[i], X_OK))
			return names[i];
	return NULL;
}

/* llvm-link / opt of the same LLVM as the compiler. */
static void llvm_tool(const char *cc, const char *tool, char *out, size_t n)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s", cc);
	char *slash = strrchr(dir, '/');
	if (slash && !strcmp(slash + 1, "clang")) { /* .../llvm-19/bin */
		*slash = 0;
		snprintf(out, n, "%s/%s", dir, tool);
	} else {
		snprintf(out, n, "/usr/lib/llvm-19/bin/%s", tool);
	}
}

/* ---- options ---- */

typedef struct {
	char *words[128];
	unsigned n;
	char std[16];
	bool opt_disable;
} cl_opts;

static void opts_free(cl_opts *o)
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

static int opts_parse(const char *s, cl_opts *o, sbuf *log)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->std, sizeof(o->std), "CL1.2");
	char *copy = strdup(s ? s : ""), *save = NULL;
	if (!copy)
		return HP_OUT_OF_RESOURCES;
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
					sb_add(log, "error: %s needs a value\n",
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
				sb_add(log,
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
		if (!strcmp(w, "-cl-kernel-arg-info") ||
		    !strcmp(w, "-cl-strict-aliasing"))
			continue; /* always on / deprecated, no effect */
		bool ok = false;
		for (size_t i = 0; i < sizeof(pass_opts) / sizeof(*pass_opts);
		     i++)
			ok |= !strcmp(w, pass_opts[i]);
		if (!ok) {
			sb_add(log, "error: unknown build option '%s'\n", w);
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

/* ---- the IR, as text ---- */

#define MAX_KERNELS HPK_KERNELS_MAX
#define MAX_FUNCS 4096

/* What a function reaches through its calls (ir_func.reach). */
#define REACH_BARRIER 1u /* a barrier-like built-in: fibers */
#define REACH_WG 2u	 /* a work-group collective: the runtime's scratch */
#define REACH_KERNEL 4u	 /* another kernel: its __local variables */

typedef struct {
	char name[128];
	size_t first, last; /* line range of the body */
	unsigned reach;	    /* REACH_*: what it calls, maybe through others */
	bool kernel;
	size_t def_line;
} ir_func;

typedef struct {
	char **line;
	size_t n;
	ir_func *f;
	size_t nf;
	unsigned xlen;
} ir_mod;

static void ir_free(ir_mod *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->line[i]);
	free(m->line);
	free(m->f);
}

static int ir_read(const char *path, ir_mod *m)
{
	size_t n;
	uint8_t *b = hpb_slurp(path, &n);
	if (!b)
		return -1;
	size_t cap = 1024;
	m->line = malloc(cap * sizeof(char *));
	const char *p = (const char *)b, *end = p + n;
	while (m->line && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (m->n == cap) {
			cap *= 2;
			char **g = realloc(m->line, cap * sizeof(char *));
			if (!g)
				break;
			m->line = g;
		}
		m->line[m->n++] = strndup(p, l);
		p += l + 1;
	}
	free(b);
	return m->line ? 0 : -1;
}

/* The text of metadata node !id ("!{...}" contents), or NULL. */
static const char *md_node(const ir_mod *m, unsigned id)
{
	char pre[24];
	int pl = snprintf(pre, sizeof(pre), "!%u = ", id);
	for (size_t i = 0; i < m->n; i++)
		if (!strncmp(m->line[i], pre, (size_t)pl)) {
			const char *s = strchr(m->line[i] + pl, '{');
			return s ? s + 1 : NULL;
		}
	return NULL;
}

/* Item @p k of a metadata tuple: a string (!"x") or an integer (i32 5). */
static bool md_item(const char *t, unsigned k, char *out, size_t n)
{
	unsigned idx = 0;
	const char *p = t;
	while (*p && *p != '}') {
		while (*p == ' ' || *p == ',')
			p++;
		const char *s = p;
		if (*p == '!' && p[1] == '"') {
			p += 2;
			s = p;
			while (*p && *p != '"')
				p++;
			if (idx == k) {
				size_t l = (size_t)(p - s);
				snprintf(out, n, "%.*s", (int)l, s);
				return true;
			}
			if (*p)
				p++;
		} else {
			while (*p && *p != ',' && *p != '}')
				p++;
			if (idx == k) {
				const char *sp =
					memchr(s, ' ', (size_t)(p - s));
				if (sp)
					s = sp + 1;
				snprintf(out, n, "%.*s", (int)(p - s), s);
				return true;
			}
		}
		idx++;
	}
	return false;
}

/* The metadata attachment `!name !N` of a define line: N, or -1. */
static long md_attach(const char *def, const char *name)
{
	char pat[80];
	snprintf(pat, sizeof(pat), "!%s !", name);
	const char *p = strstr(def, pat);
	return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

/* ---- IR types: size and alignment for the argument block ---- */

static const char *skip_ws(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* End of the type starting at p (balanced brackets). */
static const char *type_end(const char *p)
{
	int depth = 0;
	for (; *p; p++) {
		if (*p == '<' || *p == '[' || *p == '{' || *p == '(')
			depth++;
		else if (*p == '>' || *p == ']' || *p == '}' || *p == ')')
			depth--;
		else if ((*p == ' ' || *p == ',') && depth == 0)
			break;
		if (depth < 0)
			break;
	}
	return p;
}

static int type_layout(const ir_mod *m, const char *t, size_t len,
		       uint64_t *size, uint64_t *align, int depth);

/* Fields of "{ a, b }" or "<{ a, b }>" (packed). */
static int struct_layout(const ir_mod *m, const char *t, size_t len,
			 bool packed, uint64_t *size, uint64_t *align,
			 int depth)
{
	const char *p = t, *end = t + len;
	uint64_t off = 0, al = 1;
	while (p < end) {
		p = skip_ws(p);
		if (p >= end)
			break;
		const char *e = type_end(p);
		if (e > end)
			e = end;
		uint64_t s, a;
		if (type_layout(m, p, (size_t)(e - p), &s, &a, depth + 1))
			return -1;
		if (packed)
			a = 1;
		off = (off + a - 1) / a * a + s;
		if (a > al)
			al = a;
		p = e;
		while (p < end && (*p == ',' || *p == ' '))
			p++;
	}
	*align = al;
	*size = (off + al - 1) / al * al;
	return 0;
}

static int type_layout(const ir_mod *m, const char *t, size_t len,
		       uint64_t *size, uint64_t *align, int depth)
{
	char ty[256];
	if (depth > 16 || len >= sizeof(ty))
		return -1;
	memcpy(ty, t, len);
	ty[len] = 0;
	if (ty[0] == 'i' && isdigit((unsigned char)ty[1])) {
		unsigned bits = (unsigned)atoi(ty + 1);
		*size = (bits + 7) / 8;
		if (bits == 1)
			*size = 1;
		*align = *size > 8 ? 8 : *size;
		if (bits == 128)
			*align = 16;
		return 0;
	}
	if (!strcmp(ty, "float"))
		return *size = *align = 4, 0;
	if (!strcmp(ty, "double"))
		return *size = *align = 8, 0;
	if (!strcmp(ty, "half"))
		return *size = *align = 2, 0;
	if (!strncmp(ty, "ptr", 3))
		return *size = *align = m->xlen / 8, 0;
	if (ty[0] == '<' && ty[1] == '{')
		return struct_layout(m, ty + 2, len - 4, true, size, align,
				     depth);
	if (ty[0] == '{')
		return struct_layout(m, ty + 1, len - 2, false, size, align,
				     depth);
	if (ty[0] == '<' || ty[0] == '[') {
		char *x = strstr(ty, " x ");
		if (!x)
			return -1;
		uint64_t cnt = strtoull(ty + 1, NULL, 10), es, ea;
		const char *et = x + 3;
		if (type_layout(m, et, strlen(et) - 1, &es, &ea, depth + 1))
			return -1;
		if (ty[0] == '[') {
			*size = cnt * es;
			*align = ea;
			return 0;
		}
		/* OpenCL vectors: 3 components take the room of 4; the
		 * alignment is the size. */
		uint64_t c = cnt == 3 ? 4 : cnt;
		*size = c * es;
		*align = *size;
		return 0;
	}
	if (ty[0] == '%') {
		char pre[300];
		int pl = snprintf(pre, sizeof(pre), "%s = type ", ty);
		for (size_t i = 0; i < m->n; i++) {
			if (strncmp(m->line[i], pre, (size_t)pl))
				continue;
			const char *b = m->line[i] + pl;
			size_t bl = strlen(b);
			if (b[0] == '<' && b[1] == '{')
				return struct_layout(m, b + 2, bl - 4, true,
						     size, align, depth);
			if (b[0] == '{')
				return struct_layout(m, b + 1, bl - 2, false,
						     size, align, depth);
			return -1;
		}
	}
	return -1;
}

/* ---- kernels ---- */

typedef struct {
	char type[200];	 /* IR type of the parameter */
	char attrs[240]; /* the call-site attributes to repeat */
	char byval[200]; /* byval(T): T */
	unsigned byval_align;
} ir_param;

typedef struct {
	char name[HP_CL_NAME_MAX + 1];
	unsigned nparams;
	ir_param p[HP_CL_ARGS_MAX];
	hp_cl_kernel meta;
	char cc[32];	/* calling convention word ("spir_kernel" or "") */
	bool all_local; /* needs every __local variable of the program */
} cl_kernel;

/* Parameters of a define line: "(...)" after @name. */
static int parse_params(const char *def, const char *name, cl_kernel *k)
{
	char at[160];
	snprintf(at, sizeof(at), "@%s(", name);
	const char *p = strstr(def, at);
	if (!p)
		return -1;
	p += strlen(at);
	k->nparams = 0;
	while (*p && *p != ')') {
		p = skip_ws(p);
		if (k->nparams >= HP_CL_ARGS_MAX)
			return -2;
		ir_param *q = &k->p[k->nparams];
		memset(q, 0, sizeof(*q));
		const char *te = type_end(p);
		/* "ptr addrspace(N)" is one type */
		if (!strncmp(p, "ptr addrspace(", 14))
			te = strchr(p + 14, ')') + 1;
		snprintf(q->type, sizeof(q->type), "%.*s", (int)(te - p), p);
		p = te;
		/* attributes up to the %name */
		while (*p && *p != ',' && *p != ')') {
			p = skip_ws(p);
			if (*p == '%') {
				while (*p && *p != ',' && *p != ')')
					p++;
				break;
			}
			const char *ae = type_end(p);
			size_t al = (size_t)(ae - p);
			if (!strncmp(p, "byval(", 6)) {
				snprintf(q->byval, sizeof(q->byval), "%.*s",
					 (int)(al - 7), p + 6);
			} else if (!strncmp(p, "align ", 6)) {
				ae = type_end(skip_ws(p + 6));
				q->byval_align = (unsigned)atoi(p + 6);
				al = (size_t)(ae - p);
			}
			if (!strncmp(p, "signext", 7) ||
			    !strncmp(p, "zeroext", 7) ||
			    !strncmp(p, "byval(", 6) || !strncmp(p, "inreg", 5))
				snprintf(q->attrs + strlen(q->attrs),
					 sizeof(q->attrs) - strlen(q->attrs),
					 "%.*s ", (int)al, p);
			p = ae;
		}
		if (q->byval[0] && q->byval_align)
			snprintf(q->attrs + strlen(q->attrs),
				 sizeof(q->attrs) - strlen(q->attrs),
				 "align %u ", q->byval_align);
		k->nparams++;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Barrier-like built-ins: a kernel calling one (maybe through its own
 * functions) runs its work-items as fibers. */
static bool barrier_builtin(const char *n)
{
	if (strstr(n, "get_sub_group") || strstr(n, "get_max_sub_group") ||
	    strstr(n, "get_num_sub_groups") ||
	    strstr(n, "get_enqueued_num_sub_groups"))
		return false;
	return strstr(n, "barrier") || strstr(n, "work_group_") ||
	       strstr(n, "sub_group_") || strstr(n, "wait_group_events");
}

/* The name called on a line, or NULL: "call ... @name(". */
static const char *callee(const char *l, char *out, size_t n)
{
	const char *c = strstr(l, "call ");
	if (!c)
		return NULL;
	const char *at = strchr(c, '@');
	if (!at)
		return NULL;
	const char *e = at + 1;
	while (*e && *e != '(' && *e != ' ')
		e++;
	snprintf(out, n, "%.*s", (int)(e - at - 1), at + 1);
	return out;
}

static int ir_funcs(ir_mod *m)
{
	m->f = calloc(MAX_FUNCS, sizeof(ir_func));
	if (!m->f)
		return -1;
	for (size_t i = 0; i < m->n; i++) {
		if (strncmp(m->line[i], "define ", 7))
			continue;
		const char *at = strchr(m->line[i], '@');
		if (!at || m->nf >= MAX_FUNCS)
			continue;
		ir_func *f = &m->f[m->nf++];
		const char *e = strchr(at, '(');
		snprintf(f->name, sizeof(f->name), "%.*s",
			 (int)(e ? e - at - 1 : 0), at + 1);
		f->kernel = strstr(m->line[i], " spir_kernel ") != NULL;
		f->def_line = i;
		f->first = i + 1;
		size_t j = i + 1;
		while (j < m->n && strcmp(m->line[j], "}"))
			j++;
		f->last = j;
		i = j;
	}
	/* what each function reaches: directly, then through the calls
	 * until nothing changes */
	for (bool changed = true; changed;) {
		changed = false;
		for (size_t k = 0; k < m->nf; k++) {
			ir_func *f = &m->f[k];
			for (size_t i = f->first; i < f->last; i++) {
				char cn[160];
				if (!callee(m->line[i], cn, sizeof(cn)))
					continue;
				unsigned r =
					barrier_builtin(cn) ? REACH_BARRIER : 0;
				if (strstr(cn, "work_group_") &&
				    !strstr(cn, "barrier"))
					r |= REACH_WG;
				for (size_t q = 0; q < m->nf; q++)
					if (!strcmp(m->f[q].name, cn))
						r |= m->f[q].reach |
						     (m->f[q].kernel
							      ? REACH_KERNEL
							      : 0);
				changed |= (r | f->reach) != f->reach;
				f->reach |= r;
			}
		}
	}
	return 0;
}

static unsigned parse_qual(const char *s)
{
	unsigned q = 0;
	q |= strstr(s, "const") ? HP_CL_QUAL_CONST : 0;
	q |= strstr(s, "restrict") ? HP_CL_QUAL_RESTRICT : 0;
	q |= strstr(s, "volatile") ? HP_CL_QUAL_VOLATILE : 0;
	q |= strstr(s, "pipe") ? HP_CL_QUAL_PIPE : 0;
	return q;
}

static unsigned parse_access(const char *s)
{
	if (!strcmp(s, "read_only"))
		return HP_CL_READ_ONLY;
	if (!strcmp(s, "write_only"))
		return HP_CL_WRITE_ONLY;
	if (!strcmp(s, "read_write"))
		return HP_CL_READ_WRITE;
	return HP_CL_ACCESS_NONE;
}

/* Three integers of a metadata tuple (reqd_work_group_size...). */
static void md_three(const ir_mod *m, const char *def, const char *name,
		     uint32_t out[3])
{
	long id = md_attach(def, name);
	const char *t = id >= 0 ? md_node(m, (unsigned)id) : NULL;
	for (unsigned i = 0; i < 3; i++) {
		char v[32] = "0";
		if (t)
			md_item(t, i, v, sizeof(v));
		out[i] = (uint32_t)strtoul(v, NULL, 10);
	}
}

/* The device's name of kernel @p name (hartpool_cl.h). */
static void device_name(const char *name, char out[32])
{
	size_t l = strlen(name);
	if (l < 32) {
		memcpy(out, name, l + 1);
		return;
	}
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < l; i++)
		h = (h ^ (uint8_t)name[i]) * 16777619u;
	snprintf(out, 32, "%.22s_%08x", name, (unsigned)h);
}

/* Kernel @p f: its parameters, argument metadata and block layout. */
static int kernel_read(const ir_mod *m, const ir_func *f, cl_kernel *k,
		       sbuf *log)
{
	const char *def = m->line[f->def_line];
	memset(k, 0, sizeof(*k));
	if (strlen(f->name) > HP_CL_NAME_MAX) {
		sb_add(log, "error: kernel name '%s' longer than %u bytes\n",
		       f->name, HP_CL_NAME_MAX);
		return HP_BUILD_PROGRAM_FAILURE;
	}
	snprintf(k->name, sizeof(k->name), "%s", f->name);
	device_name(f->name, k->meta.device_name);
	snprintf(k->cc, sizeof(k->cc), "%s",
		 strstr(def, " spir_kernel ") ? "spir_kernel" : "");
	int pr = parse_params(def, f->name, k);
	if (pr) {
		sb_add(log, "error: kernel %s: %s\n", f->name,
		       pr == -2 ? "more than 64 arguments"
				: "cannot read its parameters");
		return HP_BUILD_PROGRAM_FAILURE;
	}
	hp_cl_kernel *mk = &k->meta;
	snprintf(mk->name, sizeof(mk->name), "%s", f->name);
	device_name(f->name, mk->device_name);
	mk->num_args = k->nparams;
	const char *as = NULL, *acc = NULL, *ty = NULL, *tq = NULL, *nm = NULL;
	long id;
	if ((id = md_attach(def, "kernel_arg_addr_space")) >= 0)
		as = md_node(m, (unsigned)id);
	if ((id = md_attach(def, "kernel_arg_access_qual")) >= 0)
		acc = md_node(m, (unsigned)id);
	if ((id = md_attach(def, "kernel_arg_type")) >= 0)
		ty = md_node(m, (unsigned)id);
	if ((id = md_attach(def, "kernel_arg_type_qual")) >= 0)
		tq = md_node(m, (unsigned)id);
	if ((id = md_attach(def, "kernel_arg_name")) >= 0)
		nm = md_node(m, (unsigned)id);
	uint32_t off = 0;
	for (unsigned i = 0; i < k->nparams; i++) {
		hp_cl_arg *a = &mk->args[i];
		ir_param *q = &k->p[i];
		char v[128] = "";
		if (as && md_item(as, i, v, sizeof(v)))
			a->addr_space = (unsigned)atoi(v);
		if (acc && md_item(acc, i, v, sizeof(v)))
			a->access = parse_access(v);
		if (ty && md_item(ty, i, v, sizeof(v)))
			snprintf(a->type_name, sizeof(a->type_name), "%s", v);
		if (tq && md_item(tq, i, v, sizeof(v)))
			a->type_qual = parse_qual(v);
		if (nm && md_item(nm, i, v, sizeof(v)))
			snprintf(a->name, sizeof(a->name), "%s", v);
		if (strstr(a->type_name, "image") ||
		    strstr(a->type_name, "sampler") ||
		    strstr(a->type_name, "pipe") || (a->type_qual & 8)) {
			sb_add(log,
			       "error: kernel %s, argument %u (%s): images, "
			       "samplers and pipes are not supported by "
			       "this device\n",
			       k->name, i, a->type_name);
			return HP_BUILD_PROGRAM_FAILURE;
		}
		uint64_t size, align;
		if (a->addr_space) {
			size = align = 8;
		} else if (q->byval[0]) {
			if (type_layout(m, q->byval, strlen(q->byval), &size,
					&align, 0))
				goto bad_type;
		} else if (!strncmp(q->type, "ptr", 3)) {
			goto bad_type;
		} else if (type_layout(m, q->type, strlen(q->type), &size,
				       &align, 0)) {
			goto bad_type;
		}
		if (align > 64)
			align = 64;
		off = (uint32_t)((off + align - 1) / align * align);
		a->offset = off;
		a->size = (uint32_t)size;
		a->align = (uint32_t)align;
		off += (uint32_t)size;
		continue;
	bad_type:
		sb_add(log,
		       "error: kernel %s, argument %u (%s %s): unsupported "
		       "argument type (IR %s)\n",
		       k->name, i, a->type_name, a->name, q->type);
		return HP_BUILD_PROGRAM_FAILURE;
	}
	mk->args_size = off;
	if (mk->args_size > HP_MBOX_ARGS_MAX) {
		sb_add(log,
		       "error: kernel %s: arguments take %u bytes, the device "
		       "passes at most %u\n",
		       k->name, mk->args_size, HP_MBOX_ARGS_MAX);
		return HP_BUILD_PROGRAM_FAILURE;
	}
	md_three(m, def, "reqd_work_group_size", mk->reqd);
	md_three(m, def, "work_group_size_hint", mk->hint);
	uint32_t sg[3];
	md_three(m, def, "intel_reqd_sub_group_size", sg);
	mk->sub_group_size = sg[0];
	mk->uses_barriers = (f->reach & REACH_BARRIER) != 0;
	/* Another kernel's __local variables (called, or inlined into this
	 * one: its variables keep their names, "other.var") */
	/* the work-group collectives' scratch is a runtime variable of the
	 * same TLS block: such a kernel gets room for all of it too */
	k->all_local = (f->reach & (REACH_KERNEL | REACH_WG)) != 0;
	for (size_t i = f->first; i < f->last && !k->all_local; i++)
		for (size_t q = 0; q < m->nf && !k->all_local; q++) {
			char pat[140];
			if (!m->f[q].kernel || &m->f[q] == f)
				continue;
			snprintf(pat, sizeof(pat), "@%s.", m->f[q].name);
			k->all_local = strstr(m->line[i], pat) != NULL;
		}
	size_t al = 0;
	if (mk->reqd[0])
		al += (size_t)snprintf(mk->attributes + al,
				       sizeof(mk->attributes) - al,
				       "reqd_work_group_size(%u,%u,%u)",
				       mk->reqd[0], mk->reqd[1], mk->reqd[2]);
	if (mk->hint[0])
		al += (size_t)snprintf(
			mk->attributes + al, sizeof(mk->attributes) - al,
			"%swork_group_size_hint(%u,%u,%u)", al ? " " : "",
			mk->hint[0], mk->hint[1], mk->hint[2]);
	if (mk->sub_group_size)
		snprintf(mk->attributes + al, sizeof(mk->attributes) - al,
			 "%sintel_reqd_sub_group_size(%u)", al ? " " : "",
			 mk->sub_group_size);
	return 0;
}

/* The entries of kernel k, appended to the module: the body (one
 * work-item: load the arguments, call the kernel), the per-item entry and,
 * for kernels without barriers, the row entry (n work-items along
 * dimension 0: the context is set up once, __hpcl_run in rt.c). */
static void entry_ir(sbuf *o, const cl_kernel *k, unsigned xlen)
{
	const char *sz = xlen == 64 ? "i64" : "i32";
	unsigned lm_off = HP_KDESC_LOCAL_MEM(xlen);
	sb_add(o, "\n@hp_kernel_%s = external hidden constant i8\n", k->name);
	sb_add(o,
	       "define internal void @hp_kbody_%s(ptr noalias readonly "
	       "%%args) alwaysinline {\n",
	       k->name);
	for (unsigned i = 0; i < k->nparams; i++) {
		const hp_cl_arg *a = &k->meta.args[i];
		const ir_param *q = &k->p[i];
		sb_add(o, "  %%p%u = getelementptr i8, ptr %%args, i64 %u\n", i,
		       a->offset);
		if (a->addr_space == HP_CL_LOCAL) {
			sb_add(o, "  %%a%u = load i64, ptr %%p%u, align 8\n", i,
			       i);
			sb_add(o,
			       "  %%l%u = call ptr @__hpcl_local_arg(i64 "
			       "%%a%u)\n",
			       i, i);
			sb_add(o, "  %%v%u = addrspacecast ptr %%l%u to %s\n",
			       i, i, q->type);
		} else if (a->addr_space) {
			sb_add(o, "  %%a%u = load i64, ptr %%p%u, align 8\n", i,
			       i);
			sb_add(o, "  %%v%u = inttoptr i64 %%a%u to %s\n", i, i,
			       q->type);
		} else if (q->byval[0]) {
			sb_add(o,
			       "  %%v%u = getelementptr i8, ptr %%p%u, i64 0\n",
			       i, i);
		} else {
			sb_add(o, "  %%v%u = load %s, ptr %%p%u, align 1\n", i,
			       q->type, i);
		}
	}
	sb_add(o, "  call %s void @%s(", k->cc, k->name);
	for (unsigned i = 0; i < k->nparams; i++)
		sb_add(o, "%s%s %s%%v%u", i ? ", " : "", k->p[i].type,
		       k->p[i].attrs, i);
	/* Not inlined: OpenCL declares the work-item functions `const`
	 * (memory(none)), so inside one function the compiler may compute
	 * get_global_id once; the row loop changes the item between calls. */
	sb_add(o, ") noinline\n  ret void\n}\n");
	/* where its __local arguments start: the descriptor's
	 * local_mem_bytes, as hpb_convert set it */
	for (int row = 0; row < 2; row++) {
		if (row && k->meta.uses_barriers)
			break;
		if (row)
			sb_add(o,
			       "define void @hp_krow_%s(ptr %%it, ptr %%args, "
			       "%s %%n) {\n",
			       k->name, sz);
		else
			sb_add(o,
			       "define void @hp_kfn_%s(ptr %%it, ptr %%args) "
			       "{\n",
			       k->name);
		sb_add(o,
		       "  %%lm = load i32, ptr getelementptr (i8, ptr "
		       "@hp_kernel_%s, i64 %u), align 4\n",
		       k->name, lm_off);
		if (xlen == 64)
			sb_add(o, "  %%lmx = zext i32 %%lm to i64\n");
		else
			sb_add(o, "  %%lmx = add i32 %%lm, 0\n");
		sb_add(o,
		       "  call void @__hpcl_run(ptr %%it, ptr %%args, %s %s, "
		       "%s %%lmx, ptr @hp_kbody_%s)\n  ret void\n}\n",
		       sz, row ? "%n" : "1", sz, k->name);
	}
}

/* The rewritten module: __local variables thread_local, the entries. */
static int module_write(const ir_mod *m, const cl_kernel *ks, unsigned nk,
			const char *path)
{
	sbuf o = {0};
	for (size_t i = 0; i < m->n; i++) {
		const char *l = m->line[i];
		const char *g = strstr(l, " = internal ");
		if (l[0] == '@' && g && strstr(l, "addrspace(3) global ") &&
		    !strstr(l, "thread_local")) {
			size_t at = (size_t)(g - l) + strlen(" = internal ");
			sb_add(&o, "%.*sthread_local %s\n", (int)at, l, l + at);
		} else {
			sb_add(&o, "%s\n", l);
		}
	}
	sb_add(&o, "\ndeclare void @__hpcl_run(ptr, ptr, %s, %s, ptr)\n",
	       m->xlen == 64 ? "i64" : "i32", m->xlen == 64 ? "i64" : "i32");
	sb_add(&o, "declare ptr @__hpcl_local_arg(i64)\n");
	for (unsigned i = 0; i < nk; i++)
		entry_ir(&o, &ks[i], m->xlen);
	int rc = o.oom ? -1 : hpb_write(path, o.s, o.n);
	free(o.s);
	return rc;
}

/* A C string literal of s. */
static void c_string(sbuf *o, const char *s)
{
	sb_add(o, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			sb_add(o, "\\%c", *s);
		else if (*s == '\n')
			sb_add(o, "\\n\"\n\t\"");
		else if (*s == '\t')
			sb_add(o, "\\t");
		else if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
			sb_add(o, "\\%03o", (unsigned char)*s);
		else
			sb_add(o, "%c", *s);
	}
	sb_add(o, "\"");
}

/* The metadata text (hartpool_cl.h; parsed by hp_cl_program_parse). */
static void meta_text(sbuf *t, const cl_kernel *ks, unsigned nk,
		      const char *options)
{
	sb_add(t, "hpcl 1\noptions\t%s\n", options ? options : "");
	for (unsigned i = 0; i < nk; i++) {
		const hp_cl_kernel *k = &ks[i].meta;
		sb_add(t,
		       "kernel\t%s\t%s\t%u\t%u\t%u %u %u\t%u %u "
		       "%u\t%u\t%u\t%s\n",
		       k->name, k->device_name, k->num_args, k->args_size,
		       k->reqd[0], k->reqd[1], k->reqd[2], k->hint[0],
		       k->hint[1], k->hint[2], k->sub_group_size,
		       k->uses_barriers, k->attributes);
		for (unsigned a = 0; a < k->num_args; a++) {
			const hp_cl_arg *g = &k->args[a];
			sb_add(t, "arg\t%u\t%u\t%u\t%u\t%u\t%u\t%s\t%s\n",
			       g->addr_space, g->access, g->type_qual,
			       g->offset, g->size, g->align, g->type_name,
			       g->name);
		}
	}
}

/* The descriptors and the metadata, as C for the cross gcc. */
static int desc_write(const cl_kernel *ks, unsigned nk, const char *options,
		      const char *path)
{
	sbuf o = {0}, t = {0};
	sb_add(&o, "#include <hartpool/kernel.h>\n");
	for (unsigned i = 0; i < nk; i++) {
		const hp_cl_kernel *k = &ks[i].meta;
		/* With __local arguments the kernel gets local memory even
		 * without variables of its own (the executor gives a
		 * work-group local memory only when local_mem_bytes is not
		 * 0); its __local arguments start after local_mem_bytes. */
		bool local_args = false;
		for (unsigned a = 0; a < k->num_args; a++)
			local_args |= k->args[a].addr_space == HP_CL_LOCAL;
		unsigned lm = local_args ? 64u : 0u;
		if (!k->uses_barriers)
			sb_add(&o,
			       "void hp_krow_%s(const hp_item *, const void *, "
			       "size_t);\n",
			       k->name);
		sb_add(&o,
		       "void hp_kfn_%s(const hp_item *, const void *);\n"
		       "HP_REGISTER_SECTION_ const hp_kernel hp_kernel_%s = "
		       "{\n\t.name = \"%s\",\n\t.fn = hp_kfn_%s,\n"
		       "\t.reqd_work_group_size = {%u, %u, %u},\n"
		       "\t.sub_group_size = %u,\n\t.args_size = %u,\n"
		       "\t.uses_barriers = %s,\n\t.local_mem_bytes = %u,\n",
		       k->name, k->name, k->device_name, k->name, k->reqd[0],
		       k->reqd[1], k->reqd[2], k->sub_group_size,
		       k->args_size ? k->args_size : 0,
		       k->uses_barriers ? "true" : "false", lm);
		if (!k->uses_barriers)
			sb_add(&o, "\t.row = hp_krow_%s,\n", k->name);
		sb_add(&o, "};\n");
	}
	meta_text(&t, ks, nk, options);
	sb_add(&o, "__attribute__((section(\".hp_clmeta\"), used)) static "
		   "const char hpcl_meta[] =\n\t");
	c_string(&o, t.oom ? "" : t.s);
	sb_add(&o, ";\n");
	int rc = o.oom || t.oom ? -1 : hpb_write(path, o.s, o.n);
	free(o.s);
	free(t.s);
	return rc;
}

/* ---- the build ---- */

static int meta_object(const hpb_board *b, const char *options, void **hpk,
		       size_t *size)
{
	sbuf t = {0};
	meta_text(&t, NULL, 0, options);
	unsigned fabi = b->abi[strlen(b->abi) - 1] == 'd'   ? HPK_FLOAT_DOUBLE
			: b->abi[strlen(b->abi) - 1] == 'f' ? HPK_FLOAT_SINGLE
							    : HPK_FLOAT_SOFT;
	int rc = t.oom || hpb_meta_object(b->xlen, fabi, t.s, hpk, size);
	free(t.s);
	return rc ? hp_fail(HP_OUT_OF_RESOURCES,
			    "out of memory for a kernel object")
		  : 0;
}

/* Kernels whose own __local variables need more than the device's
 * @p limit bytes per work-group: HP_BUILD_PROGRAM_FAILURE, each named in
 * the log with its bytes and the limit. */
static int local_check(const void *hpk, size_t size, uint32_t limit, FILE *log)
{
	hp_cl_program *p;
	int rc = hp_cl_program_parse(hpk, size, &p);
	if (rc)
		return rc;
	unsigned bad = 0;
	for (unsigned i = 0; i < p->num_kernels; i++) {
		const hp_cl_kernel *k = &p->kernels[i];
		if (k->static_local <= limit)
			continue;
		fprintf(log,
			"error: kernel %s: %u bytes of __local memory, the "
			"device has %u per work-group\n",
			k->name, (unsigned)k->static_local, (unsigned)limit);
		bad++;
	}
	hp_cl_program_free(p);
	return bad ? hp_fail(HP_BUILD_PROGRAM_FAILURE,
			     "%u kernel%s with more __local memory than the "
			     "device's %u bytes (build log)",
			     bad, bad == 1 ? "" : "s", (unsigned)limit)
		   : 0;
}

static void ext_add(char *out, size_t n, const char *const *e, size_t ne)
{
	for (size_t i = 0; i < ne; i++)
		snprintf(out + strlen(out), n - strlen(out), ",+%s", e[i]);
}

/* -cl-ext: the extensions of hartpool_cl.h and the 3.0 features behind
 * them */
static void extensions(unsigned xlen, bool fpu, char *out, size_t n)
{
	static const char *const base[] = {
		HP_CL_EXTENSIONS, "__opencl_c_subgroups", "__opencl_c_int64"};
	static const char *const rv64[] = {HP_CL_EXTENSIONS_RV64};
	static const char *const fp64[] = {HP_CL_EXTENSIONS_FP64,
					   "__opencl_c_fp64"};
	snprintf(out, n, "-cl-ext=-all");
	ext_add(out, n, base, sizeof(base) / sizeof(base[0]));
	if (xlen == 64)
		ext_add(out, n, rv64, sizeof(rv64) / sizeof(rv64[0]));
	if (fpu)
		ext_add(out, n, fp64, sizeof(fp64) / sizeof(fp64[0]));
}

static bool board_has_d(const hpb_board *b)
{
	/* rv64imafdc...: the letters before the first '_' */
	const char *p = b->arch + 4;
	for (; *p && *p != '_'; p++)
		if (*p == 'd' || *p == 'g')
			return true;
	return false;
}

int hp_cl_build(const hp_cl_build_options *o, void **hpk, size_t *size,
		char **logp)
{
	sbuf log = {0};
	char *mlog = NULL;
	size_t mlen = 0;
	FILE *mf = open_memstream(&mlog, &mlen);
	FILE *saved = hpb_log;
	hpb_log = mf;
	int rc = 0;
	*hpk = NULL;
	*size = 0;
	cl_opts opts;
	ir_mod m = {0};
	cl_kernel *ks = NULL;
	unsigned nk = 0;
	char tmp[] = "/tmp/hartpool-cl-XXXXXX";
	bool tmp_made = false;
	const char *cc = hp_cl_compiler();
	hpb_board b;
	char path[7][1200];

	rc = opts_parse(o ? o->options : NULL, &opts, &log);
	if (!o || !o->count || !o->sources) {
		rc = hp_fail(HP_INVALID_VALUE, "no OpenCL C source");
		goto out;
	}
	if (rc) {
		hp_fail(rc, "%s", log.s ? log.s : "invalid build options");
		goto out;
	}
	if (!cc) {
		rc = hp_fail(HP_COMPILER_NOT_AVAILABLE,
			     "no clang-19 (install clang-19; HP_CLANG names "
			     "another)");
		goto out;
	}
	if (hpb_board_get(o->board ? o->board : "qemu-virt", &b)) {
		rc = hp_fail(HP_INVALID_VALUE, "no board '%s'", o->board);
		goto out;
	}
	char libbc[1200];
	snprintf(libbc, sizeof(libbc), "%s/build/opencl/%s-%s/hpcl.bc",
		 hpb_root(), b.libarch, b.abi);
	if (access(libbc, R_OK)) {
		rc = hp_fail(HP_COMPILER_NOT_AVAILABLE,
			     "no OpenCL built-in library %s (make opencl)",
			     libbc);
		goto out;
	}
	if (!mkdtemp(tmp)) {
		rc = hp_fail(HP_OUT_OF_RESOURCES, "mkdtemp: %s",
			     strerror(errno));
		goto out;
	}
	tmp_made = true;
	static const char *const files[] = {
		"program.cl", "program.ll", "entries.ll", "linked.bc",
		"opt.bc",     "program.o",  "desc.o"};
	for (unsigned i = 0; i < 7; i++)
		snprintf(path[i], sizeof(path[i]), "%s/%s", tmp, files[i]);
	/* the sources, one after the other (clCreateProgramWithSource) */
	{
		FILE *f = fopen(path[0], "w");
		if (f)
			fprintf(f, "#line 1 \"%s\"\n",
				o->source_name ? o->source_name : "program.cl");
		for (unsigned i = 0; f && i < o->count; i++) {
			size_t l = o->lengths && o->lengths[i]
					   ? o->lengths[i]
					   : strlen(o->sources[i]);
			fwrite(o->sources[i], 1, l, f);
			fputc('\n', f);
		}
		if (!f || fclose(f)) {
			rc = hp_fail(HP_OUT_OF_RESOURCES, "cannot write %s",
				     path[0]);
			goto out;
		}
	}
	char target[64], march[80], mabi[48], std[32], ext[600];
	snprintf(target, sizeof(target), "--target=riscv%u-unknown-elf",
		 b.xlen);
	snprintf(march, sizeof(march), "-march=%s", b.arch);
	snprintf(mabi, sizeof(mabi), "-mabi=%s", b.abi);
	snprintf(std, sizeof(std), "-cl-std=%s", opts.std);
	extensions(b.xlen, board_has_d(&b), ext, sizeof(ext));
	{
		const char *av[200] = {cc,
				       "-x",
				       "cl",
				       std,
				       "-Xclang",
				       "-finclude-default-header",
				       "-Xclang",
				       "-ffake-address-space-map",
				       "-Xclang",
				       ext,
				       "-cl-kernel-arg-info",
				       target,
				       march,
				       mabi,
				       "-mcmodel=medany",
				       "-mno-relax",
				       "-fno-jump-tables",
				       opts.opt_disable ? "-O0" : "-O2",
				       "-Xclang",
				       "-disable-O0-optnone",
				       "-S",
				       "-emit-llvm",
				       "-o",
				       path[1]};
		unsigned n = 24;
		for (unsigned i = 0; i < opts.n; i++)
			av[n++] = opts.words[i];
		/* OpenCL C 3.0 features clang's header declares from macros
		 * (header-only features): the library has them */
		if (!strcmp(opts.std, "CL3.0")) {
			av[n++] = "-D__opencl_c_work_group_collective_"
				  "functions=1";
			/* every atomic is sequentially consistent and all
			 * harts share one coherent memory */
			av[n++] = "-D__opencl_c_atomic_order_acq_rel=1";
			av[n++] = "-D__opencl_c_atomic_order_seq_cst=1";
			av[n++] = "-D__opencl_c_atomic_scope_device=1";
		}
		av[n++] = path[0];
		av[n] = NULL;
		if (hpb_run((char *const *)av)) {
			rc = hp_fail(HP_BUILD_PROGRAM_FAILURE,
				     "the OpenCL C compiler reported errors "
				     "(build log)");
			goto out;
		}
	}
	m.xlen = b.xlen;
	if (ir_read(path[1], &m) || ir_funcs(&m)) {
		rc = hp_fail(HP_OUT_OF_RESOURCES, "cannot read the IR");
		goto out;
	}
	ks = calloc(MAX_KERNELS, sizeof(*ks));
	if (!ks) {
		rc = hp_fail(HP_OUT_OF_RESOURCES, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < m.nf; i++) {
		if (!m.f[i].kernel)
			continue;
		if (nk == MAX_KERNELS) {
			sb_add(&log, "error: more than %u kernels\n",
			       MAX_KERNELS);
			rc = HP_BUILD_PROGRAM_FAILURE;
			break;
		}
		if ((rc = kernel_read(&m, &m.f[i], &ks[nk], &log)))
			break;
		nk++;
	}
	if (rc) {
		if (log.s)
			fputs(log.s, mf);
		hp_fail(rc, "%s", log.s ? log.s : "build failed");
		goto out;
	}
	if (!nk) {
		/* a program without kernels (OpenCL builds it): an object of
		 * its metadata only, which nothing loads */
		rc = meta_object(&b, o->options, hpk, size);
		goto out;
	}
	if (module_write(&m, ks, nk, path[2])) {
		rc = hp_fail(HP_OUT_OF_RESOURCES, "cannot write the IR");
		goto out;
	}
	/* link the library, keep only the entries (and what the code
	 * generator calls itself), optimise, compile */
	{
		char link[600], optp[600];
		sbuf keep = {0};
		llvm_tool(cc, "llvm-link", link, sizeof(link));
		llvm_tool(cc, "opt", optp, sizeof(optp));
		const char *av1[] = {link, path[2], libbc, "-o", path[3], NULL};
		sb_add(&keep, "-internalize-public-api-list=__tls_get_addr,"
			      "hp_api_ptr");
		for (unsigned i = 0; i < nk; i++)
			sb_add(&keep, ",hp_kfn_%s,hp_krow_%s", ks[i].name,
			       ks[i].name);
		char mattr[64] = "-mattr=", *ma = mattr + 7;
		for (const char *c = b.arch + 4; *c && *c != '_'; c++)
			if (strchr("mafdc", *c) && ma < mattr + 60)
				ma += sprintf(ma, "%s+%c",
					      ma > mattr + 7 ? "," : "", *c);
		const char *av2[] = {
			optp,
			mattr,
			opts.opt_disable ? "-passes=internalize,globaldce,"
					   "always-inline"
					 : "-passes=internalize,default<O2>",
			keep.oom ? "" : keep.s,
			path[3],
			"-o",
			path[4],
			NULL};
		const char *av3[] = {cc,
				     target,
				     march,
				     mabi,
				     "-mcmodel=medany",
				     "-mno-relax",
				     "-fno-jump-tables",
				     "-fPIC",
				     opts.opt_disable ? "-O0" : "-O2",
				     "-c",
				     path[4],
				     "-o",
				     path[5],
				     NULL};
		int lrc = keep.oom || hpb_run((char *const *)av1) ||
			  hpb_run((char *const *)av2) ||
			  hpb_run((char *const *)av3);
		free(keep.s);
		if (lrc) {
			rc = hp_fail(HP_BUILD_PROGRAM_FAILURE,
				     "linking the built-in library failed "
				     "(build log)");
			goto out;
		}
	}
	/* descriptors and metadata */
	{
		char descc[1200], inc[1100], gm[80], ga[48];
		snprintf(descc, sizeof(descc), "%s/desc.c", tmp);
		snprintf(inc, sizeof(inc), "-I%s/include", hpb_root());
		snprintf(gm, sizeof(gm), "-march=%s", b.arch);
		snprintf(ga, sizeof(ga), "-mabi=%s", b.abi);
		const char *av[] = {"riscv64-unknown-elf-gcc",
				    gm,
				    ga,
				    "-mcmodel=medany",
				    "-mno-relax",
				    "--specs=picolibc.specs",
				    "-O2",
				    "-DHP_KERNEL_OBJECT",
				    inc,
				    "-c",
				    descc,
				    "-o",
				    path[6],
				    NULL};
		if (desc_write(ks, nk, o->options, descc) ||
		    hpb_run((char *const *)av)) {
			rc = hp_fail(HP_BUILD_PROGRAM_FAILURE,
				     "compiling the descriptors failed");
			goto out;
		}
		unlink(descc);
	}
	{
		char elfp[1200];
		snprintf(elfp, sizeof(elfp), "%s",
			 o->elf_path ? o->elf_path : "");
		if (!o->elf_path)
			snprintf(elfp, sizeof(elfp), "%s/program.elf", tmp);
		const char *objs[] = {path[5], path[6]};
		/* kernels that need every __local variable of the program */
		const char *all_local[MAX_KERNELS + 1];
		unsigned na = 0;
		for (unsigned i = 0; i < nk; i++)
			if (ks[i].all_local)
				all_local[na++] = ks[i].name;
		all_local[na] = NULL;
		size_t en;
		uint8_t *e = NULL;
		if (hpb_link(&b, objs, 2, elfp) ||
		    !(e = hpb_slurp(elfp, &en)) ||
		    hpb_convert(e, en, b.xlen, all_local, hpk, size)) {
			free(e);
			rc = hp_fail(HP_BUILD_PROGRAM_FAILURE,
				     "linking the kernel object failed "
				     "(build log)");
			goto out;
		}
		free(e);
		if (!o->elf_path)
			unlink(elfp);
	}
	if (o->local_mem_size &&
	    (rc = local_check(*hpk, *size, o->local_mem_size, mf))) {
		free(*hpk);
		*hpk = NULL;
		*size = 0;
	}
out:
	if (tmp_made) {
		for (unsigned i = 0; i < 7; i++)
			unlink(path[i]);
		rmdir(tmp);
	}
	hpb_log = saved;
	fclose(mf);
	if (logp)
		*logp = mlog ? mlog : strdup("");
	else
		free(mlog);
	free(log.s);
	free(ks);
	ir_free(&m);
	opts_free(&opts);
	return rc;
}

