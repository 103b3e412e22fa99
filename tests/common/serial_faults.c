// SPDX-License-Identifier: MIT
/* Line faults for the serial link's tests (serial_faults.h). */
#include "serial_faults.h"
#include <string.h>

void serial_faults_init(serial_faults *f, unsigned noise, unsigned drop,
			uint64_t seed)
{
	memset(f, 0, sizeof(*f));
	f->noise = noise;
	f->drop = drop;
	/* Any seed (0 too) gives a well-mixed non-zero state. */
	f->rng = seed * 0x9E3779B97F4A7C15ULL + 0xD1B54A32D192ED03ULL;
	f->rng = f->rng ? f->rng : 1;
}

static uint64_t rnd(serial_faults *f)
{
	/* xorshift64* */
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * 0x2545F4914F6CDD1DULL;
}

/* The noise before the frame held, in pieces through a small buffer. */
static void noise(serial_faults *f, serial_faults_out out, void *ctx)
{
	static const uint8_t marks[] = {HP_FRAME_START, HP_FRAME_END,
					HP_FRAME_ESC};
	uint8_t buf[256];
	size_t left = f->noise, at = 0;
	while (left) {
		uint64_t r = rnd(f);
		unsigned kind = r % 8;
		size_t k = 1;
		if (kind == 0 && f->len > 2 && left > 1) {
			/* The start and some body, never the end marker,
			 * with one byte changed. */
			size_t cut = 2 + (r >> 8) % (f->len - 2);
			cut = cut < left ? cut : left;
			if (at)
				out(ctx, buf, at);
			at = 0;
			size_t where = 1 + (r >> 32) % (cut - 1);
			uint8_t saved = f->frame[where];
			f->frame[where] ^= (uint8_t)(1 + (r >> 48) % 255);
			out(ctx, f->frame, cut);
			f->frame[where] = saved;
			k = cut;
		} else {
			buf[at++] = kind >= 1 && kind <= 3 ? marks[kind - 1]
							   : (uint8_t)(r >> 8);
			if (at == sizeof(buf)) {
				out(ctx, buf, at);
				at = 0;
			}
		}
		left -= k;
	}
	if (at)
		out(ctx, buf, at);
	f->noise_bytes += f->noise;
}

/* The frame held is whole (start to end marker): noise, then the frame,
 * corrupted one time in f->drop. */
static void frame_out(serial_faults *f, serial_faults_out out, void *ctx)
{
	f->frames++;
	if (f->noise)
		noise(f, out, ctx);
	if (f->drop && rnd(f) % f->drop == 0) {
		/* One body byte changed, never into a marker. */
		uint8_t *b = &f->frame[f->len / 2];
		*b = *b == 0x55 ? 0xAA : 0x55;
		f->corrupted++;
	}
	out(ctx, f->frame, f->len);
	f->len = 0;
	f->in_frame = false;
}

void serial_faults_flush(serial_faults *f, serial_faults_out out, void *ctx)
{
	if (f->len && f->noise)
		out(ctx, f->frame, f->len);
	f->len = 0;
	f->in_frame = false;
}

/* Without noise, nothing is held: a frame may come in pieces that wait
 * for the receiver (a device holding its replies to the host's window
 * sends what the window has room for), so its bytes go on as they come,
 * one of a frame chosen for corruption changed on the way: the seq byte
 * (a frame's bytes 1 to 8 are never markers). */
static void stream(serial_faults *f, const uint8_t *p, size_t n,
		   serial_faults_out out, void *ctx)
{
	uint8_t buf[1024];
	while (n) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);
		memcpy(buf, p, k);
		for (size_t i = 0; i < k; i++) {
			if (buf[i] == HP_FRAME_START) {
				f->frames++;
				f->in_frame = true;
				f->len = 0;
				f->hit = rnd(f) % f->drop == 0;
				continue;
			}
			if (!f->in_frame)
				continue;
			f->in_frame = buf[i] != HP_FRAME_END;
			if (++f->len == 2 && f->hit && f->in_frame) {
				buf[i] = buf[i] == 0x55 ? 0xAA : 0x55;
				f->corrupted++;
			}
		}
		out(ctx, buf, k);
		p += k;
		n -= k;
	}
}

void serial_faults_feed(serial_faults *f, const uint8_t *p, size_t n,
			serial_faults_out out, void *ctx)
{
	if (!f->noise && !f->drop) {
		out(ctx, p, n);
		return;
	}
	if (!f->noise) {
		stream(f, p, n, out, ctx);
		return;
	}
	size_t text = 0; /* start of the text run at p[text..i) */
	for (size_t i = 0; i < n; i++) {
		uint8_t b = p[i];
		if (!f->in_frame && b != HP_FRAME_START)
			continue;
		if (!f->in_frame) {
			/* Text up to here goes first. */
			if (i > text)
				out(ctx, p + text, i - text);
			f->in_frame = true;
			f->len = 0;
		} else if (b == HP_FRAME_START) {
			/* A new start inside a frame: what came is cut off,
			 * and goes as it is. */
			serial_faults_flush(f, out, ctx);
			f->in_frame = true;
		}
		if (f->len == sizeof(f->frame)) {
			/* Longer than any frame: not one; pass it on. */
			serial_faults_flush(f, out, ctx);
			text = i;
			continue;
		}
		f->frame[f->len++] = b;
		if (b == HP_FRAME_END)
			frame_out(f, out, ctx);
		text = i + 1;
	}
	if (!f->in_frame && n > text)
		out(ctx, p + text, n - text);
}
