/* SPDX-License-Identifier: MIT */
/**
 * @file How the host library reaches device memory. Everything the host
 * does (rings, completion records, buffers) is a read or a write of device
 * memory at a device address; a transport carries those:
 *   - shm: QEMU's guest RAM file, mapped (host/lib/shm.c);
 *   - devmem: /dev/mem of a Linux beside the firmware, mapped (shm.c);
 *   - serial: framed, CRC-checked requests over a UART (host/lib/serial.c,
 *     include/hartpool/frame.h).
 * Writes are applied by the device in the order they are made, and a read
 * sees every write made before it (so writing a packet body, then its
 * header, then the write index is a correct publication on every
 * transport). A transport may hold writes back until the next read, flush
 * or close (serial: several in one frame); flush sends them without
 * waiting for the device. A write the device refuses is then reported by
 * a later call.
 */
#ifndef HOST_TRANSPORT_H
#define HOST_TRANSPORT_H

#include <stdbool.h>
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
	/** Release everything (the device keeps running); a transport that
	 * holds writes sends them first. */
	void (*close)(hp_transport *t);
	/** Send the writes held back (NULL: writes are never held). */
	int (*flush)(hp_transport *t);
	/** Optional (NULL: not offered): wait on the device until the
	 * 8-aligned u64 at @p addr is >= @p min, or @p ms milliseconds; then
	 * reads of the @p len bytes at @p addr (8 to HP_SERIAL_DATA_MAX) are
	 * answered, once, from one snapshot taken then, without another trip
	 * over the link. 0 or an HP_ error, as read. */
	int (*wait)(hp_transport *t, uint64_t addr, uint64_t min, size_t len,
		    uint32_t ms);
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
	/** map_base is the device address the map starts at (devmem), not
	 * DRAM's base the header gives (shm). */
	bool map_fixed;
	/** What the link carried (the serial transport counts; shm leaves
	 * them 0): bytes on the wire each way (frames with their escapes,
	 * console text, test noise, CREDITs), request frames sent
	 * (retransmissions included, CREDITs not) and of those
	 * retransmissions. */
	uint64_t bytes_out, bytes_in, frames_out, retries;
	/** The link's rate in baud: a tty's, or a paced socket's; 0 when
	 * unlimited. */
	uint32_t baud;
	/** The device's doorbell (docs/barrier-unit.md): a FIFO QEMU reads,
	 * where one byte wakes the dispatcher; -1 if there is none. */
	int bell;
	/** A doorbell register to store 1 into (devmem: the ACLINT SSWI's
	 * SETSSIP word of the firmware's dispatcher hart), in its mapped
	 * page; NULL if there is none. */
	volatile uint32_t *bell_reg;
	void *bell_page;
	/** The device's bell to this host (devmem, host_bell.h): waits sleep
	 * until it rings; NULL if there is none. */
	struct hp_host_bell *host_bell;
	/** ops->wait sleeps until the device interrupts (not a trip over a
	 * link): a waiter spins briefly before it calls it, and does not
	 * back off after it. */
	bool wait_sleeps;
	/** Last error message. */
	char err[256];
};

/* ---- the serial link's settings and its line (serial.c) ---- */

/** Bits on the wire per byte: start, 8 data bits, stop (8N1). */
#define HP_SERIAL_BITS_PER_BYTE 10

/** What "DEV[,baud=N][,flow=none|rtscts]" (a connect string after
 * "serial:") asks for. */
typedef struct hp_serial_spec {
	char dev[128]; /**< a Unix socket or a tty */
	uint32_t baud; /**< 0: not given */
	bool rtscts;   /**< hardware flow control (ttys only) */
} hp_serial_spec;

/**
 * Parse @p spec into @p out. The device is everything up to the first
 * comma; then options, comma-separated: baud=N (N one of the standard rates
 * 9600 .. 4000000 the host's termios has), flow=none (the default) or
 * flow=rtscts. 0, or HP_INVALID_VALUE with a message in @p err naming what
 * is wrong (for a bad rate: the rates there are).
 */
int hp_serial_parse(const char *spec, hp_serial_spec *out, char *err,
		    size_t errlen);
/** Is @p baud a rate hp_serial_parse() takes? */
bool hp_serial_baud_ok(uint32_t baud);
/** Nanoseconds @p bytes take on a line of @p baud (8N1: 10 bits a byte);
 * 0 when @p baud is 0 (unlimited). */
uint64_t hp_serial_wire_ns(uint64_t bytes, uint32_t baud);

/** One direction of a paced line: when it is free again. Zero: free. */
typedef struct hp_serial_line {
	uint64_t free_ns;
} hp_serial_line;
/**
 * @p bytes handed to line @p l at time @p now_ns: they start when it is
 * free (now, or when the bytes before them are through), and it is busy
 * for their hp_serial_wire_ns() from then (l->free_ns: when the last of
 * them is through). Returns when the first of them starts.
 */
uint64_t hp_serial_line_take(hp_serial_line *l, uint32_t baud, uint64_t now_ns,
			     uint64_t bytes);

/**
 * Open the serial transport @p spec ("DEV[,baud=N][,flow=...]",
 * hp_serial_parse()) on DEV: a Unix socket path (QEMU's `-chardev socket`;
 * a baud rate paces the link to that rate) or a tty device (set to raw 8N1
 * at the baud rate, 115200 if none is given). Says HELLO (protocol version
 * check) and learns the mailbox address. Console text the device prints
 * goes to @p console (may be NULL: dropped).
 * Returns 0 with the transport in @p out, or an HP_ error with a message
 * in @p err: HP_DEVICE_NOT_FOUND when nothing answers at DEV (no such
 * file, no listener, not a tty, no reply to HELLO), HP_INVALID_VALUE for a
 * malformed @p spec, a rate or flow control the tty's driver does not take
 * or a device of another protocol version, HP_OUT_OF_RESOURCES for host
 * memory.
 */
int hp_transport_serial_open(const char *spec, hp_console_fn console, void *ctx,
			     hp_transport **out, char *err, size_t errlen);

/**
 * Open the shm transport: map QEMU's guest RAM file @p path (file offset 0
 * = device address @p dram_base), all of it (any size the host's address
 * space holds), and open the doorbell FIFO PATH.doorbell.in if the device
 * has one (hp-qemu makes it for boards with a doorbell device). Errors as for
 * hp_transport_serial_open(): no such file or one too small for a mailbox is
 * HP_DEVICE_NOT_FOUND.
 */
int hp_transport_shm_open(const char *path, uint64_t dram_base,
			  hp_transport **out, char *err, size_t errlen);

/** Move a transport's map to the device addresses it shows (t->map ==
 * t->map_base as a number) when that range of this process is free, so a
 * device address is a host pointer too (SVM); else leave it. */
void hp_transport_place(hp_transport *t);

/** The mailbox's physical address where `devmem:` names none: the S-mode
 * QEMU boards' (qemu-virt-amp's Linux reaches it). */
#define HP_DEVMEM_MBOX 0x90000000ull
/**
 * Open the devmem transport: /dev/mem from the mailbox at physical
 * address ADDR to the end of the buffer heap its header names; device
 * addresses are physical ones, and a ring stores 1 into the doorbell
 * register at physical BELL. @p spec is ADDR[,bell=BELL], or empty: the
 * running kernel's /chosen/hartpool,mailbox and hartpool,doorbell (else
 * HP_DEVMEM_MBOX and no doorbell). Waits for the device sleep on the
 * device's bell to this host where /chosen/hartpool,host-bell names one (a
 * PCI function under uio_pci_generic, hartpool,host-bell-ack its
 * acknowledge register; host_bell.h) and the firmware rings it
 * (HP_DEV_HAS_HOST_BELL); `wait=poll` (alone, or after the rest with a
 * comma) polls instead. For a Linux on cores that share DRAM
 * with the firmware. HP_DEVICE_NOT_FOUND when
 * /dev/mem cannot be opened or mapped there or holds no mailbox,
 * HP_INVALID_VALUE for a malformed @p spec.
 */
int hp_transport_devmem_open(const char *spec, hp_transport **out, char *err,
			     size_t errlen);

#endif
