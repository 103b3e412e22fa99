// SPDX-License-Identifier: MIT
/*
 * Timelines on the host (docs/trace.md): the JSON writer and its record
 * checks (host/lib/trace_json.c) on made-up and broken trace buffers, and
 * the device-side recorder (executor/trace.c) with threads as harts: rows
 * that fill up drop and count, a stop while harts record leaves nothing
 * written after it, and what they wrote converts without a bad record.
 */
#include "check.h"
#include "hal_host.h"
#include "trace_json.h"
#include <executor/trace.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

enum { HARTS = 3, PER = 8, T_ON = 1000, T_OFF = 100000 };

typedef struct {
	hp_trace_header h;
	hp_trace_hart rows[HARTS];
	hp_trace_rec rec[HARTS][PER];
} buf3;

static void init(buf3 *b)
{
	memset(b, 0, sizeof(*b));
	b->h = (hp_trace_header){
		.magic = HP_TRACE_MAGIC,
		.version = HP_TRACE_VERSION,
		.harts = HARTS,
		.per_hart = PER,
		.record_size = sizeof(hp_trace_rec),
		.timer_hz = 1000000, /* 1 tick = 1 µs */
		.t_on = T_ON,
		.t_off = T_OFF,
	};
}

static void add(buf3 *b, unsigned hart, hp_trace_rec r)
{
	b->rec[hart][b->rows[hart].written++] = r;
}

static hp_trace_rec chunk(uint64_t t, uint32_t dur, uint64_t cmd,
			  uint64_t first, uint32_t count)
{
	return (hp_trace_rec){.t = t,
			      .cmd = cmd,
			      .first = first,
			      .dur = dur,
			      .kind = HP_TRACE_CHUNK,
			      .count = count};
}

static const char *names(void *ctx, uint32_t k)
{
	(void)ctx;
	return k == 7 ? "evil\"name\n" : k == 3 ? "vadd" : NULL;
}

/* The JSON of b, in a string the caller frees; *rc the result. */
static char *to_json(const void *b, size_t size, const hp_trace_meta *m,
		     hp_trace_stats *st, int *rc)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	char why[120] = "";
	*rc = hp_trace_json(b, size, m, f, st, why, sizeof(why));
	fclose(f);
	if (*rc)
		CHECK_MSG(why[0], "an error without a reason");
	return text;
}

/* Brackets balance outside strings, strings end: the shape of JSON. */
static bool balanced(const char *s)
{
	int depth = 0;
	bool str = false;
	for (; *s; s++) {
		if (str) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				str = false;
			else if ((unsigned char)*s < 0x20)
				return false;
			continue;
		}
		if (*s == '"')
			str = true;
		else if (*s == '{' || *s == '[')
			depth++;
		else if (*s == '}' || *s == ']')
			if (--depth < 0)
				return false;
	}
	return !str && depth == 0;
}

static void test_writer(void)
{
	static buf3 b;
	init(&b);
	uint64_t cmd = HP_EVENT(2, 5);
	/* The dispatcher: the packet, a wake-up, a sleep. */
	add(&b, 0,
	    (hp_trace_rec){.t = 1100,
			   .cmd = cmd,
			   .first = 3,
			   .kind = HP_TRACE_PACKET,
			   .aux = HP_PKT_KERNEL_DISPATCH});
	add(&b, 0,
	    (hp_trace_rec){.t = 1110, .first = 1, .kind = HP_TRACE_WAKE});
	add(&b, 0,
	    (hp_trace_rec){.t = 1120,
			   .dur = 500,
			   .kind = HP_TRACE_SLEEP,
			   .count = 4,
			   .cmd = HP_TRACE_NO_CMD});
	b.rec[0][1].cmd = HP_TRACE_NO_CMD;
	/* Hart 1: a team chunk with a barrier inside, written first (as the
	 * device does: a span is written when it ends). */
	add(&b, 1,
	    (hp_trace_rec){.t = 1300,
			   .dur = 20,
			   .cmd = cmd,
			   .kind = HP_TRACE_BARRIER});
	hp_trace_rec c = chunk(1200, 300, cmd, 0, 1);
	c.aux = 1;
	add(&b, 1, c);
	add(&b, 1, chunk(1600, 50, cmd, 1, 3));
	add(&b, 1,
	    (hp_trace_rec){.t = 1700, .cmd = cmd, .kind = HP_TRACE_DONE});
	/* Hart 2: bad records, one of each kind of wrong. */
	add(&b, 2, (hp_trace_rec){.t = 2000, .kind = 99});
	add(&b, 2, chunk(500, 10, cmd, 0, 1));		    /* before t_on */
	add(&b, 2, chunk(99990, 100, cmd, 0, 1));	    /* past t_off */
	add(&b, 2, chunk(2000, 10, cmd, 0, 0));		    /* no groups */
	add(&b, 2, chunk(2000, 10, HP_EVENT(17, 0), 0, 1)); /* no queue */
	add(&b, 2,
	    (hp_trace_rec){.t = 2000,
			   .first = 2,
			   .kind = HP_TRACE_WAKE,
			   .cmd = HP_TRACE_NO_CMD}); /* itself */
	add(&b, 2,
	    (hp_trace_rec){.t = 2000, .cmd = cmd, .kind = HP_TRACE_PACKET});
	hp_trace_rec sp = chunk(2000, 10, cmd, 0, 1);
	sp.spare = 1;
	add(&b, 2, sp);
	b.rows[2].dropped = 5;
	hp_trace_meta m = {.board = "test\"board",
			   .first_worker = 1,
			   .host_on_us = 5e6,
			   .host_on_err_us = 3,
			   .kernel_name = names};
	hp_trace_stats st;
	int rc;
	char *j = to_json(&b, sizeof(b), &m, &st, &rc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(st.records, 7);
	CHECK_EQ(st.bad, 8);
	CHECK_EQ(st.dropped, 5);
	CHECK_EQ(st.harts, 2);	  /* hart 2 has nothing good */
	CHECK_EQ(st.commands, 1); /* from the packet to the completion */
	CHECK(balanced(j));
	CHECK(strstr(j, "\"hart 0 (dispatcher)\""));
	CHECK(strstr(j, "\"hart 1\""));
	CHECK(!strstr(j, "\"hart 2\""));
	CHECK(strstr(j, "\"board\": \"test\\\"board\""));
	CHECK(strstr(j, "\"bad_records\": 8"));
	CHECK(strstr(j, "\"dropped\": 5"));
	CHECK(strstr(
		j, "\"first_bad_record\": \"hart 2 record 0: unknown kind\""));
	/* Device µs placed on the host's: t_on at 5 s. */
	CHECK(strstr(j, "\"ts\": 5000100.000, \"ph\": \"i\", \"s\": \"t\", "
			"\"cat\": \"packet\""));
	CHECK(strstr(j, "\"name\": \"vadd\", \"args\": {\"cmd\": \"2:5\", "
			"\"first\": 1, \"count\": 3, \"groups\": \"1-3\"}"));
	CHECK(strstr(j, "\"team_rank\": 0"));
	CHECK(strstr(j, "\"sleeps\": 4"));
	/* The chunk comes before the barrier inside it. */
	char *pc = strstr(j, "\"ts\": 5000200.000, \"ph\": \"X\"");
	char *pb = strstr(j, "\"cat\": \"barrier\"");
	CHECK(pc && pb && pc < pb);
	free(j);

	/* A kernel name from the device is escaped. */
	b.rec[0][0].first = 7;
	j = to_json(&b, sizeof(b), &m, &st, &rc);
	CHECK_EQ(rc, 0);
	CHECK(strstr(j, "\"evil\\\"name\\u000a\""));
	CHECK(balanced(j));
	free(j);

	/* A row that claims more than it holds: the rest counts as bad. */
	b.rows[1].written = PER + 100;
	j = to_json(&b, sizeof(b), &m, &st, &rc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(st.bad, 8 + 100 + (PER - 4));
	free(j);
}

/* Headers that do not describe their buffer: HP_INVALID_VALUE, nothing
 * read beyond the buffer (ASan would say). */
static void test_headers(void)
{
	static buf3 b;
	hp_trace_stats st;
	int rc;
	for (unsigned k = 0; k < 8; k++) {
		init(&b);
		add(&b, 1, chunk(2000, 10, HP_EVENT(0, 1), 0, 1));
		size_t size = sizeof(b);
		switch (k) {
		case 0:
			b.h.magic ^= 1;
			break;
		case 1:
			b.h.version = 2;
			break;
		case 2:
			b.h.record_size = 32;
			break;
		case 3:
			b.h.harts = 1u << 30;
			break;
		case 4:
			b.h.per_hart = PER + 1;
			break;
		case 5:
			b.h.harts = 0;
			break;
		case 6:
			b.h.t_off = T_ON - 1;
			break;
		case 7:
			size = sizeof(b.h) - 1;
			break;
		}
		char *j = to_json(&b, size, NULL, &st, &rc);
		CHECK_MSG(rc == HP_INVALID_VALUE, "case %u: %d", k, rc);
		free(j);
	}
	/* A smaller buffer of the same layout is refused too. */
	init(&b);
	char *j = to_json(&b, sizeof(b) - 1, NULL, &st, &rc);
	CHECK_EQ(rc, HP_INVALID_VALUE);
	free(j);
	/* Without meta: device µs since the start. */
	init(&b);
	add(&b, 1, chunk(1500, 10, HP_EVENT(0, 1), 0, 1));
	j = to_json(&b, sizeof(b), NULL, &st, &rc);
	CHECK_EQ(rc, 0);
	CHECK(strstr(j, "\"ts\": 500.000"));
	CHECK(strstr(j, "\"clock\": \"device us since the trace start\""));
	CHECK(balanced(j));
	free(j);
}

/* Random records: every one is an event or counted bad, the JSON keeps
 * its shape. */
static void test_random(void)
{
	static buf3 b;
	unsigned seed = 12345;
	for (unsigned round = 0; round < 200; round++) {
		init(&b);
		uint8_t *p = (uint8_t *)b.rec;
		for (size_t k = 0; k < sizeof(b.rec); k++) {
			seed = seed * 1103515245u + 12345u;
			p[k] = (uint8_t)(seed >> 16);
		}
		for (unsigned h = 0; h < HARTS; h++) {
			b.rows[h].written = PER;
			for (unsigned r = 0; r < PER; r++) {
				hp_trace_rec *x = &b.rec[h][r];
				/* Half of them near plausible. */
				if ((r + round) % 2) {
					x->t = T_ON + x->t % 1000;
					x->dur %= 100;
					x->kind = (uint16_t)(x->kind % 8);
					x->spare = 0;
					x->cmd =
						x->cmd % 3
							? HP_EVENT(x->cmd % 16,
								   x->first % 9)
							: HP_TRACE_NO_CMD;
					x->first %= 4;
					x->count %= 3;
					x->aux %= 12;
				}
			}
		}
		hp_trace_stats st;
		int rc;
		hp_trace_meta m = {.kernel_name = names};
		char *j = to_json(&b, sizeof(b), &m, &st, &rc);
		CHECK_EQ(rc, 0);
		CHECK_EQ(st.records + st.bad, HARTS * PER);
		CHECK(balanced(j));
		free(j);
	}
}

/* ---- the device-side recorder, threads as harts ---- */

enum { DEV_HARTS = 4, DEV_PER = 64, ROUNDS = 2000 };
static uint8_t *devbuf;
static size_t devsize;
static unsigned full; /* harts whose row is full */

/* A team-barrier wait inside a chunk, as in the pool. */
static void barrier_wait(void)
{
	EXEC_TRACE_SPAN(HP_TRACE_BARRIER, NULL, 0, 0, 0, (void)0);
}

static void recorder(void *arg)
{
	(void)arg;
	static exec_cmd c = {.trace_id = HP_EVENT(1, 2) + 1};
	for (unsigned k = 0; k < ROUNDS; k++) {
		EXEC_TRACE_SPAN(HP_TRACE_CHUNK, &c, k, 1, 0, barrier_wait());
		EXEC_TRACE_SPAN(HP_TRACE_SLEEP, NULL, 0, 1, 0, (void)0);
		EXEC_TRACE_INSTANT(HP_TRACE_DONE, &c, 0, 0, 0);
		/* Hart 0 ends the trace once every row is full (and counts
		 * drops), while the others go on recording. */
		if (k == DEV_PER && hal_hart_idx())
			__atomic_fetch_add(&full, 1u, __ATOMIC_RELEASE);
		if (hal_hart_idx() == 0 && k == ROUNDS / 2) {
			while (__atomic_load_n(&full, __ATOMIC_ACQUIRE) <
			       DEV_HARTS - 1)
				sched_yield();
			while (!exec_trace_stop())
				continue;
		}
	}
}

static void test_recorder(void)
{
	exec_dev.harts = DEV_HARTS;
	devsize = sizeof(hp_trace_header) + DEV_HARTS * sizeof(hp_trace_hart) +
		  DEV_HARTS * DEV_PER * sizeof(hp_trace_rec);
	devbuf = aligned_alloc(HP_TRACE_ALIGN, devsize);
	memset(devbuf, 0, devsize);
	/* Refused: misaligned, too small for a record per hart. */
	CHECK_EQ(exec_trace_start(devbuf + 8, devsize - 8, 1),
		 HP_INVALID_VALUE);
	CHECK_EQ(exec_trace_start(devbuf,
				  sizeof(hp_trace_header) +
					  DEV_HARTS * (sizeof(hp_trace_hart) +
						       sizeof(hp_trace_rec)) -
					  1,
				  1),
		 HP_INVALID_VALUE);
	CHECK(!exec_trace_on());
	CHECK_EQ(exec_trace_start(devbuf, devsize, 7), 0);
	CHECK(exec_trace_on());
	const hp_trace_header *h = (const hp_trace_header *)devbuf;
	CHECK_EQ(h->per_hart, DEV_PER);
	CHECK_EQ(h->gen, 7);
	hal_host_run(DEV_HARTS, recorder, NULL);
	CHECK(!exec_trace_on());
	CHECK(h->t_off >= h->t_on);
	const hp_trace_hart *rows = (const hp_trace_hart *)(h + 1);
	uint64_t total = 0;
	for (unsigned i = 0; i < DEV_HARTS; i++) {
		/* Every row filled, and the rest of the records it saw
		 * before the stop counted, never written past its end. */
		CHECK_EQ(rows[i].written, DEV_PER);
		CHECK(rows[i].dropped > 0);
		total += rows[i].written;
	}
	hp_trace_stats st;
	int rc;
	char *j = to_json(devbuf, devsize, NULL, &st, &rc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(st.bad, 0);
	CHECK_EQ(st.records, total);
	CHECK_EQ(st.harts, DEV_HARTS);
	CHECK(balanced(j));
	free(j);
	/* Nothing changes after the stop. */
	full = DEV_HARTS;
	uint8_t *copy = malloc(devsize);
	memcpy(copy, devbuf, devsize);
	hal_host_run(DEV_HARTS, recorder, NULL);
	CHECK(!memcmp(copy, devbuf, devsize));
	free(copy);
	free(devbuf);
}

int main(void)
{
	test_writer();
	test_headers();
	test_random();
	test_recorder();
	return check_report("test_trace");
}
