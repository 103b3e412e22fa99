// SPDX-License-Identifier: MIT
/*
 * The serial link's line (serial.h): a Unix socket (QEMU's `-chardev
 * socket`) or a tty opened, frames sent (paced as a UART of the link's
 * rate would send them), bytes taken in and decoded into frames, the text
 * between frames handed to the console callback, and the HP_SERIAL_TRACE
 * log. Knows nothing of the window or of what frames mean.
 */
#include "backoff.h"
#include "serial.h"
#include <errno.h>
#include <fcntl.h>
#include <hartpool/error.h>
#include <poll.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int hp_serial_fail(serial *s, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->t.err, sizeof(s->t.err), fmt, ap);
	va_end(ap);
	return code;
}

int64_t hp_serial_now_ms(void)
{
	return (int64_t)(hp_now_ns() / 1000000u);
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = {(time_t)(t_ns / 1000000000u),
			      (long)(t_ns % 1000000000u)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/* ---- bytes out and in ---- */

static int send_all(serial *s, const uint8_t *p, size_t n)
{
	while (n) {
		/* MSG_NOSIGNAL: a device gone away is an error, not SIGPIPE. */
		ssize_t w = s->sock ? send(s->fd, p, n, MSG_NOSIGNAL)
				    : write(s->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EPIPE || errno == ECONNRESET))
			return hp_serial_fail(s, HP_DEVICE_NOT_AVAILABLE,
					      "the device is gone: %s hung up",
					      s->dev);
		if (w < 0)
			return hp_serial_fail(
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
bool hp_serial_next_frame(serial *s)
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
int hp_serial_rx_some(serial *s, int ms)
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
			return hp_serial_fail(
				s, HP_DEVICE_NOT_AVAILABLE,
				"the device is gone: cannot read from %s: %s",
				s->dev, strerror(errno));
		if (n <= 0)
			return hp_serial_fail(s, HP_DEVICE_NOT_AVAILABLE,
					      "the device is gone: %s hung up",
					      s->dev);
		s->rx_pos = 0;
		s->rx_len = (size_t)n;
		s->t.bytes_in += (uint64_t)n;
		s->rx_ms = hp_serial_now_ms();
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
int hp_serial_unsent(serial *s)
{
	int q = 0;
	return ioctl(s->fd, TIOCOUTQ, &q) == 0 ? q : 0;
}

/* Milliseconds @p bytes take on the link (0 unpaced), rounded up. */
int64_t hp_serial_wire_ms(serial *s, uint64_t bytes)
{
	return (int64_t)((hp_serial_wire_ns(bytes, s->t.baud) + 999999u) /
			 1000000u);
}

/* HP_SERIAL_TRACE=FILE: a line per frame sent or taken (ms since the
 * link opened, direction, type, seq, payload bytes), for finding out why
 * a link stalls. */
void hp_serial_trace(serial *s, const char *fmt, ...)
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
int hp_serial_transmit(serial *s, size_t n, bool again, int seq)
{
	/* A CREDIT is no request: its bytes count, not it. */
	s->t.frames_out += seq != -2;
	s->t.retries += again;
	if (seq == -2)
		hp_serial_trace(s, "out credit %u %zu bytes",
				(unsigned)s->taken, n);
	else
		hp_serial_trace(s, "out seq %d %s %zu bytes", seq,
				again ? "again" : "new", n);
	return write_all(s, s->wire, n);
}

static int open_socket(serial *s, const char *dev)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	if (strlen(dev) >= sizeof(a.sun_path))
		return hp_serial_fail(
			s, HP_INVALID_VALUE,
			"socket path too long (%zu bytes, at most %zu): %s",
			strlen(dev), sizeof(a.sun_path) - 1, dev);
	if (s->spec.rtscts)
		return hp_serial_fail(
			s, HP_INVALID_VALUE,
			"flow=rtscts is for a tty: %s is a socket, with "
			"no flow control lines",
			dev);
	strcpy(a.sun_path, dev);
	s->sock = true;
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&a, sizeof(a)))
		return hp_serial_fail(s, HP_DEVICE_NOT_FOUND, "%s: %s", dev,
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
		return hp_serial_fail(s, HP_DEVICE_NOT_FOUND, "%s: %s", dev,
				      strerror(errno));
	if (tcgetattr(s->fd, &s->saved))
		return hp_serial_fail(s, HP_DEVICE_NOT_FOUND,
				      "%s is neither a Unix socket nor a tty",
				      dev);
	uint32_t baud = s->spec.baud ? s->spec.baud : DEFAULT_BAUD;
	speed_t code = hp_serial_baud_code(baud);
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
		return hp_serial_fail(s, HP_DEVICE_NOT_FOUND,
				      "cannot set up %s (%u baud 8N1): %s", dev,
				      (unsigned)baud, strerror(errno));
	s->tty = true;
	/* tcsetattr() succeeds if any of it took: the driver may have kept
	 * another rate. */
	struct termios got;
	if (tcgetattr(s->fd, &got) || cfgetospeed(&got) != code ||
	    cfgetispeed(&got) != code ||
	    (s->spec.rtscts && !(got.c_cflag & CRTSCTS)))
		return hp_serial_fail(
			s, HP_INVALID_VALUE,
			"%s does not take %u baud 8N1%s (its driver kept "
			"other settings)",
			dev, (unsigned)baud,
			s->spec.rtscts ? " with RTS/CTS" : "");
	int fl = fcntl(s->fd, F_GETFL);
	if (fl < 0 || fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK))
		return hp_serial_fail(s, HP_DEVICE_NOT_FOUND,
				      "cannot set up %s: %s", dev,
				      strerror(errno));
	/* Whatever came in before (boot messages) is not a reply. */
	tcflush(s->fd, TCIFLUSH);
	s->t.baud = baud;
	return 0;
}

int hp_serial_open_line(serial *s)
{
	struct stat st;
	if (stat(s->dev, &st))
		return hp_serial_fail(s, HP_DEVICE_NOT_FOUND, "%s: %s", s->dev,
				      strerror(errno));
	return S_ISSOCK(st.st_mode) ? open_socket(s, s->dev)
				    : open_tty(s, s->dev);
}
