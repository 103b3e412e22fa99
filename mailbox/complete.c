// SPDX-License-Identifier: MIT
/*
 * Completion records (complete.h). Whichever hart completes a command
 * writes its record: the dispatcher for a packet it rejected, the hart
 * that finished the last work-group of a launch.
 */
#include "complete.h"
#include "heap.h"
#include "internal.h"
#include "kobj.h"
#include "session.h"
#include "words.h"
#include <executor/trace.h>
#include <hal/atomic.h>
#include <hal/hart.h>
#include <hal/ipi.h>
#include <hartpool/error.h>

static uintptr_t watched; /* mbox_complete_watch() */

void mbox_complete_watch(uint64_t addr)
{
	hal_store_relaxed(&watched, (uintptr_t)addr);
	/* Against the completer's store-then-load below: one of the two
	 * sees the other's store (else the dispatcher's next check, at
	 * most poll_us later, answers). */
	hal_fence();
}

static void copy_detail(char *dst, const char *s)
{
	size_t i = 0;
	for (; s && s[i] && i < MBOX_DETAIL_SIZE - 1; i++)
		dst[i] = s[i];
	dst[i] = 0;
}

void mbox_complete(exec_cmd *c, int status)
{
	mbox_slot *s = c->user;
	mbox_queue *q = s->q;
	if (s->obj)
		mbox_kobj_put(s->obj);
	/* A FREE that failed (its wait list, a failed dependency) leaves the
	 * buffer allocated and freeable. */
	if (s->free_addr) {
		if (status == 0) {
			mbox_heap_free(s->free_addr);
			mbox_session_touch();
		} else {
			mbox_heap_unmark(s->free_addr);
		}
	}
	/* Before the record: a host that sees it complete sees the session's
	 * count without it. */
	if (s->sess != MBOX_NO_SESSION)
		mbox_session_cmd_done((unsigned)s->sess);
	hp_completion *r = &q->comp[s->index % HP_MBOX_RING_SIZE];
	r->status = status;
	r->hart = hal_hart_idx();
	r->t_queued = c->t_queued;
	r->t_submit = c->t_submit;
	r->t_start = c->t_start;
	r->t_end = c->t_end;
	r->result = s->result;
	r->result2 = s->result2;
	r->groups = c->kernel ? c->launch.total_groups : 0;
	for (unsigned d = 0; d < 3; d++)
		r->local[d] = c->kernel ? (uint32_t)c->launch.local_size[d] : 0;
	/* Where a trap stopped the kernel, else zeros. */
	static const exec_fault_info none;
	const exec_fault_info *f = c->fault_set ? &c->fault : &none;
	r->fault_pc = f->pc;
	r->fault_addr = f->addr;
	r->fault_cause = (uint32_t)(f->cause >> (8 * sizeof(long) - 1)
					    ? f->cause | HP_FAULT_INTERRUPT
					    : f->cause);
	r->fault_hart = f->hart;
	for (unsigned d = 0; d < 3; d++)
		r->fault_group[d] = f->group[d];
	copy_detail(r->detail,
		    status ? (s->detail		? s->detail
			      : c->error_detail ? c->error_detail
						: hp_error_text(status))
			   : "");
	EXEC_TRACE_INSTANT(HP_TRACE_DONE, c, 0, (uint32_t)status, 0);
	mbox_st64(&r->done, s->index + 1);
	hal_fence();
	/* After the record: a host the bell wakes finds it written. */
	if (s->sess != MBOX_NO_SESSION)
		mbox_session_record_done((unsigned)s->sess);
	if (hal_load_relaxed(&watched) == (uintptr_t)&r->done &&
	    hal_hart_idx() != 0)
		hal_ipi_send(0);
}
