/* SPDX-License-Identifier: MIT */
/*
 * What the serial link's frames hold (docs/mailbox.md, "Serial link"):
 * the payloads the host builds (BATCH ops, HELLO, CREDIT) and reads
 * (HELLO_ACK, NAK, DATA), as pure functions over bytes: no link, no I/O,
 * no allocation (serial_frame.c; tests/fuzz/fuzz_serial_frame.c feeds
 * them anything). The framing itself (markers, escapes, CRC) is
 * common/frame.c's, shared with the firmware.
 */
#ifndef HOST_SERIAL_FRAME_H
#define HOST_SERIAL_FRAME_H

#include <hartpool/frame.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An op's head at @p p: its kind and address (the address as it goes on
 * the line: XORed with the mailbox's by the caller). Bytes written, at
 * most 1 + HP_VARINT_MAX. */
size_t hp_serial_op_head(uint8_t *p, uint8_t kind, uint64_t wire_addr);

/* Op @p k of the BATCH payload @p p (@p len bytes), in words for a
 * message into @p out: "the write of 8 bytes at 0x..." (addresses XORed
 * back with @p mbox_addr), or "a frame of N bytes" when the payload has no
 * such op. */
void hp_serial_describe(const uint8_t *p, size_t len, uint64_t mbox_addr,
			uint32_t k, char *out, size_t cap);

/* A HELLO's payload (HP_MSG_HELLO_LEN bytes at @p p). */
void hp_serial_hello_put(uint8_t *p, uint32_t host_id, uint32_t rx_window);

/* A HELLO_ACK's fields. */
typedef struct {
	uint32_t version;
	uint64_t mbox_addr;
	uint32_t host_id;
	uint32_t credit; /* the window the device holds its replies to */
} hp_serial_hello_ack;

/* A HELLO_ACK of this version's length: true, its fields in @p out. */
bool hp_serial_hello_ack_get(const uint8_t *p, size_t len,
			     hp_serial_hello_ack *out);

/* Is the reply (@p type, @p seq, payload @p p of @p len) the answer to
 * the HELLO with @p hello_seq from @p host_id? 1: a HELLO_ACK for this
 * host, or one of another version (its first word); 2: a NAK of it; 0:
 * neither (a dead host's replies, a HELLO_ACK naming another host). */
int hp_serial_hello_answer(uint8_t type, uint8_t seq, const uint8_t *p,
			   size_t len, uint8_t hello_seq, uint32_t host_id);

/* The protocol version the answer to a HELLO names: a NAK's detail word,
 * a HELLO_ACK's first word; HP_SERIAL_VERSION if it names none. */
uint32_t hp_serial_hello_version(uint8_t type, const uint8_t *p, size_t len);

/* A NAK of this version's length: true, with its status (an HP_ error:
 * HP_INVALID_VALUE when it names none) and its detail word (the op it
 * refused, or the device's version for a HELLO). */
bool hp_serial_nak_get(const uint8_t *p, size_t len, int *status,
		       uint32_t *detail);

/* A DATA payload (zero-run encoded) answering a READ of @p dst_len bytes,
 * or a WAIT (@p wait: its bytes, or its word alone, 8 bytes, when the word
 * is not up yet): true, decoded into @p dst, the size in @p n; false when
 * it is neither size (@p n: the size it has). */
bool hp_serial_data_get(const uint8_t *p, size_t len, uint8_t *dst,
			size_t dst_len, bool wait, size_t *n);

/* A CREDIT's payload (HP_MSG_CREDIT_LEN bytes): the count of bytes
 * taken, modulo 2^16. */
void hp_serial_credit_put(uint8_t *p, uint32_t taken);

#endif
