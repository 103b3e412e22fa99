// SPDX-License-Identifier: MIT
/* test_stress, the no-op family: valid-looking packets that must not write
 * (stress.h). */
#include "stress.h"

void noop(unsigned q)
{
	pkt k;
	const char *what;
	switch (below(5)) {
	case 0: {
		what = "tally over an empty range";
		pk_tally(&k, chance(50) ? B.cnt : outside_ptr(B.cnt),
			 below(B.ncnt), 0);
		unsigned w = 1 + (unsigned)below(3);
		k.p.dispatch.setup = (uint16_t)w;
		for (unsigned d = 0; d < w; d++)
			k.p.dispatch.global[d] = 1 + below(100);
		k.p.dispatch.global[below(w)] = 0;
		break;
	}
	case 1: {
		/* vadd computes its whole range (no guard on n): n = 0 over
		 * a range into scratch, or an output outside the heap. */
		what = "vadd with n 0";
		hp_vadd_args a = {B.scr, B.scr,
				  chance(50) ? B.scr2 : outside_ptr(B.vc), 0};
		pk_dispatch(&k, k_vadd, 1 + below(300), &a, sizeof(a));
		break;
	}
	case 2:
		what = "fill of 0 bytes";
		pk_mem(&k, HP_PKT_FILL,
		       chance(50) ? B.fil + 8 * below(B.nfill / 8)
				  : outside_ptr(B.fil) & ~7ull,
		       0, 0, rnd(), 1u << below(4));
		break;
	case 3:
		what = "copy of 0 bytes";
		pk_mem(&k, HP_PKT_COPY,
		       chance(50) ? B.cdst + below(B.ncdst)
				  : outside_ptr(B.cdst),
		       B.csrc + below(B.ncsrc), 0, 0, 0);
		break;
	default:
		what = chance(50) ? "marker" : "barrier-AND without deps";
		pk_mem(&k, what[0] == 'm' ? HP_PKT_MARKER : HP_PKT_BARRIER_AND,
		       0, 0, 0, 0, 0);
		break;
	}
	send_packet(q, &k, NOOP, 0, what);
}
