// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the host side of the serial link's pure functions
 * (host/lib/serial_frame.c, host/lib/serial_spec.c): what frames hold and
 * the connect string. (The framing itself and the device's agent are
 * fuzz_frame's.) The input is used as:
 *   - a connect string: taken or refused with a message, never both; what
 *     it takes names a device and a standard rate;
 *   - a BATCH payload: every op described in bounds, a whole message;
 *   - a reply's payload of each type: HELLO_ACK, NAK and DATA read only
 *     in bounds (ASan), DATA decoded only when it is the size asked for;
 *   - values for ops built with hp_serial_op_head and varints, then
 *     described: each op named with its kind, length and address;
 *   - byte counts for the line's arithmetic: more bytes never take less
 *     time, a line never frees up before it did.
 */
#include "serial_frame.h"
#include "transport.h"
#include <hartpool/error.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c))                                                      \
			abort();                                               \
	} while (0)

static uint64_t take(const uint8_t **p, const uint8_t *end, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n && *p < end; i++)
		v |= (uint64_t) * (*p)++ << (8 * i);
	return v;
}

static void connect_string(const uint8_t *data, size_t size)
{
	char spec[512], err[256];
	size_t n = size < sizeof(spec) - 1 ? size : sizeof(spec) - 1;
	memcpy(spec, data, n);
	spec[n] = 0;
	hp_serial_spec sp;
	err[0] = 0;
	int rc = hp_serial_parse(spec, &sp, err, sizeof(err));
	if (rc) {
		CHECK(rc == HP_INVALID_VALUE && err[0]);
		CHECK(memchr(err, 0, sizeof(err)) != NULL);
	} else {
		CHECK(sp.dev[0] && memchr(sp.dev, 0, sizeof(sp.dev)) != NULL);
		CHECK(!sp.baud || hp_serial_baud_ok(sp.baud));
	}
}

static void replies(const uint8_t *data, size_t size)
{
	char out[128];
	for (uint32_t k = 0; k < 4; k++) {
		hp_serial_describe(data, size, 0x80000000u, k, out,
				   sizeof(out));
		CHECK(!strncmp(out, "the ", 4) || !strncmp(out, "a frame", 7));
	}
	hp_serial_hello_ack ack;
	CHECK(hp_serial_hello_ack_get(data, size, &ack) ==
	      (size == HP_MSG_HELLO_ACK_LEN));
	for (uint8_t t = 0x80; t < 0x88; t++) {
		int a = hp_serial_hello_answer(t, 1, data, size, 1, 7);
		CHECK(a >= 0 && a <= 2);
		CHECK(hp_serial_hello_answer(t, 2, data, size, 1, 7) == 0);
		(void)hp_serial_hello_version(t, data, size);
	}
	int st;
	uint32_t detail;
	if (hp_serial_nak_get(data, size, &st, &detail))
		CHECK(st < 0 && size == HP_MSG_NAK_LEN);
	static uint8_t dst[HP_SERIAL_DATA_MAX];
	size_t want = size ? (data[0] | (size_t)data[size - 1] << 8) %
				      (HP_SERIAL_DATA_MAX + 1)
			   : 0;
	size_t n;
	bool wait = want >= 8 && size && (data[0] & 1);
	if (hp_serial_data_get(data, size, dst, want, wait, &n))
		CHECK(n == want || (wait && n == 8));
	else
		CHECK(n != want);
}

/* Ops built from the input's values, then described one by one. */
static void ops(const uint8_t *data, size_t size)
{
	static const uint8_t zeros[HP_SERIAL_DATA_MAX];
	const uint8_t *p = data, *end = data + size;
	uint8_t batch[HP_FRAME_MAX_PAYLOAD];
	size_t at = 0;
	const uint64_t mbox = 0x80001000u;
	struct {
		uint8_t kind;
		uint64_t addr, len;
	} op[8];
	unsigned nops = 0;
	while (p < end && nops < 8) {
		uint8_t kind = (uint8_t)(1 + take(&p, end, 1) % 3);
		uint64_t addr = take(&p, end, 8);
		uint64_t len = take(&p, end, 2) % (HP_SERIAL_DATA_MAX + 1);
		uint8_t head[4 * HP_VARINT_MAX +
			     HP_ZRLE_MAX(HP_SERIAL_DATA_MAX)];
		size_t h = hp_serial_op_head(head, kind, addr ^ mbox);
		if (kind == HP_OP_WAIT)
			h += hp_varint_put(head + h, take(&p, end, 8));
		h += hp_varint_put(head + h, len);
		if (kind == HP_OP_WAIT)
			h += hp_varint_put(head + h, take(&p, end, 2));
		if (kind == HP_OP_WRITE)
			h += hp_zrle_encode(head + h, sizeof(head) - h, zeros,
					    (size_t)len);
		if (at + h > sizeof(batch))
			break;
		memcpy(batch + at, head, h);
		at += h;
		op[nops].kind = kind;
		op[nops].addr = addr;
		op[nops++].len = len;
	}
	char got[128], want[128];
	for (unsigned k = 0; k < nops; k++) {
		hp_serial_describe(batch, at, mbox, k, got, sizeof(got));
		snprintf(want, sizeof(want), "the %s of %llu bytes at 0x%llx",
			 op[k].kind == HP_OP_WRITE  ? "write"
			 : op[k].kind == HP_OP_READ ? "read"
						    : "wait",
			 (unsigned long long)op[k].len,
			 (unsigned long long)op[k].addr);
		CHECK(!strcmp(got, want));
	}
	hp_serial_describe(batch, at, mbox, nops, got, sizeof(got));
	CHECK(!strncmp(got, "a frame of ", 11));
}

static void line(const uint8_t *data, size_t size)
{
	static const uint32_t rates[] = {9600, 115200, 921600, 4000000};
	const uint8_t *p = data, *end = data + size;
	uint32_t baud = rates[take(&p, end, 1) % 4];
	hp_serial_line l = {0};
	uint64_t now = 0, free_ns = 0;
	while (p < end) {
		uint64_t bytes = take(&p, end, 4);
		now += take(&p, end, 4);
		CHECK(hp_serial_wire_ns(bytes, baud) <=
		      hp_serial_wire_ns(bytes + 1, baud));
		uint64_t start = hp_serial_line_take(&l, baud, now, bytes);
		CHECK(start >= now && start >= free_ns);
		CHECK(l.free_ns == start + hp_serial_wire_ns(bytes, baud));
		free_ns = l.free_ns;
	}
	uint8_t hello[HP_MSG_HELLO_LEN], credit[HP_MSG_CREDIT_LEN];
	hp_serial_hello_put(hello, 7, (uint32_t)size);
	CHECK(hp_get_le32(hello) == HP_SERIAL_VERSION);
	CHECK(hp_get_le32(hello + 4) == 7 &&
	      hp_get_le32(hello + 8) == (uint32_t)size);
	hp_serial_credit_put(credit, (uint32_t)size);
	CHECK((credit[0] | credit[1] << 8) == (size & 0xFFFF));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	connect_string(data, size);
	replies(data, size);
	ops(data, size);
	line(data, size);
	return 0;
}
