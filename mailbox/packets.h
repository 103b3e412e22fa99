/* SPDX-License-Identifier: MIT */
/*
 * The packet types (mailbox-private): for each, how it is decoded and
 * validated into its slot's command, and what it does once it is read.
 * The reader (queue.c) calls, for every packet:
 *
 *   mbox_pkt_decode  - check every field, fill the command and the events
 *                      it waits for; nothing the host sees changes (a
 *                      FREE marks its buffer, a dispatch resets its printf
 *                      buffer's header);
 *   mbox_pkt_undo    - if a dependency cannot be read yet: give back what
 *                      decode took (the packet is read again later);
 *   mbox_pkt_commit  - once its dependencies are resolved: what the packet
 *                      does besides its command (INFO, ALLOC, LOAD,
 *                      UNLOAD).
 */
#ifndef MAILBOX_PACKETS_H
#define MAILBOX_PACKETS_H

#include "internal.h"
#include <stddef.h>
#include <stdint.h>

/** A packet being read. */
typedef struct mbox_pkt {
	const hp_packet *p;   /**< the packet, copied out of the ring */
	const hp_kernarg *ka; /**< its slot's kernarg block (shared) */
	mbox_slot *s;	      /**< its slot, reset; s->cmd: the command */
	int sess;	      /**< the session of its queue (session.h) */
	uint64_t ev[HP_MBOX_MAX_WAIT]; /**< events it waits for */
	unsigned nwait;
	const char *why; /**< with an HP_ error: what is wrong */
	char *buf;	 /**< room for a `why` with numbers in it */
	size_t buf_size;
} mbox_pkt;

/** Decode and validate packet x->p (its header read once, in x->p). 0 or
 * an HP_ error with x->why. */
int mbox_pkt_decode(mbox_pkt *x);

/** The packet waits for a dependency: undo what mbox_pkt_decode took. */
void mbox_pkt_undo(mbox_pkt *x);

/** Dependencies resolved: do what the packet asks besides its command. 0
 * or an HP_ error with x->why. */
int mbox_pkt_commit(mbox_pkt *x);

/** What INFO reports about the device besides the executor's limits. */
typedef struct mbox_dev_desc {
	uint64_t dram_size;	 /**< 0: unknown */
	const char *board;	 /**< NULL: "?" */
	const char *privilege;	 /**< "M" or "S"; NULL: "?" */
	uint32_t harts_skipped;	 /**< harts the firmware does not use */
	const char *skipped_why; /**< those and why; NULL: "" */
	uint32_t features;	 /**< HP_DEV_HAS_* */
	uint32_t slice_us;	 /**< time slice between sessions, 0: none */
} mbox_dev_desc;

/** Set once at init; the strings must outlive the mailbox. */
void mbox_pkt_init(const mbox_dev_desc *d);

/** The device description (INFO, and the mailbox header's copy). */
void mbox_pkt_dev_info(hp_device_info *info);

#endif
