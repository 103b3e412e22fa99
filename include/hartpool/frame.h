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
 * The protocol is windowed (docs/serial.md): after HELLO (stop-and-wait,
 * any seq s) the host sends BATCH frames with seq s+1, s+2, ... (mod 256),
 * up to HP_SERIAL_WINDOW of them unanswered. The device applies them
 * strictly in seq order, each once: a frame ahead of the one it expects is
 * dropped (and answered with GAP, once per expected seq, so the host goes
 * back at once instead of after a timeout); one behind it is a
 * retransmission whose reply was lost: its writes are not applied again,
 * its READ or WAIT is answered again. Frames without a READ or WAIT are
 * acknowledged cumulatively (ACK with the seq of the last frame applied).
 *
 * Version 3 adds flow control for a UART that drops what its receiver does
 * not take in time (QEMU 7.2's SiFive UART on a socket: no transmit-full
 * signal, and a Unix socket holds only about 278 one-byte writes): HELLO
 * carries the host's receive window (the most reply bytes it can have
 * unread) and the device holds its replies to it, sending on as CREDIT
 * frames say what the host has taken. HELLO also carries a host id that
 * HELLO_ACK echoes, so a new host process on the same line tells its
 * HELLO_ACK from a dead one's stale replies, and the device tells a new
 * host from a HELLO sent again.
 */
#ifndef HARTPOOL_FRAME_H
#define HARTPOOL_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HP_SERIAL_VERSION 3

#define HP_FRAME_START 0xC0
#define HP_FRAME_END 0xC1
#define HP_FRAME_ESC 0xDB
#define HP_FRAME_ESC_START 0xDC /**< DB DC stands for C0 */
#define HP_FRAME_ESC_END 0xDD	/**< DB DD stands for C1 */
#define HP_FRAME_ESC_ESC 0xDE	/**< DB DE stands for DB */

/** Most data bytes one READ, WRITE or WAIT op carries. */
#define HP_SERIAL_DATA_MAX 1024
/** Longest payload: the data, zero-run encoded (at most 1/128 more), plus
 * the ops' headers. */
#define HP_FRAME_MAX_PAYLOAD 1088
/** BATCH frames the host may have sent and not had answered. The device
 * tells a retransmission (behind) from a frame after a lost one (ahead) by
 * seq distance, so it must stay well under 128. */
#define HP_SERIAL_WINDOW 8
/** The longest a WAIT op may ask the device to wait. */
#define HP_SERIAL_WAIT_MAX_MS 60000
#define HP_FRAME_HDR 4 /**< type, seq, len */
#define HP_FRAME_CRC 4
#define HP_FRAME_BODY_MAX (HP_FRAME_HDR + HP_FRAME_MAX_PAYLOAD + HP_FRAME_CRC)
/** Most wire bytes of a frame with a @p len byte payload (all escaped). */
#define HP_FRAME_WIRE_MAX(len) (2 + 2 * (HP_FRAME_HDR + (len) + HP_FRAME_CRC))

/** Message types; replies have bit 7 set. */
enum hp_msg_type {
	/** {u32 version, u32 host, u32 rx_window}: starts a session; the
	 * next BATCH has seq + 1. host: an id the host picked (at random, not
	 * 0) for this connection; rx_window: the most bytes of reply frames
	 * the host can have sent to it and not taken yet (0: no limit). A
	 * HELLO of another version (only its first word is read) is refused
	 * with a NAK naming the device's version. */
	HP_MSG_HELLO = 0x01,
	/** {op...}: writes, then at most one READ or WAIT, last (below). */
	HP_MSG_BATCH = 0x04,
	/** {u16 taken}, seq = flags: the host has taken @c taken bytes (mod
	 * 2^16) of the device's frames since the HELLO_ACK, console text not
	 * counted. Never answered. With HP_CREDIT_RESYNC the link went
	 * silent and the host goes back: the bytes the device sent and the
	 * host has not taken are lost, and counting goes on from @c taken on
	 * both sides. Only to a device whose HELLO_ACK said it holds replies
	 * (credit not 0). 12 bytes on the wire: CREDITs cross an input path
	 * as slow as the line they pace. */
	HP_MSG_CREDIT = 0x05,
	/** {u32 version, u32 window, u64 mbox, u32 host, u32 credit}: host
	 * as the HELLO said; credit: the receive window the device holds its
	 * replies to (the HELLO's, at most HP_SERIAL_CREDIT_MAX; 0: none, its
	 * UART waits for the line, so the host sends no CREDIT). */
	HP_MSG_HELLO_ACK = 0x81,
	/** {zero-run encoded bytes}: what the frame's READ or WAIT read. */
	HP_MSG_DATA = 0x82,
	/** {}: every frame up to this seq is applied (cumulative). */
	HP_MSG_ACK = 0x83,
	/** {i32 status, u32 detail}: the frame was refused, nothing of it
	 * applied. status is an HP_ error (HP_INVALID_VALUE: out of bounds
	 * or malformed); detail is the device's protocol version for a
	 * refused HELLO, else the index of the op refused. */
	HP_MSG_NAK = 0x84,
	/** {u8 expected}: frames before this seq are applied; this one was
	 * not (lost or corrupted): send again from there. */
	HP_MSG_GAP = 0x85,
};

/**
 * The ops of a BATCH, each a byte then varints (LEB128, 7 bits a byte, at
 * most 10 bytes). Addresses are sent as (addr XOR mailbox address), so the
 * mailbox and the buffers near it take 2-4 bytes.
 */
enum hp_op {
	/** a, len (1..HP_SERIAL_DATA_MAX), then the bytes zero-run
	 * encoded. */
	HP_OP_WRITE = 0x01,
	/** a, len (1..HP_SERIAL_DATA_MAX): DATA has the bytes. */
	HP_OP_READ = 0x02,
	/** a, min, len (8..HP_SERIAL_DATA_MAX), ms (<=
	 * HP_SERIAL_WAIT_MAX_MS): when the u64 at a (8-aligned) is >= min,
	 * DATA has the len bytes at a (one snapshot); if it is not within
	 * ms milliseconds, DATA has only the u64 (8 bytes). */
	HP_OP_WAIT = 0x03,
};

#define HP_MSG_REPLY 0x80
#define HP_MSG_HELLO_LEN 12
#define HP_MSG_HELLO_ACK_LEN 24
#define HP_MSG_CREDIT_LEN 2
/** HP_MSG_CREDIT flags (its seq): the bytes not taken are lost (the host
 * goes back). */
#define HP_CREDIT_RESYNC 1u
/** The largest receive window a device holds replies to (counts are mod
 * 2^16). */
#define HP_SERIAL_CREDIT_MAX 0x7fff
#define HP_MSG_NAK_LEN 8
#define HP_MSG_GAP_LEN 1
/** Most bytes of a varint. */
#define HP_VARINT_MAX 10

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

/** Write @p v as a varint at @p p (HP_VARINT_MAX bytes of room); its
 * length. */
size_t hp_varint_put(uint8_t *p, uint64_t v);
/** Read a varint from *@p p (not past @p end) into @p v and advance *@p p;
 * false if it runs past @p end or over 64 bits. */
bool hp_varint_get(const uint8_t **p, const uint8_t *end, uint64_t *v);

/**
 * Zero-run encoding of data in frames: tokens, each a byte t then, for
 * t < 0x80, t + 1 bytes as they are, for t >= 0x80, t - 0x7F zero bytes.
 * Mailbox structures are mostly zeroes (a kernarg block's header, a
 * packet, a completion record): they shrink several times; other data
 * grows by at most one byte in 128.
 */
#define HP_ZRLE_MAX(n) ((n) + ((n) + 127) / 128)
/** Encode @p n bytes into @p out; the encoded length, or 0 if more than
 * @p cap (HP_ZRLE_MAX(n) always fits). */
size_t hp_zrle_encode(uint8_t *out, size_t cap, const uint8_t *in, size_t n);
/** Decode from @p in (at most @p avail bytes) exactly @p n bytes into
 * @p out (NULL: only check); the encoded bytes taken, or 0 if they are
 * malformed, run short or make more than @p n bytes. */
size_t hp_zrle_decode(const uint8_t *in, size_t avail, uint8_t *out, size_t n);
/** The bytes all of the @p avail encoded bytes at @p in decode to, or
 * SIZE_MAX if they are malformed (a literal run cut short). */
size_t hp_zrle_size(const uint8_t *in, size_t avail);

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
