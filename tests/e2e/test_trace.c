// SPDX-License-Identifier: MIT
/*
 * A mixed workload under a trace (docs/trace.md): two queues (one in
 * order, one out of order), commands that wait for commands of the other
 * queue, a barrier-AND, barrier kernels (reduce_wg, sgemm_tiled) and a
 * work-group spread over a team of two harts (team-barrier waits). Every
 * result is checked on the host; the trace goes to OUT.json, which
 * tests/e2e/trace_check.py checks and bench/timeline.py draws.
 *
 *   test_trace [--harts N] [--board B] [--connect C] [--records N]
 *              [--no-trace] OUT.json
 *
 * Prints the commands as "cmd QUEUE:INDEX NAME GROUPS" lines (what the
 * checker compares the trace with), then the trace's counts.
 */
#include "e2e_check.h"
#include <stdlib.h>
#include <string.h>

#include <hartpool/kernels/lib.h>
#include <hartpool/mbox.h>

#define N (1u << 15)  /* floats of the vector commands */
#define NI (1u << 14) /* ints reduced */
#define RL 64u	      /* reduce_wg's local size */
#define SM 48u	      /* sgemm: SM x SM times SM x SM */

static hp_device *d;

/* A kernel's id, a zeroed buffer (e2e_check.h). */
#define kernel(name) e2e_kernel(d, name)
#define buffer(bytes) e2e_buffer(d, bytes, NULL)

static uint32_t f32(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
}

/* One command's line for the checker. */
static void show(hp_event ev, const char *name)
{
	hp_event_info i;
	MUST(hp_event_wait(d, ev, &i));
	CHECK(i.status == 0, "%s: %s %s", name, hp_error_name(i.status),
	      i.detail);
	printf("cmd %u:%llu %s %llu\n", HP_EVENT_QUEUE(ev),
	       (unsigned long long)HP_EVENT_INDEX(ev), name,
	       (unsigned long long)i.groups);
}

int main(int argc, char **argv)
{
	hp_open_options o = {.harts = 8};
	const char *out = NULL;
	uint32_t records = 0;
	bool trace = true;
	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--harts") && k + 1 < argc)
			o.harts = (unsigned)atoi(argv[++k]);
		else if (!strcmp(argv[k], "--board") && k + 1 < argc)
			o.board = argv[++k];
		else if (!strcmp(argv[k], "--connect") && k + 1 < argc)
			o.connect = argv[++k];
		else if (!strcmp(argv[k], "--records") && k + 1 < argc)
			records = (uint32_t)atoi(argv[++k]);
		else if (!strcmp(argv[k], "--no-trace"))
			trace = false;
		else if (argv[k][0] != '-' && !out)
			out = argv[k];
		else
			e2e_fatal("usage: test_trace [--harts N] [--board B] "
				  "[--connect C] [--records N] [--no-trace] "
				  "OUT.json");
	}
	if (!out)
		e2e_fatal("test_trace: no OUT.json");
	MUST(hp_open(&o, &d));
	hp_queue *qa, *qb;
	MUST(hp_queue_create(d, HP_QUEUE_IN_ORDER, &qa));
	MUST(hp_queue_create(d, 0, &qb));
	hp_buffer a = buffer(N * 4), b = buffer(N * 4), c = buffer(N * 4);
	hp_buffer in = buffer(NI * 4), r1 = buffer(NI / RL * 4),
		  r2 = buffer(NI / RL * 4);
	hp_buffer sa = buffer(SM * SM * 4), sb = buffer(SM * SM * 4),
		  sc = buffer(SM * SM * 4);
	if (trace)
		MUST(hp_trace_start(d, records));

	hp_event e[16];
	/* Queue A, in order: a = 1, b = 2, then c = a + b. */
	MUST(hp_enqueue_fill(qa, a, N * 4, f32(1.0f), 4, NULL, 0, &e[0]));
	MUST(hp_enqueue_fill(qa, b, N * 4, f32(2.0f), 4, NULL, 0, &e[1]));
	/* Queue B, out of order: the inputs of the reduction and the
	 * matrix product, at once. */
	MUST(hp_enqueue_fill(qb, in, NI * 4, 1, 4, NULL, 0, &e[2]));
	MUST(hp_enqueue_fill(qb, sa, SM * SM * 4, f32(1.0f), 4, NULL, 0,
			     &e[3]));
	MUST(hp_enqueue_fill(qb, sb, SM * SM * 4, f32(0.5f), 4, NULL, 0,
			     &e[4]));
	hp_vadd_args va = {a, b, c, N};
	hp_ndrange r = {.work_dim = 1, .global = {N}};
	MUST(hp_enqueue_kernel(qa, kernel("vadd"), &r, &va, sizeof(va), NULL, 0,
			       &e[5]));
	/* Barrier kernels on queue B: a reduction per work-group, the
	 * tiled product, and the reduction again with each work-group
	 * spread over a team of two harts. */
	hp_reduce_wg_args ra = {in, r1, NI};
	hp_ndrange rr = {.work_dim = 1,
			 .global = {NI},
			 .local = {RL},
			 .local_given = true};
	MUST(hp_enqueue_kernel(qb, kernel("reduce_wg"), &rr, &ra, sizeof(ra),
			       &e[2], 1, &e[6]));
	hp_sgemm_args ga = {sa, sb, sc, SM * SM, SM * SM, SM * SM, SM, SM, SM};
	hp_ndrange gr = {.work_dim = 2,
			 .global = {SM, SM},
			 .local = {8, 8},
			 .local_given = true};
	hp_event gdeps[2] = {e[3], e[4]};
	MUST(hp_enqueue_kernel(qb, kernel("sgemm_tiled"), &gr, &ga, sizeof(ga),
			       gdeps, 2, &e[7]));
	hp_reduce_wg_args rb = {in, r2, NI};
	hp_ndrange rt = rr;
	/* (a team needs two workers besides the dispatcher) */
	rt.team_size = hp_info(d)->harts >= 3 ? 2 : 1;
	MUST(hp_enqueue_kernel(qb, kernel("reduce_wg"), &rt, &rb, sizeof(rb),
			       &e[2], 1, &e[8]));
	/* Queue A waits for queue B's reduction and product (barrier-AND),
	 * then a = 3c + a. */
	hp_event bdeps[2] = {e[6], e[7]};
	MUST(hp_enqueue_barrier_and(qa, bdeps, 2, &e[9]));
	hp_saxpy_args sx = {c, a, N, 3.0f, 0};
	MUST(hp_enqueue_kernel(qa, kernel("saxpy"), &r, &sx, sizeof(sx), NULL,
			       0, &e[10]));

	static const char *const names[] = {
		"fill",	     "fill",	    "fill",	 "fill",
		"fill",	     "vadd",	    "reduce_wg", "sgemm_tiled",
		"reduce_wg", "barrier_and", "saxpy",
	};
	for (unsigned k = 0; k < 11; k++)
		show(e[k], names[k]);

	/* The results. */
	static float fa[N], fc[SM * SM];
	static int32_t s1[NI / RL], s2[NI / RL];
	MUST(hp_buffer_read(d, a, 0, fa, sizeof(fa)));
	MUST(hp_buffer_read(d, sc, 0, fc, sizeof(fc)));
	MUST(hp_buffer_read(d, r1, 0, s1, sizeof(s1)));
	MUST(hp_buffer_read(d, r2, 0, s2, sizeof(s2)));
	unsigned bad = 0;
	for (unsigned k = 0; k < N; k++)
		bad += fa[k] != 10.0f; /* 3 * (1 + 2) + 1 */
	CHECK(!bad, "saxpy(vadd): %u of %u values wrong (a[0] = %g)", bad, N,
	      (double)fa[0]);
	bad = 0;
	for (unsigned k = 0; k < SM * SM; k++)
		bad += fc[k] != 0.5f * SM;
	CHECK(!bad, "sgemm_tiled: %u of %u values wrong", bad, SM * SM);
	bad = 0;
	for (unsigned k = 0; k < NI / RL; k++)
		bad += s1[k] != (int32_t)RL || s2[k] != (int32_t)RL;
	CHECK(!bad, "reduce_wg: %u of %u sums wrong", bad, NI / RL);

	if (trace) {
		hp_trace_stats st;
		MUST(hp_trace_stop(d, out, &st));
		printf("trace %s: %llu records, %u harts, %u commands, %llu "
		       "dropped, %llu bad\n",
		       out, (unsigned long long)st.records, st.harts,
		       st.commands, (unsigned long long)st.dropped,
		       (unsigned long long)st.bad);
		CHECK(st.bad == 0, "%llu bad records",
		      (unsigned long long)st.bad);
	}
	hp_queue_release(qa);
	hp_queue_release(qb);
	hp_close(d);
	return e2e_report();
}
