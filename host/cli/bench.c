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

int cmd_bench(hp_device *d, const cli_opts *o)
{
	uint32_t k;
	int rc = hp_kernel_find(d, "empty", &k);
	if (rc)
		return cli_lib_fail(rc);
	hp_queue *q;
	if ((rc = hp_queue_create(d, 0, &q)))
		return cli_lib_fail(rc);
	unsigned long n = o->count ? o->count : 2000;
	double *lat = calloc(n * 3, sizeof(double));
	if (!lat)
		return cli_die(
			HP_OUT_OF_RESOURCES,
			"out of host memory (%lu round-trip times of %zu "
			"bytes)",
			n, sizeof(double));
	hp_ndrange r = {.work_dim = 1, .global = {1}};
	/* Round trips: one empty kernel at a time, enqueue to completion
	 * seen by the host. */
	for (unsigned long i = 0; i < n; i++) {
		hp_event ev;
		hp_event_info info;
		double t0 = cli_now_us();
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &ev)) ||
		    (rc = hp_event_wait(d, ev, &info)))
			return cli_lib_fail(rc);
		lat[i] = cli_now_us() - t0;
		lat[n + i] = info.start_us - info.queued_us;
		lat[2 * n + i] = info.end_us - info.start_us;
		if (info.status)
			return cli_die(info.status, "%s", info.detail);
		cli_progress("latency", i + 1, n);
	}
	qsort(lat, n, sizeof(double), cmp_double);
	qsort(lat + n, n, sizeof(double), cmp_double);
	qsort(lat + 2 * n, n, sizeof(double), cmp_double);
	double dev_start = lat[n + n / 2], dev_run = lat[2 * n + n / 2];
	double sum = 0;
	for (unsigned long i = 0; i < n; i++)
		sum += lat[i];
	double p50 = lat[n / 2],
	       p99 = lat[(n * 99) / 100 < n ? n * 99 / 100 : n - 1];
	/* Throughput: the ring kept full. */
	unsigned long m = n * 4;
	double t0 = cli_now_us();
	hp_event last = 0;
	for (unsigned long i = 0; i < m; i++) {
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &last)))
			return cli_lib_fail(rc);
		cli_progress("throughput", i + 1, m);
	}
	if ((rc = hp_queue_finish(q)))
		return cli_lib_fail(rc);
	double secs = (cli_now_us() - t0) / 1e6;
	double kps = (double)m / secs;
	/* Doorbell after a quiet spell: the dispatcher has gone back to its
	 * slow checks (every poll_us after 5 ms without packets). */
	enum { COLD = 40 };
	double cold[COLD];
	for (unsigned i = 0; i < COLD; i++) {
		struct timespec gap = {0, 12 * 1000 * 1000};
		nanosleep(&gap, NULL);
		hp_event ev;
		hp_event_info info;
		double c0 = cli_now_us();
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &ev)) ||
		    (rc = hp_event_wait(d, ev, &info)))
			return cli_lib_fail(rc);
		cold[i] = cli_now_us() - c0;
		cli_progress("after idle", i + 1, COLD);
	}
	qsort(cold, COLD, sizeof(double), cmp_double);
	const hp_device_info *di = hp_info(d);
	/* Doorbell interrupts the dispatcher took (the doorbell device, or
	 * the UART byte a host that booted the device sends per packet). */
	uint64_t rings = 0;
	if ((rc = hp_doorbell_rings(d, &rings)))
		return cli_lib_fail(rc);
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
		       n, p50, p99, sum / (double)n, lat[0], lat[n - 1], m,
		       secs, kps, COLD, cold[COLD / 2], cold[COLD - 1],
		       (unsigned long long)rings, dev_start, dev_run);
	} else {
		printf("mailbox round trip (empty kernel, %lu runs): p50 %.1f "
		       "us, p99 %.1f us, mean %.1f us, min %.1f us\n",
		       n, p50, p99, sum / (double)n, lat[0]);
		printf("of which on the device (p50): %.1f us from reading "
		       "the packet to the launch, %.1f us from the launch to "
		       "completion (the rest: the host's ring reaching a "
		       "sleeping dispatcher, and the host seeing the record)\n",
		       dev_start, dev_run);
		printf("mailbox throughput (%lu empty kernels, one queue): "
		       "%.0f kernels/s\n",
		       m, kps);
		printf("round trip after 12 ms idle (%u runs): p50 %.1f us, "
		       "max %.1f us\n",
		       COLD, cold[COLD / 2], cold[COLD - 1]);
	}
	free(lat);
	hp_queue_release(q);
	return 0;
}
