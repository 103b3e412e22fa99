// SPDX-License-Identifier: MIT
/* What the serial link's frames hold (serial_frame.h): pure functions. */
#include "serial_frame.h"
#include <hartpool/error.h>
#include <stdio.h>

size_t hp_serial_op_head(uint8_t *p, uint8_t kind, uint64_t wire_addr)
{
	p[0] = kind;
	return 1 + hp_varint_put(p + 1, wire_addr);
}

void hp_serial_describe(const uint8_t *p, size_t len, uint64_t mbox_addr,
			uint32_t k, char *out, size_t cap)
{
	const uint8_t *end = p + len;
	uint64_t a = 0, x = 0, n = 0;
	for (uint32_t i = 0; p < end; i++) {
		uint8_t kind = *p++;
		if (!hp_varint_get(&p, end, &a) ||
		    (kind == HP_OP_WAIT && !hp_varint_get(&p, end, &x)) ||
		    !hp_varint_get(&p, end, &n))
			break;
		a ^= mbox_addr;
		if (i == k) {
			snprintf(out, cap, "the %s of %llu bytes at 0x%llx",
				 kind == HP_OP_WRITE  ? "write"
				 : kind == HP_OP_READ ? "read"
						      : "wait",
				 (unsigned long long)n, (unsigned long long)a);
			return;
		}
		if (kind == HP_OP_WRITE)
			p += hp_zrle_decode(p, (size_t)(end - p), NULL,
					    (size_t)n);
		else if (kind == HP_OP_WAIT && !hp_varint_get(&p, end, &x))
			break;
	}
	snprintf(out, cap, "a frame of %zu bytes", len);
}

void hp_serial_hello_put(uint8_t *p, uint32_t host_id, uint32_t rx_window)
{
	hp_put_le32(p, HP_SERIAL_VERSION);
	hp_put_le32(p + 4, host_id);
	hp_put_le32(p + 8, rx_window);
}

bool hp_serial_hello_ack_get(const uint8_t *p, size_t len,
			     hp_serial_hello_ack *out)
{
	if (len != HP_MSG_HELLO_ACK_LEN)
		return false;
	out->version = hp_get_le32(p);
	out->mbox_addr = hp_get_le64(p + 8);
	out->host_id = hp_get_le32(p + 16);
	out->credit = hp_get_le32(p + 20);
	return true;
}

int hp_serial_hello_answer(uint8_t type, uint8_t seq, const uint8_t *p,
			   size_t len, uint8_t hello_seq, uint32_t host_id)
{
	if (seq != hello_seq)
		return 0;
	if (type == HP_MSG_HELLO_ACK)
		return len < 4 || hp_get_le32(p) != HP_SERIAL_VERSION ||
		       (len == HP_MSG_HELLO_ACK_LEN &&
			hp_get_le32(p + 16) == host_id);
	return type == HP_MSG_NAK && len == HP_MSG_NAK_LEN ? 2 : 0;
}

uint32_t hp_serial_hello_version(uint8_t type, const uint8_t *p, size_t len)
{
	if (type == HP_MSG_NAK && len == HP_MSG_NAK_LEN)
		return hp_get_le32(p + 4);
	if (type == HP_MSG_HELLO_ACK && len >= 4)
		return hp_get_le32(p);
	return HP_SERIAL_VERSION;
}

bool hp_serial_nak_get(const uint8_t *p, size_t len, int *status,
		       uint32_t *detail)
{
	if (len != HP_MSG_NAK_LEN)
		return false;
	int st = (int32_t)hp_get_le32(p);
	*status = st < 0 ? st : HP_INVALID_VALUE;
	*detail = hp_get_le32(p + 4);
	return true;
}

bool hp_serial_data_get(const uint8_t *p, size_t len, uint8_t *dst,
			size_t dst_len, bool wait, size_t *n)
{
	*n = hp_zrle_size(p, len);
	if (*n != dst_len && !(wait && *n == 8))
		return false;
	hp_zrle_decode(p, len, dst, *n);
	return true;
}

void hp_serial_credit_put(uint8_t *p, uint32_t taken)
{
	p[0] = (uint8_t)taken;
	p[1] = (uint8_t)(taken >> 8);
}
