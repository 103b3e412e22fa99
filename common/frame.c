// SPDX-License-Identifier: MIT
/* Frame codec of the serial transport (include/hartpool/frame.h). Portable:
 * built for the firmware and the host; no allocation, no I/O. */
#include <hartpool/frame.h>
#include <stdbool.h>

enum {
	ST_OUT,	 /* between frames: bytes are text */
	ST_BODY, /* inside a frame */
	ST_ESC,	 /* inside a frame, after 0xDB */
	ST_SKIP, /* inside a frame already dropped: wait for its end */
};

/* Bitwise: the UART is far slower than 8 shifts a byte, and no table. */
static uint32_t crc_update(uint32_t c, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xEDB88320u & -(c & 1u));
	}
	return c;
}

uint32_t hp_crc32(const void *p, size_t n)
{
	return ~crc_update(0xFFFFFFFFu, p, n);
}

typedef struct {
	uint8_t *out;
	size_t cap, n; /* n counts on past cap, so overflow shows at the end */
} writer;

static void put(writer *w, uint8_t b)
{
	if (w->n < w->cap)
		w->out[w->n] = b;
	w->n++;
}

static void put_escaped(writer *w, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t b = p[i];
		if (b == HP_FRAME_START || b == HP_FRAME_END ||
		    b == HP_FRAME_ESC) {
			put(w, HP_FRAME_ESC);
			b = b == HP_FRAME_START ? HP_FRAME_ESC_START
			    : b == HP_FRAME_END ? HP_FRAME_ESC_END
						: HP_FRAME_ESC_ESC;
		}
		put(w, b);
	}
}

size_t hp_frame_encode(uint8_t *out, size_t cap, uint8_t type, uint8_t seq,
		       const void *payload, size_t len)
{
	if (len > HP_FRAME_MAX_PAYLOAD)
		return 0;
	uint8_t hdr[HP_FRAME_HDR] = {type, seq, (uint8_t)len,
				     (uint8_t)(len >> 8)};
	uint8_t crc[HP_FRAME_CRC];
	hp_put_le32(crc, ~crc_update(crc_update(0xFFFFFFFFu, hdr, sizeof(hdr)),
				     payload, len));
	writer w = {out, cap, 0};
	put(&w, HP_FRAME_START);
	put_escaped(&w, hdr, sizeof(hdr));
	put_escaped(&w, payload, len);
	put_escaped(&w, crc, sizeof(crc));
	put(&w, HP_FRAME_END);
	return w.n <= cap ? w.n : 0;
}

void hp_frame_dec_init(hp_frame_dec *d)
{
	*d = (hp_frame_dec){.state = ST_OUT};
}

static enum hp_frame_event drop(hp_frame_dec *d, uint32_t *counter,
				uint8_t next)
{
	(*counter)++;
	d->state = next;
	return HP_FRAME_DROPPED;
}

static unsigned len_field(const hp_frame_dec *d)
{
	return d->buf[2] | (unsigned)d->buf[3] << 8;
}

static enum hp_frame_event body_byte(hp_frame_dec *d, uint8_t b)
{
	if (d->n == sizeof(d->buf))
		return drop(d, &d->stats.overlong, ST_SKIP);
	d->buf[d->n++] = b;
	d->state = ST_BODY;
	/* A length no frame can have: no need to buffer the rest. */
	if (d->n == HP_FRAME_HDR && len_field(d) > HP_FRAME_MAX_PAYLOAD)
		return drop(d, &d->stats.bad_len, ST_SKIP);
	return HP_FRAME_NONE;
}

static enum hp_frame_event end_frame(hp_frame_dec *d)
{
	d->state = ST_OUT;
	if (d->n < HP_FRAME_HDR + HP_FRAME_CRC ||
	    len_field(d) + HP_FRAME_HDR + HP_FRAME_CRC != d->n)
		return drop(d, &d->stats.bad_len, ST_OUT);
	size_t crc_at = d->n - HP_FRAME_CRC;
	if (hp_get_le32(d->buf + crc_at) != hp_crc32(d->buf, crc_at))
		return drop(d, &d->stats.bad_crc, ST_OUT);
	d->type = d->buf[0];
	d->seq = d->buf[1];
	d->len = (uint16_t)len_field(d);
	d->stats.frames++;
	return HP_FRAME_OK;
}

enum hp_frame_event hp_frame_feed(hp_frame_dec *d, uint8_t b)
{
	if (b == HP_FRAME_START) {
		bool cut = d->state == ST_ESC || (d->state == ST_BODY && d->n);
		d->state = ST_BODY;
		d->n = 0;
		if (cut)
			return drop(d, &d->stats.aborted, ST_BODY);
		return HP_FRAME_NONE;
	}
	switch (d->state) {
	case ST_OUT:
		/* A stray end or escape marker is line noise, not text. */
		if (b == HP_FRAME_END || b == HP_FRAME_ESC)
			return HP_FRAME_NONE;
		return HP_FRAME_TEXT;
	case ST_SKIP:
		if (b == HP_FRAME_END)
			d->state = ST_OUT;
		return HP_FRAME_NONE;
	case ST_BODY:
		if (b == HP_FRAME_END)
			return end_frame(d);
		if (b == HP_FRAME_ESC) {
			d->state = ST_ESC;
			return HP_FRAME_NONE;
		}
		return body_byte(d, b);
	default: /* ST_ESC */
		if (b == HP_FRAME_ESC_START)
			return body_byte(d, HP_FRAME_START);
		if (b == HP_FRAME_ESC_END)
			return body_byte(d, HP_FRAME_END);
		if (b == HP_FRAME_ESC_ESC)
			return body_byte(d, HP_FRAME_ESC);
		return drop(d, &d->stats.bad_esc,
			    b == HP_FRAME_END ? ST_OUT : ST_SKIP);
	}
}

/* ---- varints and zero runs (frame.h) ---- */

size_t hp_varint_put(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

bool hp_varint_get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;
		/* The tenth byte holds bit 63 only. */
		if (shift == 63 && b > 1)
			return false;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return true;
		}
	}
	return false;
}

size_t hp_zrle_encode(uint8_t *out, size_t cap, const uint8_t *in, size_t n)
{
	writer w = {out, cap, 0};
	for (size_t i = 0; i < n;) {
		size_t z = 0;
		while (i + z < n && z < 128 && !in[i + z])
			z++;
		/* A lone zero costs a token of its own: keep it literal
		 * unless it ends the data. */
		if (z >= 2 || (z == 1 && i + 1 == n)) {
			put(&w, (uint8_t)(0x7f + z));
			i += z;
			continue;
		}
		size_t lit = 1;
		while (i + lit < n && lit < 128 &&
		       !(in[i + lit] == 0 && i + lit + 1 < n &&
			 in[i + lit + 1] == 0))
			lit++;
		put(&w, (uint8_t)(lit - 1));
		for (size_t k = 0; k < lit; k++)
			put(&w, in[i + k]);
		i += lit;
	}
	return w.n <= cap ? w.n : 0;
}

size_t hp_zrle_decode(const uint8_t *in, size_t avail, uint8_t *out, size_t n)
{
	size_t at = 0, got = 0;
	while (got < n) {
		if (at >= avail)
			return 0;
		uint8_t t = in[at++];
		size_t run = t < 0x80 ? (size_t)t + 1 : (size_t)t - 0x7f;
		if (run > n - got || (t < 0x80 && run > avail - at))
			return 0;
		for (size_t k = 0; k < run && out; k++)
			out[got + k] = t < 0x80 ? in[at + k] : 0;
		at += t < 0x80 ? run : 0;
		got += run;
	}
	return at;
}

size_t hp_zrle_size(const uint8_t *in, size_t avail)
{
	size_t at = 0, got = 0;
	while (at < avail) {
		uint8_t t = in[at++];
		size_t run = t < 0x80 ? (size_t)t + 1 : (size_t)t - 0x7f;
		if (t < 0x80 && run > avail - at)
			return SIZE_MAX;
		at += t < 0x80 ? run : 0;
		got += run;
	}
	return got;
}
