// SPDX-License-Identifier: MIT
/* test_stress, the set-up: the checked buffers, their guards and their host
 * mirrors (stress.h). */
#include "stress.h"

#include <stdlib.h>
#include <string.h>

struct stress_buffers B;
struct stress_buffer bufs[32];
unsigned nbufs;
uint64_t prot_lo, prot_hi;
bool hole_ok;

uint8_t *cnt_want;
uint32_t *cnt_owner;
uint64_t cnt_next;
float *va_host, *vb_host;
uint32_t *vseg_n;
uint64_t vseg_next, nvseg;
uint8_t *fil_want, *csrc_host, *cdst_want;
uint64_t fseg_next, nfseg, cseg_next, ncseg;

static hp_buffer alloc(uint64_t size, const char *name)
{
	hp_buffer b;
	MUST(hp_buffer_alloc(D, size, &b));
	if (b < E2E_HEAP_BASE || b + size > heap_hi)
		e2e_fatal("buffer %s at 0x%llx is outside the heap this test "
			  "assumes (0x%llx..0x%llx): board memory map changed?",
			  name, (unsigned long long)b,
			  (unsigned long long)E2E_HEAP_BASE,
			  (unsigned long long)heap_hi);
	bufs[nbufs].addr = b;
	bufs[nbufs].size = size;
	bufs[nbufs++].name = name;
	if (!prot_lo || b < prot_lo)
		prot_lo = b;
	if (b + size > prot_hi)
		prot_hi = b + size;
	return b;
}

static void fill_buf(hp_buffer b, uint64_t size, uint8_t byte)
{
	uint8_t *m = malloc(size);
	memset(m, byte, size);
	MUST(hp_buffer_write(D, b, 0, m, size));
	free(m);
}

static hp_buffer guard(void)
{
	hp_buffer g = alloc(GUARD_BYTES, "guard");
	fill_buf(g, GUARD_BYTES, GUARD_BYTE);
	return g;
}

bool in_scratch(uint64_t a)
{
	return (a >= B.scr && a < B.scr + SCR_BYTES) ||
	       (a >= B.scr2 && a < B.scr2 + SCR_BYTES);
}

bool is_buffer_start(uint64_t a)
{
	for (unsigned i = 0; i < nbufs; i++)
		if (bufs[i].addr == a)
			return true;
	return a == B.hole;
}

bool inside_own_buffer(uint64_t a)
{
	for (unsigned i = 0; i < nbufs; i++)
		if (a >= bufs[i].addr && a < bufs[i].addr + bufs[i].size)
			return true;
	return false;
}

void setup_buffers(uint64_t iters)
{
	/* Expected packets of each kind, with room to spare. */
	nvseg = iters / 10 + 64;
	nfseg = iters / 15 + 64;
	ncseg = iters / 15 + 64;
	B.ncnt = (iters * 90 + 4096) / 16 * 16; /* halves: valid, victims */
	B.nv = nvseg * SEG_V;
	B.nfill = nfseg * SEG_B;
	B.ncsrc = 65536;
	B.ncdst = ncseg * SEG_B;

	guard();
	B.cnt = alloc(B.ncnt * 4, "counters");
	guard();
	B.va = alloc(B.nv * 4, "vadd a");
	guard();
	B.vb = alloc(B.nv * 4, "vadd b");
	guard();
	B.vc = alloc(B.nv * 4, "vadd c");
	guard();
	B.fil = alloc(B.nfill, "fill");
	guard();
	B.hole = alloc(GUARD_BYTES, "hole");
	guard();
	B.csrc = alloc(B.ncsrc, "copy source");
	guard();
	B.cdst = alloc(B.ncdst, "copy destination");
	guard();
	B.scr = alloc(SCR_BYTES, "scratch");
	guard();
	B.scr2 = alloc(SCR_BYTES, "scratch 2");
	guard();
	/* The hole becomes a gap between two guards, too small for any
	 * ALLOC a random packet may make (sanitize()); on a device used
	 * before, the heap may have put it elsewhere: then no packet aims
	 * there. */
	MUST(hp_buffer_free(D, B.hole));
	for (unsigned i = 0; i < nbufs; i++)
		if (bufs[i].addr == B.hole) {
			hole_ok = i > 0 && i + 1 < nbufs &&
				  bufs[i - 1].addr + GUARD_BYTES == B.hole &&
				  B.hole + GUARD_BYTES == bufs[i + 1].addr;
			memmove(&bufs[i], &bufs[i + 1],
				(nbufs - i - 1) * sizeof(bufs[0]));
			nbufs--;
			break;
		}

	cnt_want = calloc(B.ncnt, 1);
	cnt_owner = calloc(B.ncnt, 4);
	fill_buf(B.cnt, B.ncnt * 4, 0);
	va_host = malloc(B.nv * 4);
	vb_host = malloc(B.nv * 4);
	for (uint64_t i = 0; i < B.nv; i++) {
		va_host[i] =
			(float)(int64_t)(rnd() % 2000001 - 1000000) / 1024.0f;
		vb_host[i] = (float)(rnd() >> 40) * 0x1p-13f;
	}
	MUST(hp_buffer_write(D, B.va, 0, va_host, B.nv * 4));
	MUST(hp_buffer_write(D, B.vb, 0, vb_host, B.nv * 4));
	uint32_t *s = malloc(B.nv * 4);
	for (uint64_t i = 0; i < B.nv; i++)
		s[i] = VC_SENTINEL;
	MUST(hp_buffer_write(D, B.vc, 0, s, B.nv * 4));
	free(s);
	vseg_n = calloc(nvseg, 4);
	fil_want = malloc(B.nfill);
	memset(fil_want, FILL_INIT, B.nfill);
	fill_buf(B.fil, B.nfill, FILL_INIT);
	csrc_host = malloc(B.ncsrc);
	for (uint64_t i = 0; i < B.ncsrc; i++)
		csrc_host[i] = (uint8_t)rnd();
	MUST(hp_buffer_write(D, B.csrc, 0, csrc_host, B.ncsrc));
	cdst_want = malloc(B.ncdst);
	memset(cdst_want, CDST_INIT, B.ncdst);
	fill_buf(B.cdst, B.ncdst, CDST_INIT);
	fill_buf(B.scr, SCR_BYTES, 0);
	fill_buf(B.scr2, SCR_BYTES, 0);
}
