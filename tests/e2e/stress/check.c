// SPDX-License-Identifier: MIT
/* test_stress, the end of the run: every result against its mirror, the
 * guards, a final kernel (stress.h). */
#include "stress.h"

#include <stdlib.h>
#include <string.h>

static void *read_all(hp_buffer b, uint64_t size)
{
	void *m = malloc(size);
	MUST(hp_buffer_read(D, b, 0, m, size));
	return m;
}

void check_results(void)
{
	uint32_t *c = read_all(B.cnt, B.ncnt * 4);
	unsigned lost = 0, dup = 0, stray = 0;
	for (uint64_t i = 0; i < B.ncnt; i++) {
		if (c[i] == cnt_want[i])
			continue;
		if (cnt_want[i] && c[i] == 0)
			lost++;
		else if (cnt_want[i])
			dup++;
		else
			stray++;
		if (lost + dup + stray <= 5)
			e2e_fail("counter %llu is %u, expected %u (%s)",
				 (unsigned long long)i, c[i], cnt_want[i],
				 cnt_want[i] ? R[cnt_owner[i]].what
					     : "no valid launch counts there");
	}
	if (lost + dup + stray)
		e2e_fail("counters: %u lost, %u duplicated, %u written where "
			 "only "
			 "rejected or empty launches pointed",
			 lost, dup, stray);
	free(c);

	uint32_t *vc = read_all(B.vc, B.nv * 4);
	float *va = read_all(B.va, B.nv * 4), *vb = read_all(B.vb, B.nv * 4);
	unsigned bad = 0;
	for (uint64_t sg = 0; sg < nvseg; sg++)
		for (uint64_t j = 0; j < SEG_V; j++) {
			uint64_t i = sg * SEG_V + j;
			float sum = va_host[i] + vb_host[i];
			uint32_t want;
			if (j < vseg_n[sg])
				memcpy(&want, &sum, 4);
			else
				want = VC_SENTINEL;
			if (vc[i] != want && ++bad <= 5)
				e2e_fail("vadd c[%llu] = 0x%08x, expected "
					 "0x%08x "
					 "(segment %llu, n %u%s)",
					 (unsigned long long)i, vc[i], want,
					 (unsigned long long)sg, vseg_n[sg],
					 vseg_n[sg]
						 ? ", written by a valid vadd"
						 : ", no valid vadd");
		}
	if (bad)
		e2e_fail("vadd: %u results wrong", bad);
	if (memcmp(va, va_host, B.nv * 4) || memcmp(vb, vb_host, B.nv * 4))
		e2e_fail("vadd inputs changed");
	free(vc), free(va), free(vb);

	uint8_t *f = read_all(B.fil, B.nfill);
	bad = 0;
	for (uint64_t i = 0; i < B.nfill; i++)
		if (f[i] != fil_want[i] && ++bad <= 5)
			e2e_fail("fill byte %llu = 0x%02x, expected 0x%02x",
				 (unsigned long long)i, f[i], fil_want[i]);
	if (bad)
		e2e_fail("fill: %u bytes wrong", bad);
	free(f);
	uint8_t *cs = read_all(B.csrc, B.ncsrc),
		*cd = read_all(B.cdst, B.ncdst);
	if (memcmp(cs, csrc_host, B.ncsrc))
		e2e_fail("copy source changed");
	bad = 0;
	for (uint64_t i = 0; i < B.ncdst; i++)
		if (cd[i] != cdst_want[i] && ++bad <= 5)
			e2e_fail(
				"copy destination byte %llu = 0x%02x, expected "
				"0x%02x",
				(unsigned long long)i, cd[i], cdst_want[i]);
	if (bad)
		e2e_fail("copy: %u bytes wrong", bad);
	free(cs), free(cd);

	for (unsigned i = 0; i < nbufs; i++) {
		if (strcmp(bufs[i].name, "guard"))
			continue;
		uint8_t *g = read_all(bufs[i].addr, GUARD_BYTES);
		unsigned n = 0;
		for (unsigned j = 0; j < GUARD_BYTES; j++)
			n += g[j] != GUARD_BYTE;
		if (n)
			e2e_fail("guard buffer after %s: %u bytes changed",
				 i ? bufs[i - 1].name : "nothing", n);
		free(g);
	}
}

/* The device still runs a checked kernel. */
void final_kernel(void)
{
	enum { N = 5000 };
	hp_buffer a, b, c, t;
	MUST(hp_buffer_alloc(D, N * 4, &a));
	MUST(hp_buffer_alloc(D, N * 4, &b));
	MUST(hp_buffer_alloc(D, N * 4, &c));
	MUST(hp_buffer_alloc(D, N * 4, &t));
	static float x[N], y[N], z[N];
	static uint32_t n[N];
	for (unsigned i = 0; i < N; i++)
		x[i] = (float)i * 0.5f, y[i] = 3.0f - (float)i, n[i] = 0;
	MUST(hp_buffer_write(D, a, 0, x, sizeof(x)));
	MUST(hp_buffer_write(D, b, 0, y, sizeof(y)));
	MUST(hp_buffer_write(D, t, 0, n, sizeof(n)));
	hp_vadd_args va = {a, b, c, N};
	hp_tally_args ta = {t, 0};
	hp_ndrange r = {.work_dim = 1, .global = {N}};
	hp_event e1, e2;
	hp_event_info i1, i2;
	MUST(hp_enqueue_kernel(Q[0], k_vadd, &r, &va, sizeof(va), NULL, 0,
			       &e1));
	MUST(hp_enqueue_kernel(Q[1], k_tally, &r, &ta, sizeof(ta), &e1, 1,
			       &e2));
	MUST(hp_event_wait(D, e1, &i1));
	MUST(hp_event_wait(D, e2, &i2));
	MUST(hp_buffer_read(D, c, 0, z, sizeof(z)));
	MUST(hp_buffer_read(D, t, 0, n, sizeof(n)));
	unsigned bad = 0;
	for (unsigned i = 0; i < N; i++)
		bad += z[i] != x[i] + y[i] || n[i] != 1;
	if (i1.status || i2.status || bad)
		e2e_fail("final kernels: %s, %s, %u values wrong",
			 hp_error_name(i1.status), hp_error_name(i2.status),
			 bad);
	hp_buffer all[4] = {a, b, c, t};
	for (unsigned i = 0; i < 4; i++)
		MUST(hp_buffer_free(D, all[i]));
}
