/* SPDX-License-Identifier: MIT */
/**
 * @file A device trace buffer (hartpool/trace.h) to a Trace Event Format
 * JSON file (trace_json.c), without a device: trace.c feeds it what it
 * read, the host unit test (tests/host/test_trace.c) feeds it made-up and
 * broken buffers.
 */
#ifndef HOST_TRACE_JSON_H
#define HOST_TRACE_JSON_H

#include <hartpool/error.h>
#include <hartpool/mbox.h>
#include <hartpool/trace.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** A command's lifetime from its completion record (device µs, as in
 * hp_event_info), for the queue tracks. */
typedef struct hp_trace_cmd {
	uint64_t cmd; /**< HP_EVENT(queue, index) */
	double queued_us, submit_us, start_us, end_us;
	int status;
	uint64_t groups;
} hp_trace_cmd;

/** What the records do not say. */
typedef struct hp_trace_meta {
	const char *board;
	/** 1: hart 0 only dispatches (its track is "dispatcher"). */
	unsigned first_worker;
	/** Host CLOCK_MONOTONIC µs when the device read t_on and t_off
	 * (midpoints of the handshakes), and half the handshakes' lengths:
	 * how far off they may be. host_off_us 0: not known. */
	double host_on_us, host_on_err_us;
	double host_off_us, host_off_err_us;
	/** The name of kernel id @p kernel, or NULL (then "kernel N"). */
	const char *(*kernel_name)(void *ctx, uint32_t kernel);
	void *ctx;
	/** Completion records of the traced commands (may be NULL). */
	const hp_trace_cmd *cmds;
	size_t num_cmds;
} hp_trace_meta;

/**
 * Check the trace buffer @p buf of @p size bytes (8-byte aligned) and write it
 * to @p out as a Trace Event Format JSON object: one process per device with
 * one thread per hart that has records (chunks, team-barrier waits and sleeps
 * as complete events, wake-ups, packets and completions as instants), one
 * process of queue tracks (each command's life, queued to end, as an async
 * slice), and otherData with the counts. Records that fail a check are
 * skipped and counted (@p st->bad); a header that fails one is
 * HP_INVALID_VALUE with the reason in @p why (@p why_size bytes), as is a
 * failed write (HP_OUT_OF_RESOURCES for host memory). 0 or an HP_ error.
 */
int hp_trace_json(const void *buf, size_t size, const hp_trace_meta *m,
		  FILE *out, hp_trace_stats *st, char *why, size_t why_size);

/** hp_trace_json()'s record check: 0 if @p r of hart @p hart (of @p h)
 * may be used, else a short reason. */
const char *hp_trace_rec_check(const hp_trace_header *h, unsigned hart,
			       const hp_trace_rec *r);

#endif
