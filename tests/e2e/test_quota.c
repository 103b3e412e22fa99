// SPDX-License-Identifier: MIT
/*
 * Per-session quotas on a shared device (docs/sessions.md, "Quotas"):
 *
 *   hog       (`hartpool up` with the default quotas) host A allocates 64
 *             MiB buffers, then smaller ones, until refused: the refusal
 *             names A's heap quota and A holds no more than it. Host A2
 *             does the same and is refused for the floors kept for others.
 *             Then host B, another process, loads a kernel object,
 *             allocates its floor, runs the object's kernel and checks
 *             every value; `hartpool info` answers and shows A's, A2's and
 *             B's use against their quotas.
 *   tables    (`hartpool up --quota objects=2,rows=...,buffers=...,
 *             queues=2,commands=4`): one object too many, one buffer too
 *             many, a queue too many are refused, each naming its quota;
 *             commands in flight never pass 4 while 64 packets queue up
 *             behind a long kernel, and every one of them completes.
 *   rows      (`hartpool up --quota rows=1`): a second object is refused,
 *             naming the rows quota.
 *   private   a device hp_open boots for this process has no quotas: one
 *             session allocates more than half the heap.
 *
 *   test_quota --connect C [--cli HARTPOOL] --object HPK hog|tables|rows
 *   test_quota [--harts N] private
 */
#include "e2e_check.h"
#include <hartpool/kernels/diag.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (UINT64_C(1) << 20)

static const char *conn, *cli = "build/host/hartpool", *object_path;

static hp_device *open_session(void)
{
	hp_open_options o = {.connect = conn};
	hp_device *d;
	MUST(hp_open(&o, &d));
	return d;
}

static void usage_of(hp_device *d, hp_device_usage *u)
{
	MUST(hp_device_usage_get(d, u));
}

/* Allocate buffers of @p size, then of a sixteenth of that, ... down to
 * 64 KiB, until each is refused; the bytes taken, the last refusal's
 * detail in @p why. */
static uint64_t hog(hp_device *d, uint64_t size, char *why, size_t n)
{
	uint64_t got = 0;
	for (; size >= 64 * 1024; size /= 16) {
		hp_buffer b;
		int rc;
		while (!(rc = hp_buffer_alloc(d, size, &b)))
			got += size;
		CHECK(rc == HP_OUT_OF_RESOURCES, "a refused buffer: %s",
		      hp_error_name(rc));
		snprintf(why, n, "%s", hp_last_error());
	}
	return got;
}

/* A session's floor (mailbox/quota.c): min, an equal share, at most max. */
static uint64_t floor_of(const hp_device_usage *u, unsigned r)
{
	uint64_t f = u->quota_cap[r] / ((uint64_t)u->sessions + 1);
	f = u->quota_min[r] < f ? u->quota_min[r] : f;
	return f < u->quota_max[r] ? f : u->quota_max[r];
}

/* Host B: its own process and session. Loads the object, allocates its
 * floor, runs hello over the start of it and checks every value. Exit
 * status: the failures. */
static int newcomer(void)
{
	hp_device *d = open_session();
	hp_device_usage u;
	usage_of(d, &u);
	uint64_t floor = floor_of(&u, HP_QUOTA_HEAP);
	hp_object obj;
	MUST(hp_object_load_file(d, object_path, &obj, NULL));
	uint32_t k;
	MUST(hp_object_kernel(d, obj, "hello", &k));
	hp_buffer b;
	/* Its floor less what the object upload and printf need. */
	int rc = hp_buffer_alloc(d, floor - MIB, &b);
	CHECK(rc == 0, "B: a buffer of its floor %llu less 1 MiB: %s: %s",
	      (unsigned long long)floor, hp_error_name(rc), hp_last_error());
	if (rc)
		return e2e_report();
	hp_queue *q;
	MUST(hp_queue_create(d, HP_QUEUE_IN_ORDER, &q));
	enum { N = 4096 };
	struct {
		uint64_t out;
	} a = {b};
	hp_ndrange r = {.work_dim = 1, .global = {N}};
	hp_event ev;
	hp_event_info info;
	MUST(hp_enqueue_kernel(q, k, &r, &a, sizeof(a), NULL, 0, &ev));
	MUST(hp_event_wait(d, ev, &info));
	CHECK(info.status == 0, "B: hello: %s %s", hp_error_name(info.status),
	      info.detail);
	static uint32_t out[N];
	MUST(hp_buffer_read(d, b, 0, out, sizeof(out)));
	unsigned bad = 0;
	for (unsigned i = 0; i < N; i++)
		bad += out[i] != i * i;
	CHECK(bad == 0, "B: %u of %u values wrong", bad, N);
	printf("host B: object loaded, %llu bytes (its floor %llu less 1 "
	       "MiB), hello over %u items exact\n",
	       (unsigned long long)(floor - MIB), (unsigned long long)floor, N);
	fflush(stdout);
	/* Held until `hartpool info` has shown it: the parent says when. */
	char c;
	if (read(0, &c, 1) < 0)
		c = 0;
	hp_close(d);
	return e2e_report();
}

/* `hartpool info` on the device: its output in @p out (@p n bytes). */
static bool info_text(char *out, size_t n)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "timeout 60 %s info --connect %s", cli,
		 conn);
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	size_t got = fread(out, 1, n - 1, p);
	out[got] = 0;
	return pclose(p) == 0;
}

/* The line of session @p pid in info's output, into @p line. */
static bool session_line(const char *text, int pid, char *line, size_t n)
{
	char key[64];
	snprintf(key, sizeof(key), ": pid %d ", pid);
	const char *at = strstr(text, key);
	if (!at)
		return false;
	while (at > text && at[-1] != '\n')
		at--;
	size_t len = strcspn(at, "\n");
	snprintf(line, n, "%.*s", (int)len, at);
	return true;
}

static void t_hog(void)
{
	hp_device *a = open_session();
	hp_device_usage u;
	usage_of(a, &u);
	CHECK(u.shared, "hartpool up's device is shared");
	uint64_t max = u.quota_max[HP_QUOTA_HEAP];
	CHECK(max == u.quota_cap[HP_QUOTA_HEAP] / 2,
	      "the default heap quota: %llu of %llu", (unsigned long long)max,
	      (unsigned long long)u.quota_cap[HP_QUOTA_HEAP]);
	char why[512];
	uint64_t got = hog(a, 64 * MIB, why, sizeof(why));
	printf("host A: %llu bytes until refused (quota %llu): %s\n",
	       (unsigned long long)got, (unsigned long long)max, why);
	CHECK(got <= max && got + 64 * 1024 > max,
	      "A took %llu bytes of a %llu quota", (unsigned long long)got,
	      (unsigned long long)max);
	CHECK(strstr(why, "over the session's heap quota"), "A: %s", why);
	/* A second greedy host: stopped by the floor kept for a newcomer. */
	hp_device *a2 = open_session();
	uint64_t got2 = hog(a2, 64 * MIB, why, sizeof(why));
	printf("host A2: %llu bytes until refused: %s\n",
	       (unsigned long long)got2, why);
	CHECK(strstr(why, "kept for other sessions' floors"), "A2: %s", why);
	usage_of(a, &u);
	uint64_t floor = floor_of(&u, HP_QUOTA_HEAP);
	CHECK(u.heap_free >= floor, "heap free %llu, a newcomer's floor %llu",
	      (unsigned long long)u.heap_free, (unsigned long long)floor);

	int to_b[2], from_b[2];
	MUST(pipe(to_b) ? HP_OUT_OF_RESOURCES : 0);
	MUST(pipe(from_b) ? HP_OUT_OF_RESOURCES : 0);
	fflush(stdout);
	pid_t b = fork();
	if (b == 0) {
		dup2(to_b[0], 0);
		dup2(from_b[1], 1);
		close(to_b[1]);
		close(from_b[0]);
		_exit(newcomer());
	}
	close(to_b[0]);
	close(from_b[1]);
	FILE *bout = fdopen(from_b[0], "r");
	char line[1024];
	bool ready = fgets(line, sizeof(line), bout) != NULL;
	CHECK(ready && strstr(line, "exact"), "host B: %s",
	      ready ? line : "(nothing)");
	if (ready)
		fputs(line, stdout);

	static char text[16384];
	bool ok = info_text(text, sizeof(text));
	CHECK(ok, "hartpool info answers on a full device");
	int pids[3] = {getpid(), getpid(), b};
	char sl[1024];
	for (unsigned k = 0; k < 3; k++) {
		bool found = session_line(text, pids[k], sl, sizeof(sl));
		CHECK(found && strstr(sl, "; quota: heap "),
		      "info shows session of pid %d against its quota: %s",
		      pids[k], found ? sl : text);
	}
	char want[96];
	snprintf(want, sizeof(want), "heap %llu of %llu bytes",
		 (unsigned long long)got, (unsigned long long)max);
	CHECK(strstr(text, want), "info shows A's %s:\n%s", want, text);
	printf("hartpool info on the full device:\n%s",
	       strstr(text, "sessions:"));
	if (write(to_b[1], "x", 1) < 0)
		CHECK(0, "telling host B to end");
	close(to_b[1]);
	while (fgets(line, sizeof(line), bout))
		fputs(line, stdout);
	fclose(bout);
	int st;
	waitpid(b, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "host B failed");
	hp_close(a2);
	hp_close(a);
}

/* @p rc and hp_last_error() name quota @p name. */
static void refused(int rc, const char *what, const char *name)
{
	char want[64];
	snprintf(want, sizeof(want), "over the session's %s quota", name);
	CHECK(rc == HP_OUT_OF_RESOURCES && strstr(hp_last_error(), want),
	      "%s: %s: %s", what, hp_error_name(rc), hp_last_error());
	printf("%s: %s: %s\n", what, hp_error_name(rc), hp_last_error());
}

static void t_tables(void)
{
	hp_device *d = open_session();
	hp_device_usage u;
	usage_of(d, &u);
	CHECK(u.quota_max[HP_QUOTA_OBJECTS] == 2 &&
		      u.quota_max[HP_QUOTA_QUEUES] == 2 &&
		      u.quota_max[HP_QUOTA_BUFFERS] == 8 &&
		      u.quota_max[HP_QUOTA_COMMANDS] == 4,
	      "up --quota reached the device");
	hp_object o[3];
	MUST(hp_object_load_file(d, object_path, &o[0], NULL));
	MUST(hp_object_load_file(d, object_path, &o[1], NULL));
	refused(hp_object_load_file(d, object_path, &o[2], NULL),
		"a third kernel object", "objects");
	hp_queue *q, *q2;
	MUST(hp_queue_create(d, HP_QUEUE_IN_ORDER, &q));
	refused(hp_queue_create(d, HP_QUEUE_IN_ORDER, &q2),
		"a third queue (the service queue is one)", "queues");
	hp_buffer b[9];
	unsigned n = 0;
	int rc;
	while (n < 9 && !(rc = hp_buffer_alloc(d, 4096, &b[n])))
		n++;
	CHECK(n == 8, "%u buffers before the refusal, quota 8", n);
	refused(rc, "a ninth buffer", "buffers");
	/* Commands: a long kernel, then 64 markers behind it. */
	hp_spin_args sa = {.out = b[0], .iters = 20000000};
	hp_ndrange r = {.work_dim = 1, .global = {1}};
	hp_event ev[65];
	MUST(hp_enqueue_kernel(q, e2e_kernel(d, "spin"), &r, &sa, sizeof(sa),
			       NULL, 0, &ev[0]));
	for (unsigned k = 1; k < 65; k++)
		MUST(hp_enqueue_marker(q, &ev[k]));
	uint64_t most = 0;
	for (unsigned k = 0; k < 50; k++) {
		hp_session_info s[HP_MBOX_SESSIONS];
		unsigned ns;
		MUST(hp_device_usage_get(d, &u));
		MUST(hp_sessions(d, s, HP_MBOX_SESSIONS, &ns));
		for (unsigned j = 0; j < ns && j < HP_MBOX_SESSIONS; j++)
			if (s[j].self && s[j].commands > most)
				most = s[j].commands;
		usleep(2000);
	}
	unsigned bad = 0;
	for (unsigned k = 0; k < 65; k++) {
		hp_event_info info;
		MUST(hp_event_wait(d, ev[k], &info));
		bad += info.status != 0;
	}
	CHECK(most >= 1 && most <= 4, "%llu commands in flight, quota 4",
	      (unsigned long long)most);
	CHECK(bad == 0, "%u of 65 commands failed", bad);
	printf("commands: at most %llu in flight (quota 4), all 65 complete\n",
	       (unsigned long long)most);
	hp_close(d);
}

/* (`hartpool up --quota rows=1`): a second object of one kernel is one
 * row too many. */
static void t_rows(void)
{
	hp_device *d = open_session();
	hp_object o[2];
	MUST(hp_object_load_file(d, object_path, &o[0], NULL));
	refused(hp_object_load_file(d, object_path, &o[1], NULL),
		"a second object (one kernel-table row each)", "rows");
	hp_close(d);
}

static void t_private(unsigned harts)
{
	hp_open_options o = {.harts = harts};
	hp_device *d;
	MUST(hp_open(&o, &d));
	hp_device_usage u;
	usage_of(d, &u);
	CHECK(!u.shared, "a device booted for one process is private");
	char why[512];
	uint64_t got = hog(d, 64 * MIB, why, sizeof(why));
	printf("private device: %llu of %llu heap bytes in one session: %s\n",
	       (unsigned long long)got, (unsigned long long)u.heap_size, why);
	CHECK(got > u.heap_size / 2 + 64 * MIB,
	      "one session of a private device took %llu of %llu",
	      (unsigned long long)got, (unsigned long long)u.heap_size);
	CHECK(!strstr(why, "quota") && strstr(why, "largest free block"),
	      "private: the heap's own refusal: %s", why);
	hp_close(d);
}

int main(int argc, char **argv)
{
	unsigned harts = 2;
	const char *test = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--connect") && i + 1 < argc)
			conn = argv[++i];
		else if (!strcmp(argv[i], "--cli") && i + 1 < argc)
			cli = argv[++i];
		else if (!strcmp(argv[i], "--object") && i + 1 < argc)
			object_path = argv[++i];
		else if (!strcmp(argv[i], "--harts") && i + 1 < argc)
			harts = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (argv[i][0] != '-' && !test)
			test = argv[i];
		else
			test = NULL, i = argc;
	}
	bool ok = test && (!strcmp(test, "private") ||
			   (conn && object_path &&
			    (!strcmp(test, "hog") || !strcmp(test, "tables") ||
			     !strcmp(test, "rows"))));
	if (!ok) {
		fprintf(stderr,
			"usage: test_quota --connect C [--cli HARTPOOL] "
			"--object HPK hog|tables|rows\n"
			"       test_quota [--harts N] private\n");
		return 2;
	}
	if (!strcmp(test, "hog"))
		t_hog();
	else if (!strcmp(test, "tables"))
		t_tables();
	else if (!strcmp(test, "rows"))
		t_rows();
	else
		t_private(harts);
	return e2e_report();
}
