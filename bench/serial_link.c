// SPDX-License-Identifier: MIT
/*
 * What the serial link costs (bench/serial.sh): over one connection,
 * small kernel launches one at a time (dispatch, then wait for the
 * completion: the `empty` kernel on one work-item: round trips), then as
 * many again with the ring kept full (enqueued without waiting, then the
 * queue finished: the window full), then a buffer written and read back. For
 * each phase: the bytes on the wire each way and the request frames, counted by
 * the host transport (hp_link_stats_get()), and the wall time. With
 * "serial:SOCK,baud=N" the link is paced to N baud, so the wall time is what a
 * UART of that rate would take.
 *
 *   serial_link --connect serial:SOCK[,baud=N] [--launches N] [--bytes N]
 *
 * One JSON line on stdout; exit 1 on any error (or data read back wrong).
 */
#include <hartpool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int die(int rc, const char *what)
{
	fprintf(stderr, "serial_link: %s: %s: %s\n", what, hp_error_name(rc),
		hp_last_error());
	return 1;
}

/* One phase: from mark() to phase(), printed as a JSON object. */
typedef struct {
	hp_link_stats s;
	double t;
} mark_t;

static mark_t mark(hp_device *d)
{
	mark_t m;
	hp_link_stats_get(d, &m.s);
	m.t = now_s();
	return m;
}

static void phase(hp_device *d, const char *name, const mark_t *m0,
		  const char *count_key, unsigned long long count, bool last)
{
	mark_t m1 = mark(d);
	printf("\"%s\": {\"%s\": %llu, \"seconds\": %.6f, \"sent\": %llu, "
	       "\"received\": %llu, \"requests\": %llu, "
	       "\"retransmissions\": %llu}%s",
	       name, count_key, count, m1.t - m0->t,
	       (unsigned long long)(m1.s.bytes_sent - m0->s.bytes_sent),
	       (unsigned long long)(m1.s.bytes_received - m0->s.bytes_received),
	       (unsigned long long)(m1.s.requests - m0->s.requests),
	       (unsigned long long)(m1.s.retransmissions -
				    m0->s.retransmissions),
	       last ? "}\n" : ", ");
}

static int launch(hp_device *d, hp_queue *q, uint32_t k)
{
	hp_ndrange r = {.work_dim = 1, .global = {1}};
	hp_event ev;
	hp_event_info info;
	int rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, &ev);
	if (!rc)
		rc = hp_event_wait(d, ev, &info);
	if (!rc && info.status)
		rc = info.status;
	return rc;
}

int main(int argc, char **argv)
{
	const char *connect = NULL;
	unsigned long launches = 100;
	unsigned long long bytes = 1 << 20;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--connect"))
			connect = argv[i + 1];
		else if (!strcmp(argv[i], "--launches"))
			launches = strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--bytes"))
			bytes = strtoull(argv[i + 1], NULL, 0);
		else
			connect = NULL, i = argc;
	}
	if (!connect || !launches || !bytes || (argc - 1) % 2) {
		fprintf(stderr, "usage: serial_link --connect serial:SOCK"
				"[,baud=N] [--launches N] [--bytes N]\n");
		return 2;
	}
	hp_open_options o = {.connect = connect};
	hp_device *d;
	int rc = hp_open(&o, &d);
	if (rc)
		return die(rc, connect);
	uint32_t k;
	hp_queue *q;
	hp_buffer b;
	uint8_t *out = malloc(bytes), *in = malloc(bytes);
	if (!out || !in)
		return fprintf(stderr, "serial_link: out of memory\n"), 1;
	/* Random bytes (fixed seed): escapes as often as in any data. */
	uint64_t x = 0x9E3779B97F4A7C15ull;
	for (unsigned long long i = 0; i < bytes; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		out[i] = (uint8_t)(x >> 24);
	}
	if ((rc = hp_kernel_find(d, "empty", &k)) ||
	    (rc = hp_queue_create(d, HP_QUEUE_IN_ORDER, &q)) ||
	    (rc = hp_buffer_alloc(d, bytes, &b)) || (rc = launch(d, q, k)))
		return die(rc, "setting up");
	hp_link_stats s;
	hp_link_stats_get(d, &s);
	printf("{\"bench\": \"serial\", \"connect\": \"%s\", \"baud\": %u, ",
	       connect, s.baud);

	mark_t m = mark(d);
	for (unsigned long i = 0; i < launches; i++)
		if ((rc = launch(d, q, k)))
			return die(rc, "launching empty");
	phase(d, "launch", &m, "launches", launches, false);

	m = mark(d);
	hp_ndrange r = {.work_dim = 1, .global = {1}};
	for (unsigned long i = 0; i < launches; i++)
		if ((rc = hp_enqueue_kernel(q, k, &r, NULL, 0, NULL, 0, NULL)))
			return die(rc, "enqueueing empty");
	if ((rc = hp_queue_finish(q)))
		return die(rc, "finishing the queue");
	phase(d, "stream", &m, "launches", launches, false);

	m = mark(d);
	if ((rc = hp_buffer_write(d, b, 0, out, bytes)))
		return die(rc, "writing the buffer");
	phase(d, "write", &m, "bytes", bytes, false);

	m = mark(d);
	if ((rc = hp_buffer_read(d, b, 0, in, bytes)))
		return die(rc, "reading the buffer");
	phase(d, "read", &m, "bytes", bytes, true);
	fflush(stdout);

	if (memcmp(in, out, bytes)) {
		fprintf(stderr, "serial_link: the buffer read back differs\n");
		return 1;
	}
	hp_buffer_free(d, b);
	hp_queue_release(q);
	hp_close(d);
	free(in);
	free(out);
	return 0;
}
