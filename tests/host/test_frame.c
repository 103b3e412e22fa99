// SPDX-License-Identifier: MIT
/*
 * The serial transport: the frame codec (round trips at every payload
 * size, every single-byte corruption, garbage, cut-off frames, 0xC0
 * restarts, text between frames), the agent core's answers, and the host
 * side (host/lib/serial*.c) end to end against the agent core in a thread
 * over a Unix socket: 100 KB written and read back exactly, with replies
 * lost (retransmission), console text between frames, line noise and
 * corrupted frames on the way (tests/common/serial_faults.h, in the device
 * thread: the product has no fault injection), out-of-bounds accesses
 * refused, a protocol version mismatch and a device that hangs up.
 */
#include "check.h"
#include "transport.h"
#include <errno.h>
#include <hartpool/error.h>
#include <mailbox/serial_agent.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <tests/common/serial_faults.h>
#include <time.h>
#include <unistd.h>

static uint64_t rng = 0x2545F4914F6CDD1DULL;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* Random bytes, a quarter of them frame markers. */
static void fill(uint8_t *p, size_t n)
{
	static const uint8_t marks[] = {HP_FRAME_START, HP_FRAME_END,
					HP_FRAME_ESC};
	for (size_t i = 0; i < n; i++) {
		uint32_t r = rnd();
		p[i] = r % 4 ? (uint8_t)(r >> 8) : marks[(r >> 8) % 3];
	}
}

/* ---- codec ---------------------------------------------------------- */

typedef struct {
	unsigned ok, dropped;
	size_t text_len;
	char text[256];
	/* The frames received, in order (type, seq, len, payload). */
	unsigned nframes;
	struct {
		uint8_t type, seq;
		uint16_t len;
		uint8_t payload[HP_FRAME_MAX_PAYLOAD];
	} frames[4];
} result;

static void feed(hp_frame_dec *d, const uint8_t *p, size_t n, result *r)
{
	for (size_t i = 0; i < n; i++) {
		switch (hp_frame_feed(d, p[i])) {
		case HP_FRAME_OK:
			r->ok++;
			if (r->nframes < 4) {
				r->frames[r->nframes].type = d->type;
				r->frames[r->nframes].seq = d->seq;
				r->frames[r->nframes].len = d->len;
				memcpy(r->frames[r->nframes].payload,
				       hp_frame_payload(d), d->len);
				r->nframes++;
			}
			break;
		case HP_FRAME_TEXT:
			if (r->text_len < sizeof(r->text))
				r->text[r->text_len++] = (char)p[i];
			break;
		case HP_FRAME_DROPPED:
			r->dropped++;
			break;
		case HP_FRAME_NONE:
			break;
		}
	}
}

/* Frame k of r is type/seq/payload. */
static bool same(const result *r, unsigned k, uint8_t type, uint8_t seq,
		 const uint8_t *payload, size_t len)
{
	return k < r->nframes && r->frames[k].type == type &&
	       r->frames[k].seq == seq && r->frames[k].len == len &&
	       !memcmp(r->frames[k].payload, payload, len);
}

static void test_crc(void)
{
	CHECK_EQ(hp_crc32("123456789", 9), 0xCBF43926u);
	CHECK_EQ(hp_crc32("", 0), 0);
}

static void test_round_trips(void)
{
	static uint8_t payload[HP_FRAME_MAX_PAYLOAD + 1];
	static uint8_t wire[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD + 1)];
	static hp_frame_dec d; /* one decoder for all: state carries over */
	unsigned bad = 0;
	for (size_t len = 0; len <= HP_FRAME_MAX_PAYLOAD; len++) {
		fill(payload, len);
		uint8_t type = (uint8_t)rnd(), seq = (uint8_t)rnd();
		size_t n = hp_frame_encode(wire, sizeof(wire), type, seq,
					   payload, len);
		bool ok = n >= len + 10 && n <= HP_FRAME_WIRE_MAX(len) &&
			  wire[0] == HP_FRAME_START &&
			  wire[n - 1] == HP_FRAME_END;
		for (size_t i = 1; ok && i < n - 1; i++)
			ok = wire[i] != HP_FRAME_START &&
			     wire[i] != HP_FRAME_END;
		/* The frame is complete exactly at its last byte. */
		for (size_t i = 0; ok && i < n; i++)
			ok = hp_frame_feed(&d, wire[i]) ==
			     (i == n - 1 ? HP_FRAME_OK : HP_FRAME_NONE);
		ok = ok && d.type == type && d.seq == seq && d.len == len &&
		     !memcmp(hp_frame_payload(&d), payload, len);
		bad += !ok;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(d.stats.frames, HP_FRAME_MAX_PAYLOAD + 1);
	CHECK_EQ(hp_frame_dropped(&d), 0);

	/* Worst case: every byte escaped, and it still fits the bound. */
	memset(payload, HP_FRAME_ESC, HP_FRAME_MAX_PAYLOAD);
	size_t n =
		hp_frame_encode(wire, HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD),
				1, 2, payload, HP_FRAME_MAX_PAYLOAD);
	CHECK(n > 2 * HP_FRAME_MAX_PAYLOAD);
	/* Too long a payload, too small a buffer: 0. */
	CHECK_EQ(hp_frame_encode(wire, sizeof(wire), 1, 2, payload,
				 HP_FRAME_MAX_PAYLOAD + 1),
		 0);
	CHECK_EQ(hp_frame_encode(wire, n - 1, 1, 2, payload,
				 HP_FRAME_MAX_PAYLOAD),
		 0);
	CHECK_EQ(hp_frame_encode(wire, n, 1, 2, payload, HP_FRAME_MAX_PAYLOAD),
		 n);
	n = hp_frame_encode(wire, sizeof(wire), 3, 4, NULL, 0);
	CHECK(n >= 10 && n <= HP_FRAME_WIRE_MAX(0));
}

static void test_corruption(void)
{
	uint8_t p1[40], p2[7] = "second";
	uint8_t f[HP_FRAME_WIRE_MAX(40)], g[HP_FRAME_WIRE_MAX(7)];
	uint8_t buf[sizeof(f) + sizeof(g)];
	fill(p1, sizeof(p1));
	size_t nf = hp_frame_encode(f, sizeof(f), HP_MSG_BATCH, 0xC0, p1,
				    sizeof(p1));
	size_t ng =
		hp_frame_encode(g, sizeof(g), HP_MSG_HELLO, 9, p2, sizeof(p2));
	unsigned wrong = 0, uncounted = 0;
	/* Every byte of f changed to every other value, then g: only g may
	 * come out, and inside f a drop is counted. */
	for (size_t pos = 0; pos < nf; pos++) {
		for (unsigned v = 0; v < 256; v++) {
			if (v == f[pos])
				continue;
			hp_frame_dec d = {0};
			result r = {0};
			memcpy(buf, f, nf);
			buf[pos] = (uint8_t)v;
			memcpy(buf + nf, g, ng);
			feed(&d, buf, nf + ng, &r);
			wrong += !(r.ok == 1 && same(&r, 0, HP_MSG_HELLO, 9, p2,
						     sizeof(p2)));
			uncounted += pos > 0 && pos < nf - 1 &&
				     hp_frame_dropped(&d) == 0;
		}
	}
	CHECK_EQ(wrong, 0);
	CHECK_EQ(uncounted, 0);
}

static void test_resync(void)
{
	uint8_t p[32], f[HP_FRAME_WIRE_MAX(32)], junk[3000];
	fill(p, sizeof(p));
	size_t nf = hp_frame_encode(f, sizeof(f), 0x82, 5, p, sizeof(p));

	/* Text between frames is text; frame bytes never are. */
	{
		hp_frame_dec d = {0};
		result r = {0};
		feed(&d, (const uint8_t *)"boot\n", 5, &r);
		feed(&d, f, nf, &r);
		feed(&d, (const uint8_t *)"mid", 3, &r);
		feed(&d, f, nf, &r);
		feed(&d, (const uint8_t *)"end\n", 4, &r);
		CHECK_EQ(r.ok, 2);
		CHECK_EQ(r.text_len, 12);
		CHECK(!memcmp(r.text, "boot\nmidend\n", 12));
		CHECK(same(&r, 1, 0x82, 5, p, sizeof(p)));
	}
	/* Random garbage (markers included) before every frame: each frame
	 * comes out exactly once. */
	{
		hp_frame_dec d = {0};
		result r = {0};
		unsigned bad = 0;
		for (int i = 0; i < 1000; i++) {
			size_t n = rnd() % 200;
			fill(junk, n);
			feed(&d, junk, n, &r);
			unsigned before = r.ok;
			r.nframes = 0;
			feed(&d, f, nf, &r);
			bad += r.ok != before + 1 ||
			       !same(&r, 0, 0x82, 5, p, sizeof(p));
		}
		CHECK_EQ(bad, 0);
	}
	/* Garbage inside a frame kills that frame only. */
	{
		unsigned bad = 0;
		for (int i = 0; i < 1000; i++) {
			hp_frame_dec d = {0};
			result r = {0};
			size_t cut = 1 + rnd() % (nf - 1), n = 1 + rnd() % 100;
			fill(junk, n);
			for (size_t k = 0; k < n; k++) /* no restart inside */
				junk[k] = junk[k] == HP_FRAME_START ? 0x42
								    : junk[k];
			feed(&d, f, cut, &r);
			feed(&d, junk, n, &r);
			feed(&d, f + cut, nf - cut, &r);
			CHECK(r.ok <= 1);
			r.ok = 0;
			r.nframes = 0;
			feed(&d, f, nf, &r);
			bad += r.ok != 1 || !same(&r, 0, 0x82, 5, p, sizeof(p));
		}
		CHECK_EQ(bad, 0);
	}
	/* Cut-off frames: followed by a new frame (0xC0 restarts) or by a
	 * stray end marker (bad length). */
	for (size_t cut = 1; cut < nf; cut++) {
		hp_frame_dec d = {0};
		result r = {0};
		static const uint8_t end = HP_FRAME_END;
		feed(&d, f, cut, &r);
		feed(&d, f, nf, &r);
		CHECK(r.ok == 1 && same(&r, 0, 0x82, 5, p, sizeof(p)));
		CHECK_EQ(d.stats.aborted, cut > 1);
		if (cut == nf - 1)
			continue; /* + the end marker = the whole frame */
		feed(&d, f, cut, &r);
		feed(&d, &end, 1, &r);
		CHECK_EQ(r.ok, 1);
		CHECK_EQ(hp_frame_dropped(&d), 1 + (cut > 1));
	}
	/* A length field that does not match, one no frame can have, an
	 * overlong frame, an empty one, a bad escape: each counted. */
	{
		hp_frame_dec d = {0};
		result r = {0};
		uint8_t body[HP_FRAME_HDR + 3 + HP_FRAME_CRC] = {
			0x82, 1, 4, 0, 'a', 'b', 'c'};
		hp_put_le32(body + 7, hp_crc32(body, 7));
		uint8_t w[2 + 2 * sizeof(body)];
		size_t n = 0;
		w[n++] = HP_FRAME_START;
		for (size_t i = 0; i < sizeof(body); i++) {
			if (body[i] == 0xC0 || body[i] == 0xC1 ||
			    body[i] == 0xDB) {
				w[n++] = HP_FRAME_ESC;
				w[n++] = body[i] == 0xC0   ? HP_FRAME_ESC_START
					 : body[i] == 0xC1 ? HP_FRAME_ESC_END
							   : HP_FRAME_ESC_ESC;
			} else {
				w[n++] = body[i];
			}
		}
		w[n++] = HP_FRAME_END;
		feed(&d, w, n, &r);
		CHECK_EQ(d.stats.bad_len, 1);
		/* len 0x411: more than any frame carries */
		const uint8_t huge[] = {0xC0, 1, 2, 0x11, 0x04, 0xC1};
		feed(&d, huge, sizeof(huge), &r);
		CHECK_EQ(d.stats.bad_len, 2);
		memset(junk, 'a', sizeof(junk));
		junk[0] = HP_FRAME_START;
		junk[4] = 0; /* len 0x6161 would be refused earlier */
		junk[3] = 0;
		junk[sizeof(junk) - 1] = HP_FRAME_END;
		feed(&d, junk, sizeof(junk), &r);
		CHECK_EQ(d.stats.overlong, 1);
		const uint8_t empty[] = {0xC0, 0xC1, 0xC0, 0x01,
					 0xDB, 0x41, 0x02, 0xC1};
		feed(&d, empty, sizeof(empty), &r);
		CHECK_EQ(d.stats.bad_len, 3);
		CHECK_EQ(d.stats.bad_esc, 1);
		feed(&d, f, nf, &r);
		CHECK_EQ(r.ok, 1);
		CHECK_EQ(r.text_len, 0);
		CHECK_EQ(hp_frame_dropped(&d), 5);
	}
}

/* ---- the agent over an array ----------------------------------------- */

#define MEM_BASE 0x90000000ULL
#define MEM_SIZE (256u * 1024)
#define MEM_RO 4096 /* the first 4 KB: the host may only read */
#define MBOX_ADDR (MEM_BASE + 0x40)

static uint8_t mem[MEM_SIZE];
static pthread_mutex_t mem_mu = PTHREAD_MUTEX_INITIALIZER;

static bool mem_ok(uint64_t addr, uint64_t len, bool write)
{
	uint64_t lo = write ? MEM_BASE + MEM_RO : MEM_BASE;
	return addr >= lo && addr + len <= MEM_BASE + MEM_SIZE;
}

static void mem_read(uint64_t addr, void *dst, size_t len)
{
	pthread_mutex_lock(&mem_mu);
	memcpy(dst, mem + (addr - MEM_BASE), len);
	pthread_mutex_unlock(&mem_mu);
}

/* Writes applied at COUNTED (test_window): each op exactly once. */
#define COUNTED (MEM_BASE + MEM_SIZE - 8192)
static unsigned counted_writes;

static void mem_write(uint64_t addr, const void *src, size_t len)
{
	if (addr >= COUNTED)
		__atomic_fetch_add(&counted_writes, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&mem_mu);
	memcpy(mem + (addr - MEM_BASE), src, len);
	pthread_mutex_unlock(&mem_mu);
}

static uint64_t mbox_addr(void)
{
	return MBOX_ADDR;
}

/* A clock the tests move (the agent's WAIT limits and delayed ACKs). */
static uint64_t clock_us;

static uint64_t now_us(void)
{
	return __atomic_load_n(&clock_us, __ATOMIC_RELAXED);
}

static uint64_t watched = 1;

static void watch(uint64_t addr)
{
	watched = addr;
}

/* Replies: kept here (direct tests) or sent on the socket. */
static uint8_t sent[4 * HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
static size_t sent_len;

static void send_keep(const uint8_t *wire, size_t n)
{
	CHECK(sent_len + n <= sizeof(sent));
	if (sent_len + n <= sizeof(sent)) {
		memcpy(sent + sent_len, wire, n);
		sent_len += n;
	}
}

/* A UART that may drop bytes (tx_waits false): the agent holds replies to
 * a window when the HELLO asks for one. */
static const serial_agent_ops keep_ops = {mem_ok,    mem_read,	mem_write,
					  send_keep, mbox_addr, now_us,
					  watch,     false,	NULL};

/* Feed a frame to the agent; the replies it sent are decoded into r. */
static void ask(serial_agent *a, uint8_t type, uint8_t seq, const void *p,
		size_t len, result *r)
{
	uint8_t w[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
	size_t n = hp_frame_encode(w, sizeof(w), type, seq, p, len);
	hp_frame_dec d = {0};
	*r = (result){0};
	sent_len = 0;
	CHECK(n > 0);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(serial_agent_feed(a, w[i]), i == n - 1);
	feed(&d, sent, sent_len, r);
}

/* Feed a frame to the agent, keeping what it sends after what it sent
 * before (sent, sent_len); the bytes it sent for this one. */
static size_t put(serial_agent *a, uint8_t type, uint8_t seq, const void *p,
		  size_t len)
{
	uint8_t w[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
	size_t n = hp_frame_encode(w, sizeof(w), type, seq, p, len),
	       at = sent_len;
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(serial_agent_feed(a, w[i]), i == n - 1);
	return sent_len - at;
}

/* A CREDIT: the host took @p taken bytes (HP_CREDIT_RESYNC in @p flags). */
static size_t credit(serial_agent *a, uint16_t taken, uint8_t flags)
{
	uint8_t c[HP_MSG_CREDIT_LEN] = {(uint8_t)taken, (uint8_t)(taken >> 8)};
	return put(a, HP_MSG_CREDIT, flags, c, sizeof(c));
}

/* HELLO's payload. */
static void hello_p(uint8_t *p, uint32_t version, uint32_t host,
		    uint32_t window)
{
	hp_put_le32(p, version);
	hp_put_le32(p + 4, host);
	hp_put_le32(p + 8, window);
}

/* serial_agent_idle() after the clock moved @p us; replies into r. */
static void idle(serial_agent *a, uint64_t us, result *r)
{
	hp_frame_dec d = {0};
	*r = (result){0};
	sent_len = 0;
	clock_us += us;
	serial_agent_idle(a);
	feed(&d, sent, sent_len, r);
}

static bool naked(const result *r, uint32_t detail)
{
	const uint8_t *p = r->frames[0].payload;
	return r->ok == 1 && r->frames[0].type == HP_MSG_NAK &&
	       r->frames[0].len == HP_MSG_NAK_LEN &&
	       (int32_t)hp_get_le32(p) == HP_INVALID_VALUE &&
	       hp_get_le32(p + 4) == detail;
}

/* DATA for seq with these bytes (zero-run decoded). */
static bool data_is(const result *r, unsigned k, uint8_t seq, const void *b,
		    size_t n)
{
	static uint8_t got[HP_SERIAL_DATA_MAX];
	return k < r->nframes && r->frames[k].type == HP_MSG_DATA &&
	       r->frames[k].seq == seq &&
	       hp_zrle_size(r->frames[k].payload, r->frames[k].len) == n &&
	       hp_zrle_decode(r->frames[k].payload, r->frames[k].len, got, n) ==
		       r->frames[k].len &&
	       !memcmp(got, b, n);
}

static bool acked(const result *r, uint8_t seq)
{
	return r->ok == 1 && r->frames[0].type == HP_MSG_ACK &&
	       r->frames[0].seq == seq && r->frames[0].len == 0;
}

/* A BATCH under construction. */
typedef struct {
	uint8_t p[HP_FRAME_MAX_PAYLOAD + 64];
	size_t n;
} batch_t;

static void op_addr(batch_t *b, uint8_t kind, uint64_t addr)
{
	b->p[b->n++] = kind;
	b->n += hp_varint_put(b->p + b->n, addr ^ MBOX_ADDR);
}

static void op_write(batch_t *b, uint64_t addr, const void *src, size_t len)
{
	op_addr(b, HP_OP_WRITE, addr);
	b->n += hp_varint_put(b->p + b->n, len);
	b->n += hp_zrle_encode(b->p + b->n, sizeof(b->p) - b->n, src, len);
}

static void op_read(batch_t *b, uint64_t addr, size_t len)
{
	op_addr(b, HP_OP_READ, addr);
	b->n += hp_varint_put(b->p + b->n, len);
}

static void op_wait(batch_t *b, uint64_t addr, uint64_t min, size_t len,
		    uint64_t ms)
{
	op_addr(b, HP_OP_WAIT, addr);
	b->n += hp_varint_put(b->p + b->n, min);
	b->n += hp_varint_put(b->p + b->n, len);
	b->n += hp_varint_put(b->p + b->n, ms);
}

/* ---- the tests' line faults (tests/common/serial_faults.h) ----------- */

static uint8_t fault_out[2][64 * 1024];
static size_t fault_len[2];

static void fault_put(void *ctx, const uint8_t *p, size_t n)
{
	unsigned k = (unsigned)(uintptr_t)ctx;
	CHECK(fault_len[k] + n <= sizeof(fault_out[k]));
	if (fault_len[k] + n <= sizeof(fault_out[k]))
		memcpy(fault_out[k] + fault_len[k], p, n);
	fault_len[k] += n;
}

/* 200 frames with console text between them through the faults, whole
 * and in pieces of 1 to 50 bytes: the same bytes either way (the seed
 * alone decides); every frame not corrupted decoded, in order; without
 * noise the bytes as many as before and the text unchanged, with noise
 * @p noise more before each frame. */
static void test_faults(unsigned noise, unsigned drop)
{
	static uint8_t in[48 * 1024];
	size_t n = 0;
	char text[8192];
	size_t text_len = 0;
	for (unsigned i = 0; i < 200; i++) {
		uint8_t payload[300];
		size_t len = rnd() % sizeof(payload);
		fill(payload, len);
		int k = snprintf((char *)in + n, 16, "t%u\n", i);
		memcpy(text + text_len, in + n, (size_t)k);
		text_len += (size_t)k;
		n += (size_t)k;
		n += hp_frame_encode(in + n, sizeof(in) - n, HP_MSG_BATCH,
				     (uint8_t)i, payload, len);
	}
	serial_faults f;
	uint64_t corrupted = 0;
	for (unsigned way = 0; way < 2; way++) {
		serial_faults_init(&f, noise, drop, 7);
		fault_len[way] = 0;
		for (size_t at = 0, k; at < n; at += k) {
			k = way ? 1 + rnd() % 50 : n;
			k = k < n - at ? k : n - at;
			serial_faults_feed(&f, in + at, k, fault_put,
					   (void *)(uintptr_t)way);
		}
		serial_faults_flush(&f, fault_put, (void *)(uintptr_t)way);
		CHECK_EQ(f.frames, noise || drop ? 200 : 0);
		CHECK_EQ(f.noise_bytes, 200 * noise);
		corrupted = f.corrupted;
	}
	CHECK_EQ(fault_len[0], fault_len[1]);
	CHECK(!memcmp(fault_out[0], fault_out[1], fault_len[0]));
	CHECK_EQ(fault_len[0], n + 200 * noise);
	CHECK(drop ? corrupted > 200 / drop / 2 && corrupted < 400 / drop
		   : corrupted == 0);
	hp_frame_dec d;
	hp_frame_dec_init(&d);
	unsigned ok = 0, last = 0;
	bool order = true;
	size_t seen = 0;
	bool same_text = true;
	for (size_t i = 0; i < fault_len[0]; i++) {
		enum hp_frame_event ev = hp_frame_feed(&d, fault_out[0][i]);
		if (ev == HP_FRAME_OK) {
			order = order && (!ok || d.seq > last);
			last = d.seq;
			ok++;
		} else if (ev == HP_FRAME_TEXT && !noise) {
			same_text = same_text && seen < text_len &&
				    text[seen] == (char)fault_out[0][i];
			seen++;
		}
	}
	CHECK_EQ(ok, 200 - corrupted);
	CHECK(order);
	CHECK(noise || (same_text && seen == text_len));
}

static void test_codecs(void)
{
	/* Varints: every length, and the malformed. */
	uint8_t v[HP_VARINT_MAX + 2];
	static const uint64_t vals[] = {0, 1, 127, 128, 300, 1ull << 35, ~0ull};
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		size_t n = hp_varint_put(v, vals[i]);
		const uint8_t *p = v;
		uint64_t x = 1;
		CHECK(n >= 1 && n <= HP_VARINT_MAX);
		CHECK(hp_varint_get(&p, v + n, &x) && x == vals[i] &&
		      p == v + n);
		p = v;
		CHECK(n == 1 || !hp_varint_get(&p, v + n - 1, &x));
	}
	memset(v, 0xff, sizeof(v)); /* over 64 bits */
	const uint8_t *p = v;
	uint64_t x;
	CHECK(!hp_varint_get(&p, v + sizeof(v), &x));
	/* Zero runs: random data with runs of zeroes, every length. */
	static uint8_t in[3000], enc[HP_ZRLE_MAX(3000)], out[3000];
	unsigned bad = 0;
	for (size_t n = 0; n <= sizeof(in); n += 1 + n / 8) {
		fill(in, n);
		for (size_t i = 0; i < n; i++)
			in[i] = (rnd() % 3) ? 0 : in[i];
		size_t e = hp_zrle_encode(enc, sizeof(enc), in, n);
		bad += (n && !e) || e > HP_ZRLE_MAX(n) ||
		       hp_zrle_size(enc, e) != n ||
		       hp_zrle_decode(enc, e, out, n) != e ||
		       memcmp(in, out, n) ||
		       (n && hp_zrle_decode(enc, e - 1, out, n) != 0) ||
		       (n > 1 && hp_zrle_decode(enc, e, out, n - 1) == e);
	}
	CHECK_EQ(bad, 0);
	memset(in, 0, 512);
	CHECK(hp_zrle_encode(enc, sizeof(enc), in, 512) == 4); /* 4 tokens */
	CHECK_EQ(hp_zrle_encode(enc, 3, in, 512), 0);
	const uint8_t cut[] = {0x05, 1, 2}; /* 6 literals, 2 there */
	CHECK_EQ(hp_zrle_size(cut, sizeof(cut)), SIZE_MAX);
}

static void test_agent(void)
{
	static serial_agent a;
	static uint8_t data[HP_SERIAL_DATA_MAX], zero[64];
	result r;
	batch_t b;
	uint8_t p[16];
	serial_agent_setup(&a, &keep_ops);
	const uint64_t w0 = MEM_BASE + MEM_RO + 1;

	/* No session yet: a BATCH is refused. */
	b.n = 0;
	op_read(&b, w0, 4);
	ask(&a, HP_MSG_BATCH, 1, b.p, b.n, &r);
	CHECK(naked(&r, 0));

	/* Another version (its first word only is read: a version 2 host
	 * sends 4 bytes) learns ours; a HELLO of our version but another
	 * length, or too short to have one, is refused. */
	hp_put_le32(p, HP_SERIAL_VERSION + 1);
	ask(&a, HP_MSG_HELLO, 0, p, 4, &r);
	CHECK(naked(&r, HP_SERIAL_VERSION));
	hp_put_le32(p, 2);
	ask(&a, HP_MSG_HELLO, 0, p, 4, &r);
	CHECK(naked(&r, HP_SERIAL_VERSION));
	ask(&a, HP_MSG_HELLO, 0, p, 3, &r);
	CHECK(naked(&r, 0));
	hello_p(p, HP_SERIAL_VERSION, 0x1234, 0);
	ask(&a, HP_MSG_HELLO, 0, p, HP_MSG_HELLO_LEN - 1, &r);
	CHECK(naked(&r, 0));
	CHECK_EQ(a.hosts, 0);
	ask(&a, HP_MSG_HELLO, 0, p, HP_MSG_HELLO_LEN, &r);
	CHECK_EQ(r.frames[0].type, HP_MSG_HELLO_ACK);
	CHECK_EQ(r.frames[0].len, HP_MSG_HELLO_ACK_LEN);
	CHECK_EQ(hp_get_le32(r.frames[0].payload), HP_SERIAL_VERSION);
	CHECK_EQ(hp_get_le32(r.frames[0].payload + 4), HP_SERIAL_WINDOW);
	CHECK_EQ(hp_get_le64(r.frames[0].payload + 8), MBOX_ADDR);
	CHECK_EQ(hp_get_le32(r.frames[0].payload + 16), 0x1234);
	CHECK_EQ(hp_get_le32(r.frames[0].payload + 20), 0); /* no window */
	CHECK_EQ(a.hosts, 1);
	/* Without a window a CREDIT is noise: no answer. */
	ask(&a, HP_MSG_CREDIT, 0, "\x05\x00", 2, &r);
	CHECK_EQ(r.ok, 0);

	/* seq 1: a write alone is acknowledged later (cumulatively): after
	 * the delay, or with the next reply. */
	fill(data, sizeof(data));
	b.n = 0;
	op_write(&b, w0, data, sizeof(data));
	ask(&a, HP_MSG_BATCH, 1, b.p, b.n, &r);
	CHECK_EQ(r.ok, 0);
	CHECK(!memcmp(mem + MEM_RO + 1, data, sizeof(data)));
	idle(&a, SERIAL_AGENT_ACK_DELAY_US - 1, &r);
	CHECK_EQ(r.ok, 0);
	idle(&a, 1, &r);
	CHECK(acked(&r, 1));
	/* seq 2: two writes and a read in one frame, in order. */
	b.n = 0;
	op_write(&b, w0, "abcd", 4);
	op_write(&b, w0 + 2, "XY", 2);
	op_read(&b, w0, 6);
	ask(&a, HP_MSG_BATCH, 2, b.p, b.n, &r);
	CHECK_EQ(r.ok, 1);
	CHECK(data_is(&r, 0, 2,
		      (const uint8_t[]){'a', 'b', 'X', 'Y', data[4], data[5]},
		      6));
	idle(&a, SERIAL_AGENT_ACK_DELAY_US, &r); /* the DATA acknowledged */
	CHECK_EQ(r.ok, 0);

	/* Refused frames change nothing, even their valid ops before the
	 * bad one; the NAK names the op. */
	uint8_t before[16];
	memcpy(before, mem + MEM_RO + 1, sizeof(before));
	uint8_t seq = 3;
#define REFUSED(op_index, ...)                                                 \
	do {                                                                   \
		b.n = 0;                                                       \
		op_write(&b, w0, "zzzz", 4);                                   \
		__VA_ARGS__;                                                   \
		ask(&a, HP_MSG_BATCH, seq, b.p, b.n, &r);                      \
		CHECK_MSG(naked(&r, op_index), "seq %u", seq);                 \
		CHECK(!memcmp(mem + MEM_RO + 1, before, sizeof(before)));      \
		seq++;                                                         \
	} while (0)
	REFUSED(1, op_read(&b, w0, HP_SERIAL_DATA_MAX + 1));
	REFUSED(1, op_read(&b, MEM_BASE + MEM_SIZE - 3, 4));
	REFUSED(1, op_read(&b, ~0ull - 1, 4));
	REFUSED(1, op_read(&b, w0, 0));
	REFUSED(1, op_write(&b, MEM_BASE + 8, "ro", 2));    /* host read-only */
	REFUSED(1, b.p[b.n++] = 0x7f);			    /* no such op */
	REFUSED(1, op_read(&b, w0, 4); b.n--);		    /* cut short */
	REFUSED(2, op_read(&b, w0, 4); op_read(&b, w0, 4)); /* not last */
	REFUSED(1, op_write(&b, w0, "abcdef", 6); b.n -= 2); /* data short */
	REFUSED(1, op_wait(&b, w0, 1, 8, 10));		     /* unaligned */
	REFUSED(1, op_wait(&b, MEM_BASE + MEM_RO + 8, 1, 7, 10));
	REFUSED(1, op_wait(&b, MEM_BASE + MEM_RO + 8, 1, 8,
			   HP_SERIAL_WAIT_MAX_MS + 1));
	CHECK_EQ(a.refused, 5 + 12);
	ask(&a, HP_MSG_HELLO_ACK, seq, p, 4, &r); /* a reply is no request */
	CHECK(naked(&r, 0));

	/* A retransmission (seq behind): not applied again, answered again
	 * (a write frame with an ACK of the last frame applied). */
	b.n = 0;
	op_write(&b, w0, zero, 8);
	ask(&a, HP_MSG_BATCH, 1, b.p, b.n, &r);
	CHECK(acked(&r, (uint8_t)(seq - 1)));
	CHECK(!memcmp(mem + MEM_RO + 1, before, sizeof(before)));
	b.n = 0;
	op_read(&b, w0, 6);
	ask(&a, HP_MSG_BATCH, 2, b.p, b.n, &r);
	CHECK(data_is(&r, 0, 2, before, 6));
	CHECK_EQ(a.duplicates, 2);

	/* A frame lost: the next ones are dropped, with one GAP, until it
	 * comes again; then they apply in order. */
	batch_t b1 = {.n = 0}, b2 = {.n = 0}, b3 = {.n = 0};
	op_write(&b1, w0, "1111", 4);
	op_write(&b2, w0 + 1, "22", 2);
	op_write(&b3, w0 + 2, "3", 1);
	op_read(&b3, w0, 4);
	ask(&a, HP_MSG_BATCH, (uint8_t)(seq + 1), b2.p, b2.n, &r);
	CHECK(r.ok == 1 && r.frames[0].type == HP_MSG_GAP &&
	      r.frames[0].len == 1 && r.frames[0].payload[0] == seq);
	ask(&a, HP_MSG_BATCH, (uint8_t)(seq + 2), b3.p, b3.n, &r);
	CHECK_EQ(r.ok, 0); /* said once */
	CHECK(!memcmp(mem + MEM_RO + 1, before, sizeof(before)));
	ask(&a, HP_MSG_BATCH, seq, b1.p, b1.n, &r);
	ask(&a, HP_MSG_BATCH, (uint8_t)(seq + 1), b2.p, b2.n, &r);
	ask(&a, HP_MSG_BATCH, (uint8_t)(seq + 2), b3.p, b3.n, &r);
	CHECK(data_is(&r, 0, (uint8_t)(seq + 2), "1231", 4));
	CHECK_EQ(a.gaps, 2);
	seq += 3;

	/* WAIT: answered when the word comes up (with all its bytes, and the
	 * watch set meanwhile), or at its time limit with the word alone. */
	const uint64_t wa = MEM_BASE + MEM_RO + 64;
	uint8_t rec[32];
	fill(rec, sizeof(rec));
	hp_put_le64(rec, 5);
	memcpy(mem + MEM_RO + 64, rec, sizeof(rec));
	b.n = 0;
	op_write(&b, w0, "w", 1);
	op_wait(&b, wa, 6, sizeof(rec), 10);
	ask(&a, HP_MSG_BATCH, seq, b.p, b.n, &r);
	CHECK_EQ(r.ok, 0);
	CHECK_EQ(watched, wa);
	CHECK_EQ(mem[MEM_RO + 1], 'w');
	idle(&a, 5000, &r);
	CHECK_EQ(r.ok, 0);
	/* Its retransmission is not answered twice. */
	ask(&a, HP_MSG_BATCH, seq, b.p, b.n, &r);
	CHECK_EQ(r.ok, 0);
	hp_put_le64(rec, 6);
	memcpy(mem + MEM_RO + 64, rec, sizeof(rec));
	idle(&a, 0, &r);
	CHECK(r.ok == 1 && data_is(&r, 0, seq, rec, sizeof(rec)));
	CHECK_EQ(watched, 0);
	seq++;
	b.n = 0;
	op_wait(&b, wa, 7, sizeof(rec), 10);
	ask(&a, HP_MSG_BATCH, seq, b.p, b.n, &r);
	CHECK_EQ(r.ok, 0);
	idle(&a, 9999, &r);
	CHECK_EQ(r.ok, 0);
	idle(&a, 1, &r);
	CHECK(r.ok == 1 && data_is(&r, 0, seq, rec, 8));
	seq++;
	/* One already up is answered at once; a second WAIT answers the
	 * first with what it has. */
	b.n = 0;
	op_wait(&b, wa, 6, 16, 0);
	ask(&a, HP_MSG_BATCH, seq, b.p, b.n, &r);
	CHECK(r.ok == 1 && data_is(&r, 0, seq, rec, 16));
	seq++;
	b.n = 0;
	op_wait(&b, wa, 9, 16, 1000);
	ask(&a, HP_MSG_BATCH, seq, b.p, b.n, &r);
	CHECK_EQ(r.ok, 0);
	ask(&a, HP_MSG_BATCH, (uint8_t)(seq + 1), b.p, b.n, &r);
	CHECK(r.ok == 1 && data_is(&r, 0, seq, rec, 8));
	seq += 2;
	/* Enough writes unacknowledged: an ACK at once. */
	for (unsigned i = 0; i < SERIAL_AGENT_ACK_EVERY; i++) {
		b.n = 0;
		op_write(&b, w0, "k", 1);
		ask(&a, HP_MSG_BATCH, seq++, b.p, b.n, &r);
		CHECK_EQ(r.ok, i + 1 == SERIAL_AGENT_ACK_EVERY);
	}
	CHECK(acked(&r, (uint8_t)(seq - 1)));
	/* A new HELLO starts over: seq 1 is new again. The same host's
	 * HELLO again is no new host; another host's is. */
	hello_p(p, HP_SERIAL_VERSION, 0x1234, 0);
	ask(&a, HP_MSG_HELLO, 0, p, HP_MSG_HELLO_LEN, &r);
	CHECK_EQ(a.hosts, 1);
	b.n = 0;
	op_read(&b, w0, 1);
	ask(&a, HP_MSG_BATCH, 1, b.p, b.n, &r);
	CHECK(data_is(&r, 0, 1, "k", 1));
	hello_p(p, HP_SERIAL_VERSION, 0x4321, 0);
	ask(&a, HP_MSG_HELLO, 200, p, HP_MSG_HELLO_LEN, &r);
	CHECK(r.ok == 1 && r.frames[0].type == HP_MSG_HELLO_ACK &&
	      r.frames[0].seq == 200);
	CHECK_EQ(a.hosts, 2);
	ask(&a, HP_MSG_BATCH, 201, b.p, b.n, &r);
	CHECK(data_is(&r, 0, 201, "k", 1));
	memset(mem, 0, sizeof(mem));
}

/* The host's receive window: replies held, sent on as CREDITs come, never
 * more than the window unanswered; RESYNC; what a new host's HELLO does to
 * what was held; a UART that waits holds nothing; a hold that is full
 * drops whole replies. */
static void test_agent_credit(void)
{
	static serial_agent a;
	static uint8_t data[600];
	result r;
	batch_t b;
	uint8_t p[16];
	const uint64_t w0 = MEM_BASE + MEM_RO + 1;
	fill(data, sizeof(data));
	memcpy(mem + MEM_RO + 1, data, sizeof(data));
	serial_agent_setup(&a, &keep_ops);
	sent_len = 0;

	/* A window of 64: the HELLO_ACK at once (outside it). */
	hello_p(p, HP_SERIAL_VERSION, 7, 64);
	ask(&a, HP_MSG_HELLO, 10, p, HP_MSG_HELLO_LEN, &r);
	CHECK(r.ok == 1 && r.frames[0].type == HP_MSG_HELLO_ACK);
	CHECK_EQ(hp_get_le32(r.frames[0].payload + 20), 64);
	/* 500 bytes (a DATA of ~520: random data, a quarter of it markers,
	 * escaped): 64 of it now, then as much as each CREDIT frees. */
	sent_len = 0;
	b.n = 0;
	op_read(&b, w0, 500);
	CHECK_EQ(put(&a, HP_MSG_BATCH, 11, b.p, b.n), 64);
	CHECK_EQ(a.held, 1);
	CHECK_EQ(credit(&a, 32, 0), 32);
	CHECK_EQ(credit(&a, 32, 0), 0);	   /* the same count again */
	CHECK_EQ(credit(&a, 20, 0), 0);	   /* behind */
	CHECK_EQ(credit(&a, 96, 0), 64);   /* all taken: a window more */
	CHECK_EQ(credit(&a, 5000, 0), 64); /* past what was sent: as much */
	CHECK_EQ(put(&a, HP_MSG_CREDIT, 0, "\xff\xff\x00", 3), 0);
	/* A frame taken meanwhile: its reply waits behind the held one. */
	b.n = 0;
	op_read(&b, w0 + 500, 8);
	CHECK_EQ(put(&a, HP_MSG_BATCH, 12, b.p, b.n), 0);
	CHECK_EQ(a.held, 2);
	unsigned credits = 0;
	while (a.hold_len && credits < 100) {
		credit(&a, (uint16_t)sent_len, 0);
		credits++;
		CHECK(sent_len - a.taken <= 64);
	}
	CHECK_EQ(a.hold_len, 0);
	CHECK(credits > 5);
	hp_frame_dec d = {0};
	r = (result){0};
	feed(&d, sent, sent_len, &r);
	CHECK(r.ok == 2 && data_is(&r, 0, 11, data, 500) &&
	      data_is(&r, 1, 12, data + 500, 8));
	CHECK_EQ(hp_frame_dropped(&d), 0);
	CHECK_EQ(credit(&a, (uint16_t)sent_len, 0), 0);

	/* RESYNC: the host took 10 bytes of the next 64 (the rest lost):
	 * counting goes on from its number, a whole window free. */
	uint16_t base = (uint16_t)sent_len;
	sent_len = 0;
	b.n = 0;
	op_read(&b, w0, 300);
	CHECK_EQ(put(&a, HP_MSG_BATCH, 13, b.p, b.n), 64);
	CHECK_EQ(credit(&a, (uint16_t)(base + 10), HP_CREDIT_RESYNC), 64);
	CHECK_EQ(credit(&a, (uint16_t)(base + 10 + 64), 0), 64);
	CHECK_EQ(credit(&a, (uint16_t)(base + 10 + 64), HP_CREDIT_RESYNC), 64);

	/* A new host: the HELLO_ACK at once, what was held for the last
	 * host dropped, the window its own (none). */
	CHECK(a.hold_len > 0);
	hello_p(p, HP_SERIAL_VERSION, 8, 0);
	ask(&a, HP_MSG_HELLO, 20, p, HP_MSG_HELLO_LEN, &r);
	CHECK(r.ok == 1 && r.frames[0].type == HP_MSG_HELLO_ACK &&
	      hp_get_le32(r.frames[0].payload + 20) == 0);
	CHECK_EQ(a.hold_len, 0);
	CHECK_EQ(a.hosts, 2);
	b.n = 0;
	op_read(&b, w0, 500);
	ask(&a, HP_MSG_BATCH, 21, b.p, b.n, &r);
	CHECK(data_is(&r, 0, 21, data, 500));
	/* A window over the most: held to the most. */
	hello_p(p, HP_SERIAL_VERSION, 8, 1u << 20);
	ask(&a, HP_MSG_HELLO, 30, p, HP_MSG_HELLO_LEN, &r);
	CHECK_EQ(hp_get_le32(r.frames[0].payload + 20), HP_SERIAL_CREDIT_MAX);
	CHECK_EQ(a.hosts, 2);

	/* The hold full (a window of 1, nothing taken): a reply that does
	 * not fit is dropped whole, counted. */
	hello_p(p, HP_SERIAL_VERSION, 9, 1);
	ask(&a, HP_MSG_HELLO, 40, p, HP_MSG_HELLO_LEN, &r);
	sent_len = 0;
	uint8_t seq = 41;
	b.n = 0;
	op_read(&b, w0, HP_SERIAL_DATA_MAX);
	for (unsigned i = 0; i < 100 && !a.overflows; i++)
		put(&a, HP_MSG_BATCH, i ? (uint8_t)(seq - 1) : seq++, b.p, b.n);
	CHECK_EQ(sent_len, 1);
	CHECK(a.overflows >= 1);
	CHECK(a.hold_len <= sizeof(a.hold));

	/* A UART that waits: no window, whatever the host asks. */
	static const serial_agent_ops waits = {mem_ok,	  mem_read,  mem_write,
					       send_keep, mbox_addr, now_us,
					       watch,	  true,	     NULL};
	serial_agent_setup(&a, &waits);
	hello_p(p, HP_SERIAL_VERSION, 7, 64);
	ask(&a, HP_MSG_HELLO, 0, p, HP_MSG_HELLO_LEN, &r);
	CHECK_EQ(hp_get_le32(r.frames[0].payload + 20), 0);
	b.n = 0;
	op_read(&b, w0, 500);
	ask(&a, HP_MSG_BATCH, 1, b.p, b.n, &r);
	CHECK(data_is(&r, 0, 1, data, 500));
	memset(mem, 0, sizeof(mem));
	sent_len = 0;
}

/* ---- host/lib/serial*.c against the agent over a Unix socket --------- */

static char sock_dir[] = "/tmp/hp-test-frame-XXXXXX";
static char sock_path[64];
static int dev_fd = -1; /* the device's end: only the device thread */
static unsigned replies;
static char text_sent[16384], text_seen[16384];
static size_t text_sent_len, text_seen_len;
/* Bytes the device read and sent: what the host's counts must say. */
static uint64_t dev_rx, dev_tx;

/* A lost write shows on the host's side; the host may also be gone when a
 * fake device answers a retransmitted HELLO. */
static void dev_write(const void *p, size_t n)
{
	ssize_t w = send(dev_fd, p, n, MSG_NOSIGNAL);
	if (w > 0)
		__atomic_fetch_add(&dev_tx, (uint64_t)w, __ATOMIC_RELAXED);
}

static void dev_text(const char *s)
{
	size_t n = strlen(s);
	if (text_sent_len + n <= sizeof(text_sent)) {
		memcpy(text_sent + text_sent_len, s, n);
		text_sent_len += n;
	}
	dev_write(s, n);
}

/* Every 37th reply is lost (the host must send again); every 5th comes
 * after a line of console text. */
static void send_sock(const uint8_t *wire, size_t n)
{
	unsigned k = ++replies;
	if (k % 37 == 0)
		return;
	if (k % 5 == 0) {
		char line[32];
		snprintf(line, sizeof(line), "device: reply %u\n", k);
		dev_text(line);
	}
	dev_write(wire, n);
}

/* QEMU 7.2's SiFive UART on its socket (DEV_LOSSY): every byte is a
 * write of its own, and one the socket has no room for is dropped
 * (counted in dev_dropped: what the window must prevent). Every 25th
 * frame comes after a line of console text (between frames: before the
 * frame's start marker). Before it, not after: text after the last frame
 * the host waits for may still be in the socket when it closes. */
static uint64_t dev_dropped;
static unsigned lossy_frames;

static void lossy_bytes(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (send(dev_fd, p + i, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1)
			__atomic_fetch_add(&dev_tx, 1, __ATOMIC_RELAXED);
		/* (Not when the host is gone: a link that failed sends its
		 * next calls' frames and closes, and the answers to them
		 * find no socket; that is no overflow.) */
		else if (errno == EAGAIN || errno == EWOULDBLOCK)
			__atomic_fetch_add(&dev_dropped, 1, __ATOMIC_RELAXED);
	}
}

static void send_lossy(const uint8_t *wire, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (wire[i] == HP_FRAME_START && ++lossy_frames % 25 == 0) {
			char line[32];
			snprintf(line, sizeof(line), "dev %u\n", lossy_frames);
			size_t k = strlen(line);
			if (text_sent_len + k <= sizeof(text_sent)) {
				memcpy(text_sent + text_sent_len, line, k);
				text_sent_len += k;
			}
			lossy_bytes((const uint8_t *)line, k);
		}
		lossy_bytes(wire + i, 1);
	}
}

/* A host slow to read (DEV_LOSSY): each line of console text costs it
 * this long. */
static unsigned console_sleep_us;

static void console(void *ctx, const char *s, size_t n)
{
	CHECK(ctx == &text_seen);
	if (console_sleep_us)
		usleep(console_sleep_us);
	if (text_seen_len + n <= sizeof(text_seen)) {
		memcpy(text_seen + text_seen_len, s, n);
		text_seen_len += n;
	}
}

/* The line between the host and the device (set before start()): noise
 * before every frame to the device, and one frame in `drop` corrupted each
 * way, as tests/e2e/serial_relay.c does in front of QEMU. */
static unsigned line_noise, line_drop;
static serial_faults to_dev, to_host;

/* The device's replies through the line's faults to @p send. */
static void (*reply_send)(const uint8_t *wire, size_t n);

static void reply_out(void *ctx, const uint8_t *p, size_t n)
{
	(void)ctx;
	reply_send(p, n);
}

/* test_broken_replies: the next broken_left frames to the host come with
 * their seq byte changed (their CRC fails), in pieces or whole. */
static unsigned broken_left;
static unsigned broken_pos; /* body bytes of the frame so far, from 1 */
static bool broken_hit;

static void send_faulty(const uint8_t *wire, size_t n)
{
	uint8_t buf[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
	if (!__atomic_load_n(&broken_left, __ATOMIC_RELAXED) && !broken_pos) {
		serial_faults_feed(&to_host, wire, n, reply_out, NULL);
		return;
	}
	CHECK(n <= sizeof(buf));
	n = n < sizeof(buf) ? n : sizeof(buf);
	memcpy(buf, wire, n);
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == HP_FRAME_START) {
			broken_pos = 1;
			broken_hit = __atomic_load_n(&broken_left,
						     __ATOMIC_RELAXED) > 0;
			if (broken_hit)
				__atomic_fetch_sub(&broken_left, 1,
						   __ATOMIC_RELAXED);
		} else if (broken_pos && buf[i] == HP_FRAME_END) {
			broken_pos = 0;
		} else if (broken_pos && ++broken_pos == 3 && broken_hit) {
			buf[i] = buf[i] == 0x55 ? 0xAA : 0x55;
		}
	}
	serial_faults_feed(&to_host, buf, n, reply_out, NULL);
}

/* DEV_AGENT: the agent on a UART that waits (whole frames, written
 * blocking; every 37th reply lost, every 5th after console text);
 * DEV_LOSSY: on one that drops (send_lossy), holding replies to the
 * host's window; DEV_STALE: DEV_LOSSY, and a dead host's replies come
 * before the HELLO_ACK (a HELLO_ACK for another host and a NAK with the
 * HELLO's seq); the others answer the first frame in their own way. */
enum dev_mode {
	DEV_AGENT,
	DEV_LOSSY,
	DEV_STALE,
	DEV_VERSION_NAK,
	DEV_VERSION_ACK,
	DEV_HANG_UP
};

typedef struct {
	int listen_fd;
	enum dev_mode mode;
	unsigned dropped;   /* by the agent's decoder */
	unsigned corrupted; /* frames the line corrupted, both ways */
	unsigned held;	    /* replies the agent held for the host's window */
	unsigned hosts;	    /* sessions new hosts started */
} device;

/* A fake device: answers the first frame in its own way. */
static void fake(device *dv, const uint8_t *p, size_t n, hp_frame_dec *d)
{
	for (size_t i = 0; i < n; i++) {
		if (hp_frame_feed(d, p[i]) != HP_FRAME_OK)
			continue;
		uint8_t r[HP_MSG_HELLO_ACK_LEN] = {0},
			w[HP_FRAME_WIRE_MAX(HP_MSG_HELLO_ACK_LEN)];
		uint8_t type = HP_MSG_HELLO_ACK;
		size_t len = HP_MSG_HELLO_ACK_LEN;
		if (dv->mode == DEV_VERSION_NAK) {
			type = HP_MSG_NAK;
			len = HP_MSG_NAK_LEN;
			hp_put_le32(r, (uint32_t)HP_INVALID_VALUE);
			hp_put_le32(r + 4, 7);
		} else if (dv->mode == DEV_VERSION_ACK) {
			/* A version 9 device: its own layout. */
			hp_put_le32(r, 9);
			len = 16;
		} else if (d->len >= 8) {
			hp_put_le32(r, HP_SERIAL_VERSION);
			hp_put_le32(r + 16,
				    hp_get_le32(hp_frame_payload(d) + 4));
		}
		dev_write(w,
			  hp_frame_encode(w, sizeof(w), type, d->seq, r, len));
	}
}

static uint64_t real_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* DEV_STALE: before the agent sees the HELLO that ends at @p buf[i], what
 * a dead host's session left on the line for it. */
static void stale_replies(const hp_frame_dec *d)
{
	static bool once;
	/* For the first HELLO only: a second NAK would be the device's. */
	if (once)
		return;
	once = true;
	uint8_t r[HP_MSG_HELLO_ACK_LEN] = {0}, w[HP_FRAME_WIRE_MAX(24)];
	hp_put_le32(r, HP_SERIAL_VERSION);
	hp_put_le32(r + 16, hp_get_le32(hp_frame_payload(d) + 4) ^ 1);
	dev_write(w, hp_frame_encode(w, sizeof(w), HP_MSG_HELLO_ACK, d->seq, r,
				     sizeof(r)));
	hp_put_le32(r, (uint32_t)HP_INVALID_VALUE);
	hp_put_le32(r + 4, 1);
	dev_write(w, hp_frame_encode(w, sizeof(w), HP_MSG_NAK, d->seq, r,
				     HP_MSG_NAK_LEN));
}

static serial_agent agent_core;
static hp_frame_dec hellos;

/* Bytes for the agent, through the line's faults. */
static void agent_in(void *ctx, const uint8_t *buf, size_t n)
{
	const device *dv = ctx;
	for (size_t i = 0; i < n; i++) {
		if (dv->mode == DEV_STALE &&
		    hp_frame_feed(&hellos, buf[i]) == HP_FRAME_OK &&
		    hellos.type == HP_MSG_HELLO && hellos.len >= 8)
			stale_replies(&hellos);
		serial_agent_feed(&agent_core, buf[i]);
	}
}

static void *device_main(void *arg)
{
	device *dv = arg;
	serial_agent *a = &agent_core;
	static const serial_agent_ops ops = {mem_ok,	  mem_read,  mem_write,
					     send_faulty, mbox_addr, real_us,
					     NULL,	  true,	     NULL};
	static const serial_agent_ops lossy = {
		mem_ok,	 mem_read, mem_write, send_faulty, mbox_addr,
		real_us, NULL,	   false,     NULL};
	bool agent = dv->mode <= DEV_STALE;
	hp_frame_dec d = {0};
	uint8_t buf[1500];
	ssize_t n;
	dev_fd = accept(dv->listen_fd, NULL, NULL);
	CHECK(dev_fd >= 0);
	hp_frame_dec_init(&hellos);
	serial_faults_init(&to_dev, line_noise, line_drop, 1);
	serial_faults_init(&to_host, 0, line_drop, 2);
	reply_send = dv->mode == DEV_AGENT ? send_sock : send_lossy;
	serial_agent_setup(a, dv->mode == DEV_AGENT ? &ops : &lossy);
	lossy_frames = 0;
	dev_dropped = 0;
	dev_text("hartpool: booted\n");
	for (;;) {
		/* As the firmware: the agent's idle work when no bytes come
		 * (delayed ACKs, WAITs), every millisecond. */
		struct pollfd pfd = {.fd = dev_fd, .events = POLLIN};
		if (poll(&pfd, 1, 1) == 0) {
			serial_agent_idle(a);
			continue;
		}
		if ((n = read(dev_fd, buf, sizeof(buf))) <= 0)
			break;
		__atomic_fetch_add(&dev_rx, (uint64_t)n, __ATOMIC_RELAXED);
		if (agent)
			serial_faults_feed(&to_dev, buf, (size_t)n, agent_in,
					   dv);
		if (agent)
			serial_agent_idle(a);
		else
			fake(dv, buf, (size_t)n, &d);
		if (dv->mode == DEV_HANG_UP && d.stats.frames)
			break;
	}
	dv->dropped = hp_frame_dropped(&a->dec);
	dv->held = a->held;
	dv->hosts = a->hosts;
	dv->corrupted = (unsigned)(to_dev.corrupted + to_host.corrupted);
	close(dev_fd);
	return NULL;
}

/* What the last start() returned. */
static int start_rc;

/* @p opts: the connect string's options after the socket's path. */
static hp_transport *start_opts(device *dv, enum dev_mode mode,
				const char *opts, pthread_t *th, char *err,
				size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	unlink(sock_path);
	*dv = (device){.mode = mode};
	dv->listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(dv->listen_fd >= 0);
	CHECK_EQ(bind(dv->listen_fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	CHECK_EQ(listen(dv->listen_fd, 1), 0);
	text_sent_len = text_seen_len = 0;
	dev_rx = dev_tx = 0;
	pthread_create(th, NULL, device_main, dv);
	hp_transport *t = NULL;
	char spec[128];
	snprintf(spec, sizeof(spec), "%s%s", sock_path, opts);
	start_rc = hp_transport_serial_open(spec, console, &text_seen, &t, err,
					    errlen);
	CHECK(start_rc ? t == NULL : t != NULL);
	return t;
}

static hp_transport *start(device *dv, enum dev_mode mode, pthread_t *th,
			   char *err, size_t errlen)
{
	return start_opts(dv, mode, "", th, err, errlen);
}

static void stop(device *dv, hp_transport *t, pthread_t th)
{
	if (t)
		t->ops->close(t);
	pthread_join(th, NULL);
	close(dv->listen_fd);
	unlink(sock_path);
}

/* @p noise: bytes of line noise before every frame to the device; @p opts:
 * "" (as fast as the socket goes) or a baud rate (paced). */
static void test_link(unsigned noise, const char *opts)
{
	static uint8_t out[100 * 1024 + 17], in[sizeof(out)];
	device dv;
	pthread_t th;
	char err[256] = "";
	line_noise = noise;
	line_drop = 0;
	hp_transport *t =
		start_opts(&dv, DEV_AGENT, opts, &th, err, sizeof(err));
	CHECK(t != NULL);
	if (!t) {
		fprintf(stderr, "open: %s\n", err);
		stop(&dv, t, th);
		return;
	}
	CHECK_EQ(t->mbox_addr, MBOX_ADDR);

	/* 100 KB at an odd address: written, read back, and in memory. */
	uint64_t at = MEM_BASE + MEM_RO + 3;
	fill(out, sizeof(out));
	CHECK_EQ(t->ops->write(t, at, out, sizeof(out)), 0);
	CHECK_EQ(t->ops->read(t, at, in, sizeof(in)), 0);
	CHECK(!memcmp(in, out, sizeof(out)));
	pthread_mutex_lock(&mem_mu);
	CHECK(!memcmp(mem + MEM_RO + 3, out, sizeof(out)));
	pthread_mutex_unlock(&mem_mu);
	CHECK_EQ(t->ops->read(t, at, in, 0), 0);

	/* Out of bounds: refused with a message, memory untouched. A read
	 * says so itself; a short write waits in the open frame, so the
	 * call that sends it (here a read) says so. */
	t->err[0] = 0;
	CHECK_EQ(t->ops->read(t, MEM_BASE + MEM_SIZE - 10, in, 20),
		 HP_INVALID_VALUE);
	CHECK(strstr(t->err, "refused the read of 20 bytes") != NULL);
	CHECK(strstr(t->err, "HP_INVALID_VALUE") != NULL);
	CHECK_EQ(t->ops->write(t, MEM_BASE - 1, out, 2), 0);
	CHECK_EQ(t->ops->read(t, at, in, 4), HP_INVALID_VALUE);
	CHECK_MSG(strstr(t->err,
			 "refused the write of 2 bytes at 0x8fffffff") != NULL,
		  "%s", t->err);
	CHECK_EQ(t->ops->read(t, at, in, 4), 0); /* said once */
	CHECK_EQ(t->ops->write(t, MEM_BASE + 16, out, 4), 0);
	CHECK_EQ(t->ops->flush(t), 0);
	CHECK_EQ(t->ops->read(t, at, in, 4), HP_INVALID_VALUE);
	CHECK_EQ(t->ops->write(t, ~0ULL - 1, out, 4), 0);
	CHECK_EQ(t->ops->read(t, at, in, 4), HP_INVALID_VALUE);
	/* A long write is answered before it returns: its own error. */
	CHECK_EQ(t->ops->write(t, MEM_BASE + 8, out, 1000), HP_INVALID_VALUE);
	/* 1030 bytes in, 10 past the end: the second piece is refused. */
	CHECK_EQ(t->ops->read(t, MEM_BASE + MEM_SIZE - 1030, in, 1040),
		 HP_INVALID_VALUE);
	pthread_mutex_lock(&mem_mu);
	CHECK_EQ(mem[16], 0);
	pthread_mutex_unlock(&mem_mu);

	/* The host counted every byte the device read and sent (console
	 * text too; the noise is the line's, after the host), and the frames:
	 * 101 pieces of 1 KiB each way, the refused ones, HELLO; each 37th
	 * reply was lost, so some went again. */
	uint64_t out_bytes = t->bytes_out, in_bytes = t->bytes_in;
	uint64_t frames = t->frames_out, retries = t->retries;
	CHECK_EQ(t->baud, opts[0] ? 4000000 : 0);
	stop(&dv, t, th);
	CHECK_EQ(out_bytes, dev_rx);
	CHECK_EQ(in_bytes, dev_tx);
	CHECK(out_bytes > sizeof(out) + 100 * 8);
	CHECK(in_bytes > sizeof(out) + 100 * 8);
	CHECK(frames - retries >= 2 * 101 + 1);
	CHECK(frames - retries <= 2 * 101 + 20);
	CHECK(retries >= 1);
	printf("link with %u bytes of noise a frame%s: %u replies so far, "
	       "agent dropped %u frames; %llu bytes out, %llu in, %llu "
	       "requests, %llu sent again\n",
	       noise, opts, replies, dv.dropped, (unsigned long long)out_bytes,
	       (unsigned long long)in_bytes, (unsigned long long)frames,
	       (unsigned long long)retries);
	/* The console saw exactly the device's text, in order. */
	CHECK_EQ(text_seen_len, text_sent_len);
	CHECK(!memcmp(text_seen, text_sent, text_sent_len));
	CHECK(text_sent_len > 100);
	/* With noise, the agent dropped many broken frames and still
	 * answered every request. */
	CHECK(noise ? dv.dropped > 100 : dv.dropped == 0);
	line_noise = 0;
	memset(mem, 0, sizeof(mem));
}

/* Many frames in flight (posted writes, as packets are published), with
 * one frame in @p drop corrupted on the way each way (requests and
 * CREDITs the device drops, replies the host drops) on top of the device
 * losing every 37th reply: every write applied exactly once and in order,
 * reads exact, and the window went back to resend. */
static void test_window(unsigned drop, enum dev_mode mode)
{
	enum { N = 200 };
	static uint64_t back[N];
	device dv;
	pthread_t th;
	char err[256] = "";
	line_noise = 0;
	line_drop = drop;
	counted_writes = 0;
	hp_transport *t = start(&dv, mode, &th, err, sizeof(err));
	line_drop = 0;
	CHECK(t != NULL);
	if (!t)
		return;
	unsigned bad = 0;
	for (uint64_t i = 0; i < N; i++) {
		/* Each slot twice: the second value must win (order). */
		uint64_t v = i * 3 + 1, w = v + 1;
		bad += t->ops->write(t, COUNTED + i * 8, &v, 8) != 0;
		bad += t->ops->write(t, COUNTED + i * 8, &w, 8) != 0;
		bad += t->ops->flush(t) != 0;
	}
	CHECK_EQ(bad, 0);
	CHECK_MSG(t->ops->read(t, COUNTED, back, sizeof(back)) == 0, "%s",
		  t->err);
	for (uint64_t i = 0; i < N; i++)
		bad += back[i] != i * 3 + 2;
	CHECK_EQ(bad, 0);
	/* A WAIT on a word already up: answered at once, and the reads of
	 * its bytes come from its answer (no frame for them). */
	uint64_t firsts = t->frames_out - t->retries, got[4];
	CHECK_MSG(t->ops->wait(t, COUNTED + 8, 4, sizeof(got), 50) == 0, "%s",
		  t->err);
	CHECK_EQ(t->frames_out - t->retries, firsts + 1);
	uint64_t f1 = t->frames_out;
	CHECK_EQ(t->ops->read(t, COUNTED + 8, got, 8), 0);
	CHECK_EQ(t->ops->read(t, COUNTED + 8, got, sizeof(got)), 0);
	CHECK_EQ(t->frames_out, f1);
	CHECK(got[0] == 5 && got[1] == 8 && got[3] == 14);
	/* Not up: the word alone, after the time asked for. */
	CHECK_MSG(t->ops->wait(t, COUNTED + 8, 6, sizeof(got), 20) == 0, "%s",
		  t->err);
	got[0] = 0;
	CHECK_EQ(t->ops->read(t, COUNTED + 8, got, 8), 0);
	CHECK_EQ(got[0], 5);
	uint64_t retries = t->retries;
	stop(&dv, t, th);
	/* Exactly once: N * 2 write ops at COUNTED, none applied twice. */
	CHECK_EQ(counted_writes, 2 * N);
	CHECK(!drop || (retries > 0 && dv.corrupted > 0));
	/* Lost CREDITs (probed again) and silences (RESYNC) never let the
	 * device overflow its socket. */
	CHECK_EQ(dev_dropped, 0);
	printf("window%s, one frame in %u corrupted each way (%u): %u "
	       "frames sent again, agent dropped %u frames, held %u "
	       "replies\n",
	       mode == DEV_LOSSY ? " (lossy UART)" : "", drop, dv.corrupted,
	       (unsigned)retries, dv.dropped, dv.held);
	memset(mem, 0, sizeof(mem));
}

/* Replies that come broken (hit on the line: their CRC fails) show the
 * device answering: the host asks for them again at once, not after the
 * try's time, so a READ and a WAIT whose answers come broken 8 times in a
 * row (nothing else lost) are answered within TRIES (8) tries. Waiting
 * out a try for each broken answer had run out of tries ("no reply from
 * the device ... after 8 tries over 25.6 s"): test_window's one frame in
 * 4 corrupted each way did that now and then to its last round trips. */
static void test_broken_replies(enum dev_mode mode)
{
	static const uint64_t v[4] = {7, 11, 13, 17};
	uint64_t got[4] = {0};
	device dv;
	pthread_t th;
	char err[256] = "";
	line_noise = line_drop = 0;
	hp_transport *t = start(&dv, mode, &th, err, sizeof(err));
	CHECK_MSG(t != NULL, "%s", err);
	if (!t) {
		stop(&dv, t, th);
		return;
	}
	pthread_mutex_lock(&mem_mu);
	memcpy(mem + (COUNTED - MEM_BASE), v, sizeof(v));
	pthread_mutex_unlock(&mem_mu);
	uint64_t r0 = t->retries;
	__atomic_store_n(&broken_left, 8, __ATOMIC_RELAXED);
	CHECK_MSG(t->ops->read(t, COUNTED, got, sizeof(got)) == 0, "%s",
		  t->err);
	CHECK(!memcmp(got, v, sizeof(v)));
	CHECK_EQ(__atomic_load_n(&broken_left, __ATOMIC_RELAXED), 0);
	uint64_t r1 = t->retries;
	/* A WAIT on a word already up (answered at once), the same; the
	 * reads of its bytes come from its answer. */
	__atomic_store_n(&broken_left, 8, __ATOMIC_RELAXED);
	CHECK_MSG(t->ops->wait(t, COUNTED, 7, sizeof(got), 50) == 0, "%s",
		  t->err);
	memset(got, 0, sizeof(got));
	CHECK_EQ(t->ops->read(t, COUNTED, got, sizeof(got)), 0);
	CHECK(!memcmp(got, v, sizeof(v)));
	CHECK_EQ(__atomic_load_n(&broken_left, __ATOMIC_RELAXED), 0);
	uint64_t r2 = t->retries;
	stop(&dv, t, th);
	/* Each asked for 8 times again at least (more if a reply to them
	 * was lost besides: DEV_AGENT loses every 37th). */
	CHECK(r1 - r0 >= 8);
	CHECK(r2 - r1 >= 8);
	CHECK_EQ(dev_dropped, 0);
	printf("broken replies%s: a READ and a WAIT answered broken 8 times "
	       "each: asked again %llu and %llu times\n",
	       mode == DEV_LOSSY ? " (lossy UART)" : "",
	       (unsigned long long)(r1 - r0), (unsigned long long)(r2 - r1));
	memset(mem, 0, sizeof(mem));
}

/* One-byte writes a Unix socket takes before it is full (QEMU's UARTs
 * write a byte at a time): the host's socket window must stay under it. */
static unsigned socket_bytes(void)
{
	int sv[2];
	unsigned n = 0;
	CHECK_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	while (send(sv[0], "x", 1, MSG_DONTWAIT) == 1)
		n++;
	close(sv[0]);
	close(sv[1]);
	return n;
}

/* QEMU 7.2's SiFive UART (DEV_LOSSY: a byte the socket has no room for is
 * dropped) and a host slow to read (@p sleep_us per line of console
 * text): the device holds its replies to the host's window, so not one
 * byte is dropped and nothing is sent again; 64 KB written and read back
 * exactly, the console text whole. @p opts: as test_link's. */
static void test_lossy(const char *opts, unsigned sleep_us)
{
	static uint8_t out[64 * 1024 + 5], in[sizeof(out)];
	device dv;
	pthread_t th;
	char err[256] = "";
	unsigned room = socket_bytes();
	CHECK_MSG(room >= 192 + 48,
		  "a Unix socket takes %u one-byte writes: the socket "
		  "window (192) is too large for this kernel",
		  room);
	console_sleep_us = sleep_us;
	hp_transport *t =
		start_opts(&dv, DEV_LOSSY, opts, &th, err, sizeof(err));
	CHECK(t != NULL);
	if (!t) {
		fprintf(stderr, "open: %s\n", err);
		stop(&dv, t, th);
		console_sleep_us = 0;
		return;
	}
	uint64_t at = MEM_BASE + MEM_RO + 3;
	fill(out, sizeof(out));
	CHECK_EQ(t->ops->write(t, at, out, sizeof(out)), 0);
	CHECK_MSG(t->ops->read(t, at, in, sizeof(in)) == 0, "%s", t->err);
	CHECK(!memcmp(in, out, sizeof(out)));
	uint64_t retries = t->retries, frames = t->frames_out;
	stop(&dv, t, th);
	console_sleep_us = 0;
	CHECK_EQ(dev_dropped, 0);
	CHECK_EQ(retries, 0);
	CHECK(dv.held > 10);
	CHECK_EQ(dv.hosts, 1);
	CHECK_EQ(text_seen_len, text_sent_len);
	CHECK(!memcmp(text_seen, text_sent, text_sent_len));
	printf("lossy UART%s, host %u us slow a line: %u bytes a socket "
	       "takes, %u replies held, %llu requests, %llu "
	       "sent again, %llu bytes dropped\n",
	       opts, sleep_us, room, dv.held, (unsigned long long)frames,
	       (unsigned long long)retries, (unsigned long long)dev_dropped);
	memset(mem, 0, sizeof(mem));
}

/* A dead host's replies on the line before the HELLO_ACK (DEV_STALE): a
 * HELLO_ACK naming another host and a NAK with the HELLO's seq. The host
 * takes neither: it asks again after the NAK and is served. */
static void test_stale(void)
{
	device dv;
	pthread_t th;
	char err[256] = "";
	uint8_t b[8];
	hp_transport *t = start(&dv, DEV_STALE, &th, err, sizeof(err));
	CHECK_MSG(t != NULL, "%s", err);
	if (!t) {
		stop(&dv, t, th);
		return;
	}
	CHECK_EQ(t->ops->write(t, MEM_BASE + MEM_RO, "stale ok", 8), 0);
	CHECK_EQ(t->ops->read(t, MEM_BASE + MEM_RO, b, 8), 0);
	CHECK(!memcmp(b, "stale ok", 8));
	CHECK_EQ(t->mbox_addr, MBOX_ADDR);
	stop(&dv, t, th);
	/* Its HELLO twice (after the NAK): one host. */
	CHECK_EQ(dv.hosts, 1);
	memset(mem, 0, sizeof(mem));
}

static void test_link_errors(void)
{
	device dv;
	pthread_t th;
	char err[256];

	hp_transport *t = start(&dv, DEV_VERSION_NAK, &th, err, sizeof(err));
	CHECK(t == NULL);
	CHECK_EQ(start_rc, HP_INVALID_VALUE);
	CHECK(strstr(err, "version 7, this host speaks version 3") != NULL);
	stop(&dv, t, th);

	t = start(&dv, DEV_VERSION_ACK, &th, err, sizeof(err));
	CHECK(t == NULL);
	CHECK_EQ(start_rc, HP_INVALID_VALUE);
	CHECK(strstr(err, "version 9, this host speaks version 3") != NULL);
	stop(&dv, t, th);

	t = start(&dv, DEV_HANG_UP, &th, err, sizeof(err));
	CHECK(t != NULL);
	if (t) {
		uint8_t b[4];
		pthread_join(th, NULL);
		CHECK_EQ(t->ops->read(t, MEM_BASE, b, 4),
			 HP_DEVICE_NOT_AVAILABLE);
		CHECK(strstr(t->err, "hung up") != NULL);
		t->ops->close(t);
		close(dv.listen_fd);
		unlink(sock_path);
	}

	t = NULL;
	CHECK_EQ(hp_transport_serial_open("/nonexistent/dev", NULL, NULL, &t,
					  err, sizeof(err)),
		 HP_DEVICE_NOT_FOUND);
	CHECK(t == NULL);
	CHECK_MSG(strstr(err, "/nonexistent/dev: No such file") != NULL, "%s",
		  err);
}

int main(void)
{
	test_crc();
	test_round_trips();
	test_corruption();
	test_resync();
	test_codecs();
	test_faults(0, 0);
	test_faults(0, 5);
	test_faults(40, 0);
	test_faults(24, 4);
	test_agent();
	test_agent_credit();

	CHECK(mkdtemp(sock_dir) != NULL);
	snprintf(sock_path, sizeof(sock_path), "%s/dev", sock_dir);
	test_link(0, "");
	test_link(200, "");
	/* Paced to 4 Mbaud: 0.5 s of line time (no time is checked). */
	test_link(0, ",baud=4000000");
	test_window(0, DEV_AGENT);
	test_window(10, DEV_AGENT);
	test_window(4, DEV_AGENT);
	test_window(4, DEV_LOSSY);
	test_broken_replies(DEV_AGENT);
	test_broken_replies(DEV_LOSSY);
	test_lossy("", 0);
	test_lossy("", 20000);
	test_lossy(",baud=2000000", 0);
	test_stale();
	test_link_errors();
	rmdir(sock_dir);
	return check_report("test_frame");
}
