/* SPDX-License-Identifier: MIT */
/*
 * The serial transport's private header: the state of one link, shared by
 * its files, which call only downwards:
 *   serial.c        the transport: hp_transport_serial_open, HELLO, the
 *                   transport ops (reads, writes, flushes, WAITs, close)
 *   serial_link.c   the window: BATCH frames in flight, their replies,
 *                   go-back-N retransmission, CREDITs (flow control)
 *   serial_line.c   the line: a socket or tty opened, bytes out (paced to
 *                   a baud rate), bytes in, frames decoded, console text,
 *                   the HP_SERIAL_TRACE log
 *   serial_frame.c  what frames hold: payloads built and read, pure
 *   serial_spec.c   the connect string and the line's arithmetic, pure
 * (transport.h declares what the rest of libhartpool and the tests use:
 * hp_transport_serial_open, hp_serial_parse, hp_serial_wire_ns, ...)
 */
#ifndef HOST_SERIAL_H
#define HOST_SERIAL_H

#include "serial_frame.h"
#include "transport.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <termios.h>

#define TRIES 8
#define FIRST_TIMEOUT_MS 100
/* A try's wait for a reply looks at the link this often. */
#define WAIT_SLICE_MS 10
/* After a broken frame from the device, this long with nothing from it
 * and nothing unsent means a reply was lost (longer than the device's
 * delayed ACK, SERIAL_AGENT_ACK_DELAY_US). */
#define LOST_SILENCE_MS (2 * WAIT_SLICE_MS)
/* Baud rate of a tty when the connect string names none (the boards'
 * BOARD_UART_BAUD). */
#define DEFAULT_BAUD 115200
/* Writes of up to this many bytes (a kernarg block) may wait in the open
 * frame; longer ones are sent and acknowledged before the call returns. */
#define HOLD_MAX 512
/* A paced link sends in pieces of this much of the line's time. */
#define PIECE_NS 1000000u
/* The receive window asked for on a socket: bytes of reply frames the
 * device may have sent and this host not taken yet. QEMU's UARTs write a
 * byte at a time; a Unix socket holds about 278 such writes (each is an
 * skb of ~770 bytes against the writer's 208 KiB SO_SNDBUF, measured on
 * Linux 6.x), so a device whose UART does not wait for the socket loses
 * what goes past that. The rest is room for bytes in transit when a
 * RESYNC re-counts. A tty asks for none: the line paces the device and
 * the kernel's tty buffers hold far more than a window of replies. */
#define SOCKET_WINDOW 192

/* A BATCH frame sent and not retired yet. */
typedef struct {
	uint8_t seq;
	bool answer; /* a READ or WAIT: done by its DATA (or NAK) alone */
	bool done;
	bool hurried;	/* sent again at once (its answer was lost) */
	uint8_t *dst;	/* where a READ's or WAIT's bytes go */
	size_t dst_len; /* how many */
	uint32_t wait_ms;
	size_t len; /* of the payload */
	uint8_t payload[HP_FRAME_MAX_PAYLOAD];
} flight;

typedef struct {
	hp_transport t; /* first: the ops get &t */
	int fd;
	bool sock;
	bool tty;
	struct termios saved; /* the tty's settings, restored at close */
	hp_serial_spec spec;
	const char *dev; /* spec.dev */
	/* Pacing (a socket with a baud rate): when each direction of the
	 * modelled line is free again, and when the bytes of the last read
	 * began to arrive on it. */
	bool paced;
	hp_serial_line tx_line, rx_line;
	uint64_t rx_start_ns;
	int64_t rx_ms; /* when bytes last came */
	hp_console_fn console;
	void *ctx;
	pthread_mutex_t mu; /* one call at a time */
	FILE *trace;	    /* HP_SERIAL_TRACE: a line per frame, or NULL */
	hp_frame_dec dec;
	size_t rx_pos, rx_len;
	uint8_t rx[4096];
	uint8_t wire[HP_FRAME_WIRE_MAX(HP_FRAME_MAX_PAYLOAD)];
	/* The window: BATCH frames sent and not retired, oldest first at
	 * fl[fl_head]; the seq of the next one. */
	flight fl[HP_SERIAL_WINDOW];
	unsigned fl_head, fl_count;
	uint8_t next_seq;
	unsigned answers; /* of them, READs and WAITs not answered yet */
	/* The session: this host's id (HELLO), the HELLO's seq; the window
	 * asked for and the one the device holds its replies to (0: none,
	 * no CREDITs); bytes of the device's frames taken since its
	 * HELLO_ACK (counting: once it came), and as the last CREDIT and the
	 * last probe said. */
	uint32_t host_id;
	uint8_t hello_seq;
	uint32_t rx_window, credit;
	bool counting;
	uint32_t taken, credited, probed;
	/* The open frame: writes not sent yet (until a read, a flush, or
	 * a full frame). */
	uint8_t batch[HP_FRAME_MAX_PAYLOAD];
	size_t batch_len;
	/* Retransmission: tries without a reply, this try's time, when the
	 * link last moved (a frame sent, bytes taken or come). */
	int tries;
	int64_t try_ms, moved_ms, first_try_ms;
	/* Frames from the device that came broken (a CRC, length or escape
	 * wrong, cut off): hp_frame_dropped() of dec when the window last
	 * looked; one came in this try (a reply lost on the line, the device
	 * is there); the window went back for one in this try; how many came
	 * in this run of tries (for the message). */
	uint32_t rx_dropped;
	bool rx_lost, lost_back;
	unsigned lost_replies;
	/* The first error of the call under way (a READ's or WAIT's), and
	 * one of a frame nobody waited for (a write refused): the next call
	 * returns it. */
	int call_rc, posted_rc;
	char posted_err[256];
	/* What the last WAIT read: reads inside it are answered from it,
	 * once (until a read outside it, past its end, or a write). */
	bool snap;
	uint64_t snap_addr;
	size_t snap_len;
	uint8_t snap_buf[HP_SERIAL_DATA_MAX];
	int broken; /* the link failed (device gone, silent): this error */
} serial;

/* ---- serial_spec.c ---- */

/* The termios code of a rate hp_serial_baud_ok() takes (B0 otherwise). */
speed_t hp_serial_baud_code(uint32_t baud);

/* ---- serial_line.c ---- */

/* Sets s->t.err from @p fmt; returns @p code. */
__attribute__((format(printf, 3, 4))) int hp_serial_fail(serial *s, int code,
							 const char *fmt, ...);
int64_t hp_serial_now_ms(void);

/* Open s->dev, a Unix socket or a tty (s->spec's rate and flow control):
 * 0 or an HP_ error (in s->t.err). */
int hp_serial_open_line(serial *s);

/* Send the frame in s->wire (@p n bytes), paced if the link is; @p again:
 * a retransmission; @p seq: a BATCH's, or -1 for a HELLO, -2 for a
 * CREDIT (counted in s->t and logged). */
int hp_serial_transmit(serial *s, size_t n, bool again, int seq);

/* Read what the line has for up to @p ms: 1 (bytes in s->rx), 0 (none
 * came) or an HP_ error. */
int hp_serial_rx_some(serial *s, int ms);

/* Decode buffered bytes up to the next frame (true: it is in s->dec);
 * text on the way goes to the console. */
bool hp_serial_next_frame(serial *s);

/* Bytes written that the other end has not taken in yet. */
int hp_serial_unsent(serial *s);

/* Milliseconds @p bytes take on the line (0 unpaced), rounded up. */
int64_t hp_serial_wire_ms(serial *s, uint64_t bytes);

/* A line of the HP_SERIAL_TRACE log, if there is one. */
__attribute__((format(printf, 2, 3))) void
hp_serial_trace(serial *s, const char *fmt, ...);

/* ---- serial_link.c ---- */

/* Send the open frame (with a READ or WAIT last when @p dst: its bytes
 * go there), waiting for room in the window first. */
int hp_serial_send_batch(serial *s, uint8_t *dst, size_t dst_len,
			 uint32_t wait_ms);

/* Until every READ and WAIT sent is answered (or, @p all, every frame). */
int hp_serial_drain(serial *s, bool all);

#endif
