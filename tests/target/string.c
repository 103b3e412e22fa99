// SPDX-License-Identifier: MIT
/* The firmware's memset, memcpy and memmove (hal/string.c) against byte
 * loops: every length 0..80 at every source and destination alignment
 * 0..7, overlapping moves both ways, and the bytes around each target
 * untouched. */
#include "tt.h"
#include <boot/app.h>
#include <string.h>

#define N 160
static unsigned char buf[N], ref[N], src[N];

__attribute__((optimize("no-tree-loop-distribute-patterns"))) static void
fill(unsigned char *p, unsigned seed)
{
	for (unsigned i = 0; i < N; i++)
		p[i] = (unsigned char)(i * 37u + seed * 11u + 1u);
}

/* The reference loops must stay loops, not calls to what they check. */
__attribute__((optimize("no-tree-loop-distribute-patterns"))) int app_main(void)
{
	if (hal_hart_idx() != 0)
		return 0;
	unsigned cases = 0, bad = 0;
	for (unsigned len = 0; len <= 80; len++)
		for (unsigned da = 0; da < 8; da++)
			for (unsigned sa = 0; sa < 8; sa++) {
				/* memcpy */
				fill(buf, 1), fill(ref, 1), fill(src, 2);
				memcpy(buf + 16 + da, src + 16 + sa, len);
				for (unsigned i = 0; i < len; i++)
					ref[16 + da + i] = src[16 + sa + i];
				bad += memcmp(buf, ref, N) != 0;
				/* memmove within one buffer, both ways */
				fill(buf, 3), fill(ref, 3);
				memmove(buf + 40 + da, buf + 40 + sa + 8, len);
				unsigned char tmp[N];
				for (unsigned i = 0; i < len; i++)
					tmp[i] = ref[40 + sa + 8 + i];
				for (unsigned i = 0; i < len; i++)
					ref[40 + da + i] = tmp[i];
				bad += memcmp(buf, ref, N) != 0;
				fill(buf, 4), fill(ref, 4);
				memmove(buf + 40 + da + 8, buf + 40 + sa, len);
				for (unsigned i = 0; i < len; i++)
					tmp[i] = ref[40 + sa + i];
				for (unsigned i = 0; i < len; i++)
					ref[40 + da + 8 + i] = tmp[i];
				bad += memcmp(buf, ref, N) != 0;
				cases += 3;
			}
	for (unsigned len = 0; len <= 80; len++)
		for (unsigned da = 0; da < 8; da++) {
			fill(buf, 5), fill(ref, 5);
			memset(buf + 16 + da, 0xa5, len);
			for (unsigned i = 0; i < len; i++)
				ref[16 + da + i] = 0xa5;
			bad += memcmp(buf, ref, N) != 0;
			cases++;
		}
	TT_CHECK(bad == 0);
	hal_printf("string: %u cases, %u wrong\n", cases, bad);
	return tt_result();
}
