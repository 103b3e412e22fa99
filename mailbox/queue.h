/* SPDX-License-Identifier: MIT */
/*
 * The host queues (mailbox-private): reading each queue's packets in
 * order, resolving the events they wait for, and handing each one to the
 * executor as a command (or completing it at once with its error).
 */
#ifndef MAILBOX_QUEUE_H
#define MAILBOX_QUEUE_H

#include <hartpool/mbox.h>
#include <stdbool.h>
#include <stdint.h>

/** Bytes of one queue's arrays in the mailbox: packets, kernarg blocks and
 * completion records, HP_MBOX_RING_SIZE of each. */
#define MBOX_QUEUE_BYTES                                                       \
	(HP_MBOX_RING_SIZE *                                                   \
	 (sizeof(hp_packet) + sizeof(hp_kernarg) + sizeof(hp_completion)))

/**
 * Lay out the queues: descriptor k at @p table[k], its arrays at
 * @p rings + k * MBOX_QUEUE_BYTES (all zero); nothing read yet. The
 * packet counters are @p hdr's. 0, or HP_OUT_OF_RESOURCES (no firmware
 * memory for the slots).
 */
int mbox_queue_init(hp_mbox_header *hdr, hp_mbox_queue *table, uint8_t *rings);

/** Read and start the packets that have arrived, at most a ring's worth
 * per queue; true if any. */
bool mbox_queue_poll(void);

/** Cancel every command of session @p sess that is not complete
 * (exec_cancel, HP_ABORTED); returns how many. */
unsigned mbox_queue_cancel_session(unsigned sess);

/** Give back the queues an ending session (token @p token) holds, once
 * none of its commands is left: packets never read complete as aborted,
 * the owner word goes back to 0. */
void mbox_queue_release_session(uint64_t token);

/** Is every command read so far complete? */
bool mbox_queue_all_complete(void);

/** The queue in whose host-written part [addr, addr + len) lies (the
 * host-owned words of its descriptor, its packets, its kernarg blocks),
 * or -1; *owner (may be NULL) gets its owner word. */
int mbox_queue_at(uint64_t addr, uint64_t len, uint64_t *owner);

#endif
