// SPDX-License-Identifier: MIT
/*
 * `hartpool demo` (`make run`; demo.h): what the device does, in three
 * parts: a diamond of dependent commands on an out-of-order queue checked
 * on the host, library kernels checked against their host references
 * (their workloads), and mailbox round trips (`hartpool bench`).
 */
#include "demo.h"
#include "bench.h"
#include "run.h"
#include <hartpool/mbox.h>
#include <stdlib.h>
#include <string.h>

static unsigned demo_failed;

static void demo_line(hp_device *d, const char *what, hp_event ev,
		      const char *check)
{
	hp_event_info i;
	int rc = hp_event_wait(d, ev, &i);
	if (rc) {
		printf("  %-44s %s\n", what, hp_last_error());
		demo_failed++;
		return;
	}
	bool ok = !i.status && (!check || !strcmp(check, "OK"));
	printf("  %-44s waited %8.1f us, ran %8.1f us  %s%s%s\n", what,
	       i.start_us - i.queued_us, i.end_us - i.start_us,
	       i.status ? hp_error_name(i.status)
	       : check	? check
			: "done",
	       i.status ? ": " : "", i.status ? i.detail : "");
	demo_failed += !ok;
}

/* A library kernel with its workload: launch, check, report. */
static void demo_kernel(hp_device *d, const char *name, hp_ndrange r,
			const char *what)
{
	cli_opts o;
	memset(&o, 0, sizeof(o));
	o.r = r;
	o.repeat = 1;
	workload_ctx c;
	if (run_setup(d, &o, name, NULL, &c)) {
		demo_failed++;
		return;
	}
	uint64_t args[HP_MBOX_ARGS_MAX / 8] = {0};
	uint32_t asz = 0;
	const workload *wl = c.wl;
	hp_event ev;
	if (wl->prepare(&c, args, &asz) ||
	    hp_enqueue_kernel(c.q, c.kernel, &c.r, args, asz, NULL, 0, &ev)) {
		printf("  %-44s %s\n", what,
		       c.msg[0] ? c.msg : hp_last_error());
		demo_failed++;
		return;
	}
	hp_event_wait(d, ev, &c.info);
	int chk = c.info.status ? -1 : wl->check(&c);
	demo_line(d, what, ev, chk == 0 ? "OK" : "WRONG");
	if (chk > 0)
		printf("    %s\n", c.msg);
	workload_cleanup(&c);
	hp_queue_release(c.q);
}

int cmd_demo(hp_device *d, const cli_opts *o)
{
	(void)o;
	const hp_device_info *di = hp_info(d);
	printf("demo: %s, %u harts, mailbox %s\n", di->board, di->harts,
	       hp_connect_string(d));
	printf("demo: 1. a diamond of dependent commands on an out-of-order "
	       "queue\n");
	enum { N = 100000 };
	hp_queue *q;
	hp_buffer a, b, c, s;
	uint32_t kaff, kadd;
	int rc;
	if ((rc = hp_queue_create(d, 0, &q)) ||
	    (rc = hp_kernel_find(d, "affine", &kaff)) ||
	    (rc = hp_kernel_find(d, "add", &kadd)) ||
	    (rc = hp_buffer_alloc(d, N * 4, &a)) ||
	    (rc = hp_buffer_alloc(d, N * 4, &b)) ||
	    (rc = hp_buffer_alloc(d, N * 4, &c)) ||
	    (rc = hp_buffer_alloc(d, N * 4, &s)))
		return cli_lib_fail(rc);
	hp_ndrange r = {.work_dim = 1, .global = {N}};
	hp_event ef, ea, eb, ec, ej, es;
	struct {
		uint64_t y;
		uint32_t mul, add;
	} aa = {a, 3, 1}, ab = {b, 5, 0}, ac = {c, 1, 7};
	struct {
		uint64_t a, b, c;
	} sa = {b, c, s};
	double t0 = cli_now_us();
	if ((rc = hp_enqueue_fill(q, a, N * 4, 2, 4, NULL, 0, &ef)) ||
	    (rc = hp_enqueue_kernel(q, kaff, &r, &aa, sizeof(aa), &ef, 1,
				    &ea)) ||
	    (rc = hp_enqueue_copy(q, b, a, N * 4, &ea, 1, &eb)) ||
	    (rc = hp_enqueue_copy(q, c, a, N * 4, &ea, 1, &ec)) ||
	    (rc = hp_enqueue_kernel(q, kaff, &r, &ab, sizeof(ab), &eb, 1,
				    &eb)) ||
	    (rc = hp_enqueue_kernel(q, kaff, &r, &ac, sizeof(ac), &ec, 1, &ec)))
		return cli_lib_fail(rc);
	hp_event both[2] = {eb, ec};
	if ((rc = hp_enqueue_barrier_and(q, both, 2, &ej)) ||
	    (rc = hp_enqueue_kernel(q, kadd, &r, &sa, sizeof(sa), &ej, 1, &es)))
		return cli_lib_fail(rc);
	demo_line(d, "fill a = 2", ef, NULL);
	demo_line(d, "a = 3a + 1            (after fill)", ea, NULL);
	demo_line(d, "b = 5 copy(a)         (after a)", eb, NULL);
	demo_line(d, "c = copy(a) + 7       (after a)", ec, NULL);
	demo_line(d, "barrier-AND (b, c)", ej, NULL);
	uint32_t *host = malloc(N * 4);
	if (!host)
		return cli_die(HP_OUT_OF_RESOURCES,
			       "out of host memory (%u bytes for the result)",
			       N * 4);
	if ((rc = hp_event_wait(d, es, NULL)) ||
	    (rc = hp_buffer_read(d, s, 0, host, N * 4)))
		return cli_lib_fail(rc);
	unsigned bad = 0;
	for (unsigned i = 0; i < N; i++)
		bad += host[i] != 5 * 7 + (7 + 7); /* a = 3 * 2 + 1 = 7 */
	demo_line(d, "s = b + c             (after barrier)", es,
		  bad ? "WRONG" : "OK");
	printf("  %u values checked on the host, %.1f ms from first enqueue to "
	       "result\n",
	       N, (cli_now_us() - t0) / 1000);
	free(host);
	hp_buffer bufs[4] = {a, b, c, s};
	for (unsigned i = 0; i < 4; i++)
		hp_buffer_free(d, bufs[i]);
	hp_queue_release(q);

	printf("demo: 2. library kernels checked against host references\n");
	demo_kernel(d, "ids", (hp_ndrange){.work_dim = 2, .global = {100, 37}},
		    "ids 100x37, local chosen (OpenCL model)");
	demo_kernel(d, "wg_count",
		    (hp_ndrange){.work_dim = 2, .global = {1000, 37}},
		    "wg_count 1000x37 (remainder groups)");
	demo_kernel(d, "barrier_rotate",
		    (hp_ndrange){.work_dim = 3,
				 .global = {20, 9, 7},
				 .local = {8, 4, 2},
				 .local_given = true},
		    "barrier_rotate 20x9x7, local 8x4x2");
	demo_kernel(d, "sg_ops", (hp_ndrange){.work_dim = 1, .global = {500}},
		    "sg_ops 500 (every sub-group function)");
	printf("demo: 3. mailbox round trips\n");
	cli_opts bo;
	memset(&bo, 0, sizeof(bo));
	bo.count = 500;
	if (cmd_bench(d, &bo))
		demo_failed++;
	printf("demo: %s\n", demo_failed ? "FAILED" : "all results OK");
	return demo_failed ? 1 : 0;
}
