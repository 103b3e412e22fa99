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
} serial_agent_ops;

typedef struct serial_agent {
	const serial_agent_ops *ops;
	uint32_t requests; /**< requests answered (NAKs included) */
	uint32_t refused;  /**< of which NAKed */
	hp_frame_dec dec;
	uint8_t data[HP_SERIAL_DATA_MAX]; /* a READ's bytes */
	uint8_t wire[HP_FRAME_WIRE_MAX(HP_SERIAL_DATA_MAX)];
} serial_agent;

/** Ready @p a to serve requests through @p ops (kept, not copied). */
void serial_agent_setup(serial_agent *a, const serial_agent_ops *ops);
/** Feed one received byte; answers a request once it is complete. Returns
 * true if the byte completed a request (answered or refused). */
bool serial_agent_feed(serial_agent *a, uint8_t byte);

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
