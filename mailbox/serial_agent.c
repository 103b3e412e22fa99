// SPDX-License-Identifier: MIT
/* The serial agent's portable core: one request in, one reply out; see
 * serial_agent.h. Every request is idempotent, so a retransmitted one is
 * simply done again (no duplicate detection). */
#include "serial_agent.h"
#include <hartpool/error.h>

void serial_agent_setup(serial_agent *a, const serial_agent_ops *ops)
{
	a->ops = ops;
	a->requests = a->refused = 0;
	hp_frame_dec_init(&a->dec);
}

static void reply(serial_agent *a, uint8_t type, const void *payload,
		  size_t len)
{
	size_t n = hp_frame_encode(a->wire, sizeof(a->wire), type, a->dec.seq,
				   payload, len);
	a->ops->send(a->wire, n);
}

static void nak(serial_agent *a, int status, uint32_t detail)
{
	uint8_t p[HP_MSG_NAK_LEN];
	hp_put_le32(p, (uint32_t)status);
	hp_put_le32(p + 4, detail);
	a->refused++;
	reply(a, HP_MSG_NAK, p, sizeof(p));
}

/* Bounds first, so access_ok never sees a range that wraps. */
static bool allowed(serial_agent *a, uint64_t addr, uint64_t len, bool write)
{
	return len <= HP_SERIAL_DATA_MAX && addr + len >= addr &&
	       a->ops->access_ok(addr, len, write);
}

static void handle(serial_agent *a)
{
	const uint8_t *p = hp_frame_payload(&a->dec);
	size_t len = a->dec.len;

	switch (a->dec.type) {
	case HP_MSG_HELLO: {
		if (len != HP_MSG_HELLO_LEN)
			break;
		if (hp_get_le32(p) != HP_SERIAL_VERSION) {
			nak(a, HP_INVALID_VALUE, HP_SERIAL_VERSION);
			return;
		}
		uint8_t r[HP_MSG_HELLO_ACK_LEN];
		hp_put_le32(r, HP_SERIAL_VERSION);
		hp_put_le32(r + 4, 0);
		hp_put_le64(r + 8, a->ops->mbox_addr());
		reply(a, HP_MSG_HELLO_ACK, r, sizeof(r));
		return;
	}
	case HP_MSG_READ: {
		if (len != HP_MSG_READ_LEN)
			break;
		uint64_t addr = hp_get_le64(p);
		uint32_t n = hp_get_le32(p + 8);
		if (!allowed(a, addr, n, false))
			break;
		a->ops->read(addr, a->data, n);
		reply(a, HP_MSG_DATA, a->data, n);
		return;
	}
	case HP_MSG_WRITE: {
		if (len < HP_MSG_WRITE_HDR)
			break;
		uint64_t addr = hp_get_le64(p);
		size_t n = len - HP_MSG_WRITE_HDR;
		if (!allowed(a, addr, n, true))
			break;
		a->ops->write(addr, p + HP_MSG_WRITE_HDR, n);
		uint8_t r[HP_MSG_ACK_LEN] = {0};
		reply(a, HP_MSG_ACK, r, sizeof(r));
		return;
	}
	}
	/* Malformed, out of bounds, or not a request. */
	nak(a, HP_INVALID_VALUE, 0);
}

bool serial_agent_feed(serial_agent *a, uint8_t byte)
{
	/* Text and broken frames from the host are line noise: dropped
	 * (counted in a->dec.stats); the host retransmits. */
	if (hp_frame_feed(&a->dec, byte) != HP_FRAME_OK)
		return false;
	a->requests++;
	handle(a);
	return true;
}
