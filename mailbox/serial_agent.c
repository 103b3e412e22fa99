// SPDX-License-Identifier: MIT
/* The serial agent's portable core (serial_agent.h): BATCH frames applied
 * in seq order, each once (include/hartpool/frame.h). A frame is checked
 * whole before any of it is applied, so a refused one changes nothing.
 * A retransmitted frame (behind the expected seq) is not applied again;
 * its READ or WAIT is answered again, which reads memory again: the host
 * sends nothing after a frame it waits on, so the answer is the one a
 * slower link would have given.
 *
 * On a UART that may drop what its receiver does not take in time
 * (ops->tx_waits false), replies are held to the host's receive window:
 * at most `window` bytes sent and not yet taken by the host, as its
 * CREDIT frames tell; the rest waits here, whole frames, and goes out
 * (in pieces of any size) as CREDITs come. Nothing waits for them: the
 * agent keeps taking requests in. */
#include "serial_agent.h"
#include <hal/atomic.h>
#include <hartpool/error.h>
#include <string.h>

void serial_agent_setup(serial_agent *a, const serial_agent_ops *ops)
{
	a->ops = ops;
	a->requests = a->refused = a->duplicates = a->gaps = 0;
	a->hosts = a->held = a->overflows = 0;
	a->session = a->gap_told = a->waiting = false;
	a->host = 0;
	a->expect = 0;
	a->unacked = 0;
	a->window = a->sent = a->taken = 0;
	a->hold_at = a->hold_len = 0;
	hp_frame_dec_init(&a->dec);
}

/* Send what the host's window has room for of the bytes held. */
static void release(serial_agent *a)
{
	for (;;) {
		/* sent - taken never passes the window (credit()). */
		size_t room =
			(uint16_t)(a->window - (uint16_t)(a->sent - a->taken));
		size_t k = sizeof(a->hold) - a->hold_at;
		k = k < a->hold_len ? k : a->hold_len;
		k = k < room ? k : room;
		if (!k)
			return;
		a->ops->send(a->hold + a->hold_at, k);
		a->sent = (uint16_t)(a->sent + k);
		a->hold_at = (a->hold_at + k) % sizeof(a->hold);
		a->hold_len -= k;
	}
}

/* The @p n bytes in a->wire: at once, or held for the host's window
 * (whole, after what is held already; dropped if there is no room, as a
 * lossy line would: the host sends again). */
static void transmit(serial_agent *a, size_t n)
{
	if (!a->window) {
		a->ops->send(a->wire, n);
		return;
	}
	if (n > sizeof(a->hold) - a->hold_len) {
		a->overflows++;
		return;
	}
	if (a->hold_len ||
	    n > (uint16_t)(a->window - (uint16_t)(a->sent - a->taken)))
		a->held++;
	size_t at = (a->hold_at + a->hold_len) % sizeof(a->hold);
	size_t k = n < sizeof(a->hold) - at ? n : sizeof(a->hold) - at;
	memcpy(a->hold + at, a->wire, k);
	memcpy(a->hold, a->wire + k, n - k);
	a->hold_len += n;
	release(a);
}

static void send_frame(serial_agent *a, uint8_t type, uint8_t seq,
		       const void *payload, size_t len)
{
	transmit(a, hp_frame_encode(a->wire, sizeof(a->wire), type, seq,
				    payload, len));
	/* A reply to the last frame applied acknowledges every frame. */
	if (a->session && seq == (uint8_t)(a->expect - 1))
		a->unacked = 0;
}

static void nak_payload(serial_agent *a, uint8_t *p, int status,
			uint32_t detail)
{
	hp_put_le32(p, (uint32_t)status);
	hp_put_le32(p + 4, detail);
	a->refused++;
}

static void nak(serial_agent *a, uint8_t seq, int status, uint32_t detail)
{
	uint8_t p[HP_MSG_NAK_LEN];
	nak_payload(a, p, status, detail);
	send_frame(a, HP_MSG_NAK, seq, p, sizeof(p));
}

/* The answer to a HELLO goes at once, outside any window: it is for a
 * host that may not be the one the window was for. */
static void hello_answer(serial_agent *a, uint8_t type, uint8_t seq,
			 const uint8_t *p, size_t len)
{
	a->ops->send(a->wire, hp_frame_encode(a->wire, sizeof(a->wire), type,
					      seq, p, len));
}

static void hello(serial_agent *a, uint8_t seq, const uint8_t *p, size_t len)
{
	uint8_t r[HP_MSG_HELLO_ACK_LEN];
	/* The version first, so a host of another version learns ours. */
	if (len < 4 || hp_get_le32(p) != HP_SERIAL_VERSION ||
	    len != HP_MSG_HELLO_LEN) {
		nak_payload(a, r, HP_INVALID_VALUE,
			    len >= 4 && hp_get_le32(p) != HP_SERIAL_VERSION
				    ? HP_SERIAL_VERSION
				    : 0);
		hello_answer(a, HP_MSG_NAK, seq, r, HP_MSG_NAK_LEN);
		return;
	}
	uint32_t host = hp_get_le32(p + 4);
	/* A new host: the first HELLO, or one with another host's id (the
	 * last one died, or gave up). The same id again is that host's
	 * HELLO sent again (its HELLO_ACK was lost): the same session, only
	 * resynchronised. Per-host state (sessions) starts here. */
	if (!a->session || host != a->host)
		a->hosts++;
	if (a->session && host != a->host && a->ops->new_host)
		a->ops->new_host();
	/* Whatever the last host left in flight is gone: its frames, the
	 * WAIT it asked for, the replies held for it. */
	if (a->waiting && a->ops->watch)
		a->ops->watch(0);
	a->session = true;
	a->host = host;
	a->expect = (uint8_t)(seq + 1);
	a->gap_told = a->waiting = false;
	a->unacked = 0;
	a->hold_at = a->hold_len = 0;
	uint32_t w = hp_get_le32(p + 8);
	a->window = (uint16_t)(a->ops->tx_waits		  ? 0
			       : w > HP_SERIAL_CREDIT_MAX ? HP_SERIAL_CREDIT_MAX
							  : w);
	hp_put_le32(r, HP_SERIAL_VERSION);
	hp_put_le32(r + 4, HP_SERIAL_WINDOW);
	hp_put_le64(r + 8, a->ops->mbox_addr());
	hp_put_le32(r + 16, host);
	hp_put_le32(r + 20, a->window);
	hello_answer(a, HP_MSG_HELLO_ACK, seq, r, sizeof(r));
	/* The host counts what it takes from the byte after this on. */
	a->sent = a->taken = 0;
}

/* The host has taken bytes: send on. Never answered (a reply would take
 * window too); one that makes no sense is ignored. */
static void credit(serial_agent *a, uint8_t flags, const uint8_t *p, size_t len)
{
	if (len != HP_MSG_CREDIT_LEN || !a->session || !a->window)
		return;
	uint16_t taken = (uint16_t)(p[0] | p[1] << 8);
	uint16_t ahead = (uint16_t)(taken - a->taken);
	if (flags & HP_CREDIT_RESYNC) {
		/* What the host did not take is lost: count on from its
		 * number. */
		a->sent = a->taken = taken;
	} else if (ahead <= (uint16_t)(a->sent - a->taken)) {
		a->taken = taken;
	} else if (ahead < 0x8000) {
		/* Past what was sent: the host counted a byte that was not
		 * the agent's. (Behind: an old count, nothing new.) */
		a->taken = a->sent;
	}
	release(a);
}

typedef struct {
	uint8_t kind;
	uint64_t addr, len, min, ms;
	const uint8_t *data; /* a WRITE's encoded bytes */
} op;

/* Bounds first, so access_ok never sees a range that wraps. */
static bool allowed(serial_agent *a, uint64_t addr, uint64_t len, bool write)
{
	return len >= 1 && len <= HP_SERIAL_DATA_MAX && addr + len >= addr &&
	       a->ops->access_ok(addr, len, write);
}

/* Decode and check the op at *p; false if it is malformed or not
 * allowed. */
static bool next_op(serial_agent *a, const uint8_t **p, const uint8_t *end,
		    op *o)
{
	uint64_t x;
	o->kind = *(*p)++;
	if (!hp_varint_get(p, end, &x))
		return false;
	o->addr = x ^ a->ops->mbox_addr();
	if (o->kind == HP_OP_WAIT && !hp_varint_get(p, end, &o->min))
		return false;
	if (!hp_varint_get(p, end, &o->len))
		return false;
	switch (o->kind) {
	case HP_OP_WRITE: {
		if (!allowed(a, o->addr, o->len, true))
			return false;
		size_t n = hp_zrle_decode(*p, (size_t)(end - *p), NULL,
					  (size_t)o->len);
		o->data = *p;
		*p += n;
		return n != 0;
	}
	case HP_OP_READ:
		return allowed(a, o->addr, o->len, false);
	case HP_OP_WAIT:
		return hp_varint_get(p, end, &o->ms) &&
		       o->ms <= HP_SERIAL_WAIT_MAX_MS && o->len >= 8 &&
		       o->addr % 8 == 0 && allowed(a, o->addr, o->len, false);
	}
	return false;
}

/* DATA for @p seq: @p len bytes at @p addr, zero-run encoded. */
static void send_data(serial_agent *a, uint8_t seq, uint64_t addr, size_t len)
{
	a->ops->read(addr, a->data, len);
	size_t n = hp_zrle_encode(a->out, sizeof(a->out), a->data, len);
	send_frame(a, HP_MSG_DATA, seq, a->out, n);
}

/* Answer the pending WAIT if its word has come up, or @p now_anyway
 * (out of time, or another WAIT comes): with its bytes, or the word. */
static bool wait_check(serial_agent *a, bool now_anyway)
{
	uint8_t w[8];
	a->ops->read(a->wait_addr, w, sizeof(w));
	bool up = hp_get_le64(w) >= a->wait_min;
	if (!up && !now_anyway && a->ops->now_us() < a->wait_deadline)
		return false;
	if (a->ops->watch)
		a->ops->watch(0);
	/* The word is stored last, with release: what it publishes is read
	 * after it. */
	hal_fence();
	a->waiting = false;
	send_data(a, a->wait_seq, a->wait_addr, up ? a->wait_len : 8);
	return true;
}

static void ack_now(serial_agent *a)
{
	send_frame(a, HP_MSG_ACK, (uint8_t)(a->expect - 1), NULL, 0);
}

/* A BATCH in seq order (@p replay false), or one again (true). */
static void batch(serial_agent *a, uint8_t seq, const uint8_t *p, size_t len,
		  bool replay)
{
	const uint8_t *at = p, *end = p + len;
	op o = {0}, last = {0};
	uint32_t i = 0;
	for (; at < end; i++) {
		/* A READ or WAIT ends the frame. */
		if (last.kind == HP_OP_READ || last.kind == HP_OP_WAIT ||
		    !next_op(a, &at, end, &o)) {
			nak(a, seq, HP_INVALID_VALUE, i);
			return;
		}
		last = o;
	}
	/* Checked: now apply, in order. */
	for (at = p; !replay && at < end;) {
		next_op(a, &at, end, &o);
		if (o.kind != HP_OP_WRITE)
			break;
		hp_zrle_decode(o.data, (size_t)(end - o.data), a->data,
			       (size_t)o.len);
		a->ops->write(o.addr, a->data, (size_t)o.len);
	}
	if (last.kind == HP_OP_READ) {
		send_data(a, seq, last.addr, (size_t)last.len);
	} else if (last.kind == HP_OP_WAIT) {
		if (a->waiting)
			wait_check(a, true);
		a->waiting = true;
		a->wait_seq = seq;
		a->wait_addr = last.addr;
		a->wait_min = last.min;
		a->wait_len = (uint32_t)last.len;
		a->wait_deadline = a->ops->now_us() + last.ms * 1000u;
		if (a->ops->watch)
			a->ops->watch(last.addr);
		wait_check(a, false);
	} else {
		if (!a->unacked++)
			a->unacked_since = a->ops->now_us();
		/* A retransmission: its ACK was lost, so say it at once. */
		if (replay || a->unacked >= SERIAL_AGENT_ACK_EVERY)
			ack_now(a);
	}
}

static void frame(serial_agent *a)
{
	const uint8_t *p = hp_frame_payload(&a->dec);
	uint8_t seq = a->dec.seq;
	size_t len = a->dec.len;

	if (a->dec.type == HP_MSG_HELLO) {
		hello(a, seq, p, len);
		return;
	}
	if (a->dec.type == HP_MSG_CREDIT) {
		credit(a, seq, p, len);
		return;
	}
	/* Not a request, or a BATCH with no session (a device that
	 * restarted under a host): the host must say HELLO. */
	if (a->dec.type != HP_MSG_BATCH || !a->session) {
		nak(a, seq, HP_INVALID_VALUE, 0);
		return;
	}
	uint8_t ahead = (uint8_t)(seq - a->expect);
	if (ahead == 0) {
		a->expect++;
		a->gap_told = false;
		batch(a, seq, p, len, false);
	} else if (ahead >= 128) {
		a->duplicates++;
		/* Its answer is still to come. */
		if (a->waiting && a->wait_seq == seq)
			return;
		batch(a, seq, p, len, true);
	} else {
		/* The expected frame was lost: everything after it is
		 * dropped until it comes again. Say so once. */
		a->gaps++;
		if (!a->gap_told) {
			uint8_t e = a->expect;
			a->gap_told = true;
			send_frame(a, HP_MSG_GAP, seq, &e, 1);
		}
	}
}

bool serial_agent_feed(serial_agent *a, uint8_t byte)
{
	/* Text and broken frames from the host are line noise: dropped
	 * (counted in a->dec.stats); the host retransmits. */
	if (hp_frame_feed(&a->dec, byte) != HP_FRAME_OK)
		return false;
	a->requests++;
	frame(a);
	return true;
}

bool serial_agent_idle(serial_agent *a)
{
	bool sent = a->waiting && wait_check(a, false);
	if (a->unacked &&
	    a->ops->now_us() - a->unacked_since >= SERIAL_AGENT_ACK_DELAY_US) {
		ack_now(a);
		sent = true;
	}
	return sent;
}
