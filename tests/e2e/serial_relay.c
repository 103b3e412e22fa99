// SPDX-License-Identifier: MIT
/*
 * A faulty line between a host and QEMU's UART socket, for the serial
 * link's e2e tests (docs/testing.md, "Fault injection").
 *
 *   serial_relay [--noise N] [--drop N] [--seed S] [--limit SECONDS]
 *                LISTEN DEVICE
 *
 * Listens on the Unix socket LISTEN (it appears once it takes
 * connections). Each client in turn is relayed both ways to the Unix
 * socket DEVICE (`hartpool up`'s PATH.sock) until either side closes,
 * through the filters of tests/common/serial_faults.h: N bytes of line
 * noise before every frame to the device (--noise), and one frame in N
 * corrupted each way (--drop), from a fixed seed (--seed), the same for
 * every client, so a command meets the same faults each run. Prints one
 * line per client on stderr: the frames each way, the corrupted ones, the
 * noise. Ends on SIGTERM, and after --limit seconds (default 600) with
 * exit status 2, whatever it is doing, so that a test that failed to stop
 * it leaves nothing behind.
 *
 * The relay reads from a side only once what it read before has gone on,
 * so a device slow to take bytes in still shows to the host as unsent
 * bytes in its socket.
 */
#include "../common/serial_faults.h"
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static char listen_path[108];

/* One direction: from a socket, through the filter, to the other. */
typedef struct {
	int from, to;
	serial_faults f;
	uint8_t *buf;
	size_t len, cap, at; /* bytes to send: buf[at..len) */
	uint64_t bytes;	     /* read from `from` */
	bool eof;
} way;

static void put(void *ctx, const uint8_t *p, size_t n)
{
	way *w = ctx;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 8192;
		while (cap < w->len + n)
			cap *= 2;
		uint8_t *b = realloc(w->buf, cap);
		if (!b) {
			fprintf(stderr, "serial_relay: out of memory\n");
			exit(1);
		}
		w->buf = b;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

/* Bytes from w->from, when all before them have gone on: 0, or -1 when
 * the side closed. */
static int take(way *w)
{
	uint8_t in[4096];
	ssize_t n = recv(w->from, in, sizeof(in), MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return -1;
	w->bytes += (uint64_t)n;
	w->len = w->at = 0;
	serial_faults_feed(&w->f, in, (size_t)n, put, w);
	return 0;
}

static int give(way *w)
{
	ssize_t n = send(w->to, w->buf + w->at, w->len - w->at,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n < 0)
		return -1;
	w->at += (size_t)n;
	return 0;
}

/* Relay until a side closes; what one side sent before it closed still
 * reaches the other, if it takes it. */
static void relay(way *w)
{
	for (;;) {
		struct pollfd p[2];
		for (int i = 0; i < 2; i++) {
			bool pending = w[i].at < w[i].len;
			p[i] = (struct pollfd){
				.fd = pending ? w[i].to : w[i].from,
				.events = pending ? POLLOUT : POLLIN};
		}
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		for (int i = 0; i < 2; i++) {
			if (!p[i].revents)
				continue;
			int rc = w[i].at < w[i].len ? give(&w[i]) : take(&w[i]);
			if (rc) {
				serial_faults_flush(&w[i].f, put, &w[i]);
				if (w[i].at < w[i].len)
					give(&w[i]);
				return;
			}
		}
	}
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "serial_relay: time limit\n";
	ssize_t r = write(2, msg, sizeof(msg) - 1);
	(void)r;
	unlink(listen_path);
	_exit(2);
}

static void on_term(int sig)
{
	(void)sig;
	unlink(listen_path);
	_exit(0);
}

static void usage(void)
{
	fprintf(stderr, "usage: serial_relay [--noise N] [--drop N] [--seed S] "
			"[--limit SECONDS] LISTEN DEVICE\n");
	exit(2);
}

static int unix_addr(struct sockaddr_un *a, const char *path)
{
	*a = (struct sockaddr_un){.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(a->sun_path)) {
		fprintf(stderr, "serial_relay: socket path too long: %s\n",
			path);
		return -1;
	}
	strcpy(a->sun_path, path);
	return 0;
}

/* Listen on @p path: bound under another name and renamed, so that the
 * path appears when it takes connections. */
static int listen_on(const char *path)
{
	struct sockaddr_un a;
	char tmp[sizeof(a.sun_path)];
	if (snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid()) >=
		    (int)sizeof(tmp) ||
	    unix_addr(&a, tmp))
		return -1;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	unlink(tmp);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, 4) || rename(tmp, path)) {
		fprintf(stderr, "serial_relay: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return fd;
}

int main(int argc, char **argv)
{
	unsigned noise = 0, drop = 0, limit = 600;
	uint64_t seed = 0;
	int i = 1;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		unsigned long v = strtoul(argv[i + 1], NULL, 0);
		if (!strcmp(argv[i], "--noise"))
			noise = (unsigned)v;
		else if (!strcmp(argv[i], "--drop"))
			drop = (unsigned)v;
		else if (!strcmp(argv[i], "--seed"))
			seed = v;
		else if (!strcmp(argv[i], "--limit"))
			limit = (unsigned)v;
		else
			usage();
	}
	if (argc - i != 2)
		usage();
	const char *dev = argv[i + 1];
	struct sockaddr_un da;
	snprintf(listen_path, sizeof(listen_path), "%s", argv[i]);
	if (unix_addr(&da, dev))
		return 1;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, on_alarm);
	signal(SIGTERM, on_term);
	alarm(limit);
	int lfd = listen_on(listen_path);
	if (lfd < 0)
		return 1;
	for (unsigned n = 1;; n++) {
		int c = accept(lfd, NULL, NULL);
		if (c < 0 && errno == EINTR)
			continue;
		if (c < 0) {
			perror("serial_relay: accept");
			return 1;
		}
		int d = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (d < 0 || connect(d, (struct sockaddr *)&da, sizeof(da))) {
			fprintf(stderr, "serial_relay: client %u: %s: %s\n", n,
				dev, strerror(errno));
			close(c);
			if (d >= 0)
				close(d);
			continue;
		}
		/* To the device: noise and corruption; back: corruption. */
		static way w[2];
		for (int k = 0; k < 2; k++) {
			free(w[k].buf);
			w[k] = (way){.from = k ? d : c, .to = k ? c : d};
			serial_faults_init(&w[k].f, k ? 0 : noise, drop,
					   seed + (uint64_t)k);
		}
		relay(w);
		fprintf(stderr,
			"serial_relay: client %u: %llu bytes to the device, "
			"%llu frames, %llu corrupted, %llu bytes of noise; "
			"%llu bytes back, %llu frames, %llu corrupted\n",
			n, (unsigned long long)w[0].bytes,
			(unsigned long long)w[0].f.frames,
			(unsigned long long)w[0].f.corrupted,
			(unsigned long long)w[0].f.noise_bytes,
			(unsigned long long)w[1].bytes,
			(unsigned long long)w[1].f.frames,
			(unsigned long long)w[1].f.corrupted);
		close(c);
		close(d);
	}
}
