// SPDX-License-Identifier: MIT
/*
 * Hostile mailbox stress: libhartpool against the firmware in QEMU, with a
 * seeded random mix of valid work and malformed packets on three queues
 * (two out of order, one in order), packets interleaved across them.
 *
 *   test_stress [--seed N] [--iterations N] [--harts N] [--board B]
 *               [--connect C] [--timeout-ms N] [--only KIND] [--trace]
 *
 * Its parts are in tests/e2e/stress/ (stress.h says which does what).
 *
 * The seed is printed first (default: from the clock); the same seed
 * sends the same packets. --iterations: packets (default 60,000, about
 * 30 s on 8 harts under TCG on 2 host cores). --only good|exact|no-op|
 * random: valid packets and that one family; --trace: every packet on
 * stderr. On a fatal error (a command that never completes, the device
 * gone) the end of the device's console is printed.
 *
 * Valid work has exact, checkable results: tally launches (each adds 1 to
 * its own range of counters: nothing lost, nothing duplicated) of random
 * shapes (1-3 dimensions, offsets, local sizes, uniform, reqd sizes,
 * sub-group sizes, teams), vadd against the host's float sums, fills and
 * copies against a host mirror, markers and barrier-ANDs; most wait for
 * up to 3 (barrier-ANDs 7) recent valid events of any queue.
 *
 * Malformed packets come in three families:
 *   exact    one property of an otherwise valid packet aimed at checked
 *            memory is broken (header, type, kernel, argument sizes, time
 *            limit, NDRange, sub-group and team sizes, buffers outside the
 *            heap, in the mailbox or firmware memory, a 64-bit alias of a
 *            buffer, misaligned, past a buffer's end, in a freed buffer;
 *            wait lists: too long, no such queue, not submitted, itself,
 *            later, too old, a failed packet; fill/copy/free/info/alloc
 *            fields; FREE of a live buffer with a bad wait list): it must
 *            end with that property's error and change nothing;
 *   random   1-4 random mutations of a valid packet aimed at scratch
 *            buffers (any field: header, setup, kernel id, sizes 0 and
 *            huge, offsets, local sizes, argument bytes and pointers, wait
 *            lists, time limit, memory packet fields), or random bytes:
 *            any error, or success if that made it valid. Pointers a
 *            mutation makes are kept out of every checked buffer, so one
 *            valid by chance only touches scratch memory; every launch
 *            has a time limit (a random kernel may be `hang`); the type
 *            byte is never 0 (that means "not written yet": the queue
 *            would wait for it); events never name a packet of another
 *            queue that is not submitted yet but may be by the time the
 *            dispatcher reads this one (mbox.h, Events);
 *   no-op    valid-looking packets that must not write (empty ranges,
 *            zero sizes), aimed at checked memory.
 * Every nonzero status must have a name and a detail. At the end: every
 * valid packet completed with status 0, every counter exactly 1 (0 where
 * only rejected or empty launches pointed), vadd/fill/copy results exact,
 * the inputs and the guard buffers around every buffer unchanged, the
 * device's packet and bad-packet counters equal to what was sent and
 * rejected, every buffer still freeable once, and a final kernel runs.
 *
 * Completion records are read before the ring reuses them. Exit status 0
 * on success, 1 with the reasons (and the seed) otherwise; every wait is
 * bounded (hp_open_options.timeout_ms, default 30 s here).
 */
#define _GNU_SOURCE
#include "stress/stress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

hp_device *D;
const hp_device_info *INFO;
uint64_t size_max, heap_hi;
uint32_t k_tally, k_vadd, nkern;
unsigned workers;
bool trace;
int only = -1;
uint64_t rng;

/* The end of the device's console (a firmware trap report), then the
 * device stopped and its files removed (bounded: hp_down kills QEMU after
 * 10 s). */
static void device_last_words(void)
{
	const char *c = hp_connect_string(D);
	char path[320], line[256], tail[8][256];
	unsigned n = 0;
	snprintf(path, sizeof(path), "%s.log", c + strlen("shm:"));
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		snprintf(tail[n++ % 8], sizeof(tail[0]), "%s", line);
	if (f)
		fclose(f);
	for (unsigned i = n > 8 ? n - 8 : 0; i < n; i++)
		printf("device: %s", tail[i % 8]);
	hp_down(D); /* the process ends: no hp_close */
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	hp_open_options o = {.harts = 8, .timeout_ms = 30000};
	uint64_t iters = 60000, seed;
	seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 20;
	seed %= 1000000000ull;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--connect") && i + 1 < argc)
			o.connect = argv[++i];
		else if (!strcmp(argv[i], "--harts") && i + 1 < argc)
			o.harts = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--board") && i + 1 < argc)
			o.board = argv[++i];
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
			iters = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--trace"))
			trace = true;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			const char *k = argv[++i];
			for (int j = 0; j < 4; j++)
				if (!strcmp(k, kind_name[j]))
					only = j;
			if (only < 0) {
				fprintf(stderr, "test_stress: --only good, "
						"exact, no-op or random\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--timeout-ms") && i + 1 < argc)
			o.timeout_ms = (unsigned)atoi(argv[++i]);
		else {
			fprintf(stderr,
				"usage: test_stress [--seed N] [--iterations "
				"N] "
				"[--harts N] [--board B] [--connect C] "
				"[--timeout-ms N] [--only KIND] [--trace]\n");
			return 2;
		}
	}
	rng = seed;
	/* A fatal error says how to send these packets again. */
	static char note[80];
	snprintf(note, sizeof(note), "seed %llu: rerun with --seed %llu",
		 (unsigned long long)seed, (unsigned long long)seed);
	e2e_fatal_note = note;
	printf("stress: seed %llu, %llu packets\n", (unsigned long long)seed,
	       (unsigned long long)iters);
	fflush(stdout);
	MUST(hp_open(&o, &D));
	if (!o.connect) /* a device this test booted */
		e2e_at_fatal = device_last_words;
	INFO = hp_info(D);
	size_max = INFO->address_bits >= 64 ? UINT64_MAX
					    : (1ull << INFO->address_bits) - 1;
	heap_hi = E2E_HEAP_BASE + INFO->global_mem_size;
	workers = INFO->harts > 1 ? INFO->harts - 1 : 1;
	nkern = hp_kernel_count(D);
	MUST(hp_kernel_find(D, "tally", &k_tally));
	MUST(hp_kernel_find(D, "vadd", &k_vadd));
	printf("stress: device %s, %u harts, %u kernels (%s)\n", INFO->board,
	       INFO->harts, nkern, hp_connect_string(D));

	setup_buffers(iters);
	for (unsigned q = 0; q < NQ; q++) {
		MUST(hp_queue_create(D, q == 1 ? HP_QUEUE_IN_ORDER : 0, &Q[q]));
		qid[q] = hp_queue_id(Q[q]);
		qrec[q] = malloc((iters + 16) * sizeof(uint32_t));
		/* A queue of a running device may have been used before:
		 * its indices go on from there. A marker tells where. */
		hp_event ev;
		MUST(hp_enqueue_marker(Q[q], &ev));
		MUST(hp_event_wait(D, ev, NULL));
		qbase[q] = qnext[q] = qharv[q] = HP_EVENT_INDEX(ev) + 1;
	}
	maxrec = (unsigned)iters + 16;
	R = calloc(maxrec, sizeof(rec));

	uint64_t p0, b0, p1, b1;
	MUST(hp_counters(D, &p0, &b0));
	double t0 = now_s();
	for (uint64_t i = 0; i < iters; i++) {
		unsigned q = (unsigned)below(NQ), c = (unsigned)below(100);
		if (only == GOOD)
			c = 0;
		else if (only >= 0 && c >= 45)
			c = only == EXACT ? 50 : only == NOOP ? 65 : 90;
		if (c < 45)
			good(q);
		else if (c < 62)
			exact(q);
		else if (c < 67)
			noop(q);
		else
			random_packet(q);
		if ((i & 15) == 15)
			harvest_ready();
	}
	for (unsigned q = 0; q < NQ; q++)
		while (qharv[q] < qnext[q])
			harvest_one(q, true);
	double secs = now_s() - t0;
	report_failed_deps();
	MUST(hp_counters(D, &p1, &b1));
	if (p1 - p0 != nrec || b1 - b0 != rejected)
		e2e_fail(
			"device counted %llu packets (%llu bad), the test sent "
			"%u (%llu rejected by validation)",
			(unsigned long long)(p1 - p0),
			(unsigned long long)(b1 - b0), nrec,
			(unsigned long long)rejected);

	check_results();
	for (unsigned q = 0; q < NQ; q++)
		MUST(hp_queue_release(Q[q]));
	MUST(hp_queue_create(D, 0, &Q[0]));
	MUST(hp_queue_create(D, 0, &Q[1]));
	/* Every buffer is still allocated exactly once: each frees (the
	 * ones random ALLOCs made first: they may fill the heap). */
	for (unsigned i = 0; i < nallocs; i++) {
		int rc = hp_buffer_free(D, allocs[i]);
		if (rc)
			e2e_fail("freeing a buffer a random ALLOC made "
				 "(0x%llx): "
				 "%s: %s",
				 (unsigned long long)allocs[i],
				 hp_error_name(rc), hp_last_error());
	}
	final_kernel();
	for (unsigned i = 0; i < nbufs; i++) {
		int rc = hp_buffer_free(D, bufs[i].addr);
		if (rc)
			e2e_fail("freeing buffer '%s' (0x%llx): %s: %s",
				 bufs[i].name, (unsigned long long)bufs[i].addr,
				 hp_error_name(rc), hp_last_error());
	}
	MUST(hp_queue_release(Q[0]));
	MUST(hp_queue_release(Q[1]));
	MUST(hp_close(D));

	unsigned bad_sent = by_kind[EXACT] + by_kind[NOOP] + by_kind[RANDOM];
	printf("stress: %u packets in %.1f s (%.0f/s): %u valid, %u malformed "
	       "(%u exact-error, %u no-op, %u random); of the malformed %llu "
	       "rejected by the device's checks, %u failed while running "
	       "(aborted, faulted, timed out), %u valid and harmless\n",
	       nrec, secs, nrec / secs, by_kind[GOOD], bad_sent, by_kind[EXACT],
	       by_kind[NOOP], by_kind[RANDOM], (unsigned long long)(rejected),
	       runtime_err, valid_random);
	if (e2e_failures) {
		printf("stress: seed %llu: %u failures (rerun with --seed "
		       "%llu)\n",
		       (unsigned long long)seed, e2e_failures,
		       (unsigned long long)seed);
		return 1;
	}
	/* The errors seen, most frequent first. */
	char list[1024] = "";
	size_t len = 0;
	for (unsigned i = 0; i < nerrs; i++) {
		unsigned m = i;
		for (unsigned j = i + 1; j < nerrs; j++)
			if (errs[j].n > errs[m].n)
				m = j;
		typeof(errs[0]) t = errs[i];
		errs[i] = errs[m], errs[m] = t;
		int n = snprintf(list + len, sizeof(list) - len, "%s%s x %u",
				 i ? ", " : "", hp_error_name(errs[i].code),
				 errs[i].n);
		if (n < 0 || (size_t)n >= sizeof(list) - len)
			break; /* full: the list stays cut at the last entry */
		len += (size_t)n;
	}
	printf("stress: seed %llu, %u packets (%u good, %u malformed) on %u "
	       "queues: all good ones exact, all malformed rejected or "
	       "harmless (errors seen: %s)\n",
	       (unsigned long long)seed, nrec, by_kind[GOOD], bad_sent, NQ,
	       list);
	return 0;
}
