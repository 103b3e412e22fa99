/* SPDX-License-Identifier: MIT */
/*
 * Tracing as the host asks for it through the mailbox header (trace.c,
 * docs/trace.md): the dispatcher applies each new trace_gen.
 */
#ifndef MAILBOX_TRACE_CTL_H
#define MAILBOX_TRACE_CTL_H

#include <hartpool/mbox.h>
#include <stdbool.h>

/* At every poll: if the host wrote a new trace_gen, end the current trace
 * and start the one asked for (a buffer inside one allocated buffer), then
 * answer in trace_ack / trace_status. One load when nothing changed. */
void mbox_trace_poll(hp_mbox_header *h);
/* At boot (dispatch_init): no trace is on, none acknowledged. */
void mbox_trace_init(void);
/* Session @p sess is being reclaimed: a trace into one of its buffers
 * ends. True once none does (false: a hart is still inside a record; ask
 * again at a later poll). */
bool mbox_trace_release(unsigned sess);

#endif
