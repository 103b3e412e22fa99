/* SPDX-License-Identifier: MIT */
/**
 * @file libhartpool below its API: the mailbox protocol itself
 * (hartpool/mbox.h) and a raw packet onto a queue, for tests that send
 * what no API call would (malformed packets) and tools that speak the
 * protocol.
 */
#ifndef HARTPOOL_RAW_H
#define HARTPOOL_RAW_H

#include <hartpool.h>
#include <hartpool/mbox.h>

_Static_assert(HP_BARRIER_DEPS_MAX == HP_MBOX_BARRIER_DEPS,
	       "the API's dependency limit is the packet's");

/** Send a raw packet. @p ka may be NULL. */
int hp_enqueue_raw(hp_queue *q, const hp_packet *p, const hp_kernarg *ka,
		   hp_event *ev);

#endif
