// SPDX-License-Identifier: MIT
/*
 * memset, memcpy and memmove for the firmware, a word at a time. They
 * replace picolibc's, which copy a byte at a time on these multilibs (a
 * 136-byte memset took 553 instructions); the executor clears and copies
 * launch records, packets and arguments on every command.
 */
#include <stddef.h>
#include <stdint.h>

typedef unsigned long word;
#define W sizeof(word)
/* Keep GCC from turning these loops back into calls to themselves. */
#define NO_PATTERNS                                                            \
	__attribute__((optimize("no-tree-loop-distribute-patterns")))

NO_PATTERNS void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	while (n && ((uintptr_t)d & (W - 1))) {
		*d++ = (unsigned char)c;
		n--;
	}
	word v = (unsigned char)c;
	v |= v << 8;
	v |= v << 16;
#if __riscv_xlen == 64
	v |= v << 32;
#endif
	for (; n >= 4 * W; n -= 4 * W, d += 4 * W) {
		((word *)d)[0] = v;
		((word *)d)[1] = v;
		((word *)d)[2] = v;
		((word *)d)[3] = v;
	}
	for (; n >= W; n -= W, d += W)
		*(word *)d = v;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

NO_PATTERNS void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if ((((uintptr_t)d ^ (uintptr_t)s) & (W - 1)) == 0) {
		while (n && ((uintptr_t)d & (W - 1))) {
			*d++ = *s++;
			n--;
		}
		for (; n >= 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W) {
			word a = ((const word *)s)[0], b = ((const word *)s)[1];
			word c = ((const word *)s)[2], e = ((const word *)s)[3];
			((word *)d)[0] = a;
			((word *)d)[1] = b;
			((word *)d)[2] = c;
			((word *)d)[3] = e;
		}
		for (; n >= W; n -= W, d += W, s += W)
			*(word *)d = *(const word *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

NO_PATTERNS void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	/* Overlapping, destination above: copy backwards. */
	d += n;
	s += n;
	if ((((uintptr_t)d ^ (uintptr_t)s) & (W - 1)) == 0) {
		while (n && ((uintptr_t)d & (W - 1))) {
			*--d = *--s;
			n--;
		}
		for (; n >= W; n -= W) {
			d -= W;
			s -= W;
			*(word *)d = *(const word *)s;
		}
	}
	while (n--)
		*--d = *--s;
	return dst;
}
