// SPDX-License-Identifier: MIT
/*
 * The serial link's window (serial.h, docs/serial.md): up to
 * HP_SERIAL_WINDOW BATCH frames in flight, applied by the device in seq
 * order, each once; their replies (DATA, ACK, NAK, GAP) taken; frames
 * unanswered for too long sent again from the oldest (go-back-N), twice
 * as long each time, TRIES in all (at once, once a try, after a reply
 * that came broken); and the device's replies held to the host's receive
 * window acknowledged with CREDITs, RESYNC after a silence. What frames
 * hold is serial_frame.c's; the bytes on the line serial_line.c's.
 */
#include "serial.h"
#include <hartpool/error.h>
#include <stdarg.h>
#include <string.h>

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
	uint8_t p[HP_MSG_CREDIT_LEN];
	hp_serial_credit_put(p, s->taken);
	s->credited = s->taken;
	size_t n = hp_frame_encode(s->wire, sizeof(s->wire), HP_MSG_CREDIT,
				   resync ? HP_CREDIT_RESYNC : 0, p, sizeof(p));
	int rc = hp_serial_transmit(s, n, false, -2);
	if (resync)
		hp_serial_trace(s, "resync at %u", (unsigned)s->taken);
	return rc;
}

/* Op @p k of frame @p f, in words, for a message. */
static void describe(serial *s, const flight *f, uint32_t k, char *out,
		     size_t cap)
{
	hp_serial_describe(f->payload, f->len, s->t.mbox_addr, k, out, cap);
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
	s->lost_back = false;
	s->lost_replies = 0;
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
			int rc = hp_serial_transmit(s, n, true, f->seq);
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
		int rc = hp_serial_transmit(s, n, true, f->seq);
		if (rc)
			return rc;
	}
	s->moved_ms = hp_serial_now_ms();
	return 0;
}

/* Broken frames (bad CRC, length or escapes, cut off) that came since the
 * last look: replies lost on the line. */
static void count_broken(serial *s)
{
	uint32_t n = hp_frame_dropped(&s->dec);
	if (n == s->rx_dropped)
		return;
	s->lost_replies += n - s->rx_dropped;
	s->rx_dropped = n;
	s->rx_lost = true;
}

/* A reply frame (in s->dec). */
static int on_reply(serial *s)
{
	const uint8_t *p = hp_frame_payload(&s->dec);
	size_t len = s->dec.len;
	uint8_t seq = s->dec.seq;
	unsigned i = fl_find(s, seq);
	flight *f = i < s->fl_count ? fl_at(s, i) : NULL;
	hp_serial_hello_ack ack;
	switch (s->dec.type) {
	case HP_MSG_DATA: {
		if (!f || !f->answer || f->done)
			return 0; /* a second answer to a frame sent again */
		size_t n;
		/* All asked for, or a WAIT's word alone (not up yet). */
		if (hp_serial_data_get(p, len, f->dst, f->dst_len,
				       f->wait_ms != 0, &n)) {
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
		int st;
		uint32_t op;
		if (!f || f->done || !hp_serial_nak_get(p, len, &st, &op))
			return 0;
		char what[96];
		describe(s, f, op, what, sizeof(what));
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
		if (seq == s->hello_seq &&
		    hp_serial_hello_ack_get(p, len, &ack) &&
		    ack.host_id == s->host_id)
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
	return s->try_ms + hp_serial_wire_ms(s, bytes) + wait;
}

/* The replies buffered; then a CREDIT if the host has taken half a window
 * since the last (the device is never held up while the host has taken
 * what it sent, unless a CREDIT was lost: pump() probes). */
static int take_replies(serial *s)
{
	int rc = 0;
	while (!rc && hp_serial_next_frame(s)) {
		count_broken(s);
		hp_serial_trace(s, "in type %u seq %u len %zu",
				(unsigned)s->dec.type, (unsigned)s->dec.seq,
				(size_t)s->dec.len);
		if (s->dec.type & HP_MSG_REPLY)
			rc = on_reply(s);
	}
	count_broken(s);
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
	int64_t now = hp_serial_now_ms();
	/* A device slow to take bytes in or to send them has lost
	 * nothing: the same bytes again would only keep it busier. */
	if (hp_serial_unsent(s) > 0 || s->rx_ms > s->moved_ms)
		s->moved_ms = now;
	if (now - s->moved_ms >= silence_ms(s)) {
		/* Bytes that came while this process did not run are no
		 * silence (and a resync now would count them lost). */
		rc = hp_serial_rx_some(s, 0);
		if (rc)
			return rc < 0 ? (s->broken = rc) : take_replies(s);
		if (s->tries + 1 >= TRIES) {
			char what[96], broken[64] = "";
			describe(s, fl_at(s, 0), 0, what, sizeof(what));
			if (s->lost_replies)
				snprintf(broken, sizeof(broken),
					 "; %u frames from it came broken",
					 s->lost_replies);
			s->broken = hp_serial_fail(
				s, HP_DEVICE_NOT_AVAILABLE,
				"no reply from the device on %s after %d "
				"tries over %.1f s (%s)%s%s",
				s->dev, s->tries + 1,
				(double)(now - s->first_try_ms) / 1000.0, what,
				hp_serial_unsent(s) > 0
					? "; it is not taking bytes in"
					: "",
				broken);
			return s->broken;
		}
		if (!s->tries++)
			s->first_try_ms = s->moved_ms;
		s->try_ms *= 2;
		s->rx_lost = s->lost_back = false;
		/* What the device sent and did not come is lost: its window
		 * counts on from what came. */
		rc = s->credit ? send_credit(s, true) : 0;
		return rc ? (s->broken = rc) : go_back(s, 0);
	}
	rc = hp_serial_rx_some(s, ms < WAIT_SLICE_MS ? ms : WAIT_SLICE_MS);
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
	/* Silence after a broken frame, with all sent taken in: that was a
	 * reply (a DATA, an ACK, a GAP), lost on the line, and the device
	 * is there. Waiting out the try would cost its time, and one of the
	 * TRIES, for each reply lost (a READ's answer lost every try, or a
	 * GAP, said once, lost: the tries ran out); the window goes back now
	 * instead, once a try (a line that breaks every reply still runs out
	 * of tries). Without a RESYNC: the broken frame's bytes came. */
	if (ms >= WAIT_SLICE_MS && s->rx_lost && !s->lost_back &&
	    hp_serial_now_ms() - s->moved_ms >= LOST_SILENCE_MS &&
	    hp_serial_unsent(s) <= 0) {
		s->rx_lost = false;
		s->lost_back = true;
		rc = go_back(s, 0);
		if (rc)
			return s->broken = rc;
	}
	return 0;
}

/* Send the open frame (with a READ or WAIT last when @p dst: its bytes
 * go there), waiting for room in the window first. */
int hp_serial_send_batch(serial *s, uint8_t *dst, size_t dst_len,
			 uint32_t wait_ms)
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
		/* (A broken frame before it answered none of the window.) */
		s->tries = 0;
		s->try_ms = FIRST_TIMEOUT_MS;
		s->rx_lost = s->lost_back = false;
		s->lost_replies = 0;
	}
	size_t n = hp_frame_encode(s->wire, sizeof(s->wire), HP_MSG_BATCH,
				   f->seq, f->payload, f->len);
	rc = hp_serial_transmit(s, n, false, f->seq);
	s->moved_ms = hp_serial_now_ms();
	/* Replies that came meanwhile, without waiting. */
	return rc ? (s->broken = rc) : pump(s, 0);
}

/* Until every READ and WAIT sent is answered (or, @p all, every frame).
 */
int hp_serial_drain(serial *s, bool all)
{
	int rc = 0;
	while (!rc && (all ? s->fl_count : s->answers))
		rc = pump(s, WAIT_SLICE_MS);
	return rc;
}
