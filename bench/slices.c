// SPDX-License-Identifier: MIT
/*
 * Time slices between sessions (docs/sessions.md), measured from the host
 * on a running device (`hartpool up`, bench/slices.sh). Every host below
 * is its own process, so its own session; the parent opens none of its own
 * unless it says so.
 *
 *   latency KIND  a victim's checked vadd of 4096 floats, round trip from
 *                 enqueue to completion, ROUNDS times, beside a hog:
 *                 none (alone), endless (four 512-item `spin` kernels of
 *                 2^63 iterations: every hart, never ending), teams
 *                 (four endless `churn` kernels over teams of two harts,
 *                 at barriers all the time: run on a device whose
 *                 workers the teams cover), finite
 *                 (512-item `spin` of ITERS iterations, two in flight,
 *                 relaunched) or flood (short 8-item `spin` kernels of 100
 *                 iterations, FLOOD in flight, relaunched as they end).
 *                 Prints p50, p99, max and mean in ms and how many kernels
 *                 the hog completed meanwhile.
 *   share         the hog's finite `spin` (512 items, ITERS) run REPS
 *                 times alone, then REPS times beside a victim that runs
 *                 checked vadd rounds back to back: its medians in ms.
 *   pingpong      two compute hosts, each one finite `spin` (512 items,
 *                 ITERS) on every hart: each alone, then both at once
 *                 (started together), REPS times; with --trace FILE the
 *                 together runs are traced (one file per rep, FILE.N) so
 *                 bench/slices.sh counts the preemptions.
 *
 *   slices --connect CONN [--rounds N] [--iters N] [--reps N]
 *          [--flood N] [--trace FILE] MODE [KIND]
 */
#include <hartpool.h>
#include <hartpool/kernels/diag.h>
#include <hartpool/kernels/lib.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *conn;
static unsigned rounds = 50, reps = 3, flood = 16;
static uint64_t iters = 20000;
static const char *trace;

/* Shared between the processes (MAP_SHARED before the forks). */
static struct shared {
	volatile int go, stop, ready;
	volatile uint64_t hog_kernels;
	volatile double ms[2];
	volatile unsigned victim_rounds;
} * sh;

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void must(int rc, const char *what)
{
	if (rc) {
		fprintf(stderr, "slices: %s: %s\n", what, hp_error_name(rc));
		exit(1);
	}
}

static void pause_ms(unsigned ms)
{
	struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000};
	nanosleep(&t, NULL);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The value at quantile q of n sorted values (nearest rank). */
static double quantile(const double *v, unsigned n, double q)
{
	unsigned k = (unsigned)(q * n + 0.999999);
	return v[(k ? k : 1) - 1];
}

static hp_device *connect_one(void)
{
	hp_open_options o = {.connect = conn};
	hp_device *d;
	must(hp_open(&o, &d), "open");
	return d;
}

static uint32_t kernel(hp_device *d, const char *name)
{
	uint32_t id;
	must(hp_kernel_find(d, name, &id), name);
	return id;
}

static pid_t child(void (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives us */
		fn();
		_exit(0);
	}
	return pid;
}

static void reap(pid_t pid, bool kill_it)
{
	if (kill_it)
		kill(pid, SIGKILL);
	int st = 0;
	waitpid(pid, &st, 0);
	if (!kill_it && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
		fprintf(stderr, "slices: a host process failed\n");
		exit(1);
	}
}

/* ---- the victim ---- */

typedef struct {
	hp_device *d;
	hp_queue *q;
	hp_buffer a, b, c;
	float *ha, *hb, *hc;
	unsigned n;
} victim;

static void victim_open(victim *v, unsigned n)
{
	v->d = connect_one();
	v->n = n;
	must(hp_queue_create(v->d, HP_QUEUE_IN_ORDER, &v->q), "queue");
	v->ha = malloc(n * 4);
	v->hb = malloc(n * 4);
	v->hc = malloc(n * 4);
	for (unsigned i = 0; i < n; i++) {
		v->ha[i] = (float)(i % 977);
		v->hb[i] = 0.5f * (float)(i % 13);
	}
	must(hp_buffer_alloc(v->d, n * 4, &v->a), "alloc");
	must(hp_buffer_alloc(v->d, n * 4, &v->b), "alloc");
	must(hp_buffer_alloc(v->d, n * 4, &v->c), "alloc");
	must(hp_buffer_write(v->d, v->a, 0, v->ha, n * 4), "write");
	must(hp_buffer_write(v->d, v->b, 0, v->hb, n * 4), "write");
}

/* One checked vadd: its round trip (enqueue to completion) in ms. */
static double victim_round(victim *v)
{
	hp_vadd_args va = {.a = v->a, .b = v->b, .c = v->c, .n = v->n};
	hp_ndrange r = {.work_dim = 1, .global = {v->n}};
	hp_event ev;
	hp_event_info info;
	memset(v->hc, 0xff, v->n * 4);
	must(hp_buffer_write(v->d, v->c, 0, v->hc, v->n * 4), "write");
	double t0 = now_ms();
	must(hp_enqueue_kernel(v->q, kernel(v->d, "vadd"), &r, &va, sizeof(va),
			       NULL, 0, &ev),
	     "enqueue vadd");
	must(hp_event_wait(v->d, ev, &info), "wait vadd");
	double ms = now_ms() - t0;
	must(info.status, "vadd");
	must(hp_buffer_read(v->d, v->c, 0, v->hc, v->n * 4), "read");
	for (unsigned i = 0; i < v->n; i++)
		if (v->hc[i] != v->ha[i] + v->hb[i]) {
			fprintf(stderr, "slices: vadd wrong at %u\n", i);
			exit(1);
		}
	return ms;
}

static void victim_close(victim *v)
{
	must(hp_queue_release(v->q), "queue release");
	hp_close(v->d);
	free(v->ha);
	free(v->hb);
	free(v->hc);
}

/* ---- the hogs ---- */

static hp_event spin(hp_device *d, hp_queue *q, hp_buffer out, unsigned items,
		     uint64_t n)
{
	hp_spin_args sa = {.out = out, .iters = n};
	hp_ndrange r = {.work_dim = 1,
			.global = {items},
			.local = {1},
			.local_given = true};
	hp_event ev;
	must(hp_enqueue_kernel(q, kernel(d, "spin"), &r, &sa, sizeof(sa), NULL,
			       0, &ev),
	     "enqueue spin");
	return ev;
}

static void hog_endless(void)
{
	hp_device *d = connect_one();
	hp_queue *q;
	hp_buffer out;
	must(hp_queue_create(d, 0, &q), "queue");
	must(hp_buffer_alloc(d, 512 * 4, &out), "alloc");
	for (int k = 0; k < 4; k++)
		spin(d, q, out, 512, UINT64_C(1) << 63);
	sh->ready = 1;
	for (;;)
		pause(); /* until killed */
}

/* Endless `churn` over teams of two harts (work-groups of 16 that meet at
 * barriers all the time): each team stops and goes on as a gang. */
static void hog_teams(void)
{
	hp_device *d = connect_one();
	hp_queue *q;
	hp_buffer out;
	must(hp_queue_create(d, 0, &q), "queue");
	must(hp_buffer_alloc(d, 512 * 4, &out), "alloc");
	hp_churn_args ca = {
		.out = out, .iters = 50, .rounds = UINT64_C(1) << 63};
	hp_ndrange r = {.work_dim = 1,
			.global = {512},
			.local = {16},
			.local_given = true,
			.team_size = 2};
	for (int k = 0; k < 4; k++) {
		hp_event ev;
		must(hp_enqueue_kernel(q, kernel(d, "churn"), &r, &ca,
				       sizeof(ca), NULL, 0, &ev),
		     "enqueue churn");
	}
	sh->ready = 1;
	for (;;)
		pause(); /* until killed */
}

/* Keep `inflight` kernels of `items` x `n` going, relaunching each as it
 * ends, until killed; sh->hog_kernels counts the completed ones. */
static void hog_stream(unsigned items, uint64_t n, unsigned inflight)
{
	hp_device *d = connect_one();
	hp_queue *q;
	hp_buffer out;
	must(hp_queue_create(d, 0, &q), "queue");
	must(hp_buffer_alloc(d, items * 4, &out), "alloc");
	hp_event ev[64];
	for (unsigned k = 0; k < inflight; k++)
		ev[k] = spin(d, q, out, items, n);
	sh->ready = 1;
	for (unsigned k = 0;; k = (k + 1) % inflight) {
		hp_event_info info;
		must(hp_event_wait(d, ev[k], &info), "wait spin");
		must(info.status, "spin");
		sh->hog_kernels++;
		ev[k] = spin(d, q, out, items, n);
	}
}

static void hog_finite(void)
{
	hog_stream(512, iters, 2);
}

static void hog_flood(void)
{
	hog_stream(8, 100, flood);
}

static pid_t start_hog(const char *kind)
{
	void (*fn)(void) = !strcmp(kind, "endless")  ? hog_endless
			   : !strcmp(kind, "teams")  ? hog_teams
			   : !strcmp(kind, "finite") ? hog_finite
			   : !strcmp(kind, "flood")  ? hog_flood
						     : NULL;
	if (!fn) {
		fprintf(stderr, "slices: no hog %s\n", kind);
		exit(2);
	}
	sh->ready = 0;
	pid_t pid = child(fn);
	for (int i = 0; !sh->ready; i++) {
		if (i > 30000) {
			fprintf(stderr, "slices: the hog never started\n");
			exit(1);
		}
		pause_ms(1);
	}
	pause_ms(300); /* its kernels take every hart */
	return pid;
}

static int latency(const char *kind)
{
	victim v;
	victim_open(&v, 4096);
	for (int i = 0; i < 3; i++)
		victim_round(&v); /* warm: the session's region, the kernel */
	pid_t hog = strcmp(kind, "none") ? start_hog(kind) : 0;
	double *ms = malloc(rounds * sizeof(*ms)), sum = 0;
	uint64_t k0 = sh->hog_kernels;
	double t0 = now_ms();
	for (unsigned i = 0; i < rounds; i++) {
		ms[i] = victim_round(&v);
		sum += ms[i];
	}
	double wall = now_ms() - t0;
	uint64_t k = sh->hog_kernels - k0;
	if (hog)
		reap(hog, true);
	victim_close(&v);
	qsort(ms, rounds, sizeof(*ms), cmp);
	printf("latency hog=%s rounds=%u p50_ms=%.2f p99_ms=%.2f max_ms=%.2f "
	       "mean_ms=%.2f hog_kernels=%llu wall_s=%.3f\n",
	       kind, rounds, quantile(ms, rounds, 0.5),
	       quantile(ms, rounds, 0.99), ms[rounds - 1], sum / rounds,
	       (unsigned long long)k, wall / 1e3);
	free(ms);
	return 0;
}

/* ---- the hog's throughput while it shares ---- */

static void victim_loop(void)
{
	victim v;
	victim_open(&v, 4096);
	victim_round(&v);
	sh->ready = 1;
	while (!sh->stop) {
		victim_round(&v);
		sh->victim_rounds++;
	}
	victim_close(&v);
}

/* One finite spin of 512 items, REPS times: the median in ms. */
static double hog_runs(hp_device *d, hp_queue *q, hp_buffer out)
{
	double ms[64];
	for (unsigned i = 0; i < reps; i++) {
		double t0 = now_ms();
		hp_event_info info;
		must(hp_event_wait(d, spin(d, q, out, 512, iters), &info),
		     "wait spin");
		must(info.status, "spin");
		ms[i] = now_ms() - t0;
	}
	qsort(ms, reps, sizeof(*ms), cmp);
	return ms[reps / 2];
}

static void share_hog(void)
{
	hp_device *d = connect_one();
	hp_queue *q;
	hp_buffer out;
	must(hp_queue_create(d, HP_QUEUE_IN_ORDER, &q), "queue");
	must(hp_buffer_alloc(d, 512 * 4, &out), "alloc");
	hog_runs(d, q, out); /* warm */
	sh->ms[0] = hog_runs(d, q, out);
	/* then beside the victim */
	sh->go = 1;
	while (!sh->ready)
		pause_ms(1);
	unsigned r0 = sh->victim_rounds;
	double t0 = now_ms();
	sh->ms[1] = hog_runs(d, q, out);
	double wall = now_ms() - t0;
	sh->victim_rounds = (unsigned)((sh->victim_rounds - r0) * 1000.0 /
				       (wall > 0 ? wall : 1));
	sh->stop = 1;
	hp_close(d);
}

static int share(void)
{
	pid_t h = child(share_hog);
	while (!sh->go)
		pause_ms(1);
	pid_t v = child(victim_loop);
	reap(h, false);
	sh->stop = 1;
	reap(v, false);
	printf("share reps=%u iters=%llu alone_ms=%.1f shared_ms=%.1f "
	       "kept=%.3f victim_rounds_per_s=%u\n",
	       reps, (unsigned long long)iters, sh->ms[0], sh->ms[1],
	       sh->ms[0] / sh->ms[1], sh->victim_rounds);
	return 0;
}

/* ---- two compute hosts ---- */

static volatile int pp_side;

static void pp_host(void)
{
	hp_device *d = connect_one();
	hp_queue *q;
	hp_buffer out;
	must(hp_queue_create(d, HP_QUEUE_IN_ORDER, &q), "queue");
	must(hp_buffer_alloc(d, 512 * 4, &out), "alloc");
	__atomic_fetch_add(&sh->ready, 1, __ATOMIC_SEQ_CST);
	while (!sh->go) {
		struct timespec t = {0, 100000};
		nanosleep(&t, NULL);
	}
	double t0 = now_ms();
	hp_event_info info;
	must(hp_event_wait(d, spin(d, q, out, 512, iters), &info), "wait");
	must(info.status, "spin");
	sh->ms[pp_side] = now_ms() - t0;
	hp_close(d);
}

/* Hosts 0..n-1 at once: the wall time until the last is done, in ms. */
static double pp_run(unsigned n, const char *path)
{
	hp_device *tr = NULL;
	sh->ready = 0;
	sh->go = 0;
	pid_t pid[2];
	for (unsigned i = 0; i < n; i++) {
		pp_side = (int)i;
		pid[i] = child(pp_host);
	}
	while (sh->ready < (int)n)
		pause_ms(1);
	if (path) {
		tr = connect_one();
		must(hp_trace_start(tr, 65536), "trace start");
	}
	pause_ms(100);
	sh->go = 1;
	for (unsigned i = 0; i < n; i++)
		reap(pid[i], false);
	if (tr) {
		must(hp_trace_stop(tr, path, NULL), "trace stop");
		hp_close(tr);
	}
	return n == 1 || sh->ms[0] > sh->ms[1] ? sh->ms[0] : sh->ms[1];
}

static int pingpong(void)
{
	double alone[64], both[64];
	pp_run(1, NULL); /* warm */
	for (unsigned i = 0; i < reps; i++) {
		alone[i] = pp_run(1, NULL);
		char path[512];
		snprintf(path, sizeof(path), "%s.%u", trace ? trace : "", i);
		both[i] = pp_run(2, trace ? path : NULL);
		printf("pingpong rep=%u alone_ms=%.1f both_ms=%.1f\n", i,
		       alone[i], both[i]);
	}
	qsort(alone, reps, sizeof(double), cmp);
	qsort(both, reps, sizeof(double), cmp);
	printf("pingpong reps=%u iters=%llu alone_ms=%.1f both_ms=%.1f "
	       "overhead_ms=%.1f\n",
	       reps, (unsigned long long)iters, alone[reps / 2], both[reps / 2],
	       both[reps / 2] - 2 * alone[reps / 2]);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = NULL, *kind = "none";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--connect") && i + 1 < argc)
			conn = argv[++i];
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
			iters = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--flood") && i + 1 < argc)
			flood = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--trace") && i + 1 < argc)
			trace = argv[++i];
		else if (argv[i][0] != '-' && !mode)
			mode = argv[i];
		else if (argv[i][0] != '-')
			kind = argv[i];
		else
			mode = NULL, i = argc;
	}
	if (!conn || !mode || !rounds || !reps || reps > 64 || !flood ||
	    flood > 64) {
		fprintf(stderr,
			"usage: slices --connect CONN [--rounds N] [--iters N] "
			"[--reps N] [--flood N] [--trace FILE] "
			"latency none|endless|teams|finite|flood | share | "
			"pingpong\n");
		return 2;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	memset((void *)sh, 0, sizeof(*sh));
	if (!strcmp(mode, "latency"))
		return latency(kind);
	if (!strcmp(mode, "share"))
		return share();
	if (!strcmp(mode, "pingpong"))
		return pingpong();
	fprintf(stderr, "slices: no mode %s\n", mode);
	return 2;
}
