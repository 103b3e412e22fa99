// SPDX-License-Identifier: MIT
/*
 * The serial transport: the frame codec (round trips at every payload
 * size, every single-byte corruption, garbage, cut-off frames, 0xC0
 * restarts, text between frames), the agent core's answers, and the host
 * side (host/lib/serial.c) end to end against the agent core in a thread
 * over a Unix socket: 100 KB written and read back exactly, with replies
 * lost (retransmission), console text between frames, line noise from
 * HP_SERIAL_GARBAGE, out-of-bounds accesses refused, a protocol version
 * mismatch and a device that hangs up.
 */
#include "check.h"
#include "transport.h"
#include <hartpool/error.h>
#include <mailbox/serial_agent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
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
	size_t nf = hp_frame_encode(f, sizeof(f), HP_MSG_WRITE, 0xC0, p1,
				    sizeof(p1));
	size_t ng =
		hp_frame_encode(g, sizeof(g), HP_MSG_READ, 9, p2, sizeof(p2));
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
			wrong += !(r.ok == 1 &&
				   same(&r, 0, HP_MSG_READ, 9, p2, sizeof(p2)));
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

static void mem_write(uint64_t addr, const void *src, size_t len)
{
	pthread_mutex_lock(&mem_mu);
	memcpy(mem + (addr - MEM_BASE), src, len);
	pthread_mutex_unlock(&mem_mu);
}

static uint64_t mbox_addr(void)
{
	return MBOX_ADDR;
}

/* Replies: kept here (direct tests) or sent on the socket. */
static uint8_t sent[HP_FRAME_WIRE_MAX(HP_SERIAL_DATA_MAX)];
static size_t sent_len;

static void send_keep(const uint8_t *wire, size_t n)
{
	memcpy(sent, wire, n);
	sent_len = n;
}

static const serial_agent_ops keep_ops = {mem_ok, mem_read, mem_write,
					  send_keep, mbox_addr};

/* Ask the agent directly; the reply is decoded into r. */
static void ask(serial_agent *a, uint8_t type, uint8_t seq, const void *p,
		size_t len, result *r)
{
	uint8_t w[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
	size_t n = hp_frame_encode(w, sizeof(w), type, seq, p, len);
	hp_frame_dec d = {0};
	*r = (result){0};
	sent_len = 0;
	for (size_t i = 0; i < n; i++)
		CHECK_EQ(serial_agent_feed(a, w[i]), i == n - 1);
	feed(&d, sent, sent_len, r);
	CHECK_EQ(r->ok, 1);
	CHECK_EQ(r->frames[0].seq, seq);
}

static bool naked(const result *r, uint32_t detail)
{
	const uint8_t *p = r->frames[0].payload;
	return r->frames[0].type == HP_MSG_NAK &&
	       r->frames[0].len == HP_MSG_NAK_LEN &&
	       (int32_t)hp_get_le32(p) == HP_INVALID_VALUE &&
	       hp_get_le32(p + 4) == detail;
}

static void test_agent(void)
{
	static serial_agent a;
	result r;
	uint8_t p[HP_MSG_WRITE_HDR + HP_SERIAL_DATA_MAX + 1];
	serial_agent_setup(&a, &keep_ops);

	hp_put_le32(p, HP_SERIAL_VERSION);
	ask(&a, HP_MSG_HELLO, 7, p, 4, &r);
	CHECK_EQ(r.frames[0].type, HP_MSG_HELLO_ACK);
	CHECK_EQ(r.frames[0].len, HP_MSG_HELLO_ACK_LEN);
	CHECK_EQ(hp_get_le32(r.frames[0].payload), HP_SERIAL_VERSION);
	CHECK_EQ(hp_get_le64(r.frames[0].payload + 8), MBOX_ADDR);
	hp_put_le32(p, HP_SERIAL_VERSION + 1);
	ask(&a, HP_MSG_HELLO, 8, p, 4, &r);
	CHECK(naked(&r, HP_SERIAL_VERSION));
	ask(&a, HP_MSG_HELLO, 9, p, 5, &r);
	CHECK(naked(&r, 0));

	/* Write then read back; in bounds and out. */
	hp_put_le64(p, MEM_BASE + MEM_RO + 1);
	fill(p + 8, HP_SERIAL_DATA_MAX);
	ask(&a, HP_MSG_WRITE, 10, p, 8 + HP_SERIAL_DATA_MAX, &r);
	CHECK_EQ(r.frames[0].type, HP_MSG_ACK);
	CHECK_EQ(r.frames[0].len, 4);
	CHECK_EQ(hp_get_le32(r.frames[0].payload), 0);
	CHECK(!memcmp(mem + MEM_RO + 1, p + 8, HP_SERIAL_DATA_MAX));
	uint8_t q[HP_MSG_READ_LEN];
	hp_put_le64(q, MEM_BASE + MEM_RO + 1);
	hp_put_le32(q + 8, HP_SERIAL_DATA_MAX);
	ask(&a, HP_MSG_READ, 11, q, sizeof(q), &r);
	CHECK(same(&r, 0, HP_MSG_DATA, 11, p + 8, HP_SERIAL_DATA_MAX));
	hp_put_le32(q + 8, HP_SERIAL_DATA_MAX + 1); /* too long */
	ask(&a, HP_MSG_READ, 12, q, sizeof(q), &r);
	CHECK(naked(&r, 0));
	hp_put_le64(q, MEM_BASE + MEM_SIZE - 3); /* past the end */
	hp_put_le32(q + 8, 4);
	ask(&a, HP_MSG_READ, 13, q, sizeof(q), &r);
	CHECK(naked(&r, 0));
	hp_put_le64(q, ~0ULL - 1); /* wraps */
	ask(&a, HP_MSG_READ, 14, q, sizeof(q), &r);
	CHECK(naked(&r, 0));
	ask(&a, HP_MSG_READ, 15, q, sizeof(q) - 1, &r); /* malformed */
	CHECK(naked(&r, 0));
	hp_put_le64(p, MEM_BASE + 8); /* read-only for the host */
	ask(&a, HP_MSG_WRITE, 16, p, 8 + 4, &r);
	CHECK(naked(&r, 0));
	CHECK_EQ(mem[8], 0);
	ask(&a, HP_MSG_WRITE, 17, p, 7, &r); /* no address */
	CHECK(naked(&r, 0));
	ask(&a, 0x7f, 18, p, 4, &r);
	CHECK(naked(&r, 0));
	ask(&a, HP_MSG_HELLO_ACK, 19, p, 16, &r); /* a reply is no request */
	CHECK(naked(&r, 0));
	CHECK_EQ(a.requests, 13);
	CHECK_EQ(a.refused, 10);
}

/* ---- host/lib/serial.c against the agent over a Unix socket ---------- */

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

static void console(void *ctx, const char *s, size_t n)
{
	CHECK(ctx == &text_seen);
	if (text_seen_len + n <= sizeof(text_seen)) {
		memcpy(text_seen + text_seen_len, s, n);
		text_seen_len += n;
	}
}

enum dev_mode { DEV_AGENT, DEV_VERSION_NAK, DEV_VERSION_ACK, DEV_HANG_UP };

typedef struct {
	int listen_fd;
	enum dev_mode mode;
	unsigned dropped; /* by the agent's decoder */
} device;

/* A fake device: answers the first frame in its own way. */
static void fake(device *dv, const uint8_t *p, size_t n, hp_frame_dec *d)
{
	for (size_t i = 0; i < n; i++) {
		if (hp_frame_feed(d, p[i]) != HP_FRAME_OK)
			continue;
		uint8_t r[16] = {0}, w[HP_FRAME_WIRE_MAX(16)];
		uint8_t type = HP_MSG_HELLO_ACK;
		if (dv->mode == DEV_VERSION_NAK) {
			type = HP_MSG_NAK;
			hp_put_le32(r, (uint32_t)HP_INVALID_VALUE);
			hp_put_le32(r + 4, 7);
		} else {
			hp_put_le32(r, dv->mode == DEV_VERSION_ACK ? 9 : 1);
		}
		dev_write(w, hp_frame_encode(w, sizeof(w), type, d->seq, r,
					     type == HP_MSG_NAK ? 8 : 16));
	}
}

static void *device_main(void *arg)
{
	device *dv = arg;
	static serial_agent a;
	static const serial_agent_ops ops = {mem_ok, mem_read, mem_write,
					     send_sock, mbox_addr};
	hp_frame_dec d = {0};
	uint8_t buf[1500];
	ssize_t n;
	dev_fd = accept(dv->listen_fd, NULL, NULL);
	CHECK(dev_fd >= 0);
	serial_agent_setup(&a, &ops);
	dev_text("hartpool: booted\n");
	while ((n = read(dev_fd, buf, sizeof(buf))) > 0) {
		__atomic_fetch_add(&dev_rx, (uint64_t)n, __ATOMIC_RELAXED);
		if (dv->mode == DEV_AGENT)
			for (ssize_t i = 0; i < n; i++)
				serial_agent_feed(&a, buf[i]);
		else
			fake(dv, buf, (size_t)n, &d);
		if (dv->mode == DEV_HANG_UP && d.stats.frames)
			break;
	}
	dv->dropped = hp_frame_dropped(&a.dec);
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

/* @p opts: "" (as fast as the socket goes) or a baud rate (paced). */
static void test_link(const char *garbage, const char *opts)
{
	static uint8_t out[100 * 1024 + 17], in[sizeof(out)];
	device dv;
	pthread_t th;
	char err[256] = "";
	if (garbage)
		setenv("HP_SERIAL_GARBAGE", garbage, 1);
	else
		unsetenv("HP_SERIAL_GARBAGE");
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

	/* Out of bounds: refused with a message, memory untouched. */
	t->err[0] = 0;
	CHECK_EQ(t->ops->read(t, MEM_BASE + MEM_SIZE - 10, in, 20),
		 HP_INVALID_VALUE);
	CHECK(strstr(t->err, "refused the read of 20 bytes") != NULL);
	CHECK(strstr(t->err, "HP_INVALID_VALUE") != NULL);
	CHECK_EQ(t->ops->write(t, MEM_BASE - 1, out, 2), HP_INVALID_VALUE);
	CHECK_EQ(t->ops->write(t, MEM_BASE + 16, out, 4), HP_INVALID_VALUE);
	CHECK_EQ(t->ops->write(t, ~0ULL - 1, out, 4), HP_INVALID_VALUE);
	/* 1030 bytes in, 10 past the end: the second piece is refused. */
	CHECK_EQ(t->ops->read(t, MEM_BASE + MEM_SIZE - 1030, in, 1040),
		 HP_INVALID_VALUE);
	pthread_mutex_lock(&mem_mu);
	CHECK_EQ(mem[16], 0);
	pthread_mutex_unlock(&mem_mu);

	/* The host counted every byte the device read and sent (noise and
	 * console text too), and the requests: 101 pieces of 1 KiB each
	 * way, 6 refused requests, HELLO; each 37th reply was lost, so a
	 * few went twice. */
	uint64_t out_bytes = t->bytes_out, in_bytes = t->bytes_in;
	uint64_t frames = t->frames_out, retries = t->retries;
	CHECK_EQ(t->baud, opts[0] ? 4000000 : 0);
	stop(&dv, t, th);
	CHECK_EQ(out_bytes, dev_rx);
	CHECK_EQ(in_bytes, dev_tx);
	CHECK(out_bytes > sizeof(out) + 100 * 20);
	CHECK(in_bytes > sizeof(out) + 100 * 20);
	CHECK_EQ(frames - retries, 2 * 101 + 6 + 1);
	CHECK(retries >= (frames - retries) / 37 - 1);
	printf("link%s%s%s: %u replies so far, agent dropped %u frames; "
	       "%llu bytes out, %llu in, %llu requests, %llu sent again\n",
	       garbage ? " with noise " : "", garbage ? garbage : "", opts,
	       replies, dv.dropped, (unsigned long long)out_bytes,
	       (unsigned long long)in_bytes, (unsigned long long)frames,
	       (unsigned long long)retries);
	/* The console saw exactly the device's text, in order. */
	CHECK_EQ(text_seen_len, text_sent_len);
	CHECK(!memcmp(text_seen, text_sent, text_sent_len));
	CHECK(text_sent_len > 100);
	/* With noise, the agent dropped many broken frames and still
	 * answered every request. */
	CHECK(garbage ? dv.dropped > 100 : dv.dropped == 0);
	memset(mem, 0, sizeof(mem));
}

static void test_link_errors(void)
{
	device dv;
	pthread_t th;
	char err[256];
	unsetenv("HP_SERIAL_GARBAGE");

	hp_transport *t = start(&dv, DEV_VERSION_NAK, &th, err, sizeof(err));
	CHECK(t == NULL);
	CHECK_EQ(start_rc, HP_INVALID_VALUE);
	CHECK(strstr(err, "version 7, this host speaks version 1") != NULL);
	stop(&dv, t, th);

	t = start(&dv, DEV_VERSION_ACK, &th, err, sizeof(err));
	CHECK(t == NULL);
	CHECK_EQ(start_rc, HP_INVALID_VALUE);
	CHECK(strstr(err, "version 9, this host speaks version 1") != NULL);
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
	test_agent();

	CHECK(mkdtemp(sock_dir) != NULL);
	snprintf(sock_path, sizeof(sock_path), "%s/dev", sock_dir);
	test_link(NULL, "");
	test_link("200", "");
	/* Paced to 4 Mbaud: 0.5 s of line time (no time is checked). */
	test_link(NULL, ",baud=4000000");
	test_link_errors();
	rmdir(sock_dir);
	return check_report("test_frame");
}
