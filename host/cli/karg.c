// SPDX-License-Identifier: MIT
/*
 * `hartpool run KERNEL --karg ...` for kernels the tool has no workload for
 * (typically one of a loaded kernel object): the argument block from the
 * command line, buffers made and initialised on the device, printed
 * afterwards (--print). See karg.h for the spec syntax.
 */
#include "karg.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { T_I32, T_U32, T_I64, T_U64, T_F32, T_F64 } ktype;

static const struct {
	const char *name;
	unsigned size;
} types[] = {{"i32", 4}, {"u32", 4}, {"i64", 8},
	     {"u64", 8}, {"f32", 4}, {"f64", 8}};

/* What each buffer of the run holds (index = workload_buffer's). */
static struct {
	ktype t;
	uint64_t count;
} kbufs[WORKLOAD_MAX_BUFS];

static int type_of(const char *s, size_t len, ktype *t)
{
	for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strlen(types[i].name) == len &&
		    !strncmp(types[i].name, s, len)) {
			*t = (ktype)i;
			return 0;
		}
	return -1;
}

/* Store `v` (text) as type t at p; -1 if it is not a number. */
static int put(ktype t, const char *v, void *p)
{
	char *end;
	if (t == T_F32 || t == T_F64) {
		double d = strtod(v, &end);
		if (end == v || *end)
			return -1;
		if (t == T_F32) {
			float f = (float)d;
			memcpy(p, &f, 4);
		} else {
			memcpy(p, &d, 8);
		}
		return 0;
	}
	long long s = strtoll(v, &end, 0);
	if (end == v || *end)
		return -1;
	if (types[t].size == 4) {
		uint32_t u = (uint32_t)s;
		memcpy(p, &u, 4);
	} else {
		uint64_t u = (uint64_t)s;
		memcpy(p, &u, 8);
	}
	return 0;
}

static void put_num(ktype t, double d, void *p)
{
	char v[64];
	if (t == T_F32 || t == T_F64)
		snprintf(v, sizeof(v), "%.17g", d);
	else
		snprintf(v, sizeof(v), "%lld", (long long)d);
	put(t, v, p);
}

/* A `buf:TYPE:COUNT[:INIT]` argument (@p s after "buf:"): the buffer made,
 * filled and uploaded into @p b; 0, 1 for a spec that is none, or an HP_
 * error. */
static int karg_buffer(workload_ctx *c, const char *s, uint64_t *rng,
		       hp_buffer *b)
{
	const char *cnt = strchr(s, ':');
	char *end;
	ktype t;
	if (!cnt || type_of(s, (size_t)(cnt - s), &t))
		return 1;
	uint64_t count = strtoull(cnt + 1, &end, 0);
	if (end == cnt + 1 || (*end && *end != ':') || !count ||
	    count > (256ull << 20) / types[t].size)
		return 1;
	const char *init = *end ? end + 1 : NULL;
	int idx = workload_buffer(c, count * types[t].size, b);
	if (idx < 0)
		return idx;
	kbufs[idx].t = t;
	kbufs[idx].count = count;
	uint8_t *h = c->host[idx];
	for (uint64_t k = 0; init && k < count; k++) {
		void *p = h + k * types[t].size;
		if (!strcmp(init, "iota")) {
			put_num(t, (double)k, p);
		} else if (!strcmp(init, "rand")) {
			*rng = *rng * 6364136223846793005ull +
			       1442695040888963407ull;
			put_num(t, (double)(*rng >> 33 & 0xff), p);
		} else if (put(t, init, p)) {
			return 1;
		}
	}
	return workload_upload(c, (unsigned)idx);
}

/* Where argument @p i of @p size bytes goes: the metadata's place (0, or
 * -1 with c->msg), or the next one of a C struct (@p at aligned). */
static int place(workload_ctx *c, const hp_cl_kmeta *meta, unsigned i,
		 size_t size, size_t *at)
{
	if (!meta) {
		*at = (*at + size - 1) & ~(size - 1);
		return 0;
	}
	const hp_cl_arg *g = &meta->args[i];
	if (g->size != size) {
		snprintf(c->msg, sizeof(c->msg),
			 "--karg %u: argument %u (%s %s) takes %u bytes, the "
			 "value given %zu",
			 i + 1, i, g->type_name, g->name, g->size, size);
		return -1;
	}
	*at = g->offset;
	return 0;
}

int karg_prepare(workload_ctx *c, const char *const *specs, unsigned n,
		 const hp_cl_kmeta *meta, void *args, uint32_t *args_size)
{
	uint8_t *a = args;
	size_t at = 0, maxal = 1;
	if (meta && n != meta->num_args) {
		snprintf(c->msg, sizeof(c->msg),
			 "kernel '%.200s' takes %u arguments, --karg gives %u",
			 meta->name, meta->num_args, n);
		return HP_INVALID_KERNEL_ARGS;
	}
	uint64_t rng =
		c->seed * 6364136223846793005ull + 1442695040888963407ull;
	for (unsigned i = 0; i < n; i++) {
		const char *s = specs[i];
		ktype t;
		size_t size;
		if (!strncmp(s, "buf:", 4)) {
			hp_buffer b;
			int rc = karg_buffer(c, s + 4, &rng, &b);
			if (rc > 0)
				goto bad;
			if (rc)
				return rc;
			size = 8;
			if (place(c, meta, i, size, &at))
				return HP_INVALID_KERNEL_ARGS;
			if (at + 8 > HP_MBOX_ARGS_MAX)
				goto full;
			memcpy(a + at, &b, 8);
		} else if (!strncmp(s, "local:", 6)) {
			/* an OpenCL __local argument: its offset in the
			 * launch's dynamic local memory */
			char *end;
			uint64_t bytes = strtoull(s + 6, &end, 0);
			if (end == s + 6 || *end || !bytes ||
			    bytes > (1u << 30))
				goto bad;
			/* 128-byte aligned: a long16 */
			uint64_t off = (c->r.local_mem_bytes + 127u) & ~127ull;
			c->r.local_mem_bytes = (uint32_t)(off + bytes);
			size = 8;
			if (place(c, meta, i, size, &at))
				return HP_INVALID_KERNEL_ARGS;
			if (at + 8 > HP_MBOX_ARGS_MAX)
				goto full;
			memcpy(a + at, &off, 8);
		} else {
			const char *colon = strchr(s, ':');
			if (!colon || type_of(s, (size_t)(colon - s), &t))
				goto bad;
			size = types[t].size;
			if (place(c, meta, i, size, &at))
				return HP_INVALID_KERNEL_ARGS;
			if (at + size > HP_MBOX_ARGS_MAX)
				goto full;
			if (put(t, colon + 1, a + at))
				goto bad;
		}
		at += size;
		if (size > maxal)
			maxal = size;
		continue;
	bad:
		snprintf(c->msg, sizeof(c->msg),
			 "--karg '%s': want TYPE:VALUE, "
			 "buf:TYPE:COUNT[:iota|rand|VALUE] (TYPE i32 u32 i64 "
			 "u64 f32 f64) or local:BYTES",
			 s);
		return HP_INVALID_KERNEL_ARGS;
	}
	at = meta ? meta->args_size : (at + maxal - 1) & ~(maxal - 1);
	*args_size = (uint32_t)at;
	if (c->k && c->k->args_size && c->k->args_size != at) {
		snprintf(c->msg, sizeof(c->msg),
			 "the --karg list makes %zu bytes of arguments, "
			 "kernel '%s' takes %u",
			 at, c->k->name, c->k->args_size);
		return HP_INVALID_KERNEL_ARGS;
	}
	return 0;
full:
	snprintf(c->msg, sizeof(c->msg), "arguments over %u bytes",
		 HP_MBOX_ARGS_MAX);
	return HP_INVALID_KERNEL_ARGS;
}

int karg_print(workload_ctx *c, unsigned long max)
{
	for (unsigned i = 0; i < c->num_bufs; i++) {
		ktype t = kbufs[i].t;
		uint64_t count = kbufs[i].count;
		uint8_t *h = c->host[i];
		if (workload_download(c, i, h, count * types[t].size))
			return HP_INVALID_VALUE;
		printf("buf%u %s[%llu]:", i, types[t].name,
		       (unsigned long long)count);
		for (uint64_t k = 0; k < count && k < max; k++) {
			const uint8_t *p = h + k * types[t].size;
			union {
				int32_t i32;
				uint32_t u32;
				int64_t i64;
				uint64_t u64;
				float f32;
				double f64;
			} v;
			memcpy(&v, p, types[t].size);
			switch (t) {
			case T_I32:
				printf(" %d", v.i32);
				break;
			case T_U32:
				printf(" %u", v.u32);
				break;
			case T_I64:
				printf(" %lld", (long long)v.i64);
				break;
			case T_U64:
				printf(" %llu", (unsigned long long)v.u64);
				break;
			case T_F32:
				printf(" %g", (double)v.f32);
				break;
			case T_F64:
				printf(" %g", v.f64);
				break;
			}
		}
		if (count > max)
			printf(" ... (%llu more)",
			       (unsigned long long)(count - max));
		putchar('\n');
	}
	return 0;
}
