/* SPDX-License-Identifier: MIT */
/**
 * @file The device trace buffer (docs/trace.md): what the firmware writes
 * into a buffer of the device heap while tracing is on, and what the host
 * library reads back and turns into a Trace Event Format file. One header
 * for both sides.
 *
 * Turning it on and off goes through the mailbox header (hartpool/mbox.h:
 * trace_buf, trace_size, trace_gen written by the host; trace_ack,
 * trace_status by the device). The buffer:
 *
 *   hp_trace_header                       64 bytes, written by the device
 *   hp_trace_hart[harts]                  64 bytes each: counts per hart
 *   hp_trace_rec[harts][per_hart]         40 bytes each
 *
 * Every hart writes only its own row, so recording takes no atomics; a
 * full row drops further records and counts them (`dropped`), it never
 * wraps, so a record below `written` is never rewritten and the host can
 * read while harts still write. `written` is stored with release after
 * the record. The device only writes the buffer, never reads it back (a
 * host scribbling over it changes nothing on the device), and the host
 * checks every record before it uses one (host/lib/trace_json.c).
 */
#ifndef HARTPOOL_TRACE_H
#define HARTPOOL_TRACE_H

#include <stdint.h>

#define HP_TRACE_MAGIC 0x3145434152545048ull /* "HPTRACE1" */
#define HP_TRACE_VERSION 1u

/** Smallest buffer the device accepts (the header, one hart row and one
 * record for one hart; the device fits as many records per hart as the
 * size allows, and refuses a buffer without room for one per hart). */
#define HP_TRACE_MIN_SIZE 192u
/** Alignment of the buffer's address. */
#define HP_TRACE_ALIGN 64u

/** A record's command when it has none (sleeps, wake-ups, commands not
 * from the mailbox). Else the command's event: HP_EVENT(queue, index). */
#define HP_TRACE_NO_CMD UINT64_MAX

enum hp_trace_kind {
	HP_TRACE_NONE = 0,
	/** A chunk of work-groups [first, first + count) of `cmd`, run by
	 * this hart from t for dur ticks; aux: 0, or for a work-group spread
	 * over a team, the hart's rank + 1. */
	HP_TRACE_CHUNK = 1,
	/** A wait at the team barrier of a work-group spread over harts. */
	HP_TRACE_BARRIER = 2,
	/** Asleep (wfi) for lack of work, from t for dur ticks. */
	HP_TRACE_SLEEP = 3,
	/** This hart woke hart `first` (an IPI) for new work. */
	HP_TRACE_WAKE = 4,
	/** The dispatcher took packet `cmd` off its queue: aux = packet
	 * type, first = the kernel id of a dispatch, count = 0, or the HP_
	 * error it was rejected with (as uint32_t). */
	HP_TRACE_PACKET = 5,
	/** Command `cmd` completed on this hart; count = its status (as
	 * uint32_t). */
	HP_TRACE_DONE = 6,
	HP_TRACE_KINDS
};

typedef struct hp_trace_header {
	uint64_t magic;	      /**< HP_TRACE_MAGIC */
	uint32_t version;     /**< HP_TRACE_VERSION */
	uint32_t harts;	      /**< rows */
	uint32_t per_hart;    /**< records per row */
	uint32_t record_size; /**< sizeof(hp_trace_rec) */
	uint64_t timer_hz;    /**< ticks per second of t and dur */
	uint64_t t_on;	      /**< ticks when tracing went on */
	uint64_t t_off;	      /**< ticks when it went off (0: still on) */
	uint32_t gen;	      /**< the trace_gen it was started with */
	uint32_t reserved[3];
} hp_trace_header;

typedef struct hp_trace_hart {
	uint32_t written; /**< records in the row; release after each */
	uint32_t dropped; /**< records that did not fit */
	uint32_t reserved[14];
} hp_trace_hart;

typedef struct hp_trace_rec {
	uint64_t t;	/**< device ticks: start, or the instant */
	uint64_t cmd;	/**< HP_EVENT(queue, index) or HP_TRACE_NO_CMD */
	uint64_t first; /**< see hp_trace_kind */
	uint32_t dur;	/**< ticks (saturating), 0 for instants */
	uint16_t kind;	/**< hp_trace_kind */
	uint16_t aux;	/**< see hp_trace_kind */
	uint32_t count; /**< see hp_trace_kind */
	uint32_t spare; /**< 0 */
} hp_trace_rec;

/** What the host library made of a trace (hp_trace_stop() in hartpool.h). */
typedef struct hp_trace_stats {
	uint64_t records;  /**< device records written as events */
	uint64_t dropped;  /**< records the device had no room for */
	uint64_t bad;	   /**< records skipped: they failed a check */
	uint32_t harts;	   /**< harts with at least one record */
	uint32_t commands; /**< commands with a queue track */
} hp_trace_stats;

#ifdef __cplusplus
#define HP_TRACE_ASSERT_ static_assert
#else
#define HP_TRACE_ASSERT_ _Static_assert
#endif
HP_TRACE_ASSERT_(sizeof(hp_trace_header) == 64, "trace header size");
HP_TRACE_ASSERT_(sizeof(hp_trace_hart) == 64, "trace hart row size");
HP_TRACE_ASSERT_(sizeof(hp_trace_rec) == 40, "trace record size");
#undef HP_TRACE_ASSERT_

#endif
