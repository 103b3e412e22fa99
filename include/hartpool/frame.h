/* SPDX-License-Identifier: MIT */
/**
 * @file Frames of the serial transport: how the host reads and writes
 * device memory over a UART that also carries the device's console text.
 *
 * On the wire a frame is 0xC0, the escaped body, 0xC1. Inside the body
 * 0xC0, 0xC1 and 0xDB are sent as DB DC, DB DD, DB DE, so the markers never
 * appear in it. Console text (ASCII) never contains these bytes, so bytes
 * outside frames are text.
 *
 * Body: u8 type, u8 seq, u16 len, payload[len], u32 CRC-32 (IEEE 802.3)
 * over type..payload. Every integer is little-endian.
 *
 * The host sends one request at a time; the device answers with the same
 * seq. Requests are idempotent (absolute addresses), so a host that gets
 * no reply sends the same request again.
 */
#ifndef HARTPOOL_FRAME_H
#define HARTPOOL_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define HP_SERIAL_VERSION 1

#define HP_FRAME_START 0xC0
#define HP_FRAME_END 0xC1
#define HP_FRAME_ESC 0xDB
#define HP_FRAME_ESC_START 0xDC /**< DB DC stands for C0 */
#define HP_FRAME_ESC_END 0xDD	/**< DB DD stands for C1 */
#define HP_FRAME_ESC_ESC 0xDE	/**< DB DE stands for DB */

/** Most data bytes one READ or WRITE carries. */
#define HP_SERIAL_DATA_MAX 1024
/** Longest payload: the data plus room for a request header. */
#define HP_FRAME_MAX_PAYLOAD 1040
#define HP_FRAME_HDR 4 /**< type, seq, len */
#define HP_FRAME_CRC 4
#define HP_FRAME_BODY_MAX (HP_FRAME_HDR + HP_FRAME_MAX_PAYLOAD + HP_FRAME_CRC)
/** Most wire bytes of a frame with a @p len byte payload (all escaped). */
#define HP_FRAME_WIRE_MAX(len) (2 + 2 * (HP_FRAME_HDR + (len) + HP_FRAME_CRC))

/** Message types; replies have bit 7 set. */
enum hp_msg_type {
	HP_MSG_HELLO = 0x01,	 /**< {u32 version} */
	HP_MSG_READ = 0x02,	 /**< {u64 addr, u32 len <= 1024} */
	HP_MSG_WRITE = 0x03,	 /**< {u64 addr, data <= 1024} */
	HP_MSG_HELLO_ACK = 0x81, /**< {u32 version, u32 0, u64 mbox_addr} */
	HP_MSG_DATA = 0x82,	 /**< {data}: the bytes read */
	HP_MSG_ACK = 0x83,	 /**< {i32 status = 0}: written */
	/** {i32 status, u32 detail}: refused. status is an HP_ error
	 * (HP_INVALID_VALUE: out of bounds or malformed); detail is the
	 * device's protocol version for a refused HELLO, else 0. */
	HP_MSG_NAK = 0x84,
};

#define HP_MSG_REPLY 0x80
#define HP_MSG_HELLO_LEN 4
#define HP_MSG_HELLO_ACK_LEN 16
#define HP_MSG_READ_LEN 12
#define HP_MSG_WRITE_HDR 8 /**< the address before the data */
#define HP_MSG_ACK_LEN 4
#define HP_MSG_NAK_LEN 8

/** CRC-32 (IEEE 802.3: reflected, polynomial 0xEDB88320, init and final
 * xor 0xFFFFFFFF) of @p n bytes. */
uint32_t hp_crc32(const void *p, size_t n);

/**
 * Encode a frame into @p out. Returns the wire length, or 0 if @p len is
 * over HP_FRAME_MAX_PAYLOAD or the frame does not fit in @p cap
 * (HP_FRAME_WIRE_MAX(len) always fits).
 */
size_t hp_frame_encode(uint8_t *out, size_t cap, uint8_t type, uint8_t seq,
		       const void *payload, size_t len);

/** What hp_frame_feed() saw. */
enum hp_frame_event {
	HP_FRAME_NONE,	  /**< nothing yet (or a byte skipped) */
	HP_FRAME_OK,	  /**< a whole valid frame: type, seq, payload */
	HP_FRAME_TEXT,	  /**< the byte is text outside any frame */
	HP_FRAME_DROPPED, /**< a frame was dropped (counted in stats) */
};

/** Why frames were dropped. */
typedef struct hp_frame_stats {
	uint32_t frames;   /**< valid frames received */
	uint32_t bad_crc;  /**< CRC did not match */
	uint32_t bad_len;  /**< len field does not match the bytes received */
	uint32_t overlong; /**< more than HP_FRAME_BODY_MAX body bytes */
	uint32_t bad_esc;  /**< DB followed by anything but DC, DD, DE */
	uint32_t aborted;  /**< cut short by a new 0xC0 */
} hp_frame_stats;

/** A byte-at-a-time frame decoder. Zero-initialised is ready. */
typedef struct hp_frame_dec {
	uint8_t state;
	uint16_t n; /**< body bytes so far */
	/* The last frame, valid after HP_FRAME_OK until the next feed. */
	uint8_t type, seq;
	uint16_t len;
	hp_frame_stats stats;
	uint8_t buf[HP_FRAME_BODY_MAX];
} hp_frame_dec;

void hp_frame_dec_init(hp_frame_dec *d);
/**
 * Feed one received byte. A 0xC0 anywhere starts a new frame (a frame in
 * progress is dropped); bytes of a broken frame are skipped up to its end.
 */
enum hp_frame_event hp_frame_feed(hp_frame_dec *d, uint8_t byte);
/** Payload of the last HP_FRAME_OK frame (d->len bytes). */
static inline const uint8_t *hp_frame_payload(const hp_frame_dec *d)
{
	return d->buf + HP_FRAME_HDR;
}
/** Frames dropped so far, for any reason. */
static inline uint32_t hp_frame_dropped(const hp_frame_dec *d)
{
	const hp_frame_stats *s = &d->stats;
	return s->bad_crc + s->bad_len + s->overlong + s->bad_esc + s->aborted;
}

/* Little-endian access to payload fields. */
static inline uint32_t hp_get_le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}
static inline uint64_t hp_get_le64(const uint8_t *p)
{
	return hp_get_le32(p) | (uint64_t)hp_get_le32(p + 4) << 32;
}
static inline void hp_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
static inline void hp_put_le64(uint8_t *p, uint64_t v)
{
	hp_put_le32(p, (uint32_t)v);
	hp_put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
