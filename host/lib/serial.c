// SPDX-License-Identifier: MIT
/*
 * The serial transport (transport.h): device memory read and written with
 * framed requests over a UART (include/hartpool/frame.h), through QEMU's
 * `-chardev socket` (a Unix socket path) or a tty (raw 8N1, 115200 baud
 * unless the connect string says otherwise: "DEV,baud=921600").
 *
 * Windowed (docs/serial.md): writes wait in an open frame, several to a
 * frame, until a read, a flush (hp_dev_ring: a packet is published) or a
 * full frame sends it; writes longer than HOLD_MAX (a buffer's bytes) are
 * sent and acknowledged before the call returns. Up to HP_SERIAL_WINDOW
 * frames are in flight; the device applies them in seq order, each once.
 * A read waits for its DATA (a long one in pieces, all in flight at
 * once); a WAIT lets the device answer when a completion record is
 * written, with the record. Frames unanswered for 100 ms (plus their time
 * on the line at the link's rate, and what a WAIT asked for) go again, all
 * of them from the oldest (go-back-N), twice as long each time, 8 tries
 * in all; a GAP from the device (a frame lost on the way) sends them again
 * at once. Bytes outside frames are the device's console text: they go to
 * the console callback (called while a call is under way; it must not use
 * the transport).
 *
 * Flow control (protocol version 3): on a socket the host asks the device
 * for a receive window (SOCKET_WINDOW bytes: QEMU's UART writes a byte at
 * a time, and a Unix socket holds about 278 of those); a device whose UART
 * does not wait for the socket (QEMU 7.2's SiFive UART) then holds its
 * replies to it, and the host says what it has taken with CREDIT frames,
 * so however slow this process is to read, nothing overflows the socket.
 * That also paces what a go-back sends again.
 *
 * A baud rate on a socket paces the link as a UART of that rate would
 * (10 bits a byte, 8N1; each direction on its own, as a UART is full
 * duplex): a frame is sent when its last byte would have gone out, and a
 * received frame is taken when its last byte would have come in, after
 * every byte before it. A run against QEMU then costs what the real link
 * would. On a tty the line itself does that.
 *
 * The link has no fault injection of its own: the tests put line noise and
 * corrupted frames on the line from outside (tests/e2e/serial_relay.c,
 * tests/common/serial_faults.h; docs/design.md, 60).
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
#include <sys/random.h>
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
/* Writes of up to this many bytes (a kernarg block) may wait in the open
 * frame; longer ones are sent and acknowledged before the call returns. */
#define HOLD_MAX 512
/* A paced link sends in pieces of this much of the line's time. */
#define PIECE_NS 1000000u
/* The receive window asked for on a socket: bytes of reply frames the
 * device may have sent and this host not taken yet. QEMU's UARTs write a
 * byte at a time; a Unix socket holds about 278 such writes (each is an
 * skb of ~770 bytes against the writer's 208 KiB SO_SNDBUF, measured on
 * Linux 6.x), so a device whose UART does not wait for the socket loses
 * what goes past that. The rest is room for bytes in transit when a
 * RESYNC re-counts. A tty asks for none: the line paces the device and
 * the kernel's tty buffers hold far more than a window of replies. */
#define SOCKET_WINDOW 192

/* A BATCH frame sent and not retired yet. */
typedef struct {
	uint8_t seq;
	bool answer; /* a READ or WAIT: done by its DATA (or NAK) alone */
	bool done;
	bool hurried;	/* sent again at once (its answer was lost) */
	uint8_t *dst;	/* where a READ's or WAIT's bytes go */
	size_t dst_len; /* how many */
	uint32_t wait_ms;
	size_t len; /* of the payload */
	uint8_t payload[HP_FRAME_MAX_PAYLOAD];
} flight;

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
	pthread_mutex_t mu; /* one call at a time */
	FILE *trace; /* HP_SERIAL_TRACE: a line per frame, or NULL */
	hp_frame_dec dec;
	size_t rx_pos, rx_len;
	uint8_t rx[4096];
	uint8_t wire[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
	/* The window: BATCH frames sent and not retired, oldest first at
	 * fl[fl_head]; the seq of the next one. */
	flight fl[HP_SERIAL_WINDOW];
	unsigned fl_head, fl_count;
	uint8_t next_seq;
	unsigned answers; /* of them, READs and WAITs not answered yet */
	/* The session: this host's id (HELLO), the HELLO's seq; the window
	 * asked for and the one the device holds its replies to (0: none,
	 * no CREDITs); bytes of the device's frames taken since its
	 * HELLO_ACK (counting: once it came), and as the last CREDIT and the
	 * last probe said. */
	uint32_t host_id;
	uint8_t hello_seq;
	uint32_t rx_window, credit;
	bool counting;
	uint32_t taken, credited, probed;
	/* The open frame: writes not sent yet (until a read, a flush, or
	 * a full frame). */
	uint8_t batch[HP_FRAME_MAX_PAYLOAD];
	size_t batch_len;
	/* Retransmission: tries without a reply, this try's time, when the
	 * link last moved (a frame sent, bytes taken or come). */
	int tries;
	int64_t try_ms, moved_ms, first_try_ms;
	/* The first error of the call under way (a READ's or WAIT's), and
	 * one of a frame nobody waited for (a write refused): the next call
	 * returns it. */
	int call_rc, posted_rc;
	char posted_err[256];
	/* What the last WAIT read: reads inside it are answered from it,
	 * once (until a read outside it, past its end, or a write). */
	bool snap;
	uint64_t snap_addr;
	size_t snap_len;
	uint8_t snap_buf[HP_SERIAL_DATA_MAX];
	int broken; /* the link failed (device gone, silent): this error */
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
		/* The device counts the bytes of its frames, not its console
		 * text: so does the host (CREDIT). */
		s->taken += s->counting && ev != HP_FRAME_TEXT;
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

/* Read what the link has for up to @p ms: 1 (bytes in s->rx), 0 (none
 * came) or an HP_ error. */
static int rx_some(serial *s, int ms)
{
	for (;;) {
		struct pollfd pfd = {.fd = s->fd, .events = POLLIN};
		int r = poll(&pfd, 1, ms);
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
		return 1;
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

/* Milliseconds @p bytes take on the link (0 unpaced), rounded up. */
static int64_t wire_ms(serial *s, uint64_t bytes)
{
	return (int64_t)((hp_serial_wire_ns(bytes, s->t.baud) + 999999u) /
			 1000000u);
}

/* HP_SERIAL_TRACE=FILE: a line per frame sent or taken (ms since the
 * link opened, direction, type, seq, payload bytes), for finding out why
 * a link stalls. */
__attribute__((format(printf, 2, 3))) static void trace(serial *s,
							const char *fmt, ...)
{
	if (!s->trace)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(s->trace, "%8.3f ", (double)hp_now_ns() / 1e6);
	vfprintf(s->trace, fmt, ap);
	fputc('\n', s->trace);
	fflush(s->trace);
	va_end(ap);
}

/* Send the frame in s->wire (@p n bytes). @p seq: a BATCH's, or -1 for a
 * HELLO, -2 for a CREDIT. */
static int transmit(serial *s, size_t n, bool again, int seq)
{
	/* A CREDIT is no request: its bytes count, not it. */
	s->t.frames_out += seq != -2;
	s->t.retries += again;
	if (seq == -2)
		trace(s, "out credit %u %zu bytes", (unsigned)s->taken, n);
	else
		trace(s, "out seq %d %s %zu bytes", seq,
		      again ? "again" : "new", n);
	return write_all(s, s->wire, n);
}

/* ---- the window ---- */

static flight *fl_at(serial *s, unsigned i)
{
	return &s->fl[(s->fl_head + i) % HP_SERIAL_WINDOW];
}

/* Position in the window of the frame with @p seq, or fl_count. */
static unsigned fl_find(serial *s, uint8_t seq)
{
	if (!s->fl_count)
		return 0;
	unsigned i = (uint8_t)(seq - fl_at(s, 0)->seq);
	return i < s->fl_count ? i : s->fl_count;
}

/* CREDIT: the bytes taken so far (HP_CREDIT_RESYNC with @p resync). */
static int send_credit(serial *s, bool resync)
{
	uint8_t p[HP_MSG_CREDIT_LEN] = {(uint8_t)s->taken,
					(uint8_t)(s->taken >> 8)};
	s->credited = s->taken;
	size_t n = hp_frame_encode(s->wire, sizeof(s->wire), HP_MSG_CREDIT,
				   resync ? HP_CREDIT_RESYNC : 0, p, sizeof(p));
	int rc = transmit(s, n, false, -2);
	if (resync)
		trace(s, "resync at %u", (unsigned)s->taken);
	return rc;
}

/* Op @p k of a frame, in words, for a message. */
static void describe(serial *s, const flight *f, uint32_t k, char *out,
		     size_t cap)
{
	const uint8_t *p = f->payload, *end = p + f->len;
	uint64_t a = 0, x = 0, len = 0;
	for (uint32_t i = 0; p < end; i++) {
		uint8_t kind = *p++;
		if (!hp_varint_get(&p, end, &a) ||
		    (kind == HP_OP_WAIT && !hp_varint_get(&p, end, &x)) ||
		    !hp_varint_get(&p, end, &len))
			break;
		a ^= s->t.mbox_addr;
		if (i == k) {
			snprintf(out, cap, "the %s of %llu bytes at 0x%llx",
				 kind == HP_OP_WRITE  ? "write"
				 : kind == HP_OP_READ ? "read"
						      : "wait",
				 (unsigned long long)len,
				 (unsigned long long)a);
			return;
		}
		if (kind == HP_OP_WRITE)
			p += hp_zrle_decode(p, (size_t)(end - p), NULL,
					    (size_t)len);
		else if (kind == HP_OP_WAIT && !hp_varint_get(&p, end, &x))
			break;
	}
	snprintf(out, cap, "a frame of %zu bytes", f->len);
}

/* Frame @p f is answered with error @p rc (@p op: what was refused): the
 * call under way gets it if it waits for the frame, else the next call. */
__attribute__((format(printf, 4, 5))) static void
flight_fail(serial *s, flight *f, int rc, const char *fmt, ...)
{
	char msg[sizeof(s->t.err)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (f->answer && !s->call_rc) {
		s->call_rc = rc;
		snprintf(s->t.err, sizeof(s->t.err), "%s", msg);
	} else if (!f->answer && !s->posted_rc) {
		s->posted_rc = rc;
		snprintf(s->posted_err, sizeof(s->posted_err), "%s", msg);
	}
}

static void flight_done(serial *s, flight *f)
{
	f->done = true;
	s->answers -= f->answer;
	/* Anything answered: the link works; the next silence starts
	 * from the first try. */
	s->tries = 0;
	s->try_ms = FIRST_TIMEOUT_MS;
}

/* Every frame up to @p seq is applied: those without a READ or WAIT are
 * done; a READ before it still unanswered lost its DATA: ask again now
 * (a WAIT's DATA may just not be due yet). */
static int applied_to(serial *s, uint8_t seq)
{
	unsigned last = fl_find(s, seq);
	/* (A seq outside the window: an old reply, nothing to learn.) */
	for (unsigned i = 0; last < s->fl_count && i <= last; i++) {
		flight *f = fl_at(s, i);
		if (f->done)
			continue;
		if (!f->answer) {
			flight_done(s, f);
		} else if (i < last && !f->wait_ms && !f->hurried) {
			f->hurried = true;
			size_t n = hp_frame_encode(s->wire, sizeof(s->wire),
						   HP_MSG_BATCH, f->seq,
						   f->payload, f->len);
			int rc = transmit(s, n, true, f->seq);
			if (rc)
				return rc;
		}
	}
	while (s->fl_count && fl_at(s, 0)->done) {
		s->fl_head = (s->fl_head + 1) % HP_SERIAL_WINDOW;
		s->fl_count--;
	}
	return 0;
}

/* Send again every frame not done from window position @p from on. */
static int go_back(serial *s, unsigned from)
{
	for (unsigned i = from; i < s->fl_count; i++) {
		flight *f = fl_at(s, i);
		if (f->done)
			continue;
		size_t n =
			hp_frame_encode(s->wire, sizeof(s->wire), HP_MSG_BATCH,
					f->seq, f->payload, f->len);
		int rc = transmit(s, n, true, f->seq);
		if (rc)
			return rc;
	}
	s->moved_ms = now_ms();
	return 0;
}

/* A reply frame (in s->dec). */
static int on_reply(serial *s)
{
	const uint8_t *p = hp_frame_payload(&s->dec);
	size_t len = s->dec.len;
	uint8_t seq = s->dec.seq;
	unsigned i = fl_find(s, seq);
	flight *f = i < s->fl_count ? fl_at(s, i) : NULL;
	switch (s->dec.type) {
	case HP_MSG_DATA: {
		if (!f || !f->answer || f->done)
			return 0; /* a second answer to a frame sent again */
		size_t n = hp_zrle_size(p, len);
		/* All asked for, or a WAIT's word alone (not up yet). */
		if (n == f->dst_len || (f->wait_ms && n == 8)) {
			hp_zrle_decode(p, len, f->dst, n);
			if (f->wait_ms)
				s->snap_len = n;
		} else {
			char what[96];
			describe(s, f, 0, what, sizeof(what));
			flight_fail(s, f, HP_INVALID_VALUE,
				    "bad reply from the device on %s to %s: "
				    "%zu bytes",
				    s->dev, what, n);
		}
		flight_done(s, f);
		return applied_to(s, seq);
	}
	case HP_MSG_ACK:
		return len ? 0 : applied_to(s, seq);
	case HP_MSG_NAK: {
		if (!f || f->done || len != HP_MSG_NAK_LEN)
			return 0;
		int st = (int32_t)hp_get_le32(p);
		st = st < 0 ? st : HP_INVALID_VALUE;
		char what[96];
		describe(s, f, hp_get_le32(p + 4), what, sizeof(what));
		flight_fail(s, f, st, "the device on %s refused %s: %s (%s)",
			    s->dev, what, hp_error_name(st), hp_error_text(st));
		flight_done(s, f);
		return applied_to(s, seq);
	}
	case HP_MSG_GAP: {
		if (len != HP_MSG_GAP_LEN || !s->fl_count)
			return 0;
		/* Frames before the expected one are applied; from it on
		 * they were dropped. */
		uint8_t expect = p[0];
		int rc = applied_to(s, (uint8_t)(expect - 1));
		return rc ? rc : go_back(s, fl_find(s, expect));
	}
	case HP_MSG_HELLO_ACK:
		/* Our HELLO sent again answered late: the device counts its
		 * bytes from the end of this one, so the host does too. */
		if (len == HP_MSG_HELLO_ACK_LEN && seq == s->hello_seq &&
		    hp_get_le32(p + 16) == s->host_id)
			s->taken = s->credited = s->probed = 0;
		return 0;
	}
	return 0;
}

/* The window's longest silence allowed before it goes again: this try's
 * time, the time its frames and their longest replies take on the line,
 * and what its WAITs asked the device to wait. */
static int64_t silence_ms(serial *s)
{
	uint64_t bytes = 0;
	int64_t wait = 0;
	for (unsigned i = 0; i < s->fl_count; i++) {
		const flight *f = fl_at(s, i);
		bytes += HP_FRAME_WIRE_MAX(f->len) +
			 HP_FRAME_WIRE_MAX(HP_ZRLE_MAX(f->dst_len) + 8);
		wait = f->wait_ms > wait ? f->wait_ms : wait;
	}
	return s->try_ms + wire_ms(s, bytes) + wait;
}

/* The replies buffered; then a CREDIT if the host has taken half a window
 * since the last (the device is never held up while the host has taken
 * what it sent, unless a CREDIT was lost: pump() probes). */
static int take_replies(serial *s)
{
	int rc = 0;
	while (!rc && next_frame(s)) {
		trace(s, "in type %u seq %u len %zu", (unsigned)s->dec.type,
		      (unsigned)s->dec.seq, (size_t)s->dec.len);
		if (s->dec.type & HP_MSG_REPLY)
			rc = on_reply(s);
	}
	if (!rc && s->credit && s->taken - s->credited >= s->credit / 2)
		rc = send_credit(s, false);
	return rc;
}

/* Take replies, waiting up to @p ms for some; send again what has gone
 * unanswered for too long. 0, or an HP_ error (the device gone or
 * silent: the link is then broken for good). */
static int pump(serial *s, int ms)
{
	int rc = s->broken ? s->broken : take_replies(s);
	if (rc || !s->fl_count)
		return rc;
	int64_t now = now_ms();
	/* A device slow to take bytes in or to send them has lost
	 * nothing: the same bytes again would only keep it busier. */
	if (unsent(s) > 0 || s->rx_ms > s->moved_ms)
		s->moved_ms = now;
	if (now - s->moved_ms >= silence_ms(s)) {
		/* Bytes that came while this process did not run are no
		 * silence (and a resync now would count them lost). */
		rc = rx_some(s, 0);
		if (rc)
			return rc < 0 ? (s->broken = rc) : take_replies(s);
		if (s->tries + 1 >= TRIES) {
			char what[96];
			describe(s, fl_at(s, 0), 0, what, sizeof(what));
			s->broken = fail(
				s, HP_DEVICE_NOT_AVAILABLE,
				"no reply from the device on %s after %d "
				"tries over %.1f s (%s)%s",
				s->dev, s->tries + 1,
				(double)(now - s->first_try_ms) / 1000.0, what,
				unsent(s) > 0 ? "; it is not taking bytes in"
					      : "");
			return s->broken;
		}
		if (!s->tries++)
			s->first_try_ms = s->moved_ms;
		s->try_ms *= 2;
		/* What the device sent and did not come is lost: its window
		 * counts on from what came. */
		rc = s->credit ? send_credit(s, true) : 0;
		return rc ? (s->broken = rc) : go_back(s, 0);
	}
	rc = rx_some(s, ms < WAIT_SLICE_MS ? ms : WAIT_SLICE_MS);
	if (rc < 0)
		return s->broken = rc;
	if (rc)
		return take_replies(s);
	/* A slice of silence: if the last CREDIT was lost, the device may be
	 * holding replies for it. Said again, once for each count. */
	if (ms >= WAIT_SLICE_MS && s->credit && s->taken != s->probed) {
		s->probed = s->taken;
		rc = send_credit(s, false);
		if (rc)
			return s->broken = rc;
	}
	return 0;
}

/* Send the open frame (with a READ or WAIT last when @p dst: its bytes
 * go there), waiting for room in the window first. */
static int send_batch(serial *s, uint8_t *dst, size_t dst_len, uint32_t wait_ms)
{
	int rc = 0;
	while (!rc && s->fl_count == HP_SERIAL_WINDOW)
		rc = pump(s, WAIT_SLICE_MS);
	if (rc)
		return rc;
	flight *f = fl_at(s, s->fl_count++);
	f->seq = s->next_seq++;
	f->answer = dst != NULL;
	f->done = f->hurried = false;
	f->dst = dst;
	f->dst_len = dst_len;
	f->wait_ms = wait_ms;
	f->len = s->batch_len;
	memcpy(f->payload, s->batch, s->batch_len);
	s->batch_len = 0;
	s->answers += f->answer;
	if (s->fl_count == 1) {
		s->tries = 0;
		s->try_ms = FIRST_TIMEOUT_MS;
	}
	size_t n = hp_frame_encode(s->wire, sizeof(s->wire), HP_MSG_BATCH,
				   f->seq, f->payload, f->len);
	rc = transmit(s, n, false, f->seq);
	s->moved_ms = now_ms();
	/* Replies that came meanwhile, without waiting. */
	return rc ? (s->broken = rc) : pump(s, 0);
}

/* Until every READ and WAIT sent is answered (or, @p all, every frame).
 */
static int drain(serial *s, bool all)
{
	int rc = 0;
	while (!rc && (all ? s->fl_count : s->answers))
		rc = pump(s, WAIT_SLICE_MS);
	return rc;
}

/* Append an op's head (kind, address, then @p x when a WAIT) at @p p. */
static size_t op_head(serial *s, uint8_t *p, uint8_t kind, uint64_t addr)
{
	p[0] = kind;
	return 1 + hp_varint_put(p + 1, addr ^ s->t.mbox_addr);
}

/* Start a call: the error a posted frame left, if any. */
static int begin(serial *s)
{
	s->call_rc = 0;
	if (!s->posted_rc)
		return 0;
	int rc = s->posted_rc;
	s->posted_rc = 0;
	snprintf(s->t.err, sizeof(s->t.err), "%s", s->posted_err);
	return rc;
}

/* End a call that sent frames with @p rc so far: wait for its answers,
 * then its first error, then a write refused meanwhile (answered first,
 * in order). */
static int end_call(serial *s, int rc)
{
	if (!rc)
		rc = drain(s, false);
	if (!rc)
		rc = s->call_rc;
	if (!rc && s->posted_rc)
		rc = begin(s);
	return rc;
}

static int serial_read(hp_transport *t, uint64_t addr, void *buf, size_t len)
{
	serial *s = (serial *)t;
	pthread_mutex_lock(&s->mu);
	int rc = begin(s);
	/* Inside what the last WAIT read: that snapshot, once. */
	if (!rc && s->snap && len && addr >= s->snap_addr &&
	    addr - s->snap_addr <= s->snap_len &&
	    len <= s->snap_len - (addr - s->snap_addr)) {
		memcpy(buf, s->snap_buf + (addr - s->snap_addr), len);
		s->snap = addr + len < s->snap_addr + s->snap_len;
		pthread_mutex_unlock(&s->mu);
		return 0;
	}
	s->snap = false;
	/* Pieces of up to HP_SERIAL_DATA_MAX, as many in flight as the
	 * window holds, the first with the writes not sent yet. */
	for (size_t done = 0, n; !rc && done < len; done += n) {
		n = len - done < HP_SERIAL_DATA_MAX ? len - done
						    : HP_SERIAL_DATA_MAX;
		if (s->batch_len + 2 * HP_VARINT_MAX + 1 > sizeof(s->batch))
			rc = send_batch(s, NULL, 0, 0);
		if (rc)
			break;
		uint8_t *p = s->batch + s->batch_len;
		size_t k = op_head(s, p, HP_OP_READ, addr + done);
		k += hp_varint_put(p + k, n);
		s->batch_len += k;
		rc = send_batch(s, (uint8_t *)buf + done, n, 0);
	}
	rc = end_call(s, rc);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static int serial_write(hp_transport *t, uint64_t addr, const void *buf,
			size_t len)
{
	serial *s = (serial *)t;
	pthread_mutex_lock(&s->mu);
	int rc = begin(s);
	s->snap = false;
	const uint8_t *src = buf;
	uint8_t enc[HP_ZRLE_MAX(HP_SERIAL_DATA_MAX)];
	for (size_t done = 0, n; !rc && done < len; done += n) {
		n = len - done < HP_SERIAL_DATA_MAX ? len - done
						    : HP_SERIAL_DATA_MAX;
		size_t e = hp_zrle_encode(enc, sizeof(enc), src + done, n);
		uint8_t head[3 * HP_VARINT_MAX];
		size_t h = op_head(s, head, HP_OP_WRITE, addr + done);
		h += hp_varint_put(head + h, n);
		/* Into the open frame if it fits, else it goes first. */
		if (s->batch_len + h + e > sizeof(s->batch))
			rc = send_batch(s, NULL, 0, 0);
		if (rc)
			break;
		memcpy(s->batch + s->batch_len, head, h);
		memcpy(s->batch + s->batch_len + h, enc, e);
		s->batch_len += h + e;
	}
	/* Bulk data (a buffer's bytes) is on the device when the call
	 * returns, and a refused piece is this call's error; only what a
	 * packet's publication writes (a kernarg block at most) is held
	 * for the frame the ring or the next read sends. */
	if (!rc && len > HOLD_MAX) {
		if (s->batch_len)
			rc = send_batch(s, NULL, 0, 0);
		if (!rc)
			rc = drain(s, true);
		if (!rc)
			rc = begin(s);
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

/* The writes held back go out now (hp_dev_ring: a packet is published);
 * no waiting for their ACK. */
static int serial_flush(hp_transport *t)
{
	serial *s = (serial *)t;
	pthread_mutex_lock(&s->mu);
	int rc = begin(s);
	if (!rc && s->batch_len)
		rc = send_batch(s, NULL, 0, 0);
	pthread_mutex_unlock(&s->mu);
	return rc;
}

/* A WAIT: the device answers when the u64 at @p addr is >= @p min, with
 * the @p len bytes there, or after @p ms with the word alone; the next
 * reads inside those bytes are answered from them (serial_read). */
static int serial_wait(hp_transport *t, uint64_t addr, uint64_t min, size_t len,
		       uint32_t ms)
{
	serial *s = (serial *)t;
	if (len < 8 || len > HP_SERIAL_DATA_MAX || addr % 8)
		return fail(s, HP_INVALID_VALUE,
			    "a wait on %zu bytes at 0x%llx (8 to %u, the word "
			    "8-aligned)",
			    len, (unsigned long long)addr, HP_SERIAL_DATA_MAX);
	pthread_mutex_lock(&s->mu);
	int rc = begin(s);
	s->snap = false;
	/* Room for the op, and the reply must not take longer on the line
	 * than the time asked for (a slow link gets a longer wait). */
	int64_t min_ms = 4 * wire_ms(s, HP_FRAME_WIRE_MAX(len));
	ms = ms > min_ms ? ms : (uint32_t)min_ms;
	ms = ms < HP_SERIAL_WAIT_MAX_MS ? ms : HP_SERIAL_WAIT_MAX_MS;
	if (!rc && s->batch_len + 4 * HP_VARINT_MAX + 1 > sizeof(s->batch))
		rc = send_batch(s, NULL, 0, 0);
	if (!rc) {
		uint8_t *p = s->batch + s->batch_len;
		size_t k = op_head(s, p, HP_OP_WAIT, addr);
		k += hp_varint_put(p + k, min);
		k += hp_varint_put(p + k, len);
		k += hp_varint_put(p + k, ms);
		s->batch_len += k;
		s->snap_len = 0;
		rc = send_batch(s, s->snap_buf, len, ms ? ms : 1);
	}
	rc = end_call(s, rc);
	if (!rc && s->snap_len) {
		s->snap = true;
		s->snap_addr = addr;
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static void serial_close(hp_transport *t)
{
	serial *s = (serial *)t;
	/* What was written goes, and is applied, before the link closes. */
	if (s->fd >= 0 && s->t.mbox_addr && !s->broken &&
	    (!s->batch_len || !send_batch(s, NULL, 0, 0)))
		drain(s, true);
	if (s->tty)
		tcsetattr(s->fd, TCSANOW, &s->saved);
	if (s->fd >= 0)
		close(s->fd);
	pthread_mutex_destroy(&s->mu);
	if (s->trace)
		fclose(s->trace);
	free(s);
}

static const hp_transport_ops serial_ops = {
	.read = serial_read,
	.write = serial_write,
	.flush = serial_flush,
	.wait = serial_wait,
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
	s->rx_window = SOCKET_WINDOW;
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

/* Is the frame in s->dec the answer to our HELLO? 1: a HELLO_ACK for this
 * host (or one of another version: hello() says so); 2: a NAK of it; 0:
 * neither (what a host before us left on the line: the replies to its
 * frames, its HELLO_ACK, which names another host). */
static int hello_answer(serial *s)
{
	const uint8_t *p = hp_frame_payload(&s->dec);
	size_t len = s->dec.len;
	if (s->dec.seq != s->hello_seq)
		return 0;
	if (s->dec.type == HP_MSG_HELLO_ACK)
		return len < 4 || hp_get_le32(p) != HP_SERIAL_VERSION ||
		       (len == HP_MSG_HELLO_ACK_LEN &&
			hp_get_le32(p + 16) == s->host_id);
	return s->dec.type == HP_MSG_NAK && len == HP_MSG_NAK_LEN ? 2 : 0;
}

/* HELLO, stop-and-wait with a seq of its own (the session starts there):
 * 0 with the reply in s->dec. A try waits FIRST_TIMEOUT_MS (doubling) and
 * the time the request and its reply take on the line, counted from when
 * the other end has taken all of the request in and from the last byte
 * that came (a board still printing its boot text, a slow line); all the
 * tries together get the time they would have taken back to back. A NAK
 * counts once it came twice (the HELLO is sent again at once after the
 * first): a device of another version NAKs every HELLO, while one NAK of a
 * dead host's frame may carry the same seq. */
static int hello_request(serial *s)
{
	uint8_t req[HP_MSG_HELLO_LEN];
	hp_put_le32(req, HP_SERIAL_VERSION);
	hp_put_le32(req + 4, s->host_id);
	hp_put_le32(req + 8, s->rx_window);
	size_t n = hp_frame_encode(s->wire, sizeof(s->wire), HP_MSG_HELLO,
				   s->hello_seq, req, sizeof(req));
	int64_t line =
		wire_ms(s, n + HP_FRAME_WIRE_MAX(HP_MSG_HELLO_ACK_LEN));
	int64_t t0 = now_ms(), budget = 0;
	for (int i = 0; i < TRIES; i++)
		budget += ((int64_t)FIRST_TIMEOUT_MS << i) + line;
	int tries = 0, naks = 0;
	for (int64_t ms = FIRST_TIMEOUT_MS; tries < TRIES; ms *= 2) {
		int rc = transmit(s, n, tries++ > 0, -1);
		int64_t from = now_ms();
		bool again = false;
		while (!rc && !again && now_ms() - from < ms + line &&
		       now_ms() - t0 < budget) {
			while (!again && next_frame(s)) {
				int k = hello_answer(s);
				if (k == 1 || (k == 2 && ++naks == 2))
					return 0;
				again = k == 2;
			}
			rc = again ? 0 : rx_some(s, WAIT_SLICE_MS);
			rc = rc > 0 ? 0 : rc;
			if (!rc && (unsent(s) > 0 || s->rx_ms > from))
				from = now_ms();
		}
		if (rc)
			return rc;
		if (now_ms() - t0 >= budget)
			break;
	}
	/* A link silent for this long has no device on it (any more). */
	return fail(s, HP_DEVICE_NOT_AVAILABLE,
		    "no reply from the device on %s after %d tries over %.1f s "
		    "(HELLO)%s",
		    s->dev, tries, (double)(now_ms() - t0) / 1000.0,
		    unsent(s) > 0 ? "; it is not taking bytes in" : "");
}

/* This connection's host id: random (HELLO_ACK echoes it, and the device
 * tells a new host by it), never 0. */
static uint32_t pick_host_id(void)
{
	uint32_t id = 0;
	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id))
		id = (uint32_t)(hp_now_ns() * 0x9E3779B97F4A7C15ull >> 32) ^
		     (uint32_t)getpid() << 8;
	return id ? id : 1;
}

static int hello(serial *s)
{
	s->host_id = pick_host_id();
	s->hello_seq = (uint8_t)(s->host_id >> 24);
	int rc = hello_request(s);
	if (rc)
		return rc;
	const uint8_t *p = hp_frame_payload(&s->dec);
	/* A refused HELLO names the device's version; an accepted one must
	 * be ours. */
	uint32_t dev_version = HP_SERIAL_VERSION;
	if (s->dec.type == HP_MSG_NAK && s->dec.len == HP_MSG_NAK_LEN)
		dev_version = hp_get_le32(p + 4);
	else if (s->dec.type == HP_MSG_HELLO_ACK && s->dec.len >= 4)
		dev_version = hp_get_le32(p);
	if (dev_version != HP_SERIAL_VERSION)
		return fail(s, HP_INVALID_VALUE,
			    "the device on %s speaks serial protocol version "
			    "%u, this host speaks version %u",
			    s->dev, (unsigned)dev_version, HP_SERIAL_VERSION);
	if (s->dec.type != HP_MSG_HELLO_ACK ||
	    s->dec.len != HP_MSG_HELLO_ACK_LEN)
		return fail(s, HP_INVALID_VALUE,
			    "bad reply from the device on %s to HELLO: type "
			    "0x%02x, %u bytes",
			    s->dev, s->dec.type, s->dec.len);
	s->t.mbox_addr = hp_get_le64(p + 8);
	s->next_seq = (uint8_t)(s->hello_seq + 1);
	/* The device counts the bytes of its frames from the end of its
	 * HELLO_ACK: so does the host, from here. */
	s->credit = hp_get_le32(p + 20);
	s->counting = true;
	s->taken = s->credited = s->probed = 0;
	trace(s, "hello host %08x seq %u window %u: device holds to %u",
	      (unsigned)s->host_id, (unsigned)s->hello_seq,
	      (unsigned)s->rx_window, (unsigned)s->credit);
	return 0;
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
	const char *tr = getenv("HP_SERIAL_TRACE");
	if (tr && *tr)
		s->trace = fopen(tr, "a");
	struct stat st;
	if (stat(dev, &st))
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
