// SPDX-License-Identifier: MIT
/* test_stress, one record per packet sent, by queue and index; harvesting
 * and judging their completions (stress.h). */
#include "stress.h"

#include <stdlib.h>
#include <string.h>

const char *const kind_name[] = {"good", "exact", "no-op", "random"};

rec *R;
unsigned nrec, maxrec;
hp_queue *Q[NQ];
unsigned qid[NQ];
uint32_t *qrec[NQ];
uint64_t qbase[NQ];
uint64_t qnext[NQ], qharv[NQ];
int64_t last_reject[NQ] = {-1, -1, -1};
hp_event last_deps[HP_MBOX_BARRIER_DEPS];
unsigned nlast_deps;
hp_event recent_good[32];
unsigned nrecent;
hp_buffer *allocs;
unsigned nallocs;
static unsigned maxallocs;
unsigned by_kind[4], valid_random, runtime_err;
uint64_t rejected;
struct stress_error_count errs[32];
unsigned nerrs;

static bool runtime_error(int st)
{
	return st == HP_ABORTED || st == HP_KERNEL_FAULT || st == HP_TIMEOUT;
}

static void count_error(int st)
{
	for (unsigned i = 0; i < nerrs; i++)
		if (errs[i].code == st) {
			errs[i].n++;
			return;
		}
	if (nerrs < 32)
		errs[nerrs].code = st, errs[nerrs++].n = 1;
}

static rec *rec_of(hp_event e)
{
	for (unsigned q = 0; q < NQ; q++)
		if (qid[q] == HP_EVENT_QUEUE(e))
			return &R[qrec[q][HP_EVENT_INDEX(e) - qbase[q]]];
	return NULL;
}

static void judge(rec *r, const hp_event_info *in)
{
	int st = in->status;
	r->status = st;
	r->done = true;
	const char *name = hp_error_name(st);
	unsigned q = HP_EVENT_QUEUE(r->ev);
	unsigned long long idx = HP_EVENT_INDEX(r->ev);
	if (st) {
		count_error(st);
		if (strcmp(name, "HP_UNKNOWN_ERROR") == 0)
			e2e_fail("%s packet '%s' (queue %u, packet %llu): "
				 "status "
				 "%d has no name",
				 kind_name[r->kind], r->what, q, idx, st);
		if (!in->detail[0])
			e2e_fail("%s packet '%s' (queue %u, packet %llu): %s "
				 "without a detail",
				 kind_name[r->kind], r->what, q, idx, name);
		if (runtime_error(st))
			runtime_err += r->kind != GOOD;
		else
			rejected++;
	}
	switch (r->kind) {
	case GOOD:
		if (st)
			e2e_fail(
				"valid packet '%s' (queue %u, packet %llu): %s "
				"(%s)",
				r->what, q, idx, name, in->detail);
		break;
	case EXACT:
		if (st != r->want)
			e2e_fail("malformed packet '%s' (queue %u, packet "
				 "%llu): "
				 "%s (%s), expected %s",
				 r->what, q, idx, name, st ? in->detail : "",
				 hp_error_name(r->want));
		break;
	default:
		if (st == 0) {
			valid_random++;
			if (r->type == HP_PKT_ALLOC && in->result) {
				if (nallocs == maxallocs) {
					maxallocs =
						maxallocs ? 2 * maxallocs : 64;
					allocs = realloc(
						allocs,
						maxallocs * sizeof(*allocs));
				}
				allocs[nallocs++] = in->result;
			}
		}
		break;
	}
}

/* After a wait that never ended: which packets are still incomplete. */
static void dump_incomplete(void)
{
	for (unsigned q = 0; q < NQ; q++) {
		unsigned shown = 0;
		printf("queue %u: harvested %llu of %llu\n", qid[q],
		       (unsigned long long)qharv[q],
		       (unsigned long long)qnext[q]);
		for (uint64_t i = qharv[q]; i < qnext[q] && shown < 8; i++) {
			rec *r = &R[qrec[q][i - qbase[q]]];
			if (hp_event_query(D, r->ev, NULL) != 1)
				continue;
			printf("  packet %llu (%s '%s') incomplete\n",
			       (unsigned long long)i, kind_name[r->kind],
			       r->what);
			shown++;
		}
	}
}

/* Read the completion record of queue q's oldest unharvested packet;
 * false if !block and it is not complete yet. */
bool harvest_one(unsigned q, bool block)
{
	rec *r = &R[qrec[q][qharv[q] - qbase[q]]];
	hp_event_info info;
	int rc = block ? hp_event_wait(D, r->ev, &info)
		       : hp_event_query(D, r->ev, &info);
	if (rc == 1 && !block)
		return false;
	if (rc == HP_TIMEOUT)
		dump_incomplete();
	if (rc)
		e2e_fatal("%s packet '%s' (queue %u, packet %llu) never "
			  "completed: %s: %s",
			  kind_name[r->kind], r->what, HP_EVENT_QUEUE(r->ev),
			  (unsigned long long)HP_EVENT_INDEX(r->ev),
			  hp_error_name(rc), hp_last_error());
	judge(r, &info);
	qharv[q]++;
	return true;
}

/* A completion record is reused a ring later: read it before that. */
void make_room(unsigned q)
{
	while (qnext[q] >= qharv[q] + RING)
		harvest_one(q, true);
}

void harvest_ready(void)
{
	for (unsigned q = 0; q < NQ; q++)
		while (qharv[q] < qnext[q] && harvest_one(q, false))
			;
}

unsigned record(unsigned q, hp_event ev, uint8_t kind, uint8_t type, int want,
		const char *what)
{
	if (HP_EVENT_QUEUE(ev) != qid[q] || HP_EVENT_INDEX(ev) != qnext[q])
		e2e_fatal("event %u:%llu, expected %u:%llu", HP_EVENT_QUEUE(ev),
			  (unsigned long long)HP_EVENT_INDEX(ev), qid[q],
			  (unsigned long long)qnext[q]);
	if (nrec == maxrec)
		e2e_fatal("more packets than records");
	rec *r = &R[nrec];
	*r = (rec){.ev = ev,
		   .what = what,
		   .want = want,
		   .kind = kind,
		   .type = type};
	if (trace)
		fprintf(stderr, "%u: %s '%s' on queue %u packet %llu\n", nrec,
			kind_name[kind], what, qid[q],
			(unsigned long long)qnext[q]);
	qrec[q][qnext[q]++ - qbase[q]] = nrec;
	by_kind[kind]++;
	if (kind == GOOD) {
		r->ndeps = (uint8_t)nlast_deps;
		memcpy(r->deps, last_deps, nlast_deps * sizeof(hp_event));
		nlast_deps = 0;
		recent_good[nrecent % 32] = ev;
		nrecent++;
	}
	return nrec++;
}

/* What the first valid packets that failed waited for, and how that
 * ended: a failure of its own, or one it inherited (HP_ABORTED). */
void report_failed_deps(void)
{
	unsigned shown = 0;
	for (unsigned i = 0; i < nrec && shown < 3; i++) {
		const rec *r = &R[i];
		if (r->kind != GOOD || !r->status)
			continue;
		shown++;
		printf("valid packet '%s' (queue %u, packet %llu) ended %s; it "
		       "waited for:%s\n",
		       r->what, HP_EVENT_QUEUE(r->ev),
		       (unsigned long long)HP_EVENT_INDEX(r->ev),
		       hp_error_name(r->status), r->ndeps ? "" : " nothing");
		for (unsigned k = 0; k < r->ndeps; k++) {
			const rec *d = rec_of(r->deps[k]);
			printf("  queue %u packet %llu (%s '%s'): %s\n",
			       HP_EVENT_QUEUE(r->deps[k]),
			       (unsigned long long)HP_EVENT_INDEX(r->deps[k]),
			       kind_name[d->kind], d->what,
			       hp_error_name(d->status));
		}
	}
}
