// SPDX-License-Identifier: MIT
/*
 * A device trace buffer to Trace Event Format JSON (trace_json.h), the
 * format chrome://tracing and ui.perfetto.dev open. Nothing in the buffer
 * is trusted: the header's layout must fit the bytes read, every record
 * passes hp_trace_rec_check() or is skipped and counted, and every string
 * that came from the device (kernel names) is escaped.
 *
 * Each track's events are written in time order, parents before the
 * events they contain (a chunk before the team-barrier waits inside it),
 * which is what the viewers need to nest them.
 */
#include "trace_json.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A record that passed the checks, placed in time. */
typedef struct ev {
	double ts, dur; /* µs */
	unsigned hart;
	const hp_trace_rec *r;
} ev;

/* What the PACKET records say about a command. */
typedef struct cmd_info {
	uint64_t cmd;
	uint32_t kernel;
	uint16_t type;
	double ts; /* the packet's instant */
} cmd_info;

/* A queue-track event: the begin or end of a command's phase. */
typedef struct qev {
	double ts;
	uint64_t cmd;
	char ph;	       /* 'b' or 'e' */
	unsigned phase;	       /* 0: its life, 1: running */
	const hp_trace_cmd *c; /* for args, or NULL */
} qev;

static const char *const pkt_names[HP_PKT_TYPES] = {
	"INVALID", "KERNEL_DISPATCH", "BARRIER_AND", "MARKER", "COPY",	 "FILL",
	"INFO",	   "ALLOC",	      "FREE",	     "LOAD",   "UNLOAD",
};

const char *hp_trace_rec_check(const hp_trace_header *h, unsigned hart,
			       const hp_trace_rec *r)
{
	if (r->kind == HP_TRACE_NONE || r->kind >= HP_TRACE_KINDS)
		return "unknown kind";
	if (r->spare)
		return "a reserved field is set";
	if (r->t < h->t_on)
		return "before the trace began";
	uint64_t last = h->t_off ? h->t_off : UINT64_MAX;
	if (r->t > last || r->dur > last - r->t)
		return "after the trace ended";
	bool cmd = r->cmd != HP_TRACE_NO_CMD;
	if (cmd && HP_EVENT_QUEUE(r->cmd) >= HP_MBOX_QUEUES)
		return "names no queue";
	bool instant = r->kind == HP_TRACE_WAKE || r->kind == HP_TRACE_PACKET ||
		       r->kind == HP_TRACE_DONE;
	if (instant && r->dur)
		return "an instant with a duration";
	switch (r->kind) {
	case HP_TRACE_CHUNK:
		if (!r->count || r->first > UINT64_MAX - r->count)
			return "a chunk of no groups";
		if (r->aux > h->harts)
			return "a team rank beyond the harts";
		break;
	case HP_TRACE_BARRIER:
		if (r->first || r->count || r->aux)
			return "a barrier with groups";
		break;
	case HP_TRACE_SLEEP:
		if (cmd || !r->count || r->first || r->aux)
			return "a sleep of a command";
		break;
	case HP_TRACE_WAKE:
		if (cmd || r->first >= h->harts || r->first == hart)
			return "wakes no other hart";
		break;
	case HP_TRACE_PACKET:
		if (!cmd || !r->aux || r->aux >= HP_PKT_TYPES)
			return "a packet of no type";
		break;
	case HP_TRACE_DONE:
		if (!cmd || r->first || r->aux)
			return "a completion of no command";
		break;
	}
	return NULL;
}

static int cmp_ev(const void *a, const void *b)
{
	const ev *x = a, *y = b;
	if (x->hart != y->hart)
		return x->hart < y->hart ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur) /* the longer one contains the other */
		return x->dur > y->dur ? -1 : 1;
	return x->r < y->r ? -1 : x->r > y->r;
}

static int cmp_info(const void *a, const void *b)
{
	const cmd_info *x = a, *y = b;
	return x->cmd < y->cmd ? -1 : x->cmd > y->cmd;
}

static int cmp_qev(const void *a, const void *b)
{
	const qev *x = a, *y = b;
	unsigned qa = HP_EVENT_QUEUE(x->cmd), qb = HP_EVENT_QUEUE(y->cmd);
	if (qa != qb)
		return qa < qb ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* At one instant: a command's life begins, its running phase
	 * begins and ends, its life ends (a phase of no length nests);
	 * another command's ends come before its begins. */
	unsigned ox = x->ph == 'b' ? x->phase : 3 - x->phase;
	unsigned oy = y->ph == 'b' ? y->phase : 3 - y->phase;
	if (x->cmd == y->cmd)
		return ox < oy ? -1 : ox > oy;
	if (x->ph != y->ph)
		return x->ph == 'e' ? -1 : 1;
	return x->cmd < y->cmd ? -1 : 1;
}

/* A JSON string of at most n bytes of s. */
static void json_str(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t k = 0; k < n && s[k]; k++) {
		unsigned char c = (unsigned char)s[k];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

typedef struct writer {
	FILE *f;
	const hp_trace_meta *m;
	const cmd_info *info;
	size_t ninfo;
	bool first; /* no event written yet */
} writer;

/* Start the next element of traceEvents. */
static void next(writer *w)
{
	fputs(w->first ? "\n" : ",\n", w->f);
	w->first = false;
}

static const cmd_info *find_info(const cmd_info *info, size_t n, uint64_t cmd)
{
	cmd_info key = {.cmd = cmd};
	return n ? bsearch(&key, info, n, sizeof(key), cmp_info) : NULL;
}

/* The name of command `cmd`: its kernel's, else its packet type's. */
static void cmd_name(const writer *w, uint64_t cmd)
{
	const cmd_info *i = cmd == HP_TRACE_NO_CMD
				    ? NULL
				    : find_info(w->info, w->ninfo, cmd);
	if (!i) {
		json_str(w->f, cmd == HP_TRACE_NO_CMD ? "work" : "command",
			 SIZE_MAX);
		return;
	}
	if (i->type != HP_PKT_KERNEL_DISPATCH) {
		json_str(w->f, pkt_names[i->type], SIZE_MAX);
		return;
	}
	const char *n = w->m->kernel_name
				? w->m->kernel_name(w->m->ctx, i->kernel)
				: NULL;
	if (n) {
		json_str(w->f, n, 64);
	} else {
		fprintf(w->f, "\"kernel %u\"", i->kernel);
	}
}

static void cmd_arg(FILE *f, uint64_t cmd)
{
	if (cmd == HP_TRACE_NO_CMD)
		fputs("null", f);
	else
		fprintf(f, "\"%u:%llu\"", HP_EVENT_QUEUE(cmd),
			(unsigned long long)HP_EVENT_INDEX(cmd));
}

static void status_arg(FILE *f, int status)
{
	json_str(f, status ? hp_error_name(status) : "OK", SIZE_MAX);
}

/* The args of a packet or done instant: the command, its name and the
 * status (in the record's count), closing the event. */
static void cmd_status_args(const writer *w, FILE *f, const hp_trace_rec *r)
{
	cmd_arg(f, r->cmd);
	fputs(", \"command\": ", f);
	cmd_name(w, r->cmd);
	fputs(", \"status\": ", f);
	status_arg(f, (int)r->count);
	fputs("}}", f);
}

static void write_ev(writer *w, const ev *e)
{
	FILE *f = w->f;
	const hp_trace_rec *r = e->r;
	next(w);
	fputs("{\"pid\": 1, ", f);
	fprintf(f, "\"tid\": %u, \"ts\": %.3f, ", e->hart, e->ts);
	switch (r->kind) {
	case HP_TRACE_CHUNK:
		fprintf(f,
			"\"ph\": \"X\", \"dur\": %.3f, \"cat\": \"chunk\", "
			"\"name\": ",
			e->dur);
		cmd_name(w, r->cmd);
		fputs(", \"args\": {\"cmd\": ", f);
		cmd_arg(f, r->cmd);
		fprintf(f,
			", \"first\": %llu, \"count\": %u, \"groups\": "
			"\"%llu-%llu\"",
			(unsigned long long)r->first, r->count,
			(unsigned long long)r->first,
			(unsigned long long)(r->first + r->count - 1));
		if (r->aux)
			fprintf(f, ", \"team_rank\": %u", r->aux - 1u);
		fputs("}}", f);
		break;
	case HP_TRACE_BARRIER:
		fprintf(f,
			"\"ph\": \"X\", \"dur\": %.3f, \"cat\": \"barrier\", "
			"\"name\": \"team barrier\", \"args\": {\"cmd\": ",
			e->dur);
		cmd_arg(f, r->cmd);
		fputs("}}", f);
		break;
	case HP_TRACE_SLEEP:
		fprintf(f,
			"\"ph\": \"X\", \"dur\": %.3f, \"cat\": \"sleep\", "
			"\"name\": \"sleep\", \"args\": {\"sleeps\": %u}}",
			e->dur, r->count);
		break;
	case HP_TRACE_WAKE:
		fprintf(f,
			"\"ph\": \"i\", \"s\": \"t\", \"cat\": \"wake\", "
			"\"name\": \"wake hart %llu\", \"args\": {\"hart\": "
			"%llu}}",
			(unsigned long long)r->first,
			(unsigned long long)r->first);
		break;
	case HP_TRACE_PACKET:
		fprintf(f,
			"\"ph\": \"i\", \"s\": \"t\", \"cat\": \"packet\", "
			"\"name\": \"packet %s\", \"args\": {\"cmd\": ",
			pkt_names[r->aux]);
		cmd_status_args(w, f, r);
		break;
	case HP_TRACE_DONE:
		fputs("\"ph\": \"i\", \"s\": \"t\", \"cat\": \"done\", "
		      "\"name\": \"done\", \"args\": {\"cmd\": ",
		      f);
		cmd_status_args(w, f, r);
		break;
	}
}

static void write_qev(writer *w, const qev *q)
{
	FILE *f = w->f;
	next(w);
	fprintf(f,
		"{\"pid\": 2, \"tid\": %u, \"ts\": %.3f, \"ph\": \"%c\", "
		"\"cat\": \"%s\", \"id\": \"0x%llx\", \"name\": ",
		HP_EVENT_QUEUE(q->cmd), q->ts, q->ph,
		q->phase ? "running" : "command", (unsigned long long)q->cmd);
	if (q->phase)
		fputs("\"running\"", f);
	else
		cmd_name(w, q->cmd);
	if (q->ph == 'b' && !q->phase) {
		fputs(", \"args\": {\"cmd\": ", f);
		cmd_arg(f, q->cmd);
		if (q->c) {
			fputs(", \"status\": ", f);
			status_arg(f, q->c->status);
			fprintf(f,
				", \"groups\": %llu, \"waited_us\": %.3f, "
				"\"ran_us\": %.3f",
				(unsigned long long)q->c->groups,
				q->c->start_us - q->c->queued_us,
				q->c->end_us - q->c->start_us);
		}
		fputc('}', f);
	}
	fputc('}', f);
}

static void meta(writer *w, unsigned pid, int tid, const char *what,
		 const char *key, const char *fmt, ...)
{
	FILE *f = w->f;
	next(w);
	fprintf(f, "{\"pid\": %u, ", pid);
	if (tid >= 0)
		fprintf(f, "\"tid\": %d, ", tid);
	fprintf(f, "\"ph\": \"M\", \"name\": \"%s\", \"args\": {\"%s\": ", what,
		key);
	char buf[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!strcmp(key, "sort_index"))
		fputs(buf, f);
	else
		json_str(f, buf, sizeof(buf));
	fputs("}}", f);
}

static int fail(char *why, size_t n, int code, const char *s)
{
	if (why && n)
		snprintf(why, n, "%s", s);
	return code;
}

/* One conversion's state: the buffer's parts and the events drawn from
 * it, in the order the steps below fill them. */
typedef struct {
	const hp_trace_header *h;
	const hp_trace_hart *rows;
	const hp_trace_rec *rec;
	const hp_trace_meta *m;
	hp_trace_stats *st;
	double hz, base;
	ev *evs;
	cmd_info *info;
	qev *qevs;
	bool *seen;
	size_t ne, ni, nq;
	char first_bad[120];
} tj_job;

static const char *tj_header(tj_job *j, const void *buf, size_t size)
{
	const hp_trace_header *h = buf;
	if (size < sizeof(*h) || h->magic != HP_TRACE_MAGIC)
		return "not a trace buffer (no HPTRACE1 magic)";
	if (h->version != HP_TRACE_VERSION ||
	    h->record_size != sizeof(hp_trace_rec))
		return "a trace buffer of another version";
	uint64_t harts = h->harts, per = h->per_hart;
	uint64_t room = (size - sizeof(*h)) / sizeof(hp_trace_hart);
	if (!harts || harts > room || !h->timer_hz ||
	    (h->t_off && h->t_off < h->t_on))
		return "a trace header that does not fit its buffer";
	uint64_t left = size - sizeof(*h) - harts * sizeof(hp_trace_hart);
	if (per > left / sizeof(hp_trace_rec) / harts)
		return "a trace header that does not fit its buffer";
	j->h = h;
	j->rows = (const hp_trace_hart *)(h + 1);
	j->rec = (const hp_trace_rec *)(j->rows + harts);
	j->hz = (double)h->timer_hz;
	return NULL;
}

/* Every record that passes its check, placed in time; the packets'
 * commands, each once. */
static void tj_records(tj_job *j)
{
	const hp_trace_header *h = j->h;
	uint64_t per = h->per_hart;
	for (uint64_t i = 0; i < h->harts; i++) {
		uint64_t w = j->rows[i].written;
		j->st->dropped += j->rows[i].dropped;
		if (w > per) { /* the rest of the row cannot be there */
			j->st->bad += w - per;
			w = per;
		}
		for (uint64_t k = 0; k < w; k++) {
			const hp_trace_rec *r = &j->rec[i * per + k];
			const char *no = hp_trace_rec_check(h, (unsigned)i, r);
			if (no) {
				if (!j->st->bad++)
					snprintf(j->first_bad,
						 sizeof(j->first_bad),
						 "hart %llu record %llu: %s",
						 (unsigned long long)i,
						 (unsigned long long)k, no);
				continue;
			}
			j->evs[j->ne++] = (ev){
				.ts = j->base +
				      (double)(r->t - h->t_on) * 1e6 / j->hz,
				.dur = (double)r->dur * 1e6 / j->hz,
				.hart = (unsigned)i,
				.r = r,
			};
			j->seen[i] = true;
			if (r->kind == HP_TRACE_PACKET)
				j->info[j->ni++] = (cmd_info){
					r->cmd, (uint32_t)r->first, r->aux, 0};
		}
	}
	j->st->records = j->ne;
	qsort(j->evs, j->ne, sizeof(*j->evs), cmp_ev);
	qsort(j->info, j->ni, sizeof(*j->info), cmp_info);
	/* A command read twice (a host that reused the index of a slot while
	 * tracing: too old to tell apart) keeps its first packet. */
	size_t nu = 0;
	for (size_t k = 0; k < j->ni; k++)
		if (!nu || j->info[nu - 1].cmd != j->info[k].cmd)
			j->info[nu++] = j->info[k];
	j->ni = nu;
	for (size_t k = 0; k < j->ne; k++)
		if (j->evs[k].r->kind == HP_TRACE_PACKET) {
			cmd_info *i = (cmd_info *)find_info(j->info, j->ni,
							    j->evs[k].r->cmd);
			i->ts = j->evs[k].ts;
		}
}

/* Queue tracks: the completion records' times when given, else the
 * packet and completion instants. */
static void tj_queues(tj_job *j)
{
	const hp_trace_meta *m = j->m;
	double on_us = (double)j->h->t_on * 1e6 / j->hz, base = j->base;
	if (m->cmds) {
		for (size_t k = 0; k < m->num_cmds; k++) {
			const hp_trace_cmd *c = &m->cmds[k];
			if (HP_EVENT_QUEUE(c->cmd) >= HP_MBOX_QUEUES ||
			    !(c->end_us >= c->queued_us))
				continue;
			double q = base + c->queued_us - on_us;
			double e = base + c->end_us - on_us;
			j->qevs[j->nq++] = (qev){q, c->cmd, 'b', 0, c};
			j->qevs[j->nq++] = (qev){e, c->cmd, 'e', 0, c};
			if (c->start_us >= c->queued_us &&
			    c->start_us <= c->end_us) {
				double s = base + c->start_us - on_us;
				j->qevs[j->nq++] = (qev){s, c->cmd, 'b', 1, c};
				j->qevs[j->nq++] = (qev){e, c->cmd, 'e', 1, c};
			}
			j->st->commands++;
		}
	} else {
		/* A life from the packet to its completion, when both are
		 * in the trace. */
		for (size_t k = 0; k < j->ne; k++) {
			const hp_trace_rec *r = j->evs[k].r;
			const cmd_info *i =
				r->kind == HP_TRACE_DONE
					? find_info(j->info, j->ni, r->cmd)
					: NULL;
			if (!i || i->ts > j->evs[k].ts)
				continue;
			j->qevs[j->nq++] = (qev){i->ts, r->cmd, 'b', 0, NULL};
			j->qevs[j->nq++] =
				(qev){j->evs[k].ts, r->cmd, 'e', 0, NULL};
			j->st->commands++;
		}
	}
	qsort(j->qevs, j->nq, sizeof(*j->qevs), cmp_qev);
}

/* The tracks' names and order, then every event. */
static void tj_events(tj_job *j, writer *w, const char *board)
{
	const hp_trace_header *h = j->h;
	meta(w, 1, -1, "process_name", "name", "hartpool %.40s (%u harts)",
	     board, h->harts);
	meta(w, 1, -1, "process_sort_index", "sort_index", "1");
	for (uint64_t i = 0; i < h->harts; i++) {
		if (!j->seen[i])
			continue;
		j->st->harts++;
		meta(w, 1, (int)i, "thread_name", "name", "hart %u%s",
		     (unsigned)i,
		     i < j->m->first_worker ? " (dispatcher)" : "");
		meta(w, 1, (int)i, "thread_sort_index", "sort_index", "%u",
		     (unsigned)i);
	}
	if (j->nq) {
		meta(w, 2, -1, "process_name", "name", "hartpool queues");
		meta(w, 2, -1, "process_sort_index", "sort_index", "2");
		for (size_t k = 0; k < j->nq; k++)
			if (!k || HP_EVENT_QUEUE(j->qevs[k].cmd) !=
					  HP_EVENT_QUEUE(j->qevs[k - 1].cmd))
				meta(w, 2, (int)HP_EVENT_QUEUE(j->qevs[k].cmd),
				     "thread_name", "name", "queue %u",
				     HP_EVENT_QUEUE(j->qevs[k].cmd));
	}
	for (size_t k = 0; k < j->ne; k++)
		write_ev(w, &j->evs[k]);
	for (size_t k = 0; k < j->nq; k++)
		write_qev(w, &j->qevs[k]);
}

/* otherData: what the trace held, what was dropped or bad, the clocks. */
static void tj_other(const tj_job *j, FILE *out, const char *board)
{
	const hp_trace_header *h = j->h;
	const hp_trace_stats *st = j->st;
	const hp_trace_meta *m = j->m;
	fputs("\"board\": ", out);
	json_str(out, board, 40);
	fprintf(out,
		", \"harts\": %u, \"timer_hz\": %llu, \"records_per_hart\": "
		"%u, \"records\": %llu, \"dropped\": %llu, \"bad_records\": "
		"%llu, \"commands\": %u, \"device_t_on\": %llu, "
		"\"device_t_off\": %llu",
		h->harts, (unsigned long long)h->timer_hz, h->per_hart,
		(unsigned long long)st->records,
		(unsigned long long)st->dropped, (unsigned long long)st->bad,
		st->commands, (unsigned long long)h->t_on,
		(unsigned long long)h->t_off);
	if (st->bad) {
		fputs(", \"first_bad_record\": ", out);
		json_str(out, j->first_bad, sizeof(j->first_bad));
	}
	if (!j->base) {
		fputs(", \"clock\": \"device us since the trace start\"", out);
		return;
	}
	fprintf(out,
		", \"clock\": \"host CLOCK_MONOTONIC us; device time "
		"placed at the trace start handshake\", "
		"\"clock_error_us\": %.3f",
		m->host_on_err_us);
	if (m->host_off_us > m->host_on_us && h->t_off) {
		double dev = (double)(h->t_off - h->t_on) * 1e6 / j->hz;
		fprintf(out, ", \"device_per_host_time\": %.6f",
			dev / (m->host_off_us - m->host_on_us));
	}
}

static void tj_free(tj_job *j)
{
	free(j->evs);
	free(j->info);
	free(j->qevs);
	free(j->seen);
}

int hp_trace_json(const void *buf, size_t size, const hp_trace_meta *m,
		  FILE *out, hp_trace_stats *st, char *why, size_t why_size)
{
	static const hp_trace_meta none;
	hp_trace_stats dummy;
	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	tj_job j = {.m = m ? m : &none, .st = st};
	const char *no = tj_header(&j, buf, size);
	if (no)
		return fail(why, why_size, HP_INVALID_VALUE, no);
	size_t n = 0;
	for (uint64_t i = 0; i < j.h->harts; i++)
		n += j.rows[i].written < j.h->per_hart ? j.rows[i].written
						       : j.h->per_hart;
	j.base = j.m->host_on_us ? j.m->host_on_us : 0;
	j.evs = calloc(n ? n : 1, sizeof(*j.evs));
	j.info = calloc(n ? n : 1, sizeof(*j.info));
	j.seen = calloc(j.h->harts, sizeof(bool));
	size_t qcap = j.m->cmds ? 4 * j.m->num_cmds : 2 * n;
	j.qevs = calloc(qcap ? qcap : 1, sizeof(*j.qevs));
	if (!j.evs || !j.info || !j.seen || !j.qevs) {
		tj_free(&j);
		return fail(why, why_size, HP_OUT_OF_RESOURCES,
			    "no host memory for the trace's events");
	}
	tj_records(&j);
	tj_queues(&j);
	writer w = {.f = out,
		    .m = j.m,
		    .info = j.info,
		    .ninfo = j.ni,
		    .first = true};
	const char *board = j.m->board ? j.m->board : "device";
	fputs("{\"traceEvents\": [", out);
	tj_events(&j, &w, board);
	fputs("\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": {", out);
	tj_other(&j, out, board);
	fputs("}}\n", out);
	tj_free(&j);
	if (ferror(out))
		return fail(why, why_size, HP_OUT_OF_RESOURCES,
			    "writing the trace failed");
	return 0;
}
