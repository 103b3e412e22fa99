// SPDX-License-Identifier: MIT
/*
 * OpenCL C printf (OpenCL 3.0 6.15.14): the values of the conversions are
 * read here, with the types the OpenCL C caller passed them as (this file
 * and the kernel are compiled by the same clang for the same ABI), into
 * 64-bit words; the firmware formats them (hp_cl_printf, struct hp_api's
 * cl_printf) into the command's printf buffer.
 *
 * What OpenCL C passes: char and short promoted to int; long as 64 bits
 * (also on rv32, where C's long is 32); float as double where the device
 * has doubles, else as a float in an integer slot; vectors (vN with a
 * length hh, h, hl or l) by value, never promoted, a 3-vector as a
 * 4-vector. Vectors of the same size and alignment are passed alike, so
 * byte vectors read them.
 */
#include "rt.h"
#include <stdarg.h>
#include <string.h>

/* Values one printf passes at most (a long16 is 16). Small: a work-item
 * of a kernel with barriers runs on a fiber's stack. */
#define PF_WORDS 32

typedef unsigned char pf_v2 __attribute__((ext_vector_type(2)));
typedef unsigned char pf_v4 __attribute__((ext_vector_type(4)));
typedef unsigned char pf_v8 __attribute__((ext_vector_type(8)));
typedef unsigned char pf_v16 __attribute__((ext_vector_type(16)));
typedef unsigned char pf_v32 __attribute__((ext_vector_type(32)));
typedef unsigned char pf_v64 __attribute__((ext_vector_type(64)));
typedef unsigned char pf_v128 __attribute__((ext_vector_type(128)));

/* A vector of @p bytes (a power of two) into @p out; false if no such. */
static bool vec_read(va_list *ap, unsigned bytes, unsigned char *out)
{
#define PF_CASE(n)                                                             \
	case n: {                                                              \
		pf_v##n v = va_arg(*ap, pf_v##n);                              \
		memcpy(out, &v, n);                                            \
		return true;                                                   \
	}
	switch (bytes) {
		PF_CASE(2)
		PF_CASE(4)
		PF_CASE(8)
		PF_CASE(16)
		PF_CASE(32)
		PF_CASE(64)
		PF_CASE(128)
	default:
		return false;
	}
#undef PF_CASE
}

/* Element @p i of @p size bytes as a word: integers extended (signed
 * conversions by sign), floats as double bits. */
static uint64_t elem(const unsigned char *b, unsigned size, bool fp,
		     bool is_signed)
{
	uint64_t u = 0;
	memcpy(&u, b, size); /* little-endian */
	if (fp) {
		double d;
		if (size == 4) {
			float f;
			memcpy(&f, b, 4);
			d = f;
		} else {
			memcpy(&d, b, 8);
		}
		memcpy(&u, &d, 8);
		return u;
	}
	if (is_signed && size < 8 && (u >> (size * 8 - 1)) & 1)
		u |= ~0ull << (size * 8);
	return u;
}

/* A scalar float argument as double bits. */
static uint64_t scalar_fp(va_list *ap, bool is_double)
{
	double d;
#if defined(__riscv_flen) && __riscv_flen >= 64
	(void)is_double;
	d = va_arg(*ap, double); /* promoted: the device has doubles */
#else
	if (is_double) {
		d = va_arg(*ap, double);
	} else {
		uint32_t bits = va_arg(*ap, uint32_t);
		float f;
		memcpy(&f, &bits, 4);
		d = f;
	}
#endif
	uint64_t u;
	memcpy(&u, &d, 8);
	return u;
}

/* The conversion at @p p (just past '%'): reads its values into @p w
 * (from @p *k, at most PF_WORDS); returns where the text after it starts,
 * or NULL if it is none (the firmware prints it as it is, and it takes no
 * value). */
static const char *conv_read(const char *p, va_list *ap, uint64_t *w,
			     unsigned *k)
{
	while (*p && strchr("-+ #0", *p))
		p++;
	while ((*p >= '0' && *p <= '9') || *p == '.')
		p++;
	unsigned lanes = 0;
	if (*p == 'v')
		for (p++; *p >= '0' && *p <= '9'; p++)
			lanes = lanes * 10 + (unsigned)(*p - '0');
	unsigned len = 0; /* 1 hh, 2 h, 4 hl, 8 l */
	if (p[0] == 'h' && p[1] == 'h')
		len = 1, p += 2;
	else if (p[0] == 'h' && p[1] == 'l')
		len = 4, p += 2;
	else if (p[0] == 'h')
		len = 2, p++;
	else if (p[0] == 'l')
		len = 8, p += p[1] == 'l' ? 2 : 1;
	char c = *p;
	if (!c || !strchr("diouxXcfFeEgGaAsp", c))
		return NULL;
	bool fp = strchr("fFeEgGaA", c) != NULL;
	bool is_signed = c == 'd' || c == 'i';
	if (lanes) {
		/* a vector without its length (which OpenCL C requires):
		 * int or float elements */
		if (!len)
			len = 4;
		if ((lanes != 2 && lanes != 3 && lanes != 4 && lanes != 8 &&
		     lanes != 16) ||
		    (fp && len < 4) || c == 's' || c == 'p' || c == 'c')
			return NULL;
		/* the vector's bytes where its words go, then each
		 * element widened in place from the last (element l's bytes
		 * start at or before word l) */
		unsigned slots = lanes == 3 ? 4 : lanes;
		unsigned char *b = (unsigned char *)(w + *k);
		if (*k + slots > PF_WORDS || !vec_read(ap, slots * len, b))
			return NULL;
		for (unsigned l = lanes; l-- > 0;)
			w[*k + l] = elem(b + l * len, len, fp, is_signed);
		*k += lanes;
		return p + 1;
	}
	if (*k >= PF_WORDS)
		return NULL;
	if (fp) {
		w[(*k)++] = scalar_fp(ap, len == 8);
	} else if (c == 's' || c == 'p') {
		w[(*k)++] = (uintptr_t)va_arg(*ap, void *);
	} else if (len == 8) {
		w[(*k)++] = (uint64_t)va_arg(*ap, long long);
	} else {
		unsigned size = len ? len : 4;
		uint32_t v = (uint32_t)va_arg(*ap, int);
		w[(*k)++] =
			elem((const unsigned char *)&v, size, false, is_signed);
	}
	return p + 1;
}

int printf(const char *fmt, ...);
int printf(const char *fmt, ...)
{
	hpcl_ctx *c = hpcl_cur();
	uint64_t w[PF_WORDS];
	unsigned k = 0;
	va_list ap;
	va_start(ap, fmt);
	for (const char *p = fmt; *p;) {
		if (*p != '%') {
			p++;
			continue;
		}
		if (p[1] == '%') {
			p += 2;
			continue;
		}
		const char *next = conv_read(p + 1, &ap, w, &k);
		/* an argument this cannot read: the rest as it is */
		if (!next)
			break;
		p = next;
	}
	va_end(ap);
	HPCL_FW(c, hp_api_ptr->cl_printf(c->it, fmt, w, k));
	return 0;
}
