// SPDX-License-Identifier: MIT
/*
 * Device-side tracing (trace.h, hartpool/trace.h, docs/trace.md).
 *
 * Each hart appends to its own row of the trace buffer, so a record costs
 * a timer read and a few stores, no atomics on shared lines. A full row
 * drops records and counts them; it never wraps (the host reads rows while
 * harts may still write).
 *
 * Ending a trace must not race with a hart that is writing a record: the
 * buffer goes back to the host, which frees it. A hart marks itself busy,
 * fences, then checks that tracing is still on; the stopper turns it off,
 * fences, then checks that no hart is busy (Dekker's pattern: with both
 * fences one of the two sees the other). A busy hart is inside a few
 * stores, so the stopper does not wait for it: exec_trace_stop() returns
 * false and the dispatcher asks again at its next poll.
 */
#include "trace.h"
#include <hal/hart.h>
#include <hal/timer.h>
#include <string.h>

/* The per-hart state: firmware-private, written by its own hart only
 * while tracing is on (exec_trace_start() sets it up while it is off). */
typedef struct trace_hart {
	hp_trace_rec *rec;  /* its row's records */
	hp_trace_hart *row; /* its row's counts (shared with the host) */
	uint32_t n, dropped;
	unsigned busy; /* inside put() */
	uint64_t cur;  /* the command of the running chunk + 1; 0: none */
	/* The last record, when it is a sleep: where it is, when it began
	 * and ended (a sleep right after it extends it). */
	hp_trace_rec *sleep;
	uint64_t sleep_t, sleep_end;
	uint32_t sleeps;
} __attribute__((aligned(64))) trace_hart;

/* Sleeps this close together are one (the dispatcher wakes every 10 us
 * while packets come, and would fill its row with them): ticks at 1 MHz
 * and up, scaled in exec_trace_start(). */
#define SLEEP_GAP_US 50u

unsigned exec_trace_active;
static trace_hart trace_harts[HAL_MAX_HARTS];
static struct {
	hp_trace_header *hdr;
	uint32_t per_hart;
	uint64_t sleep_gap; /* ticks */
	uint64_t t_on;	    /* ticks when this trace began */
	bool on; /* started and not yet stopped (the controlling hart's) */
} T;

static uint64_t cmd_id(const exec_cmd *c)
{
	return c && c->trace_id ? c->trace_id - 1 : HP_TRACE_NO_CMD;
}

/* Append r to the calling hart's row, if tracing is still on. A sleep
 * that follows the hart's last record, a sleep, within the gap extends
 * that one instead (its dur and count; the host may see either value). */
static void put(const hp_trace_rec *r)
{
	unsigned me = hal_hart_idx();
	if (me >= HAL_MAX_HARTS)
		return;
	trace_hart *h = &trace_harts[me];
	hal_store_relaxed(&h->busy, 1u);
	hal_fence();
	if (hal_load_acquire(&exec_trace_active) && h->rec) {
		/* A span begun under an earlier trace (a hart asleep across
		 * a stop and a start) is kept from this trace's start on. */
		hp_trace_rec clip;
		if (r->t < T.t_on) {
			uint64_t end = r->t + r->dur;
			clip = *r;
			clip.t = T.t_on;
			clip.dur = end > T.t_on ? (uint32_t)(end - T.t_on) : 0;
			r = &clip;
		}
		uint64_t end = r->t + r->dur;
		if (r->kind == HP_TRACE_SLEEP && h->sleep &&
		    r->t - h->sleep_end <= T.sleep_gap &&
		    end - h->sleep_t <= UINT32_MAX) {
			h->sleep_end = end;
			hal_store_relaxed(&h->sleep->dur,
					  (uint32_t)(end - h->sleep_t));
			hal_store_relaxed(&h->sleep->count, ++h->sleeps);
		} else if (h->n < T.per_hart) {
			hp_trace_rec *at = &h->rec[h->n];
			memcpy(at, r, sizeof(*r));
			h->n++;
			hal_store_release(&h->row->written, h->n);
			bool sleep = r->kind == HP_TRACE_SLEEP;
			h->sleep = sleep ? at : NULL;
			h->sleep_t = r->t;
			h->sleep_end = end;
			h->sleeps = 1;
		} else {
			h->dropped++;
			hal_store_release(&h->row->dropped, h->dropped);
		}
	}
	hal_store_release(&h->busy, 0u);
}

uint64_t exec_trace_begin(const exec_cmd *c)
{
	unsigned me = hal_hart_idx();
	if (c && me < HAL_MAX_HARTS)
		trace_harts[me].cur = cmd_id(c) + 1;
	return hal_timer_now();
}

void exec_trace_end(unsigned kind, uint64_t t0, uint64_t first, uint64_t count,
		    unsigned aux)
{
	uint64_t t1 = hal_timer_now();
	unsigned me = hal_hart_idx();
	uint64_t cur = me < HAL_MAX_HARTS ? trace_harts[me].cur : 0;
	bool of_cmd = kind == HP_TRACE_CHUNK || kind == HP_TRACE_BARRIER;
	hp_trace_rec r = {
		.t = t0,
		.cmd = of_cmd && cur ? cur - 1 : HP_TRACE_NO_CMD,
		.first = first,
		.dur = t1 - t0 > UINT32_MAX ? UINT32_MAX : (uint32_t)(t1 - t0),
		.kind = (uint16_t)kind,
		.aux = (uint16_t)aux,
		.count = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count,
	};
	put(&r);
	if (kind == HP_TRACE_CHUNK && me < HAL_MAX_HARTS)
		trace_harts[me].cur = 0;
}

void exec_trace_instant(unsigned kind, const exec_cmd *c, uint64_t first,
			uint64_t count, unsigned aux)
{
	hp_trace_rec r = {
		.t = hal_timer_now(),
		.cmd = cmd_id(c),
		.first = first,
		.kind = (uint16_t)kind,
		.aux = (uint16_t)aux,
		.count = (uint32_t)count,
	};
	put(&r);
}

bool exec_trace_on(void)
{
	return T.on;
}

int exec_trace_start(void *buf, uint64_t size, uint32_t gen)
{
	unsigned harts = exec_dev.harts;
	uint64_t fixed =
		sizeof(hp_trace_header) + harts * sizeof(hp_trace_hart);
	if (T.on || !buf || (uintptr_t)buf % HP_TRACE_ALIGN ||
	    harts > HAL_MAX_HARTS || size < fixed ||
	    (size - fixed) / sizeof(hp_trace_rec) < harts)
		return HP_INVALID_VALUE;
	uint64_t per = (size - fixed) / sizeof(hp_trace_rec) / harts;
	T.per_hart = per > UINT32_MAX ? UINT32_MAX : (uint32_t)per;
	hp_trace_header *hdr = buf;
	hp_trace_hart *rows = (hp_trace_hart *)(hdr + 1);
	hp_trace_rec *rec = (hp_trace_rec *)(rows + harts);
	memset(rows, 0, harts * sizeof(*rows));
	for (unsigned i = 0; i < harts; i++) {
		trace_hart *h = &trace_harts[i];
		h->rec = rec + (size_t)i * T.per_hart;
		h->row = &rows[i];
		h->n = 0;
		h->dropped = 0;
		h->sleep = NULL;
	}
	T.sleep_gap = hal_timer_freq() * SLEEP_GAP_US / 1000000u;
	T.t_on = hal_timer_now();
	*hdr = (hp_trace_header){
		.magic = HP_TRACE_MAGIC,
		.version = HP_TRACE_VERSION,
		.harts = harts,
		.per_hart = T.per_hart,
		.record_size = sizeof(hp_trace_rec),
		.timer_hz = hal_timer_freq(),
		.t_on = T.t_on,
		.gen = gen,
	};
	T.hdr = hdr;
	T.on = true;
	/* Everything above before any hart sees tracing on (put() reads
	 * exec_trace_active with acquire). */
	hal_store_release(&exec_trace_active, 1u);
	return 0;
}

bool exec_trace_stop(void)
{
	if (!T.on)
		return true;
	hal_store_relaxed(&exec_trace_active, 0u);
	hal_fence();
	for (unsigned i = 0; i < exec_dev.harts && i < HAL_MAX_HARTS; i++)
		if (hal_load_acquire(&trace_harts[i].busy))
			return false;
	T.hdr->t_off = hal_timer_now();
	for (unsigned i = 0; i < exec_dev.harts && i < HAL_MAX_HARTS; i++)
		trace_harts[i].rec = NULL;
	T.hdr = NULL;
	T.on = false;
	hal_fence();
	return true;
}
