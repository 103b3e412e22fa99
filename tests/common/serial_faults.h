/* SPDX-License-Identifier: MIT */
/*
 * Line faults for the serial link's tests: a filter on one direction of
 * the byte stream (include/hartpool/frame.h framing) that writes line
 * noise before each frame and corrupts one frame in N, from a fixed seed,
 * so a run injects the same faults every time. The product has no such
 * switch (docs/design.md, 60): tests/e2e/serial_relay.c puts this filter
 * between a host and QEMU's UART socket, and tests/host/test_frame.c
 * between the host side and the agent core.
 *
 * Noise (@p noise bytes before every frame): random bytes, many of them
 * 0xC0, 0xC1 and 0xDB, and cut-off copies of the frame that follows with a
 * byte changed; the receiver must skip it all and still take the frame.
 * Corruption (one frame in @p drop, at random): one body byte changed,
 * never into a marker, so the receiver drops the frame on its CRC, as
 * after a hit on the line, and the frame's bytes still count as received
 * (the credit count of docs/serial.md stays right). Bytes outside frames
 * (console text) pass unchanged. With noise, a frame is held until its
 * end marker (the noise copies it); without, bytes go on as they come (a
 * device holding its replies to the host's window sends frames in
 * pieces).
 */
#ifndef TESTS_COMMON_SERIAL_FAULTS_H
#define TESTS_COMMON_SERIAL_FAULTS_H

#include <hartpool/frame.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the filtered bytes go. */
typedef void (*serial_faults_out)(void *ctx, const uint8_t *p, size_t n);

typedef struct {
	unsigned noise; /* bytes of noise before each frame */
	unsigned drop;	/* one frame in drop corrupted (0: none) */
	uint64_t rng;
	bool in_frame;
	bool hit;   /* this frame is to be corrupted (without noise) */
	size_t len; /* of the frame held, or its bytes so far */
	uint8_t frame[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
	/* Counts: frames passed, of them corrupted, bytes of noise. */
	uint64_t frames, corrupted, noise_bytes;
} serial_faults;

void serial_faults_init(serial_faults *f, unsigned noise, unsigned drop,
			uint64_t seed);

/* Filter @p n bytes at @p p to @p out. */
void serial_faults_feed(serial_faults *f, const uint8_t *p, size_t n,
			serial_faults_out out, void *ctx);

/* A frame begun and not ended goes out as it is (the stream ends). */
void serial_faults_flush(serial_faults *f, serial_faults_out out, void *ctx);

#endif
