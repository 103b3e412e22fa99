/* SPDX-License-Identifier: MIT */
/*
 * Device-side tracing (trace.c, docs/trace.md): every hart appends
 * fixed-size records (hartpool/trace.h) to its own row of a trace buffer
 * while tracing is on.
 *
 * The hooks in the pool, the team barrier and the mailbox are macros of
 * this file: with tracing off each is one load of exec_trace_active and
 * one branch not taken (its statement runs as it would without the hook),
 * and they sit per chunk of work-groups, per team-barrier wait, per sleep,
 * per wake-up and per packet, never in a work-item loop. Built with
 * -DEXEC_TRACE=0 they are the bare statements (how the cost of the branch
 * is measured: docs/trace.md).
 */
#ifndef EXECUTOR_TRACE_H
#define EXECUTOR_TRACE_H

#include "exec.h"
#include <hal/atomic.h>
#include <hartpool/trace.h>
#include <stdint.h>

#ifndef EXEC_TRACE
#define EXEC_TRACE 1
#endif

/* Non-zero while tracing is on (the only word the hooks read when off). */
extern unsigned exec_trace_active;

/* Start tracing into [buf, buf + size) (the caller checked that the
 * device may write there): lays out the header and one row per hart.
 * 0, or HP_INVALID_VALUE (misaligned, too small for one record per hart).
 * Called by the one hart that controls tracing (the dispatcher). */
int exec_trace_start(void *buf, uint64_t size, uint32_t gen);
/* Stop: no hart writes the buffer after this returns true. False: a hart
 * is still inside a record; call again later (never waits). */
bool exec_trace_stop(void);
/* Is tracing on (after a start, until a stop returned true)? */
bool exec_trace_on(void);

/* What the hooks call when tracing is on. */
uint64_t exec_trace_begin(const exec_cmd *c);
void exec_trace_end(unsigned kind, uint64_t t0, uint64_t first, uint64_t count,
		    unsigned aux);
void exec_trace_instant(unsigned kind, const exec_cmd *c, uint64_t first,
			uint64_t count, unsigned aux);

#if EXEC_TRACE
#define EXEC_TRACE_IS_ON()                                                     \
	__builtin_expect(hal_load_relaxed(&exec_trace_active) != 0, 0)
/* Run the statement(s) after `aux`, recorded as a span of `kind` for
 * command `c` (may be NULL) with groups [first, first + count). */
#define EXEC_TRACE_SPAN(kind, c, first, count, aux, ...)                       \
	do {                                                                   \
		if (EXEC_TRACE_IS_ON()) {                                      \
			uint64_t exec_trace_t0_ = exec_trace_begin(c);         \
			__VA_ARGS__;                                           \
			exec_trace_end(kind, exec_trace_t0_, first, count,     \
				       aux);                                   \
		} else {                                                       \
			__VA_ARGS__;                                           \
		}                                                              \
	} while (0)
/* An instant record of `kind`. */
#define EXEC_TRACE_INSTANT(kind, c, first, count, aux)                         \
	do {                                                                   \
		if (EXEC_TRACE_IS_ON())                                        \
			exec_trace_instant(kind, c, first, count, aux);        \
	} while (0)
#else
#define EXEC_TRACE_SPAN(kind, c, first, count, aux, ...)                       \
	do {                                                                   \
		__VA_ARGS__;                                                   \
	} while (0)
#define EXEC_TRACE_INSTANT(kind, c, first, count, aux)                         \
	do {                                                                   \
	} while (0)
#endif

#endif
