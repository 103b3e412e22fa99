/* SPDX-License-Identifier: MIT */
/**
 * @file How the host library reaches device memory. Everything the host
 * does (rings, completion records, buffers) is a read or a write of device
 * memory at a device address; a transport carries those:
 *   - shm: QEMU's guest RAM file, mapped (host/lib/shm.c);
 *   - serial: framed, CRC-checked requests over a UART (host/lib/serial.c,
 *     include/hartpool/frame.h).
 * Writes are applied by the device in the order they are made, and each
 * write is visible to the device before the call returns (so writing a
 * packet body, then its header, then the write index is a correct
 * publication on every transport).
 */
#ifndef HOST_TRANSPORT_H
#define HOST_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

typedef struct hp_transport hp_transport;

typedef struct hp_transport_ops {
	/** Copy @p len bytes at device address @p addr into @p buf.
	 * Returns 0, or an HP_ error with a message in t->err:
	 * HP_DEVICE_NOT_AVAILABLE when the link to the device is gone. */
	int (*read)(hp_transport *t, uint64_t addr, void *buf, size_t len);
	/** Copy @p len bytes from @p buf to device address @p addr. */
	int (*write)(hp_transport *t, uint64_t addr, const void *buf,
		     size_t len);
	/** Release everything (the device keeps running). */
	void (*close)(hp_transport *t);
} hp_transport_ops;

/** Receives device console text (bytes outside frames on a serial link). */
typedef void (*hp_console_fn)(void *ctx, const char *text, size_t len);

struct hp_transport {
	const hp_transport_ops *ops;
	/** Device address of the mailbox header (include/hartpool/mbox.h). */
	uint64_t mbox_addr;
	/** Host pointer to device address `map_base`, when the transport
	 * maps device memory (shm), else NULL: the library then uses only
	 * read/write. */
	uint8_t *map;
	uint64_t map_base, map_size;
	/** Last error message. */
	char err[256];
};

/**
 * Open the serial transport on @p dev: a Unix socket path (QEMU's
 * `-chardev socket`) or a tty device (set to raw 115200 8N1). Says HELLO
 * (protocol version check) and learns the mailbox address. Console text
 * the device prints goes to @p console (may be NULL: dropped).
 * Returns 0 with the transport in @p out, or an HP_ error with a message
 * in @p err: HP_DEVICE_NOT_FOUND when nothing answers at @p dev (no such
 * file, no listener, not a tty, no reply to HELLO), HP_INVALID_VALUE for a
 * device of another protocol version, HP_OUT_OF_RESOURCES for host memory.
 */
int hp_transport_serial_open(const char *dev, hp_console_fn console, void *ctx,
			     hp_transport **out, char *err, size_t errlen);

/**
 * Open the shm transport: map QEMU's guest RAM file @p path (file offset 0
 * = device address @p dram_base), all of it (any size the host's address
 * space holds). Errors as for hp_transport_serial_open(): no such file or
 * one too small for a mailbox is HP_DEVICE_NOT_FOUND.
 */
int hp_transport_shm_open(const char *path, uint64_t dram_base,
			  hp_transport **out, char *err, size_t errlen);

#endif
