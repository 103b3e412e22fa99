// SPDX-License-Identifier: MIT
/*
 * hp_printf() and hp_vprintf() (kernel objects call this one): kernels print
 * into their command's printf buffer (hartpool/mbox.h: a header, then records
 * tagged with the global id), which the host prints after completion. Runs in
 * kernel code (U-mode): touches only the kview and the buffer. A call that does
 * not fit is counted in `dropped`, never written past the end.
 */
#include "wg.h"
#include <hartpool/mbox.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void hp_printf(const hp_item *it, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hp_vprintf(it, fmt, ap);
	va_end(ap);
}

/* One record of @p n bytes of text into the command's printf buffer. */
static void emit(const hp_item *it, const char *text, unsigned n)
{
	const exec_kview *kv = it->g->kv;
	hp_printf_header *h = kv->pbuf;
	uint32_t len =
		(uint32_t)((sizeof(hp_printf_record) + (unsigned)n + 7) & ~7u);
	uint32_t size = kv->psize;
	uint32_t at = hal_fetch_add(&h->used, len);
	char *space = (char *)(h + 1);
	if (at >= size || len > size - at) {
		hal_fetch_add(&h->dropped, 1u);
		/* The first call that did not fit ends the records (later
		 * ones start past it). */
		if (at < size)
			hal_store_release(
				&((hp_printf_record *)(space + at))->len, 0u);
		return;
	}
	hp_printf_record *r = (hp_printf_record *)(space + at);
	r->text_len = (uint32_t)n;
	for (unsigned d = 0; d < 3; d++)
		r->gid[d] = it->global_id[d];
	memcpy(r + 1, text, (size_t)n);
	hal_store_release(&r->len, len);
}

void hp_vprintf(const hp_item *it, const char *fmt, va_list ap)
{
	if (!it->g->kv->pbuf)
		return;
	char text[HP_PRINTF_MAX];
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	if (n < 0)
		return;
	if ((unsigned)n >= sizeof(text))
		n = sizeof(text) - 1;
	emit(it, text, (unsigned)n);
}

/* ---- OpenCL C printf ----
 * %[flags][width][.precision][vN][length]conversion. A vector's elements
 * are printed each with the conversion, separated by commas. The values
 * come as 64-bit words (kernels/opencl/printf.c reads them with the
 * caller's types), so the length modifier only chose how they were read:
 * here every integer is a long long and every floating-point value a
 * double. */

/* The conversion at @p p (just past '%'): its C form (the flags, width
 * and precision as written, then "ll" for integers) into @p spec, its
 * lanes, and where the text after it starts; NULL if it is none. */
static const char *cl_spec(const char *p, char *spec, size_t n, unsigned *lanes,
			   char *conv)
{
	size_t k = 0;
	spec[k++] = '%';
	while (*p && strchr("-+ #0", *p) && k < n - 8)
		spec[k++] = *p++;
	while (*p >= '0' && *p <= '9' && k < n - 8)
		spec[k++] = *p++;
	if (*p == '.') {
		spec[k++] = *p++;
		while (*p >= '0' && *p <= '9' && k < n - 8)
			spec[k++] = *p++;
	}
	*lanes = 1;
	if (*p == 'v') {
		unsigned v = 0;
		for (p++; *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (unsigned)(*p - '0');
		if (v != 2 && v != 3 && v != 4 && v != 8 && v != 16)
			return NULL;
		*lanes = v;
	}
	while (*p == 'h' || *p == 'l')
		p++;
	if (!*p || !strchr("diouxXcfFeEgGaAsp", *p))
		return NULL;
	*conv = *p;
	if (strchr("diouxX", *p)) {
		spec[k++] = 'l';
		spec[k++] = 'l';
	}
	spec[k++] = *p++;
	spec[k] = 0;
	return p;
}

/* One value of conversion @p conv by @p spec at @p out (@p room bytes):
 * the bytes written (at most room - 1). */
static size_t cl_value(char *out, size_t room, const char *spec, char conv,
		       uint64_t v)
{
	int w;
	if (strchr("fFeEgGaA", conv)) {
		double d;
		memcpy(&d, &v, sizeof(d));
		w = snprintf(out, room, spec, d);
	} else if (conv == 's' || conv == 'p') {
		w = snprintf(out, room, spec, (void *)(uintptr_t)v);
	} else if (conv == 'c') {
		w = snprintf(out, room, spec, (int)v);
	} else {
		w = snprintf(out, room, spec, (long long)v);
	}
	if (w < 0)
		return 0;
	return (size_t)w < room ? (size_t)w : room - 1;
}

void hp_cl_printf(const hp_item *it, const char *fmt, const uint64_t *args,
		  unsigned n)
{
	if (!it->g->kv->pbuf)
		return;
	char text[HP_PRINTF_MAX], spec[32];
	size_t at = 0, room = sizeof(text);
	unsigned k = 0;
	for (const char *p = fmt; *p && at < room - 1;) {
		unsigned lanes;
		char conv;
		const char *next;
		if (*p != '%' || p[1] == '%') {
			text[at++] = *p;
			p += *p == '%' ? 2 : 1;
			continue;
		}
		next = cl_spec(p + 1, spec, sizeof(spec), &lanes, &conv);
		if (!next || k + lanes > n) {
			/* not one, or no values for it (where the kernel's
			 * side stopped reading): the rest as it is */
			size_t l = strlen(p);
			if (l > room - 1 - at)
				l = room - 1 - at;
			memcpy(text + at, p, l);
			at += l;
			break;
		}
		for (unsigned l = 0; l < lanes && at < room - 1; l++) {
			if (l)
				text[at++] = ',';
			at += cl_value(text + at, room - at, spec, conv,
				       args[k + l]);
		}
		k += lanes;
		p = next;
	}
	emit(it, text, (unsigned)at);
}
