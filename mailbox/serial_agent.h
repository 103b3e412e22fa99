/* SPDX-License-Identifier: MIT */
/**
 * @file The device side of the serial transport (include/hartpool/frame.h):
 * the agent decodes the host's requests, checks them and does the reads
 * and writes of device memory the host asks for.
 *
 * The core (mailbox/serial_agent.c) is portable: memory, bounds and the
 * UART are callbacks, so host tests and the fuzzer run it over an array.
 * The firmware's glue (firmware/serial_uart.c) ties it to the UART, the
 * PLIC and the dispatcher.
 */
#ifndef MAILBOX_SERIAL_AGENT_H
#define MAILBOX_SERIAL_AGENT_H

#include <hartpool/frame.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct serial_agent_ops {
	/** May the host read (@p write false) or write the @p len bytes at
	 * @p addr? Asked before every access; addr + len does not wrap. */
	bool (*access_ok)(uint64_t addr, uint64_t len, bool write);
	/** Copy device memory (only after access_ok said yes). */
	void (*read)(uint64_t addr, void *dst, size_t len);
	/** Store to device memory, visible to every hart before the reply. */
	void (*write)(uint64_t addr, const void *src, size_t len);
	/** Transmit one encoded reply frame. */
	void (*send)(const uint8_t *wire, size_t n);
	/** Device address of the mailbox header (HELLO_ACK). */
	uint64_t (*mbox_addr)(void);
	/** A clock in microseconds (a WAIT's time limit, the delayed ACK). */
	uint64_t (*now_us)(void);
	/** Optional: a WAIT now waits on the word at @p addr (0: none any
	 * more); whoever calls serial_agent_idle() should be woken when it
	 * is written. */
	void (*watch)(uint64_t addr);
	/** Does send() wait until the line takes every byte (a UART with a
	 * transmit-full signal that QEMU models: the 16550)? false: bytes the
	 * receiver is too slow for may be lost (QEMU 7.2's SiFive UART), so
	 * the agent holds its replies to the host's receive window (HELLO)
	 * and sends on as the host's CREDIT frames come. */
	bool tx_waits;
	/** Optional: a HELLO with another host's id replaced the link's
	 * host (the last one died, or gave up): what that host had on the
	 * device ends (its sessions). */
	void (*new_host)(void);
} serial_agent_ops;

/** An ACK is sent once this many frames are unacknowledged, or ... */
#define SERIAL_AGENT_ACK_EVERY (HP_SERIAL_WINDOW / 2)
/** ... once the oldest of them has waited this long (a DATA reply, which
 * acknowledges every frame before it, usually comes first). */
#define SERIAL_AGENT_ACK_DELAY_US 10000
/** Reply bytes the agent can hold for the host's window: the replies to a
 * full window of frames and as many again (frames sent again), whole
 * frames; a reply that does not fit is dropped, as a lossy line would. */
#define SERIAL_AGENT_HOLD                                                      \
	(2 * HP_SERIAL_WINDOW * HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD))

typedef struct serial_agent {
	const serial_agent_ops *ops;
	uint32_t requests;   /**< frames answered or applied (NAKs included) */
	uint32_t refused;    /**< of which NAKed */
	uint32_t duplicates; /**< retransmissions seen (not applied again) */
	uint32_t gaps;	     /**< frames dropped as ahead of the expected one */
	uint32_t hosts;	     /**< sessions a new host started (HELLO) */
	uint32_t held;	     /**< replies that waited for the host's window */
	uint32_t overflows;  /**< replies dropped: no room to hold them */
	/* The session (HELLO starts it): the host's id, the seq of the next
	 * BATCH. */
	bool session;
	uint32_t host;
	uint8_t expect;
	bool gap_told; /* a GAP went out for this `expect` */
	/* Frames applied and not acknowledged yet: how many, the first's
	 * time. */
	unsigned unacked;
	uint64_t unacked_since;
	/* A WAIT not satisfied yet (at most one: a second answers the first
	 * at once, with what it has). */
	bool waiting;
	uint8_t wait_seq;
	uint64_t wait_addr, wait_min, wait_deadline;
	uint32_t wait_len;
	/* Flow control (HP_MSG_CREDIT): the host's window (0: send at once),
	 * bytes of frames sent since the HELLO_ACK and of them taken by the
	 * host (mod 2^16), and the bytes held: hold[hold_at..+hold_len),
	 * around the ring. */
	uint16_t window, sent, taken;
	size_t hold_at, hold_len;
	hp_frame_dec dec;
	uint8_t data[HP_SERIAL_DATA_MAX];  /* a write's or a read's bytes */
	uint8_t out[HP_FRAME_MAX_PAYLOAD]; /* a reply's payload */
	uint8_t wire[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
	uint8_t hold[SERIAL_AGENT_HOLD];
} serial_agent;

/** Ready @p a to serve requests through @p ops (kept, not copied). */
void serial_agent_setup(serial_agent *a, const serial_agent_ops *ops);
/** Feed one received byte; takes a frame once it is complete. Returns
 * true if the byte completed a frame (applied, answered or refused). */
bool serial_agent_feed(serial_agent *a, uint8_t byte);
/** Call when no more bytes are there for now (and now and then while a
 * WAIT is pending): answers a WAIT that is satisfied or out of time, sends
 * an ACK that is due. Returns true if it sent anything (or held it for
 * the host's window). */
bool serial_agent_idle(serial_agent *a);

/* ---- firmware only (firmware/serial_uart.c) ---- */

/**
 * Serve the host on the console UART: enable its receive interrupt through
 * the PLIC for hart index 0's M-mode context and set mie.MEIE, so a byte
 * from the host ends that hart's wfi. Call on hart index 0, once.
 */
void serial_agent_init(void);
/**
 * Take every byte the UART holds (never waits) and answer the requests
 * they complete. Call on hart index 0 when it wakes, between claiming and
 * completing the interrupt (hal/irq.h). Returns true if at least one
 * request was handled.
 */
bool serial_agent_poll(void);

#endif
