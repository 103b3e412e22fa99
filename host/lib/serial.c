// SPDX-License-Identifier: MIT
/*
 * The serial transport (transport.h): device memory read and written with
 * framed requests over a UART (include/hartpool/frame.h), through QEMU's
 * `-chardev socket` (a Unix socket path) or a tty (raw 8N1, 115200 baud
 * unless the connect string says otherwise: "DEV,baud=921600").
 *
 * Stop-and-wait: one request at a time; the reply carries its seq. With no
 * reply after 100 ms (plus the time the request and the longest reply take
 * on the wire at the link's rate) the same request goes again (they are
 * idempotent), waiting twice as long each time, 8 tries in all. Reads and
 * writes go in pieces of HP_SERIAL_DATA_MAX bytes. Bytes outside frames are
 * the device's console text: they go to the console callback (called while
 * a request is under way; it must not use the transport).
 *
 * A baud rate on a socket paces the link as a UART of that rate would
 * (10 bits a byte, 8N1; each direction on its own, as a UART is full
 * duplex): a frame is sent when its last byte would have gone out, and a
 * received frame is taken when its last byte would have come in, after
 * every byte before it. A run against QEMU then costs what the real link
 * would. On a tty the line itself does that.
 *
 * Environment, for tests: HP_SERIAL_GARBAGE=N writes N bytes of line noise
 * before every request frame: random bytes, many 0xC0, 0xC1 and 0xDB, and
 * cut-off copies of the frame with a byte changed. The device must skip
 * them all and still answer the frame that follows. The noise is the same
 * from run to run (fixed seed).
 */
#include "backoff.h"
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
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define TRIES 8
#define FIRST_TIMEOUT_MS 100
/* A try's wait for a reply looks at the link this often. */
#define WAIT_SLICE_MS 10
/* Baud rate of a tty when the connect string names none (the boards'
 * BOARD_UART_BAUD). */
#define DEFAULT_BAUD 115200
/* A paced link sends in pieces of this much of the line's time. */
#define PIECE_NS 1000000u

typedef struct {
	hp_transport t; /* first: the ops get &t */
	int fd;
	bool sock;
	bool tty;
	struct termios saved; /* the tty's settings, restored at close */
	hp_serial_spec spec;
	const char *dev; /* spec.dev */
	/* Pacing (a socket with a baud rate): when each direction of the
	 * modelled line is free again, and when the bytes of the last read
	 * began to arrive on it. */
	bool paced;
	hp_serial_line tx_line, rx_line;
	uint64_t rx_start_ns;
	int64_t rx_ms; /* when bytes last came */
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
	return (int64_t)(hp_now_ns() / 1000000u);
}

/* ---- the connect string and the line's arithmetic ---- */

/* The rates a link takes: the standard ones up to 4 Mbaud that the host's
 * termios has (a paced socket takes the same, so a run against QEMU
 * rehearses a rate a board can have). */
static const struct {
	uint32_t baud;
	speed_t code;
} rates[] = {
	{9600, B9600},	     {19200, B19200},	{38400, B38400},
	{57600, B57600},     {115200, B115200},
#ifdef B230400
	{230400, B230400},
#endif
#ifdef B460800
	{460800, B460800},
#endif
#ifdef B500000
	{500000, B500000},
#endif
#ifdef B576000
	{576000, B576000},
#endif
#ifdef B921600
	{921600, B921600},
#endif
#ifdef B1000000
	{1000000, B1000000},
#endif
#ifdef B1152000
	{1152000, B1152000},
#endif
#ifdef B1500000
	{1500000, B1500000},
#endif
#ifdef B2000000
	{2000000, B2000000},
#endif
#ifdef B2500000
	{2500000, B2500000},
#endif
#ifdef B3000000
	{3000000, B3000000},
#endif
#ifdef B3500000
	{3500000, B3500000},
#endif
#ifdef B4000000
	{4000000, B4000000},
#endif
};
#define NRATES (sizeof(rates) / sizeof(rates[0]))

bool hp_serial_baud_ok(uint32_t baud)
{
	for (size_t i = 0; i < NRATES; i++)
		if (rates[i].baud == baud)
			return true;
	return false;
}

static speed_t baud_code(uint32_t baud)
{
	for (size_t i = 0; i < NRATES; i++)
		if (rates[i].baud == baud)
			return rates[i].code;
	return B0;
}

__attribute__((format(printf, 3, 4))) static int
spec_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return HP_INVALID_VALUE;
}

/* "baud=N": N in decimal, a rate of the table. */
static int parse_baud(const char *v, size_t len, uint32_t *out, char *err,
		      size_t errlen)
{
	uint64_t n = 0;
	bool digits = len > 0;
	for (size_t i = 0; digits && i < len; i++) {
		digits = v[i] >= '0' && v[i] <= '9';
		n = n > UINT32_MAX ? n : n * 10 + (uint64_t)(v[i] - '0');
	}
	if (digits && n <= UINT32_MAX && hp_serial_baud_ok((uint32_t)n)) {
		*out = (uint32_t)n;
		return 0;
	}
	char list[200] = "";
	for (size_t i = 0, at = 0; i < NRATES && at < sizeof(list); i++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%u",
				       i ? " " : "", (unsigned)rates[i].baud);
	return spec_fail(err, errlen,
			 "serial link baud=%.*s: %s; the rates are %s (8N1)",
			 (int)(len < 40 ? len : 40), v,
			 digits ? "not a standard rate"
				: "not a number of bits per second",
			 list);
}

int hp_serial_parse(const char *spec, hp_serial_spec *out, char *err,
		    size_t errlen)
{
	static const char usage[] = "serial:DEV[,baud=N][,flow=none|rtscts]";
	memset(out, 0, sizeof(*out));
	const char *comma = strchr(spec, ',');
	size_t n = comma ? (size_t)(comma - spec) : strlen(spec);
	if (!n)
		return spec_fail(err, errlen,
				 "serial link '%s' names no device (%s)", spec,
				 usage);
	if (n >= sizeof(out->dev))
		return spec_fail(err, errlen,
				 "serial device path of %zu bytes (at most "
				 "%zu): %.*s...",
				 n, sizeof(out->dev) - 1, 60, spec);
	memcpy(out->dev, spec, n);
	for (const char *p = comma; p;) {
		const char *item = p + 1, *next = strchr(item, ',');
		size_t len = next ? (size_t)(next - item) : strlen(item);
		int rc = 0;
		if (len >= 5 && !strncmp(item, "baud=", 5))
			rc = parse_baud(item + 5, len - 5, &out->baud, err,
					errlen);
		else if (len == 11 && !strncmp(item, "flow=rtscts", 11))
			out->rtscts = true;
		else if (len == 9 && !strncmp(item, "flow=none", 9))
			out->rtscts = false;
		else
			rc = spec_fail(err, errlen,
				       "serial link option '%.*s' unknown "
				       "(%s)",
				       (int)(len < 40 ? len : 40), item, usage);
		if (rc)
			return rc;
		p = next;
	}
	return 0;
}

uint64_t hp_serial_wire_ns(uint64_t bytes, uint32_t baud)
{
	if (!baud)
		return 0;
	/* bytes * 10 bits * 1e9 / baud, without overflow. */
	const uint64_t bit_ns = HP_SERIAL_BITS_PER_BYTE * 1000000000ull;
	return bytes / baud * bit_ns + bytes % baud * bit_ns / baud;
}

uint64_t hp_serial_line_take(hp_serial_line *l, uint32_t baud, uint64_t now_ns,
			     uint64_t bytes)
{
	uint64_t start = l->free_ns > now_ns ? l->free_ns : now_ns;
	l->free_ns = start + hp_serial_wire_ns(bytes, baud);
	return start;
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = {(time_t)(t_ns / 1000000000u),
			      (long)(t_ns % 1000000000u)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* ---- the link ---- */

static int send_all(serial *s, const uint8_t *p, size_t n)
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

/* Send @p n bytes. Paced, they cross the modelled line from when it is
 * free: in pieces of PIECE_NS of it, each sent when its last byte would
 * have gone out, so the device takes a frame in while it crosses the line,
 * as from a UART. */
static int write_all(serial *s, const uint8_t *p, size_t n)
{
	s->t.bytes_out += n;
	if (!s->paced)
		return send_all(s, p, n);
	uint32_t baud = s->spec.baud;
	size_t piece = (size_t)(baud / HP_SERIAL_BITS_PER_BYTE *
				(uint64_t)PIECE_NS / 1000000000u);
	piece = piece ? piece : 1;
	uint64_t start = hp_serial_line_take(&s->tx_line, baud, hp_now_ns(), n);
	int rc = 0;
	for (size_t done = 0, k; done < n && !rc; done += k) {
		k = n - done < piece ? n - done : piece;
		sleep_until(start + hp_serial_wire_ns(done + k, baud));
		rc = send_all(s, p + done, k);
	}
	return rc;
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
		/* Paced: taken when its last byte would have come in. */
		if (got && s->paced)
			sleep_until(s->rx_start_ns +
				    hp_serial_wire_ns(i + 1, s->spec.baud));
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
		s->t.bytes_in += (uint64_t)n;
		s->rx_ms = now_ms();
		if (s->paced)
			s->rx_start_ns =
				hp_serial_line_take(&s->rx_line, s->spec.baud,
						    hp_now_ns(), (uint64_t)n);
	}
}

/* Bytes written that the other end has not taken in yet: still in the
 * socket (QEMU takes bytes in as its UART has room for them) or in the
 * tty's output queue. */
static int unsent(serial *s)
{
	int q = 0;
	return ioctl(s->fd, TIOCOUTQ, &q) == 0 ? q : 0;
}

/* Send a request until its reply (of at most @p reply_len payload bytes)
 * comes; 0 with the reply in s->dec. A try waits FIRST_TIMEOUT_MS
 * (doubling) and the time the request and the longest reply take on the
 * wire at the link's rate, counted from when the other end has taken all
 * of the request in and from the last byte that came: a device slow to
 * take bytes in or to send them has lost nothing, and the same bytes again
 * would only keep it busier. All the tries together get the time they
 * would have taken back to back. */
static int request(serial *s, uint8_t type, const void *payload, size_t len,
		   size_t reply_len, const char *what)
{
	uint8_t seq = ++s->seq;
	size_t n = hp_frame_encode(s->wire, sizeof(s->wire), type, seq, payload,
				   len);
	if (reply_len < HP_MSG_NAK_LEN)
		reply_len = HP_MSG_NAK_LEN;
	uint64_t wire = s->garbage + n + HP_FRAME_WIRE_MAX(reply_len);
	int64_t wire_ms =
		(int64_t)((hp_serial_wire_ns(wire, s->t.baud) + 999999u) /
			  1000000u);
	int64_t t0 = now_ms(), budget = 0;
	for (int i = 0; i < TRIES; i++)
		budget += ((int64_t)FIRST_TIMEOUT_MS << i) + wire_ms;
	int tries = 0;
	for (int64_t ms = FIRST_TIMEOUT_MS; tries < TRIES; ms *= 2) {
		s->t.frames_out++;
		s->t.retries += tries++ > 0;
		int rc = s->garbage ? send_noise(s, n) : 0;
		if (!rc)
			rc = write_all(s, s->wire, n);
		int64_t from = now_ms();
		while (!rc && now_ms() - from < ms + wire_ms &&
		       now_ms() - t0 < budget) {
			rc = wait_reply(s, seq, WAIT_SLICE_MS);
			if (!rc && (unsent(s) > 0 || s->rx_ms > from))
				from = now_ms();
		}
		if (rc)
			return rc < 0 ? rc : 0;
		if (now_ms() - t0 >= budget)
			break;
	}
	/* A link silent for this long has no device on it (any more). */
	return fail(s, HP_DEVICE_NOT_AVAILABLE,
		    "no reply from the device on %s after %d tries over %.1f s "
		    "(%s)%s",
		    s->dev, tries, (double)(now_ms() - t0) / 1000.0, what,
		    unsent(s) > 0 ? "; it is not taking bytes in" : "");
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
		rc = request(s, HP_MSG_READ, req, sizeof(req), n, what);
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
		rc = request(s, HP_MSG_WRITE, req, HP_MSG_WRITE_HDR + n,
			     HP_MSG_ACK_LEN, what);
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
	if (s->spec.rtscts)
		return fail(s, HP_INVALID_VALUE,
			    "flow=rtscts is for a tty: %s is a socket, with "
			    "no flow control lines",
			    dev);
	strcpy(a.sun_path, dev);
	s->sock = true;
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&a, sizeof(a)))
		return fail(s, HP_DEVICE_NOT_FOUND, "%s: %s", dev,
			    strerror(errno));
	/* A baud rate on a socket is the rate of the line it stands for. */
	s->t.baud = s->spec.baud;
	s->paced = s->spec.baud != 0;
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
	uint32_t baud = s->spec.baud ? s->spec.baud : DEFAULT_BAUD;
	speed_t code = baud_code(baud);
	/* Raw bytes, 8N1, no modem control (CLOCAL), the receiver on; no
	 * software flow control (0x11 and 0x13 are data), hardware flow
	 * control only if asked. read() returns as soon as a byte is there
	 * (VMIN 1, VTIME 0); poll() does the waiting. */
	struct termios tio = s->saved;
	cfmakeraw(&tio);
	cfsetispeed(&tio, code);
	cfsetospeed(&tio, code);
	tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
	tio.c_cflag &= ~(tcflag_t)(CSIZE | CSTOPB | PARENB | CRTSCTS);
	tio.c_cflag |= CS8 | CLOCAL | CREAD | (s->spec.rtscts ? CRTSCTS : 0);
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	if (tcsetattr(s->fd, TCSANOW, &tio))
		return fail(s, HP_DEVICE_NOT_FOUND,
			    "cannot set up %s (%u baud 8N1): %s", dev,
			    (unsigned)baud, strerror(errno));
	s->tty = true;
	/* tcsetattr() succeeds if any of it took: the driver may have kept
	 * another rate. */
	struct termios got;
	if (tcgetattr(s->fd, &got) || cfgetospeed(&got) != code ||
	    cfgetispeed(&got) != code ||
	    (s->spec.rtscts && !(got.c_cflag & CRTSCTS)))
		return fail(s, HP_INVALID_VALUE,
			    "%s does not take %u baud 8N1%s (its driver kept "
			    "other settings)",
			    dev, (unsigned)baud,
			    s->spec.rtscts ? " with RTS/CTS" : "");
	int fl = fcntl(s->fd, F_GETFL);
	if (fl < 0 || fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK))
		return fail(s, HP_DEVICE_NOT_FOUND, "cannot set up %s: %s", dev,
			    strerror(errno));
	/* Whatever came in before (boot messages) is not a reply. */
	tcflush(s->fd, TCIFLUSH);
	s->t.baud = baud;
	return 0;
}

static int hello(serial *s)
{
	uint8_t req[HP_MSG_HELLO_LEN];
	hp_put_le32(req, HP_SERIAL_VERSION);
	int rc = request(s, HP_MSG_HELLO, req, sizeof(req),
			 HP_MSG_HELLO_ACK_LEN, "HELLO");
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

int hp_transport_serial_open(const char *spec, hp_console_fn console, void *ctx,
			     hp_transport **out, char *err, size_t errlen)
{
	*out = NULL;
	hp_serial_spec sp;
	int rc = hp_serial_parse(spec, &sp, err, errlen);
	if (rc)
		return rc;
	serial *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of host memory (%zu bytes)",
			 sizeof(*s));
		return HP_OUT_OF_RESOURCES;
	}
	s->t.ops = &serial_ops;
	s->t.bell = -1; /* frames on the UART interrupt already */
	s->fd = -1;
	s->console = console;
	s->ctx = ctx;
	s->spec = sp;
	s->dev = s->spec.dev;
	const char *dev = s->dev;
	pthread_mutex_init(&s->mu, NULL);
	hp_frame_dec_init(&s->dec);

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
