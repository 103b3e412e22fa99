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
 * at once, and so does a reply that came broken (its CRC wrong: the device
 * is there) followed by silence, once a try. Bytes outside frames are the
 * device's console text: they go to the console callback (called while a
 * call is under way; it must not use the transport).
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
 * This file is the transport's top (open, HELLO, the operations); the
 * window, the line and the frames' contents are in the files serial.h
 * lists.
 *
 * The link has no fault injection of its own: the tests put line noise and
 * corrupted frames on the line from outside (tests/e2e/serial_relay.c,
 * tests/common/serial_faults.h; docs/design.md, 60).
 */
#include "serial.h"
#include "backoff.h"
#include <hartpool/error.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

/* Append an op's head (kind, address) at @p p. */
static size_t op_head(serial *s, uint8_t *p, uint8_t kind, uint64_t addr)
{
	return hp_serial_op_head(p, kind, addr ^ s->t.mbox_addr);
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
		rc = hp_serial_drain(s, false);
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
			rc = hp_serial_send_batch(s, NULL, 0, 0);
		if (rc)
			break;
		uint8_t *p = s->batch + s->batch_len;
		size_t k = op_head(s, p, HP_OP_READ, addr + done);
		k += hp_varint_put(p + k, n);
		s->batch_len += k;
		rc = hp_serial_send_batch(s, (uint8_t *)buf + done, n, 0);
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
			rc = hp_serial_send_batch(s, NULL, 0, 0);
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
			rc = hp_serial_send_batch(s, NULL, 0, 0);
		if (!rc)
			rc = hp_serial_drain(s, true);
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
		rc = hp_serial_send_batch(s, NULL, 0, 0);
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
		return hp_serial_fail(
			s, HP_INVALID_VALUE,
			"a wait on %zu bytes at 0x%llx (8 to %u, the word "
			"8-aligned)",
			len, (unsigned long long)addr, HP_SERIAL_DATA_MAX);
	pthread_mutex_lock(&s->mu);
	int rc = begin(s);
	s->snap = false;
	/* Room for the op, and the reply must not take longer on the line
	 * than the time asked for (a slow link gets a longer wait). */
	int64_t min_ms = 4 * hp_serial_wire_ms(s, HP_FRAME_WIRE_MAX(len));
	ms = ms > min_ms ? ms : (uint32_t)min_ms;
	ms = ms < HP_SERIAL_WAIT_MAX_MS ? ms : HP_SERIAL_WAIT_MAX_MS;
	if (!rc && s->batch_len + 4 * HP_VARINT_MAX + 1 > sizeof(s->batch))
		rc = hp_serial_send_batch(s, NULL, 0, 0);
	if (!rc) {
		uint8_t *p = s->batch + s->batch_len;
		size_t k = op_head(s, p, HP_OP_WAIT, addr);
		k += hp_varint_put(p + k, min);
		k += hp_varint_put(p + k, len);
		k += hp_varint_put(p + k, ms);
		s->batch_len += k;
		s->snap_len = 0;
		rc = hp_serial_send_batch(s, s->snap_buf, len, ms ? ms : 1);
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
	    (!s->batch_len || !hp_serial_send_batch(s, NULL, 0, 0)))
		hp_serial_drain(s, true);
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

/* Is the frame in s->dec the answer to our HELLO? 1: a HELLO_ACK for this
 * host (or one of another version: hello() says so); 2: a NAK of it; 0:
 * neither (what a host before us left on the line: the replies to its
 * frames, its HELLO_ACK, which names another host). */
static int hello_answer(serial *s)
{
	return hp_serial_hello_answer(s->dec.type, s->dec.seq,
				      hp_frame_payload(&s->dec), s->dec.len,
				      s->hello_seq, s->host_id);
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
	hp_serial_hello_put(req, s->host_id, s->rx_window);
	size_t n = hp_frame_encode(s->wire, sizeof(s->wire), HP_MSG_HELLO,
				   s->hello_seq, req, sizeof(req));
	int64_t line = hp_serial_wire_ms(
		s, n + HP_FRAME_WIRE_MAX(HP_MSG_HELLO_ACK_LEN));
	int64_t t0 = hp_serial_now_ms(), budget = 0;
	for (int i = 0; i < TRIES; i++)
		budget += ((int64_t)FIRST_TIMEOUT_MS << i) + line;
	int tries = 0, naks = 0;
	for (int64_t ms = FIRST_TIMEOUT_MS; tries < TRIES; ms *= 2) {
		int rc = hp_serial_transmit(s, n, tries++ > 0, -1);
		int64_t from = hp_serial_now_ms();
		bool again = false;
		while (!rc && !again && hp_serial_now_ms() - from < ms + line &&
		       hp_serial_now_ms() - t0 < budget) {
			while (!again && hp_serial_next_frame(s)) {
				int k = hello_answer(s);
				if (k == 1 || (k == 2 && ++naks == 2))
					return 0;
				again = k == 2;
			}
			rc = again ? 0 : hp_serial_rx_some(s, WAIT_SLICE_MS);
			rc = rc > 0 ? 0 : rc;
			if (!rc && (hp_serial_unsent(s) > 0 || s->rx_ms > from))
				from = hp_serial_now_ms();
		}
		if (rc)
			return rc;
		if (hp_serial_now_ms() - t0 >= budget)
			break;
	}
	/* A link silent for this long has no device on it (any more). */
	return hp_serial_fail(
		s, HP_DEVICE_NOT_AVAILABLE,
		"no reply from the device on %s after %d tries over %.1f s "
		"(HELLO)%s",
		s->dev, tries, (double)(hp_serial_now_ms() - t0) / 1000.0,
		hp_serial_unsent(s) > 0 ? "; it is not taking bytes in" : "");
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
	uint32_t dev_version =
		hp_serial_hello_version(s->dec.type, p, s->dec.len);
	hp_serial_hello_ack ack;
	if (dev_version != HP_SERIAL_VERSION)
		return hp_serial_fail(
			s, HP_INVALID_VALUE,
			"the device on %s speaks serial protocol version "
			"%u, this host speaks version %u",
			s->dev, (unsigned)dev_version, HP_SERIAL_VERSION);
	if (s->dec.type != HP_MSG_HELLO_ACK ||
	    !hp_serial_hello_ack_get(p, s->dec.len, &ack))
		return hp_serial_fail(
			s, HP_INVALID_VALUE,
			"bad reply from the device on %s to HELLO: type "
			"0x%02x, %u bytes",
			s->dev, s->dec.type, s->dec.len);
	s->t.mbox_addr = ack.mbox_addr;
	s->next_seq = (uint8_t)(s->hello_seq + 1);
	/* The device counts the bytes of its frames from the end of its
	 * HELLO_ACK: so does the host, from here. */
	s->credit = ack.credit;
	s->counting = true;
	s->taken = s->credited = s->probed = 0;
	/* Broken frames so far were not replies to this session's frames. */
	s->rx_dropped = hp_frame_dropped(&s->dec);
	hp_serial_trace(s,
			"hello host %08x seq %u window %u: device holds to %u",
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
	pthread_mutex_init(&s->mu, NULL);
	hp_frame_dec_init(&s->dec);
	const char *tr = getenv("HP_SERIAL_TRACE");
	if (tr && *tr)
		s->trace = fopen(tr, "a");
	rc = hp_serial_open_line(s);
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
