// SPDX-License-Identifier: MIT
/*
 * `hartpool bench` (bench.h): the mailbox's latency and throughput with
 * the `empty` kernel: round trips one at a time, then the ring kept full,
 * then round trips after the dispatcher has gone idle (the doorbell).
 */
#include "bench.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

enum { COLD = 40 };

/* What one `bench` measured. */
typedef struct {
	unsigned long n, m; /* round trips; kernels with the ring full */
	double *lat;	    /* n round trips, n queued->start, n start->end */
	double p50, p99, sum, dev_start, dev_run;
	double secs, kps;  /* the ring kept full */
	double cold[COLD]; /* round trips after 12 ms idle */
	uint64_t rings;	   /* doorbell interrupts the dispatcher took */
} bench_res;

/* Round trips: one empty kernel at a time, enqueue to completion seen by
 * the host, with the device's own share from its timestamps. */
static int bench_latency(hp_device *d, hp_queue *q, uint32_t k, bench_res *b)
{
	hp_ndrange r = {.work_dim = 1, .global = {1}};
	unsigned long n = b->n;
	for (unsigned long i = 0; i < n; i++) {
		hp_event ev;
		hp_event_info info;
		double t0 = cli_now_us();
		int rc;
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &ev)) ||
		    (rc = hp_event_wait(d, ev, &info)))
			return cli_lib_fail(rc);
		b->lat[i] = cli_now_us() - t0;
		b->lat[n + i] = info.start_us - info.queued_us;
		b->lat[2 * n + i] = info.end_us - info.start_us;
		if (info.status)
			return cli_die(info.status, "%s", info.detail);
		cli_progress("latency", i + 1, n);
	}
	for (unsigned j = 0; j < 3; j++)
		qsort(b->lat + j * n, n, sizeof(double), cmp_double);
	b->dev_start = b->lat[n + n / 2];
	b->dev_run = b->lat[2 * n + n / 2];
	for (unsigned long i = 0; i < n; i++)
		b->sum += b->lat[i];
	b->p50 = b->lat[n / 2];
	b->p99 = b->lat[(n * 99) / 100 < n ? n * 99 / 100 : n - 1];
	return 0;
}

/* Throughput: the ring kept full. */
static int bench_throughput(hp_queue *q, uint32_t k, bench_res *b)
{
	hp_ndrange r = {.work_dim = 1, .global = {1}};
	double t0 = cli_now_us();
	hp_event last = 0;
	int rc;
	for (unsigned long i = 0; i < b->m; i++) {
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &last)))
			return cli_lib_fail(rc);
		cli_progress("throughput", i + 1, b->m);
	}
	if ((rc = hp_queue_finish(q)))
		return cli_lib_fail(rc);
	b->secs = (cli_now_us() - t0) / 1e6;
	b->kps = (double)b->m / b->secs;
	return 0;
}

/* Doorbell after a quiet spell: the dispatcher has gone back to its slow
 * checks (every poll_us after 5 ms without packets). */
static int bench_cold(hp_device *d, hp_queue *q, uint32_t k, bench_res *b)
{
	hp_ndrange r = {.work_dim = 1, .global = {1}};
	for (unsigned i = 0; i < COLD; i++) {
		struct timespec gap = {0, 12 * 1000 * 1000};
		nanosleep(&gap, NULL);
		hp_event ev;
		hp_event_info info;
		double c0 = cli_now_us();
		int rc;
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &ev)) ||
		    (rc = hp_event_wait(d, ev, &info)))
			return cli_lib_fail(rc);
		b->cold[i] = cli_now_us() - c0;
		cli_progress("after idle", i + 1, COLD);
	}
	qsort(b->cold, COLD, sizeof(double), cmp_double);
	/* The doorbell device, or the UART byte a host that booted the
	 * device sends per packet. */
	int rc = hp_doorbell_rings(d, &b->rings);
	return rc ? cli_lib_fail(rc) : 0;
}

static void bench_print(hp_device *d, const cli_opts *o, const bench_res *b)
{
	const hp_device_info *di = hp_info(d);
	unsigned long n = b->n;
	if (o->json) {
		printf("{\"bench\": \"mailbox\", \"board\": \"%s\", \"harts\": "
		       "%u, \"transport\": \"%s\", \"round_trips\": %lu, "
		       "\"latency_us\": {\"p50\": %.1f, \"p99\": %.1f, "
		       "\"mean\": %.1f, \"min\": %.1f, \"max\": %.1f}, "
		       "\"throughput\": {\"kernels\": %lu, \"seconds\": %.3f, "
		       "\"kernels_per_s\": %.0f}, \"after_idle_us\": "
		       "{\"runs\": "
		       "%u, \"p50\": %.1f, \"max\": %.1f}, \"rings\": %llu, "
		       "\"device_p50_us\": {\"queued_to_start\": %.1f, "
		       "\"start_to_end\": %.1f}}\n",
		       di->board, di->harts,
		       strncmp(hp_connect_string(d), "serial:", 7) ? "shm"
								   : "serial",
		       n, b->p50, b->p99, b->sum / (double)n, b->lat[0],
		       b->lat[n - 1], b->m, b->secs, b->kps, COLD,
		       b->cold[COLD / 2], b->cold[COLD - 1],
		       (unsigned long long)b->rings, b->dev_start, b->dev_run);
		return;
	}
	printf("mailbox round trip (empty kernel, %lu runs): p50 %.1f "
	       "us, p99 %.1f us, mean %.1f us, min %.1f us\n",
	       n, b->p50, b->p99, b->sum / (double)n, b->lat[0]);
	printf("of which on the device (p50): %.1f us from reading "
	       "the packet to the launch, %.1f us from the launch to "
	       "completion (the rest: the host's ring reaching a "
	       "sleeping dispatcher, and the host seeing the record)\n",
	       b->dev_start, b->dev_run);
	printf("mailbox throughput (%lu empty kernels, one queue): "
	       "%.0f kernels/s\n",
	       b->m, b->kps);
	printf("round trip after 12 ms idle (%u runs): p50 %.1f us, "
	       "max %.1f us\n",
	       COLD, b->cold[COLD / 2], b->cold[COLD - 1]);
}

int cmd_bench(hp_device *d, const cli_opts *o)
{
	uint32_t k;
	int rc = hp_kernel_find(d, "empty", &k);
	if (rc)
		return cli_lib_fail(rc);
	hp_queue *q;
	if ((rc = hp_queue_create(d, 0, &q)))
		return cli_lib_fail(rc);
	bench_res b = {.n = o->count ? o->count : 2000};
	b.m = b.n * 4;
	b.lat = calloc(b.n * 3, sizeof(double));
	if (!b.lat)
		return cli_die(
			HP_OUT_OF_RESOURCES,
			"out of host memory (%lu round-trip times of %zu "
			"bytes)",
			b.n, sizeof(double));
	if (!(rc = bench_latency(d, q, k, &b)) &&
	    !(rc = bench_throughput(q, k, &b)) &&
	    !(rc = bench_cold(d, q, k, &b)))
		bench_print(d, o, &b);
	free(b.lat);
	hp_queue_release(q);
	return rc;
}
