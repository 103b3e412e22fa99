// SPDX-License-Identifier: MIT
/*
 * Time slices between sessions (docs/sessions.md, "Time slices"): one
 * host's endless kernels no longer keep another host's work off the harts.
 *
 *   hog     a host enqueues four kernels of 512 work-items that never end
 *           (`spin` for 2^63 iterations, no time limit) and keeps its session;
 * another host's checked vadd completes round after round while they still run
 *           (the hog's commands stay in flight all along: without
 *           preemption nothing else would ever run again).
 *   long    beside the same endless kernels, a third host's long `spin`
 *           (every work-item iterates an LCG; its chunks are preempted
 *           again and again) gives the right value for every work-item.
 *   team    the hog's kernels are teams instead (`churn`, work-groups over
 *           two harts that meet at work-group barriers all the time,
 *           endless): another host's checked vadd completes round after
 *           round (each team stops and goes on as a gang).
 *   teamlong beside the endless `spin` kernels, a third host's long
 *           checked `churn` over teams of two gives every value right, its
 *           teams parked again and again: in their kernel code, in their
 *           barrier waits and between groups.
 *   vregs   two hosts' `vregs` kernels (boards with V) on the same harts
 *           at once, their chunks sliced against each other: every
 *           work-item finds its vector registers, vl and vtype as it set
 *           them (docs/vector.md); then a new host's kernels find
 *           only zeros in them.
 *   private a host fills its local memory and its work-items' private
 *           arrays (tests/e2e/kernels/leftover.cl, a row loop and a
 *           work-group function, plant=1) and exits; a new host's kernel
 *           reads its own unwritten local and private memory (plant=0) and
 *           finds none of the pattern (buffers: test_sessions zeroed).
 *
 * Each case ends the hog by killing it; the device then gives back what it
 * held and serves on.
 *
 *   tenants four hosts at once on a shared device (--connect to a
 *           `hartpool up`): a spinner (the hog's endless kernels), a heap
 *           hog (its memory filled with a pattern) and a table hog, each
 *           refused at its quota, and a careful tenant running rounds of
 *           new buffers (small ones, and every tenth 64 MiB: each must
 *           read as zeros) and checked vadds for R seconds, while the
 *           spinner is killed and replaced and the heap hog killed; every
 *           round right, then heap and tables back where they started.
 *
 *   test_slices [--board B] [--harts N] [--connect C] [--rounds R]
 *               [--leftover HPK] [TEST...]
 *
 * R: vadd rounds of hog (default 10), seconds of tenants.
 *
 * HPK: tests/e2e/kernels/leftover.cl built (`hartpool build`); without it
 * the private case is skipped.
 *
 * Latencies are printed, never asserted (bench/slices.sh measures them).
 */
#include "e2e_check.h"
#include <fcntl.h>
#include <hartpool/kernels/diag.h>
#include <hartpool/kernels/lib.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static hp_device *A; /* the handle that booted the device */
static const char *conn;
static unsigned rounds = 10;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static hp_device *connect_one(void)
{
	hp_open_options o = {.connect = conn};
	hp_device *d;
	MUST(hp_open(&o, &d));
	return d;
}

/* Wait for ev at most `ms` milliseconds (a command that never completes
 * fails the test instead of hanging it); its info in *info. */
static bool wait_for(hp_device *d, hp_event ev, hp_event_info *info, double ms)
{
	double until = now_ms() + ms;
	for (;;) {
		int rc = hp_event_query(d, ev, info);
		if (rc == 0)
			return true;
		if (rc != 1)
			MUST(rc);
		if (now_ms() > until)
			return false;
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
}

/* ---- host processes ---- */

/* Fork fn(fd) as a host process of its own, which never outlives the
 * test and exits with fn's status; the read end of its pipe in *rfd. */
static pid_t spawn(int (*fn)(int fd, const void *arg), const void *arg,
		   int *rfd)
{
	int p[2];
	if (pipe(p))
		e2e_fatal("pipe");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		_exit(fn(p[1], arg));
	}
	close(p[1]);
	*rfd = p[0];
	return pid;
}

/* ... as a tenant that says it is ready: its first message into msg. */
static pid_t start_tenant(int (*fn)(int, const void *), const void *arg,
			  char *msg, size_t n)
{
	int fd;
	pid_t pid = spawn(fn, arg, &fd);
	ssize_t got = read(fd, msg, n - 1);
	msg[got > 0 ? got : 0] = 0;
	close(fd);
	if (got <= 0)
		e2e_fatal("a tenant died before it was ready");
	return pid;
}

/* Its exit status was 0. */
static bool exited_well(pid_t pid)
{
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* ---- the hog: endless kernels on every hart ---- */

/* The hog's kernels: `spin` over every hart, or with *team `churn` over
 * teams of two (rounds of barriers that never end). */
static int hog_child(int fd, const void *team)
{
	hp_device *H = connect_one();
	hp_queue *q;
	MUST(hp_queue_create(H, 0, &q));
	hp_buffer out;
	MUST(hp_buffer_alloc(H, 512 * 4, &out));
	/* 2^63 iterations or rounds: no work-item ever ends */
	hp_spin_args sa = {.out = out, .iters = UINT64_C(1) << 63};
	hp_churn_args ca = {
		.out = out, .iters = 50, .rounds = UINT64_C(1) << 63};
	hp_ndrange r = {.work_dim = 1,
			.global = {512},
			.local = {1},
			.local_given = true};
	if (*(const bool *)team) {
		r.local[0] = 16;
		r.team_size = 2;
	}
	hp_event ev[4];
	for (int k = 0; k < 4; k++)
		MUST(*(const bool *)team
			     ? hp_enqueue_kernel(q, e2e_kernel(H, "churn"), &r,
						 &ca, sizeof(ca), NULL, 0,
						 &ev[k])
			     : hp_enqueue_kernel(q, e2e_kernel(H, "spin"), &r,
						 &sa, sizeof(sa), NULL, 0,
						 &ev[k]));
	if (write(fd, "r", 2) != 2)
		return 3;
	/* Until killed: an endless kernel that ends (a fault) is said. */
	for (bool said[4] = {false};;) {
		for (int k = 0; k < 4; k++) {
			hp_event_info info;
			if (!said[k] && !hp_event_query(H, ev[k], &info)) {
				fprintf(stderr, "hog kernel %d ended: %s %s\n",
					k, hp_error_name(info.status),
					info.detail);
				said[k] = true;
			}
		}
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
	}
}

static pid_t start_hog(bool team)
{
	char msg[4];
	pid_t pid = start_tenant(hog_child, &team, msg, sizeof(msg));
	/* Let the endless kernels take every hart. */
	struct timespec ts = {0, 300000000};
	nanosleep(&ts, NULL);
	return pid;
}

/* Commands the hog's session has in flight (its endless kernels). */
static uint64_t hog_commands(pid_t hog)
{
	hp_session_info s[16];
	unsigned n = 0;
	hp_device_usage u; /* asks the device to publish its figures */
	MUST(hp_device_usage_get(A, &u));
	MUST(hp_sessions(A, s, 16, &n));
	for (unsigned i = 0; i < n && i < 16; i++)
		if (s[i].pid == hog)
			return s[i].commands;
	return 0;
}

static void stop_hog(pid_t hog)
{
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	/* This handle reaps the dead session while it waits on the device. */
	hp_queue *q;
	MUST(hp_queue_create(A, HP_QUEUE_IN_ORDER, &q));
	hp_buffer b;
	MUST(hp_buffer_alloc(A, 64, &b));
	MUST(hp_buffer_free(A, b));
	MUST(hp_queue_release(q));
	for (int i = 0; i < 600 && hog_commands(hog); i++) {
		if (i % 20 == 0)
			printf("  hog commands %" PRIu64 "\n",
			       hog_commands(hog));
		unsigned ended;
		MUST(hp_sessions_reap(A, &ended));
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
	}
	CHECK(!hog_commands(hog), "the killed hog's kernels still run");
}

/* One checked vadd of n floats on d; its round trip in *ms. */
static bool vadd_round(hp_device *d, hp_queue *q, unsigned n, double *ms)
{
	float *ha = malloc(n * 4), *hb = malloc(n * 4), *hc = malloc(n * 4);
	for (unsigned i = 0; i < n; i++) {
		ha[i] = (float)(i % 977);
		hb[i] = 0.5f * (float)(i % 13);
	}
	hp_buffer a = e2e_buffer(d, n * 4, ha);
	hp_buffer b = e2e_buffer(d, n * 4, hb);
	hp_buffer c = e2e_buffer(d, n * 4, NULL);
	hp_vadd_args va = {.a = a, .b = b, .c = c, .n = n};
	hp_ndrange r = {.work_dim = 1, .global = {n}};
	hp_event ev;
	hp_event_info info;
	double t0 = now_ms();
	MUST(hp_enqueue_kernel(q, e2e_kernel(d, "vadd"), &r, &va, sizeof(va),
			       NULL, 0, &ev));
	bool done = wait_for(d, ev, &info, 60000);
	*ms = now_ms() - t0;
	bool ok = done && info.status == 0;
	if (ok) {
		MUST(hp_buffer_read(d, c, 0, hc, n * 4));
		for (unsigned i = 0; i < n; i++)
			ok &= hc[i] == ha[i] + hb[i];
	}
	MUST(hp_buffer_free(d, a));
	MUST(hp_buffer_free(d, b));
	MUST(hp_buffer_free(d, c));
	free(ha);
	free(hb);
	free(hc);
	return ok;
}

static void hog_beside(bool team)
{
	hp_device *V = connect_one();
	hp_queue *q;
	MUST(hp_queue_create(V, HP_QUEUE_IN_ORDER, &q));
	double alone = 0, ms;
	for (int i = 0; i < 3; i++) {
		CHECK(vadd_round(V, q, 4096, &ms), "vadd alone");
		alone = i == 0 || ms < alone ? ms : alone;
	}
	pid_t hog = start_hog(team);
	/* Until the device has read all four (a loaded host is slow). */
	uint64_t inflight = hog_commands(hog);
	for (int i = 0; i < 300 && inflight != 4; i++) {
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
		inflight = hog_commands(hog);
	}
	CHECK(inflight == 4,
	      "the hog has %" PRIu64
	      " commands in flight, not its 4 endless kernels",
	      inflight);
	double worst = 0, sum = 0;
	unsigned good = 0;
	for (unsigned i = 0; i < rounds; i++) {
		bool ok = vadd_round(V, q, 4096, &ms);
		good += ok;
		sum += ms;
		worst = ms > worst ? ms : worst;
		if (!ok)
			break;
	}
	CHECK(good == rounds,
	      "beside the hog %u of %u checked vadd rounds completed right",
	      good, rounds);
	CHECK(hog_commands(hog) == 4,
	      "the hog's endless kernels did not run all along (%" PRIu64
	      " in flight)",
	      hog_commands(hog));
	printf("ok: %u checked vadd rounds of 4096 beside 4 endless kernels on "
	       "every hart%s: mean %.1f ms, worst %.1f ms (alone %.1f ms)\n",
	       rounds, team ? " (teams of two at barriers)" : "", sum / rounds,
	       worst, alone);
	MUST(hp_queue_release(q));
	hp_close(V);
	stop_hog(hog);
}

static void t_hog(void)
{
	hog_beside(false);
}

static void t_team(void)
{
	hog_beside(true);
}

/* ---- a long checked kernel beside the hog ---- */

#define LONG_ITEMS 64u

static uint32_t spin_value(uint32_t glin, uint64_t iters)
{
	uint32_t x = glin + 1;
	for (uint64_t i = 0; i < iters; i++)
		x = x * 1664525u + 1013904223u;
	return x;
}

/* churn's values (kernels/queue_diag.c) for groups of `local` items. */
static void churn_values(uint32_t *v, unsigned n, unsigned local,
			 uint64_t iters, uint64_t nrounds)
{
	uint32_t *prev = malloc(n * sizeof(*prev));
	for (unsigned i = 0; i < n; i++)
		v[i] = i + 1;
	for (uint64_t r = 0; r < nrounds; r++) {
		for (unsigned i = 0; i < n; i++) {
			for (uint64_t k = 0; k < iters; k++)
				v[i] = v[i] * 1664525u + 1013904223u;
			prev[i] = v[i];
		}
		for (unsigned i = 0; i < n; i++)
			v[i] ^= prev[i / local * local +
				     (i % local + 1) % local];
	}
	free(prev);
}

/* A long checked kernel: `spin` (a chunk of one work-item per group), or
 * `churn` over teams of two. */
typedef struct {
	uint64_t iters, rounds;
	bool team;
} long_kernel;

#define TEAM_LOCAL 4u

static int long_child(int fd, const void *arg)
{
	(void)fd;
	const long_kernel *lk = arg;
	uint64_t iters = lk->iters;
	hp_device *L = connect_one();
	hp_queue *q;
	MUST(hp_queue_create(L, HP_QUEUE_IN_ORDER, &q));
	hp_buffer out = e2e_buffer(L, LONG_ITEMS * 4, NULL);
	hp_spin_args sa = {.out = out, .iters = iters};
	hp_churn_args ca = {.out = out, .iters = iters, .rounds = lk->rounds};
	hp_ndrange r = {.work_dim = 1,
			.global = {LONG_ITEMS},
			.local = {1},
			.local_given = true};
	if (lk->team) {
		r.local[0] = TEAM_LOCAL;
		r.team_size = 2;
	}
	hp_event ev;
	hp_event_info info;
	MUST(lk->team ? hp_enqueue_kernel(q, e2e_kernel(L, "churn"), &r, &ca,
					  sizeof(ca), NULL, 0, &ev)
		      : hp_enqueue_kernel(q, e2e_kernel(L, "spin"), &r, &sa,
					  sizeof(sa), NULL, 0, &ev));
	if (!wait_for(L, ev, &info, 150000)) {
		fprintf(stderr, "spin beside the hog: not complete after "
				"150 s\n");
		return 1;
	}
	if (info.status) {
		fprintf(stderr, "spin beside the hog: %s\n",
			hp_error_name(info.status));
		return 1;
	}
	uint32_t got[LONG_ITEMS], want[LONG_ITEMS];
	MUST(hp_buffer_read(L, out, 0, got, sizeof(got)));
	if (lk->team)
		churn_values(want, LONG_ITEMS, TEAM_LOCAL, iters, lk->rounds);
	else
		for (uint32_t i = 0; i < LONG_ITEMS; i++)
			want[i] = spin_value(i, iters);
	unsigned wrong = 0;
	for (uint32_t i = 0; i < LONG_ITEMS; i++)
		wrong += got[i] != want[i];
	if (wrong)
		fprintf(stderr, "spin beside the hog: %u of %u values wrong\n",
			wrong, LONG_ITEMS);
	hp_close(L);
	return wrong != 0;
}

static void long_beside(const long_kernel *lk)
{
	pid_t hog = start_hog(false);
	fflush(stdout);
	double t0 = now_ms();
	int fd;
	pid_t pid = spawn(long_child, lk, &fd);
	close(fd);
	CHECK(exited_well(pid),
	      "the long checked kernel beside the hog failed");
	CHECK(hog_commands(hog) == 4,
	      "the hog's endless kernels did not run all along");
	if (lk->team)
		printf("ok: churn of %u work-items over teams of two, %" PRIu64
		       " rounds of %" PRIu64 " iterations and two barriers, "
		       "beside 4 endless kernels: every value right, %.1f s\n",
		       LONG_ITEMS, lk->rounds, lk->iters,
		       (now_ms() - t0) / 1e3);
	else
		printf("ok: spin of %u work-items x %" PRIu64
		       " iterations beside 4 endless kernels: every value "
		       "right, %.1f s\n",
		       LONG_ITEMS, lk->iters, (now_ms() - t0) / 1e3);
	stop_hog(hog);
}

static void t_long(void)
{
	/* About a second per work-item under TCG alone: every chunk lives
	 * through many slices. */
	long_kernel lk = {.iters = 4000000};
	long_beside(&lk);
}

static void t_teamlong(void)
{
	/* About the same work in 400 rounds: the teams park in their kernel
	 * code, at its barriers and between groups. */
	long_kernel lk = {.iters = 10000, .rounds = 400, .team = true};
	long_beside(&lk);
}

/* ---- vector registers through time slices ---- */

/* One host's `vregs` (boards with V): its work-items' vector registers
 * compared all along while another host's run on the same harts. */
static int vregs_child(int fd, const void *arg)
{
	(void)fd;
	uint64_t seed = *(const uint64_t *)arg;
	hp_device *L = connect_one();
	hp_queue *q;
	MUST(hp_queue_create(L, HP_QUEUE_IN_ORDER, &q));
	hp_buffer out = e2e_buffer(L, LONG_ITEMS * 4, NULL);
	/* About half a second per work-item under TCG: each lives through
	 * many slices beside the other host's. */
	hp_vregs_args va = {
		.out = out, .iters = seed ? 2000000 : 0, .seed = seed};
	hp_ndrange r = {.work_dim = 1,
			.global = {LONG_ITEMS},
			.local = {1},
			.local_given = true};
	hp_event ev;
	hp_event_info info;
	MUST(hp_enqueue_kernel(q, e2e_kernel(L, "vregs"), &r, &va, sizeof(va),
			       NULL, 0, &ev));
	if (!wait_for(L, ev, &info, 150000) || info.status) {
		fprintf(stderr, "vregs (seed %" PRIu64 "): %s\n", seed,
			info.status ? hp_error_name(info.status)
				    : "not complete after 150 s");
		return 1;
	}
	uint32_t got[LONG_ITEMS];
	MUST(hp_buffer_read(L, out, 0, got, sizeof(got)));
	unsigned wrong = 0;
	for (uint32_t i = 0; i < LONG_ITEMS; i++)
		wrong += got[i] != 0;
	if (wrong && seed)
		fprintf(stderr,
			"vregs (seed %" PRIu64 "): %u of %u work-items found "
			"their vector registers changed\n",
			seed, wrong, LONG_ITEMS);
	else if (wrong)
		fprintf(stderr,
			"vregs: %u of %u work-items of a new host found "
			"another's bytes in their vector registers (%u in the "
			"first)\n",
			wrong, LONG_ITEMS, got[0]);
	hp_close(L);
	return wrong != 0;
}

static void t_vregs(void)
{
	static const uint64_t seeds[2] = {1, 101};
	double t0 = now_ms();
	int fd[2];
	pid_t pid[2];
	for (unsigned k = 0; k < 2; k++)
		pid[k] = spawn(vregs_child, &seeds[k], &fd[k]);
	bool ok = true;
	for (unsigned k = 0; k < 2; k++) {
		close(fd[k]);
		ok &= exited_well(pid[k]);
	}
	CHECK(ok, "a host's vector registers changed behind its kernels");
	if (ok)
		printf("ok: two hosts' vregs of %u work-items each, sliced on "
		       "the same harts: every vector register, vl and vtype "
		       "kept, %.1f s\n",
		       LONG_ITEMS, (now_ms() - t0) / 1e3);
	/* Nothing left over: a new host's kernels start with zeros there. */
	static const uint64_t look = 0;
	pid_t p = spawn(vregs_child, &look, &fd[0]);
	close(fd[0]);
	CHECK(exited_well(p), "a new host found the last hosts' vector "
			      "registers");
}

/* ---- nothing left over in local and private memory ---- */

static const char *leftover_path;

#define LO_LOCAL 64u  /* work-items per group */
#define LO_GROUPS 28u /* a few groups per worker hart */
#define LO_ITEMS (LO_LOCAL * LO_GROUPS)
#define LO_PATTERN 0x5eed0000u

typedef struct {
	uint64_t hits;
	uint32_t plant, pattern;
} lo_args; /* the OpenCL arguments: pointers first, then values */

/* One host process: run `name` with plant, then (plant == 0) the words of
 * the pattern it found in local and private memory. */
typedef struct {
	const char *name;
	uint32_t plant;
} lo_host;

static int leftover_host(int fd, const void *arg)
{
	const char *name = ((const lo_host *)arg)->name;
	uint32_t plant = ((const lo_host *)arg)->plant;
	hp_device *d = connect_one();
	hp_object obj;
	MUST(hp_object_load_file(d, leftover_path, &obj, NULL));
	uint32_t id;
	MUST(hp_kernel_find(d, name, &id));
	hp_queue *q;
	MUST(hp_queue_create(d, HP_QUEUE_IN_ORDER, &q));
	hp_buffer hits;
	MUST(hp_buffer_alloc(d, LO_ITEMS * 8, &hits));
	lo_args a = {.hits = hits, .plant = plant, .pattern = LO_PATTERN};
	hp_ndrange r = {.work_dim = 1,
			.global = {LO_ITEMS},
			.local = {LO_LOCAL},
			.local_given = true};
	hp_event ev;
	hp_event_info info;
	MUST(hp_enqueue_kernel(q, id, &r, &a, sizeof(a), NULL, 0, &ev));
	if (!wait_for(d, ev, &info, 60000) || info.status) {
		fprintf(stderr, "%s: %s\n", name, hp_error_name(info.status));
		return 1;
	}
	static uint32_t h[LO_ITEMS * 2];
	MUST(hp_buffer_read(d, hits, 0, h, sizeof(h)));
	uint32_t sum[2] = {0, 0};
	for (unsigned i = 0; i < LO_ITEMS; i++) {
		sum[0] += h[2 * i];
		sum[1] += h[2 * i + 1];
	}
	if (write(fd, sum, sizeof(sum)) != sizeof(sum))
		return 1;
	/* exits without freeing: its session's end gives everything back */
	return 0;
}

static bool leftover_run(const char *name, uint32_t plant, uint32_t *sum)
{
	int fd;
	pid_t pid = spawn(leftover_host, &(lo_host){name, plant}, &fd);
	bool ok = read(fd, sum, 2 * sizeof(*sum)) == 2 * sizeof(*sum);
	close(fd);
	return exited_well(pid) && ok;
}

static void t_private(void)
{
	if (!leftover_path) {
		printf("skip: private (no --leftover object)\n");
		return;
	}
	static const char *const kernels[] = {"leftover", "leftover_wg"};
	for (unsigned k = 0; k < 2; k++) {
		uint32_t planted[2], found[2];
		CHECK(leftover_run(kernels[k], 1, planted),
		      "%s: the planting host failed", kernels[k]);
		CHECK(leftover_run(kernels[k], 0, found),
		      "%s: the reading host failed", kernels[k]);
		CHECK(found[0] == 0 && found[1] == 0,
		      "%s: a new host found %u of %u local and %u of %u "
		      "private words of the last host's pattern",
		      kernels[k], found[0], LO_GROUPS * 2048u, found[1],
		      LO_ITEMS * 256u);
		printf("ok: %s: a new host found %u of %u local and %u of %u "
		       "private words of the last host's pattern\n",
		       kernels[k], found[0], LO_GROUPS * 2048u, found[1],
		       LO_ITEMS * 256u);
	}
}

/* ---- four tenants at once ---- */

/* A heap hog: 64 MiB buffers, then 1 MiB ones, until the device refuses,
 * each filled with a pattern; says how many bytes it holds and why it was
 * refused, then holds them. */
static int heap_hog_child(int fd, const void *unused)
{
	(void)unused;
	hp_device *H = connect_one();
	uint64_t held = 0, size = 64u << 20;
	int rc = 0;
	hp_buffer b;
	/* every byte it holds written: what a later tenant must never see */
	uint32_t *pattern = malloc(size);
	for (size_t i = 0; i < size / 4; i++)
		pattern[i] = 0xa5a50000u | (uint32_t)(i & 0xffff);
	for (; size >= (1u << 20); size >>= 6)
		while (!(rc = hp_buffer_alloc(H, size, &b))) {
			MUST(hp_buffer_write(H, b, 0, pattern, size));
			held += size;
		}
	free(pattern);
	char msg[160];
	snprintf(msg, sizeof(msg), "%" PRIu64 " %s: %s", held,
		 hp_error_name(rc), hp_last_error());
	if (write(fd, msg, strlen(msg) + 1) <= 0)
		return 3;
	for (;;)
		pause();
}

/* A table hog: kernel objects, then queues, until refused. */
static int table_hog_child(int fd, const void *unused)
{
	(void)unused;
	hp_device *T = connect_one();
	unsigned objects = 0, queues = 0;
	hp_object obj;
	char why[120] = "no object given";
	while (leftover_path &&
	       !hp_object_load_file(T, leftover_path, &obj, NULL))
		objects++;
	if (leftover_path)
		snprintf(why, sizeof(why), "%s", hp_last_error());
	hp_queue *q;
	while (!hp_queue_create(T, 0, &q))
		queues++;
	char msg[320];
	snprintf(msg, sizeof(msg), "%u objects (then %s), %u queues (then %s)",
		 objects, why, queues, hp_last_error());
	if (write(fd, msg, strlen(msg) + 1) <= 0)
		return 3;
	for (;;)
		pause();
}

/* A new buffer of `size` bytes on d: the words in it that are not zero
 * (it must read as zeros before it is written). */
static unsigned fresh_words(hp_device *d, size_t size)
{
	static uint32_t h[(64u << 20) / 4];
	hp_buffer b;
	MUST(hp_buffer_alloc(d, size, &b));
	MUST(hp_buffer_read(d, b, 0, h, size));
	unsigned n = 0;
	for (size_t i = 0; i < size / 4; i++)
		n += h[i] != 0;
	MUST(hp_buffer_free(d, b));
	return n;
}

/* The careful tenant: rounds of a new small buffer and, every tenth, a
 * new 64 MiB one (each must read as zeros), and a checked vadd, until a
 * byte comes on `stop`; exits 0 if everything was right, and says its
 * rounds and worst round trip on fd. */
static int careful_child(int fd, const void *arg)
{
	int stop = *(const int *)arg;
	fcntl(stop, F_SETFL, O_NONBLOCK);
	hp_device *d = connect_one();
	hp_queue *q;
	MUST(hp_queue_create(d, HP_QUEUE_IN_ORDER, &q));
	double worst = 0, ms;
	unsigned bad = 0, leftover = 0, r = 0;
	for (char c; read(stop, &c, 1) != 1; r++) {
		leftover += fresh_words(d, r % 10 ? 4096 * 4 : 64u << 20);
		bad += !vadd_round(d, q, 4096, &ms);
		worst = ms > worst ? ms : worst;
	}
	char msg[96];
	snprintf(msg, sizeof(msg), "%u %u %.1f %u", bad, leftover, worst, r);
	if (write(fd, msg, strlen(msg) + 1) <= 0)
		return 3;
	return bad || leftover;
}

/* The careful tenant as a process: its answers on *fd, a byte into *stop
 * ends it. */
static pid_t start_careful(int *fd, int *stop)
{
	int q[2];
	if (pipe(q))
		e2e_fatal("pipe");
	pid_t pid = spawn(careful_child, &q[0], fd);
	close(q[0]);
	*stop = q[1];
	return pid;
}

static bool usage_same(const hp_device_usage *a, const hp_device_usage *b)
{
	return a->heap_used == b->heap_used && a->buffers == b->buffers &&
	       a->objects == b->objects && a->kernel_rows == b->kernel_rows &&
	       a->sessions == b->sessions && a->code_used == b->code_used;
}

static void reap_until(const hp_device_usage *want)
{
	hp_device_usage u;
	for (int i = 0; i < 600; i++) {
		MUST(hp_device_usage_get(A, &u));
		if (usage_same(&u, want))
			break;
		unsigned ended;
		MUST(hp_sessions_reap(A, &ended));
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
	}
	CHECK(usage_same(&u, want),
	      "heap and tables not back: heap %" PRIu64 " (was %" PRIu64
	      "), %u buffers (%u), %u objects (%u), %u rows (%u), %u "
	      "sessions (%u)",
	      u.heap_used, want->heap_used, u.buffers, want->buffers, u.objects,
	      want->objects, u.kernel_rows, want->kernel_rows, u.sessions,
	      want->sessions);
}

/* Kill a tenant and wait until the device has ended its session (this
 * handle reaps it), so what it held is free again. */
static void stop_pid(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	for (int i = 0; i < 600; i++) {
		hp_session_info s[16];
		unsigned n = 0, ended;
		MUST(hp_sessions_reap(A, &ended));
		MUST(hp_sessions(A, s, 16, &n));
		bool there = false;
		for (unsigned k = 0; k < n && k < 16; k++)
			there |= s[k].pid == pid;
		if (!there)
			return;
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
	}
	CHECK(false, "the killed tenant %d's session did not end", (int)pid);
}

static void t_tenants(void)
{
	/* Earlier cases' hosts are gone: once their sessions are reclaimed
	 * this handle's is the only one, and that is where things start. */
	hp_device_usage u0;
	for (int i = 0; i < 600; i++) {
		unsigned ended;
		MUST(hp_sessions_reap(A, &ended));
		MUST(hp_device_usage_get(A, &u0));
		if (u0.sessions == 1)
			break;
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
	}
	if (!u0.shared) {
		printf("skip: tenants (a private device has no quotas: "
		       "--connect to a hartpool up device)\n");
		return;
	}
	char heap_msg[160], table_msg[320];
	pid_t spinner = start_hog(false);
	pid_t heap =
		start_tenant(heap_hog_child, NULL, heap_msg, sizeof(heap_msg));
	pid_t table = start_tenant(table_hog_child, NULL, table_msg,
				   sizeof(table_msg));
	CHECK(strstr(heap_msg, "quota") != NULL,
	      "the heap hog was not stopped by its quota: %s", heap_msg);
	CHECK(strstr(table_msg, "queues quota") != NULL &&
		      (!leftover_path || strstr(table_msg, "objects quota")),
	      "the table hog was not stopped by its quotas: %s", table_msg);
	printf("heap hog: %s\ntable hog: %s\n", heap_msg, table_msg);
	int fd, stop;
	pid_t careful = start_careful(&fd, &stop);
	/* Hosts killed while the careful one works: the spinner (and a new
	 * one started), then the heap hog; their memory comes back dirty and
	 * the careful tenant's new buffers must still read as zeros. */
	struct timespec ts = {1, 0};
	for (unsigned i = 0; i < rounds; i++) {
		nanosleep(&ts, NULL);
		if (i == rounds / 3) {
			stop_pid(spinner);
			spinner = start_hog(false);
		} else if (i == 2 * rounds / 3 && heap) {
			stop_pid(heap);
			heap = 0;
		}
	}
	if (write(stop, "s", 1) != 1)
		e2e_fatal("the careful tenant is gone");
	close(stop);
	char msg[96] = "";
	ssize_t got = read(fd, msg, sizeof(msg) - 1);
	msg[got > 0 ? got : 0] = 0;
	close(fd);
	bool well = exited_well(careful);
	unsigned bad = 1, leftover = 1, done = 0;
	double worst = 0;
	sscanf(msg, "%u %u %lf %u", &bad, &leftover, &worst, &done);
	CHECK(well && !bad && !leftover,
	      "the careful tenant: %u rounds wrong, %u words of others' data "
	      "in its new buffers (%s)",
	      bad, leftover, msg);
	CHECK(hog_commands(spinner) == 4,
	      "the spinner's endless kernels did not run all along");
	printf("ok: beside a spinner, a heap hog and a table hog (the spinner "
	       "killed and replaced, the heap hog killed), the careful "
	       "tenant's %u rounds are right and its new buffers zero; worst "
	       "round trip %.1f ms\n",
	       done, worst);
	stop_pid(spinner);
	if (heap)
		stop_pid(heap);
	stop_pid(table);
	reap_until(&u0);
	printf("ok: heap and tables back where they started\n");
}

int main(int argc, char **argv)
{
	hp_open_options o = {.harts = 8};
	const char *only[8], *connect = NULL;
	unsigned nonly = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--board") && i + 1 < argc)
			o.board = argv[++i];
		else if (!strcmp(argv[i], "--harts") && i + 1 < argc)
			o.harts = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--connect") && i + 1 < argc)
			connect = argv[++i];
		else if (!strcmp(argv[i], "--leftover") && i + 1 < argc)
			leftover_path = argv[++i];
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (argv[i][0] != '-' && nonly < 8)
			only[nonly++] = argv[i];
		else {
			fprintf(stderr,
				"usage: test_slices [--board B] "
				"[--harts N] [--connect C] [--rounds R] "
				"[--leftover HPK] [TEST...]\n");
			return 2;
		}
	}
	if (connect)
		o = (hp_open_options){.connect = connect};
	MUST(hp_open(&o, &A));
	conn = hp_connect_string(A);
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {{"hog", t_hog},	    {"long", t_long},
		     {"team", t_team},	    {"teamlong", t_teamlong},
		     {"vregs", t_vregs},    {"private", t_private},
		     {"tenants", t_tenants}};
	for (unsigned t = 0; t < sizeof(tests) / sizeof(tests[0]); t++) {
		bool run = !nonly;
		for (unsigned k = 0; k < nonly; k++)
			run |= !strcmp(only[k], tests[t].name);
		if (run)
			tests[t].fn();
	}
	hp_close(A);
	return e2e_report();
}
