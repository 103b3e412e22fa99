// SPDX-License-Identifier: MIT
/*
 * The host's trace requests (trace_ctl.h). The host writes trace_buf and
 * trace_size and its session's token, then a new trace_gen; the dispatcher
 * checks the buffer lies in one buffer of that session (the trace ends
 * when the session does; the device never writes anywhere
 * else for a trace), ends the trace that was on, starts the new one
 * (executor/trace.c lays it out) and acknowledges with trace_ack = gen,
 * trace_status = 0 or HP_INVALID_VALUE. trace_buf 0 only ends the trace;
 * after the acknowledgement no hart writes the old buffer, so the host may
 * read and free it.
 */
#include "trace_ctl.h"
#include "heap.h"
#include "session.h"
#include "words.h"
#include <executor/trace.h>
#include <hal/atomic.h>
#include <hartpool/error.h>

static uint32_t trace_applied; /* the last trace_gen acknowledged */
static int trace_sess = -1;    /* whose buffer the trace is in, or -1 */

void mbox_trace_init(void)
{
	/* A host test may lay out a mailbox again: the trace of the last
	 * one must not go on into memory it no longer owns. */
	while (!exec_trace_stop())
		continue;
	trace_applied = 0;
	trace_sess = -1;
}

void mbox_trace_poll(hp_mbox_header *h)
{
	uint32_t gen = hal_load_acquire(&h->trace_gen);
	if (gen == trace_applied)
		return;
	/* A hart still inside a record delays the end to a later poll
	 * (a few stores away; the dispatcher never waits for it). */
	if (!exec_trace_stop())
		return;
	uint64_t buf = mbox_ld64(&h->trace_buf);
	uint64_t size = mbox_ld64(&h->trace_size);
	int status = 0;
	trace_sess = -1;
	if (buf) {
		int owner = mbox_session_find(mbox_ld64(&h->trace_owner));
		if (size > UINTPTR_MAX || owner < 0 ||
		    !mbox_heap_holds((unsigned)owner, buf, size))
			status = HP_INVALID_VALUE;
		else
			status = exec_trace_start(mbox_ptr(buf), size, gen);
		if (owner >= 0 && !status)
			trace_sess = owner;
	}
	trace_applied = gen;
	hal_store_relaxed(&h->trace_status, (int32_t)status);
	hal_store_release(&h->trace_ack, gen);
}

bool mbox_trace_release(unsigned sess)
{
	if (trace_sess != (int)sess)
		return true;
	if (!exec_trace_stop())
		return false;
	trace_sess = -1;
	return true;
}
