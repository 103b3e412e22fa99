// SPDX-License-Identifier: MIT
/*
 * The serial transport (transport.h): device memory read and written with
 * framed requests over a UART (include/hartpool/frame.h), through QEMU's
 * `-chardev socket` (a Unix socket path) or a tty (raw 115200 8N1).
 *
 * Stop-and-wait: one request at a time; the reply carries its seq. With no
 * reply after 100 ms the same request goes again (they are idempotent),
 * waiting twice as long each time, 8 tries in all. Reads and writes go in
 * pieces of HP_SERIAL_DATA_MAX bytes. Bytes outside frames are the device's
 * console text: they go to the console callback (called while a request is
 * under way; it must not use the transport).
 *
 * Environment, for tests: HP_SERIAL_GARBAGE=N writes N bytes of line noise
 * before every request frame: random bytes, many 0xC0, 0xC1 and 0xDB, and
 * cut-off copies of the frame with a byte changed. The device must skip
 * them all and still answer the frame that follows. The noise is the same
 * from run to run (fixed seed).
 */
#include "transport.h"
#include <errno.h>
#include <fcntl.h>
#include <hartpool/error.h>
#include <hartpool/frame.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TRIES 8
#define FIRST_TIMEOUT_MS 100

typedef struct {
	hp_transport t; /* first: the ops get &t */
	int fd;
	bool sock;
	bool tty;
	struct termios saved; /* the tty's settings, restored at close */
	char dev[128];
	hp_console_fn console;
	void *ctx;
	pthread_mutex_t mu; /* one request at a time */
	uint8_t seq;
	unsigned garbage; /* HP_SERIAL_GARBAGE */
	uint8_t *noise;
	uint64_t rng;
	hp_frame_dec dec;
	size_t rx_pos, rx_len;
	uint8_t rx[4096];
	uint8_t wire[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
} serial;

__attribute__((format(printf, 3, 4))) static int fail(serial *s, int code,
						      const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->t.err, sizeof(s->t.err), fmt, ap);
	va_end(ap);
	return code;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int write_all(serial *s, const uint8_t *p, size_t n)
{
	while (n) {
		/* MSG_NOSIGNAL: a device gone away is an error, not SIGPIPE. */
		ssize_t w = s->sock ? send(s->fd, p, n, MSG_NOSIGNAL)
				    : write(s->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EPIPE || errno == ECONNRESET))
			return fail(s, HP_DEVICE_NOT_AVAILABLE,
				    "the device is gone: %s hung up", s->dev);
		if (w < 0)
			return fail(
				s, HP_DEVICE_NOT_AVAILABLE,
				"the device is gone: cannot write to %s: %s",
				s->dev, strerror(errno));
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static uint64_t rnd(serial *s)
{
	/* xorshift64* */
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 0x2545F4914F6CDD1DULL;
}

/* HP_SERIAL_GARBAGE: noise before the request frame in s->wire. */
static int send_noise(serial *s, size_t frame_len)
{
	static const uint8_t marks[] = {HP_FRAME_START, HP_FRAME_END,
					HP_FRAME_ESC};
	uint8_t *p = s->noise;
	size_t left = s->garbage;
	while (left) {
		uint64_t r = rnd(s);
		unsigned kind = r % 8;
		if (kind == 0 && frame_len > 2) {
			/* The start and some body, never the end marker,
			 * with one byte changed. */
			size_t cut = 2 + (r >> 8) % (frame_len - 2);
			cut = cut < left ? cut : left;
			memcpy(p, s->wire, cut);
			if (cut > 1)
				p[1 + (r >> 32) % (cut - 1)] ^=
					(uint8_t)(1 + (r >> 48) % 255);
			p += cut;
			left -= cut;
		} else {
			*p++ = kind >= 1 && kind <= 3 ? marks[kind - 1]
						      : (uint8_t)(r >> 8);
			left--;
		}
	}
	return write_all(s, s->noise, s->garbage);
}

static void text(serial *s, size_t from, size_t to)
{
	if (to > from && s->console)
		s->console(s->ctx, (const char *)s->rx + from, to - from);
}

/* Decode buffered bytes up to the next frame (true: it is in s->dec);
 * text on the way goes to the console. */
static bool next_frame(serial *s)
{
	size_t start = s->rx_pos;
	bool in_text = false, got = false;
	while (s->rx_pos < s->rx_len && !got) {
		size_t i = s->rx_pos++;
		enum hp_frame_event ev = hp_frame_feed(&s->dec, s->rx[i]);
		if (ev == HP_FRAME_TEXT) {
			if (!in_text)
				start = i;
			in_text = true;
			continue;
		}
		if (in_text)
			text(s, start, i);
		in_text = false;
		got = ev == HP_FRAME_OK;
	}
	if (in_text)
		text(s, start, s->rx_pos);
	return got;
}

/* Wait up to @p ms for the reply to @p seq: 1 (in s->dec), 0 (timed out)
 * or an HP_ error. */
static int wait_reply(serial *s, uint8_t seq, int ms)
{
	int64_t deadline = now_ms() + ms;
	for (;;) {
		while (next_frame(s))
			if (s->dec.seq == seq && (s->dec.type & HP_MSG_REPLY))
				return 1;
		/* (else a late reply to an earlier try: skipped) */
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return 0;
		struct pollfd pfd = {.fd = s->fd, .events = POLLIN};
		int r = poll(&pfd, 1, (int)left);
		if (r == 0)
			return 0;
		ssize_t n = r > 0 ? read(s->fd, s->rx, sizeof(s->rx)) : -1;
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0 && errno != ECONNRESET)
			return fail(
				s, HP_DEVICE_NOT_AVAILABLE,
				"the device is gone: cannot read from %s: %s",
				s->dev, strerror(errno));
		if (n <= 0)
			return fail(s, HP_DEVICE_NOT_AVAILABLE,
				    "the device is gone: %s hung up", s->dev);
		s->rx_pos = 0;
		s->rx_len = (size_t)n;
	}
}

/* Send a request until its reply comes; 0 with the reply in s->dec. */
static int request(serial *s, uint8_t type, const void *payload, size_t len,
		   const char *what)
{
	uint8_t seq = ++s->seq;
	size_t n = hp_frame_encode(s->wire, sizeof(s->wire), type, seq, payload,
				   len);
	int ms = FIRST_TIMEOUT_MS, waited = 0;
	for (int i = 0; i < TRIES; i++, waited += ms, ms *= 2) {
		int rc = s->garbage ? send_noise(s, n) : 0;
		if (!rc)
			rc = write_all(s, s->wire, n);
		if (!rc)
			rc = wait_reply(s, seq, ms);
		if (rc)
			return rc < 0 ? rc : 0;
	}
	/* A link silent for this long has no device on it (any more). */
	return fail(s, HP_DEVICE_NOT_AVAILABLE,
		    "no reply from the device on %s after %d tries over %.1f s "
		    "(%s)",
		    s->dev, TRIES, waited / 1000.0, what);
}

/* The reply must be @p type with @p len bytes; a NAK gives its status. */
static int check_reply(serial *s, uint8_t type, size_t len, const char *what)
{
	const uint8_t *p = hp_frame_payload(&s->dec);
	if (s->dec.type == HP_MSG_NAK && s->dec.len == HP_MSG_NAK_LEN) {
		int st = (int32_t)hp_get_le32(p);
		st = st < 0 ? st : HP_INVALID_VALUE;
		return fail(s, st, "the device on %s refused %s: %s (%s)",
			    s->dev, what, hp_error_name(st), hp_error_text(st));
	}
	if (s->dec.type != type || s->dec.len != len)
		return fail(s, HP_INVALID_VALUE,
			    "bad reply from the device on %s to %s: type "
			    "0x%02x, %u bytes",
			    s->dev, what, s->dec.type, s->dec.len);
	return 0;
}

static int serial_read(hp_transport *t, uint64_t addr, void *buf, size_t len)
{
	serial *s = (serial *)t;
	int rc = 0;
	pthread_mutex_lock(&s->mu);
	for (size_t done = 0, n; done < len && !rc; done += n) {
		n = len - done < HP_SERIAL_DATA_MAX ? len - done
						    : HP_SERIAL_DATA_MAX;
		uint8_t req[HP_MSG_READ_LEN];
		char what[80];
		hp_put_le64(req, addr + done);
		hp_put_le32(req + 8, (uint32_t)n);
		snprintf(what, sizeof(what), "the read of %zu bytes at 0x%llx",
			 n, (unsigned long long)(addr + done));
		rc = request(s, HP_MSG_READ, req, sizeof(req), what);
		if (!rc)
			rc = check_reply(s, HP_MSG_DATA, n, what);
		if (!rc)
			memcpy((uint8_t *)buf + done, hp_frame_payload(&s->dec),
			       n);
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static int serial_write(hp_transport *t, uint64_t addr, const void *buf,
			size_t len)
{
	serial *s = (serial *)t;
	int rc = 0;
	pthread_mutex_lock(&s->mu);
	for (size_t done = 0, n; done < len && !rc; done += n) {
		n = len - done < HP_SERIAL_DATA_MAX ? len - done
						    : HP_SERIAL_DATA_MAX;
		uint8_t req[HP_MSG_WRITE_HDR + HP_SERIAL_DATA_MAX];
		char what[80];
		hp_put_le64(req, addr + done);
		memcpy(req + HP_MSG_WRITE_HDR, (const uint8_t *)buf + done, n);
		snprintf(what, sizeof(what), "the write of %zu bytes at 0x%llx",
			 n, (unsigned long long)(addr + done));
		rc = request(s, HP_MSG_WRITE, req, HP_MSG_WRITE_HDR + n, what);
		if (!rc)
			rc = check_reply(s, HP_MSG_ACK, HP_MSG_ACK_LEN, what);
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static void serial_close(hp_transport *t)
{
	serial *s = (serial *)t;
	if (s->tty)
		tcsetattr(s->fd, TCSANOW, &s->saved);
	if (s->fd >= 0)
		close(s->fd);
	pthread_mutex_destroy(&s->mu);
	free(s->noise);
	free(s);
}

static const hp_transport_ops serial_ops = {
	.read = serial_read,
	.write = serial_write,
	.close = serial_close,
};

static int open_socket(serial *s, const char *dev)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	if (strlen(dev) >= sizeof(a.sun_path))
		return fail(s, HP_INVALID_VALUE,
			    "socket path too long (%zu bytes, at most %zu): %s",
			    strlen(dev), sizeof(a.sun_path) - 1, dev);
	strcpy(a.sun_path, dev);
	s->sock = true;
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&a, sizeof(a)))
		return fail(s, HP_DEVICE_NOT_FOUND, "%s: %s", dev,
			    strerror(errno));
	return 0;
}

static int open_tty(serial *s, const char *dev)
{
	/* O_NONBLOCK: do not wait for carrier; cleared once CLOCAL is set. */
	s->fd = open(dev, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0)
		return fail(s, HP_DEVICE_NOT_FOUND, "%s: %s", dev,
			    strerror(errno));
	if (tcgetattr(s->fd, &s->saved))
		return fail(s, HP_DEVICE_NOT_FOUND,
			    "%s is neither a Unix socket nor a tty", dev);
	struct termios tio = s->saved;
	cfmakeraw(&tio);
	cfsetispeed(&tio, B115200);
	cfsetospeed(&tio, B115200);
	tio.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS);
	tio.c_cflag |= CS8 | CLOCAL | CREAD;
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	if (tcsetattr(s->fd, TCSANOW, &tio))
		return fail(s, HP_DEVICE_NOT_FOUND, "cannot set up %s: %s", dev,
			    strerror(errno));
	s->tty = true;
	int fl = fcntl(s->fd, F_GETFL);
	if (fl < 0 || fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK))
		return fail(s, HP_DEVICE_NOT_FOUND, "cannot set up %s: %s", dev,
			    strerror(errno));
	return 0;
}

static int hello(serial *s)
{
	uint8_t req[HP_MSG_HELLO_LEN];
	hp_put_le32(req, HP_SERIAL_VERSION);
	int rc = request(s, HP_MSG_HELLO, req, sizeof(req), "HELLO");
	if (rc)
		return rc;
	const uint8_t *p = hp_frame_payload(&s->dec);
	/* A refused HELLO names the device's version; an accepted one must
	 * be ours. */
	uint32_t dev_version = HP_SERIAL_VERSION;
	if (s->dec.type == HP_MSG_NAK && s->dec.len == HP_MSG_NAK_LEN)
		dev_version = hp_get_le32(p + 4);
	else if (s->dec.type == HP_MSG_HELLO_ACK &&
		 s->dec.len == HP_MSG_HELLO_ACK_LEN)
		dev_version = hp_get_le32(p);
	if (dev_version != HP_SERIAL_VERSION)
		return fail(s, HP_INVALID_VALUE,
			    "the device on %s speaks serial protocol version "
			    "%u, this host speaks version %u",
			    s->dev, (unsigned)dev_version, HP_SERIAL_VERSION);
	rc = check_reply(s, HP_MSG_HELLO_ACK, HP_MSG_HELLO_ACK_LEN, "HELLO");
	if (!rc)
		s->t.mbox_addr = hp_get_le64(p + 8);
	return rc;
}

int hp_transport_serial_open(const char *dev, hp_console_fn console, void *ctx,
			     hp_transport **out, char *err, size_t errlen)
{
	*out = NULL;
	serial *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of host memory (%zu bytes)",
			 sizeof(*s));
		return HP_OUT_OF_RESOURCES;
	}
	s->t.ops = &serial_ops;
	s->fd = -1;
	s->console = console;
	s->ctx = ctx;
	snprintf(s->dev, sizeof(s->dev), "%s", dev);
	pthread_mutex_init(&s->mu, NULL);
	hp_frame_dec_init(&s->dec);

	int rc = 0;
	const char *g = getenv("HP_SERIAL_GARBAGE");
	if (g && *g) {
		s->garbage = (unsigned)strtoul(g, NULL, 10);
		s->rng = 0x9E3779B97F4A7C15ULL;
		s->noise = malloc(s->garbage ? s->garbage : 1);
		if (!s->noise)
			rc = fail(s, HP_OUT_OF_RESOURCES,
				  "out of host memory (%u bytes of "
				  "HP_SERIAL_GARBAGE)",
				  s->garbage);
	}
	struct stat st;
	if (!rc && stat(dev, &st))
		rc = fail(s, HP_DEVICE_NOT_FOUND, "%s: %s", dev,
			  strerror(errno));
	if (!rc)
		rc = S_ISSOCK(st.st_mode) ? open_socket(s, dev)
					  : open_tty(s, dev);
	/* Nothing answering HELLO, or hanging up on it: no device there. */
	if (!rc && (rc = hello(s)) == HP_DEVICE_NOT_AVAILABLE)
		rc = HP_DEVICE_NOT_FOUND;
	if (rc) {
		snprintf(err, errlen, "%s", s->t.err);
		serial_close(&s->t);
		return rc;
	}
	*out = &s->t;
	return 0;
}
