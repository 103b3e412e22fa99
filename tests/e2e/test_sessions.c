// SPDX-License-Identifier: MIT
/*
 * Sessions on one device shared by several host processes
 * (include/hartpool/mbox.h, "Sessions"; docs/sessions.md):
 *
 *   isolation  a kernel of one session that stores into another session's
 *              buffer faults (HP_KERNEL_FAULT at that address) and the
 *              buffer is unchanged; the same store into its own buffer
 *              works; every packet that names another session's buffer,
 *              event or kernel object is refused with its error.
 *   reclaim    a handle closed without freeing anything gives everything
 *              back: heap, buffers, objects, kernel rows, queues, sessions.
 *   killed     a host killed with an endless kernel running (no time
 *              limit) and buffers and an object held: the device cancels
 *              the kernel and reclaims everything, and serves on.
 *   tenants    four host processes at once: three run checked kernels over
 *              their own buffers, one writes into theirs, runs an endless
 *              kernel, leaks buffers and an object, and is killed mid-run.
 *              The three get every value right and their buffers intact;
 *              afterwards heap and tables are where they started.
 *   contexts   kernels of two sessions at once: A's kernels plant a
 *              pattern on their stacks and in local memory and wait; B's
 *              stores to those addresses fault (HP_KERNEL_FAULT at the
 *              address, in A's running and in its preempted contexts), and
 *              A's kernels find their pattern whole.
 *   zeroed     nothing left over: host A (a process) fills a 64 MiB buffer
 *              and small ones with a pattern, frees some and exits; host
 *              B (a new process) allocates buffers of those and other
 *              sizes and reads them back: all zero, no word of A's. Then
 *              within B: its own freed buffers' memory comes back zero.
 *
 *   test_sessions [--board B] [--harts N] [--object HPK] [TEST...]
 *
 * HPK: a kernel object to load (e2e.sh builds examples/hello.c); without it
 * the object cases are skipped.
 */
#include "e2e_check.h"
#include <hartpool/kernels/diag.h>
#include <hartpool/kernels/lib.h>
#include <hartpool_raw.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static hp_device *A; /* the handle that booted the device */
static const char *conn;
static const char *object_path;

static hp_device *connect_one(void)
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

/* Run poke on q: store `value` at `addr`; returns the command's info. */
static hp_event_info poke(hp_device *d, hp_queue *q, uint64_t addr,
			  uint32_t value)
{
	hp_poke_args a = {.addr = addr, .value = value};
	hp_ndrange r = {.work_dim = 1, .global = {1}};
	hp_event ev;
	hp_event_info info;
	MUST(hp_enqueue_kernel(q, e2e_kernel(d, "poke"), &r, &a, sizeof(a),
			       NULL, 0, &ev));
	MUST(hp_event_wait(d, ev, &info));
	return info;
}

static bool all_equal(hp_device *d, hp_buffer b, size_t n, uint32_t v)
{
	uint32_t *h = malloc(n * 4);
	MUST(hp_buffer_read(d, b, 0, h, n * 4));
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		ok &= h[i] == v;
	free(h);
	return ok;
}

static hp_buffer filled(hp_device *d, size_t n, uint32_t v)
{
	uint32_t *h = malloc(n * 4);
	for (size_t i = 0; i < n; i++)
		h[i] = v;
	hp_buffer b = e2e_buffer(d, n * 4, h);
	free(h);
	return b;
}

/* ---- isolation ---- */

static void t_isolation(void)
{
	hp_device *B = connect_one();
	hp_queue *qa, *qb;
	MUST(hp_queue_create(A, HP_QUEUE_IN_ORDER, &qa));
	MUST(hp_queue_create(B, HP_QUEUE_IN_ORDER, &qb));
	hp_buffer x = filled(A, 1024, 0x11111111u);
	hp_buffer y = filled(B, 1024, 0);

	hp_event_info i = poke(B, qb, x + 64, 0xdeadbeefu);
	CHECK(i.status == HP_KERNEL_FAULT && i.fault_addr == x + 64,
	      "B's store into A's buffer: %s (%s), fault address 0x%" PRIx64
	      ", expected HP_KERNEL_FAULT at 0x%" PRIx64,
	      hp_error_name(i.status), i.detail, i.fault_addr, x + 64);
	CHECK(all_equal(A, x, 1024, 0x11111111u),
	      "A's buffer changed by B's kernel");
	i = poke(B, qb, y + 64, 0xdeadbeefu);
	uint32_t w = 0;
	MUST(hp_buffer_read(B, y, 64, &w, 4));
	CHECK(i.status == 0 && w == 0xdeadbeefu,
	      "B's store into its own buffer: %s, read 0x%x",
	      hp_error_name(i.status), w);
	i = poke(A, qa, y, 1);
	CHECK(i.status == HP_KERNEL_FAULT && i.fault_addr == y,
	      "A's store into B's buffer: %s at 0x%" PRIx64,
	      hp_error_name(i.status), i.fault_addr);
	/* Neither session's kernels reach memory no session holds. */
	hp_device_usage u;
	usage_of(A, &u);
	uint64_t heap_end = E2E_HEAP_BASE + u.heap_size;
	i = poke(A, qa, heap_end - 4096, 1);
	CHECK(i.status == HP_KERNEL_FAULT, "store into the heap's free end: %s",
	      hp_error_name(i.status));
	printf("ok: stray stores fault (%s), the other session's data is "
	       "intact\n",
	       hp_error_name(HP_KERNEL_FAULT));

	/* The library keeps copies inside the handle's own buffers. */
	uint32_t junk[4] = {0};
	int rc = hp_buffer_write(B, x, 0, junk, sizeof(junk));
	CHECK(rc == HP_INVALID_VALUE,
	      "B writes A's buffer through the library: "
	      "%s",
	      hp_error_name(rc));
	rc = hp_buffer_read(B, y, 4096 - 8, junk, 16);
	CHECK(rc == HP_INVALID_VALUE, "a read past B's buffer's end: %s",
	      hp_error_name(rc));
	/* The device refuses packets that name another session's buffer. */
	hp_event ev;
	hp_event_info info;
	MUST(hp_enqueue_copy(qb, y, x, 4096, NULL, 0, &ev));
	MUST(hp_event_wait(B, ev, &info));
	CHECK(info.status == HP_INVALID_KERNEL_ARGS,
	      "copy from A's buffer: %s (%s)", hp_error_name(info.status),
	      info.detail);
	MUST(hp_enqueue_fill(qb, x, 4096, 0, 4, NULL, 0, &ev));
	MUST(hp_event_wait(B, ev, &info));
	CHECK(info.status == HP_INVALID_KERNEL_ARGS, "fill of A's buffer: %s",
	      hp_error_name(info.status));
	hp_vadd_args va = {.a = x, .b = y, .c = y, .n = 16};
	hp_ndrange r = {.work_dim = 1, .global = {16}};
	MUST(hp_enqueue_kernel(qb, e2e_kernel(B, "vadd"), &r, &va, sizeof(va),
			       NULL, 0, &ev));
	MUST(hp_event_wait(B, ev, &info));
	CHECK(info.status == HP_INVALID_KERNEL_ARGS &&
		      strstr(info.detail, "session"),
	      "vadd reading A's buffer: %s (%s)", hp_error_name(info.status),
	      info.detail);
	rc = hp_buffer_free(B, x);
	CHECK(rc == HP_INVALID_VALUE, "B frees A's buffer: %s",
	      hp_error_name(rc));
	CHECK(all_equal(A, x, 1024, 0x11111111u), "A's buffer after B's tries");
	/* An event of another session's queue is not B's to wait for. */
	hp_event slow;
	hp_spin_args sa = {.out = x, .iters = 1u << 16};
	hp_ndrange rs = {.work_dim = 1, .global = {64}};
	MUST(hp_enqueue_kernel(qa, e2e_kernel(A, "spin"), &rs, &sa, sizeof(sa),
			       NULL, 0, &slow));
	hp_packet p;
	hp_kernarg ka;
	memset(&p, 0, sizeof(p));
	memset(&ka, 0, sizeof(ka));
	p.header = HP_PKT_MARKER;
	p.barrier.header = HP_PKT_BARRIER_AND;
	p.barrier.num_deps = 1;
	p.barrier.deps[0] = slow;
	MUST(hp_enqueue_raw(qb, &p, NULL, &ev));
	MUST(hp_event_wait(B, ev, &info));
	CHECK(info.status == HP_INVALID_EVENT_WAIT_LIST,
	      "B waits for A's event: %s (%s)", hp_error_name(info.status),
	      info.detail);
	MUST(hp_event_wait(A, slow, &info));
	/* A kernel object is its loader's. */
	if (object_path) {
		hp_object obj;
		uint32_t kid;
		MUST(hp_object_load_file(A, object_path, &obj, NULL));
		MUST(hp_object_kernel(A, obj, "hello", &kid));
		hp_ndrange one = {.work_dim = 1, .global = {1}};
		uint64_t arg = y;
		MUST(hp_enqueue_kernel(qb, kid, &one, &arg, sizeof(arg), NULL,
				       0, &ev));
		MUST(hp_event_wait(B, ev, &info));
		CHECK(info.status == HP_INVALID_KERNEL,
		      "B launches A's object's kernel: %s (%s)",
		      hp_error_name(info.status), info.detail);
		rc = hp_object_unload(B, obj);
		CHECK(rc == HP_INVALID_PROGRAM, "B unloads A's object: %s",
		      hp_error_name(rc));
		MUST(hp_object_unload(A, obj));
	}
	printf("ok: packets naming another session's buffer, event or object "
	       "are refused\n");
	MUST(hp_buffer_free(A, x));
	MUST(hp_queue_release(qa));
	hp_close(B);
}

/* ---- what a session leaves behind ---- */

static bool same_use(const hp_device_usage *a, const hp_device_usage *b)
{
	return a->heap_used == b->heap_used && a->buffers == b->buffers &&
	       a->objects == b->objects && a->kernel_rows == b->kernel_rows &&
	       a->code_used == b->code_used && a->sessions == b->sessions;
}

static void print_use(const char *what, const hp_device_usage *u)
{
	printf("%s: heap %" PRIu64 " of %" PRIu64 " used, %u buffers, %u "
	       "objects, %u kernel rows, %u code bytes, %u sessions\n",
	       what, u->heap_used, u->heap_size, u->buffers, u->objects,
	       u->kernel_rows, u->code_used, u->sessions);
}

/* Wait (up to 20 s) until the device's use is `want` again. */
static bool use_back(const hp_device_usage *want, const char *what)
{
	hp_device_usage u;
	for (int i = 0; i < 400; i++) {
		usage_of(A, &u);
		if (same_use(&u, want))
			return true;
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
	}
	print_use("expected", want);
	print_use(what, &u);
	return false;
}

static void t_reclaim(void)
{
	hp_device_usage u0, u1;
	usage_of(A, &u0);
	hp_device *B = connect_one();
	hp_queue *q;
	MUST(hp_queue_create(B, 0, &q));
	for (int i = 0; i < 10; i++) {
		hp_buffer b;
		MUST(hp_buffer_alloc(B, 1u << 20, &b));
	}
	if (object_path) {
		hp_object obj;
		MUST(hp_object_load_file(B, object_path, &obj, NULL));
	}
	usage_of(A, &u1);
	CHECK(u1.buffers >= u0.buffers + 10 && u1.sessions == u0.sessions + 1,
	      "B's buffers and session not counted: %u -> %u buffers, %u -> "
	      "%u sessions",
	      u0.buffers, u1.buffers, u0.sessions, u1.sessions);
	hp_close(B); /* frees nothing itself */
	CHECK(use_back(&u0, "after close"),
	      "a closed session's buffers and object were not given back");
	printf("ok: a closed session's 10 buffers%s, queue and slot are given "
	       "back\n",
	       object_path ? " and object" : "");
}

/* A child that opens a session, takes buffers (and an object), starts an
 * endless kernel with no time limit, says so on `fd` and waits to be
 * killed. */
static void hostile_child(int fd, const uint64_t *targets, unsigned ntargets)
{
	hp_device *C = connect_one();
	hp_queue *q;
	MUST(hp_queue_create(C, 0, &q));
	for (int i = 0; i < 4; i++) {
		hp_buffer b;
		MUST(hp_buffer_alloc(C, 256u << 10, &b));
	}
	if (object_path) {
		hp_object obj;
		MUST(hp_object_load_file(C, object_path, &obj, NULL));
	}
	/* Stores into the other tenants' buffers: each must fault. */
	unsigned faulted = 0;
	for (unsigned i = 0; i < ntargets; i++) {
		hp_event_info info = poke(C, q, targets[i], 0xbadu);
		faulted += info.status == HP_KERNEL_FAULT;
	}
	hp_buffer out;
	MUST(hp_buffer_alloc(C, 64 * 4, &out));
	hp_fault_args fa = {.out = out, .victim = 0};
	hp_ndrange r = {.work_dim = 1,
			.global = {64},
			.local = {1},
			.local_given = true};
	hp_event ev;
	MUST(hp_enqueue_kernel(q, e2e_kernel(C, "hang"), &r, &fa, sizeof(fa),
			       NULL, 0, &ev));
	char msg = faulted == ntargets ? 'r' : 'f';
	if (write(fd, &msg, 1) != 1)
		_exit(3);
	for (;;)
		pause();
}

/* Start hostile_child; returns its pid once its kernel is queued. */
static pid_t start_hostile(const uint64_t *targets, unsigned n,
			   bool *stores_faulted)
{
	int p[2];
	if (pipe(p))
		e2e_fatal("pipe");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		hostile_child(p[1], targets, n);
	}
	close(p[1]);
	char msg = 0;
	if (read(p[0], &msg, 1) != 1)
		e2e_fatal("the hostile process died before its kernel ran");
	close(p[0]);
	*stores_faulted = msg == 'r';
	return pid;
}

static void t_killed(void)
{
	hp_device_usage u0;
	usage_of(A, &u0);
	bool faulted;
	pid_t pid = start_hostile(NULL, 0, &faulted);
	/* Killed, and left a zombie for a while: not reaped yet. */
	kill(pid, SIGKILL);
	struct timespec ts = {0, 300000000};
	nanosleep(&ts, NULL);
	/* The device serves on: its harts come back from the endless kernel
	 * once a host (this one, while it waits) ends the dead session. */
	hp_queue *q;
	MUST(hp_queue_create(A, HP_QUEUE_IN_ORDER, &q));
	float ha[256], hb[256], hc[256];
	for (int i = 0; i < 256; i++)
		ha[i] = (float)i, hb[i] = 2.0f * (float)i;
	hp_buffer a = e2e_buffer(A, sizeof(ha), ha);
	hp_buffer b = e2e_buffer(A, sizeof(hb), hb);
	hp_buffer c = e2e_buffer(A, sizeof(hc), NULL);
	hp_vadd_args va = {.a = a, .b = b, .c = c, .n = 256};
	hp_ndrange r = {.work_dim = 1, .global = {256}};
	hp_event ev;
	hp_event_info info;
	MUST(hp_enqueue_kernel(q, e2e_kernel(A, "vadd"), &r, &va, sizeof(va),
			       NULL, 0, &ev));
	MUST(hp_event_wait(A, ev, &info));
	MUST(hp_buffer_read(A, c, 0, hc, sizeof(hc)));
	bool ok = info.status == 0;
	for (int i = 0; i < 256; i++)
		ok &= hc[i] == 3.0f * (float)i;
	CHECK(ok, "vadd after the killed host: %s", hp_error_name(info.status));
	waitpid(pid, NULL, 0);
	MUST(hp_buffer_free(A, a));
	MUST(hp_buffer_free(A, b));
	MUST(hp_buffer_free(A, c));
	MUST(hp_queue_release(q));
	CHECK(use_back(&u0, "after the killed host"),
	      "the killed host's buffers, object or session were not given "
	      "back");
	printf("ok: a killed host's endless kernel is stopped and its "
	       "buffers%s and session given back\n",
	       object_path ? ", object" : "");
}

/* ---- contexts of kernels running at once ---- */

static void t_contexts(void)
{
	hp_device *B = connect_one();
	hp_queue *qa, *qb;
	MUST(hp_queue_create(A, HP_QUEUE_IN_ORDER, &qa));
	MUST(hp_queue_create(B, HP_QUEUE_IN_ORDER, &qb));
	/* Twelve lurkers on eight harts: B's pokes run beside four of them
	 * and in the place of others, which are then preempted (time
	 * slices), so both running and parked contexts are tried. */
	enum { N = 12 };
	uint64_t got[3 * N];
	hp_buffer out = e2e_buffer(A, sizeof(got), NULL);
	uint32_t zero = 0, one = 1;
	hp_buffer flag = e2e_buffer(A, sizeof(zero), &zero);
	hp_lurk_args la = {
		.out = out, .flag = flag, .iters = UINT64_C(1) << 34};
	hp_ndrange r = {.work_dim = 1, .global = {N}, .local = {1}};
	hp_event ev;
	MUST(hp_enqueue_kernel(qa, e2e_kernel(A, "lurk"), &r, &la, sizeof(la),
			       NULL, 0, &ev));
	/* Until those that run (a hart each but the dispatcher's) said
	 * where their data is. */
	unsigned published = 0;
	for (int t = 0; t < 6000 && published < 6; t++) {
		MUST(hp_buffer_read(A, out, 0, got, sizeof(got)));
		published = 0;
		for (unsigned i = 0; i < N; i++)
			published += got[3 * i] && got[3 * i + 1];
		if (published < 6)
			usleep(10000);
	}
	CHECK(published >= 6, "only %u of A's lurking kernels started",
	      published);
	unsigned faulted = 0, tried = 0;
	for (unsigned i = 0; i < N; i++)
		for (unsigned k = 0; k < 2; k++) {
			uint64_t at = got[3 * i + k];
			if (!at)
				continue;
			at += 4 * (i % HP_LURK_WORDS);
			hp_event_info info = poke(B, qb, at, 0xbadu);
			tried++;
			bool ok = info.status == HP_KERNEL_FAULT &&
				  info.fault_addr == at;
			faulted += ok;
			if (!ok)
				fprintf(stderr,
					"B's store into A's %s at 0x%" PRIx64
					": %s, fault address 0x%" PRIx64 "\n",
					k ? "local memory" : "stack", at,
					hp_error_name(info.status),
					info.fault_addr);
		}
	MUST(hp_buffer_write(A, flag, 0, &one, sizeof(one)));
	hp_event_info info;
	MUST(hp_event_wait(A, ev, &info));
	MUST(hp_buffer_read(A, out, 0, got, sizeof(got)));
	unsigned changed = 0, saw = 0;
	for (unsigned i = 0; i < N; i++) {
		changed += (uint32_t)got[3 * i + 2];
		saw += (unsigned)(got[3 * i + 2] >> 32);
	}
	CHECK(faulted == tried,
	      "%u of B's %u stores into A's stacks and local memory faulted",
	      faulted, tried);
	CHECK(info.status == 0 && changed == 0 && saw == N,
	      "A's kernels: %s, %u words of their stacks and local memory "
	      "changed, %u of %u saw the flag",
	      hp_error_name(info.status), changed, saw, N);
	if (faulted == tried && changed == 0)
		printf("ok: B's %u stores into the stacks and local memory of "
		       "A's running and preempted kernels fault, A's data is "
		       "whole\n",
		       tried);
	MUST(hp_buffer_free(A, out));
	MUST(hp_buffer_free(A, flag));
	MUST(hp_queue_release(qa));
	hp_close(B);
}

/* ---- four tenants ---- */

#define TENANT_N 4096

/* A tenant's command that did not succeed: said, and counted. */
static void tenant_status(unsigned seed, const char *what,
			  const hp_event_info *info, unsigned *bad)
{
	if (!info->status)
		return;
	printf("tenant %u: %s: %s (%s), fault pc 0x%" PRIx64
	       " address 0x%" PRIx64 "\n",
	       seed, what, hp_error_name(info->status), info->detail,
	       info->fault_pc, info->fault_addr);
	++*bad;
}

/* A well-behaved tenant: rounds of vadd and saxpy over its own buffers,
 * every value checked, and a canary buffer that must stay as written.
 * Writes its buffers' addresses to `fd` first, and holds its session until
 * a byte comes on `go` (so the addresses stay its own while the hostile
 * tenant tries them); exits 0 if all was right. */
static int good_tenant(int fd, int go, unsigned rounds, unsigned seed)
{
	hp_device *d = connect_one();
	hp_queue *q;
	MUST(hp_queue_create(d, HP_QUEUE_IN_ORDER, &q));
	static float ha[TENANT_N], hb[TENANT_N], hc[TENANT_N];
	for (int i = 0; i < TENANT_N; i++) {
		ha[i] = (float)(i % 1000) + (float)seed;
		hb[i] = (float)(i % 7);
	}
	hp_buffer a = e2e_buffer(d, sizeof(ha), ha);
	hp_buffer b = e2e_buffer(d, sizeof(hb), hb);
	hp_buffer c = e2e_buffer(d, sizeof(hc), NULL);
	hp_buffer canary = filled(d, 1024, 0xc0ffee00u + seed);
	uint64_t addrs[2] = {canary + 128, c};
	if (write(fd, addrs, sizeof(addrs)) != (ssize_t)sizeof(addrs))
		return 3;
	close(fd);
	unsigned bad = 0;
	for (unsigned k = 0; k < rounds; k++) {
		hp_vadd_args va = {.a = a, .b = b, .c = c, .n = TENANT_N};
		hp_ndrange r = {.work_dim = 1, .global = {TENANT_N}};
		hp_event ev;
		hp_event_info info;
		MUST(hp_enqueue_kernel(q, e2e_kernel(d, "vadd"), &r, &va,
				       sizeof(va), NULL, 0, &ev));
		MUST(hp_event_wait(d, ev, &info));
		MUST(hp_buffer_read(d, c, 0, hc, sizeof(hc)));
		tenant_status(seed, "vadd", &info, &bad);
		for (int i = 0; i < TENANT_N; i++)
			bad += hc[i] != ha[i] + hb[i];
		hp_saxpy_args sa = {.x = a, .y = c, .n = TENANT_N, .a = 2.0f};
		MUST(hp_enqueue_kernel(q, e2e_kernel(d, "saxpy"), &r, &sa,
				       sizeof(sa), NULL, 0, &ev));
		MUST(hp_event_wait(d, ev, &info));
		MUST(hp_buffer_read(d, c, 0, hc, sizeof(hc)));
		tenant_status(seed, "saxpy", &info, &bad);
		for (int i = 0; i < TENANT_N; i++)
			bad += hc[i] != 2.0f * ha[i] + ha[i] + hb[i];
	}
	char c1;
	if (read(go, &c1, 1) != 1)
		bad++;
	if (!all_equal(d, canary, 1024, 0xc0ffee00u + seed))
		bad++;
	if (bad)
		printf("tenant %u: %u wrong values or statuses\n", seed, bad);
	hp_close(d);	/* its buffers go with the session */
	fflush(stdout); /* the caller's _exit() flushes nothing */
	return bad ? 1 : 0;
}

static void t_tenants(void)
{
	hp_device_usage u0;
	usage_of(A, &u0);
	enum { GOOD = 3 };
	pid_t kids[GOOD];
	int go[GOOD];
	uint64_t targets[2 * GOOD];
	for (unsigned t = 0; t < GOOD; t++) {
		int p[2], g[2];
		if (pipe(p) || pipe(g))
			e2e_fatal("pipe");
		fflush(stdout);
		kids[t] = fork();
		if (kids[t] == 0) {
			close(p[0]);
			close(g[1]);
			_exit(good_tenant(p[1], g[0], 6, t + 1));
		}
		close(p[1]);
		close(g[0]);
		go[t] = g[1];
		if (read(p[0], &targets[2 * t], 16) != 16)
			e2e_fatal("tenant %u died before it started", t);
		close(p[0]);
	}
	bool faulted;
	pid_t bad = start_hostile(targets, 2 * GOOD, &faulted);
	CHECK(faulted, "the hostile tenant's stores into the others' buffers "
		       "did not all fault");
	/* Killed while its endless kernel runs and the others work. */
	struct timespec ts = {0, 200000000};
	nanosleep(&ts, NULL);
	kill(bad, SIGKILL);
	waitpid(bad, NULL, 0);
	for (unsigned t = 0; t < GOOD; t++) {
		if (write(go[t], "g", 1) != 1)
			e2e_fatal("tenant %u is gone", t);
		close(go[t]);
	}
	unsigned ok = 0;
	for (unsigned t = 0; t < GOOD; t++) {
		int st;
		waitpid(kids[t], &st, 0);
		ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
	}
	CHECK(ok == GOOD, "%u of %u tenants got every value right", ok, GOOD);
	CHECK(use_back(&u0, "after the tenants"),
	      "heap and tables are not back where they started");
	printf("ok: %u tenants right beside a hostile one; heap and tables "
	       "back where they started\n",
	       ok);
}

/* ---- nothing left over ---- */

#define ZERO_PATTERN 0x5a5aa5a5u
#define ZERO_BIG (64u << 20)
static const uint64_t zero_small[] = {4096, 100, (1u << 20) + 12, 65536 + 4};

/* Fill a buffer of `size` bytes on d with the pattern. */
static hp_buffer zero_fill(hp_device *d, uint64_t size)
{
	hp_buffer b;
	MUST(hp_buffer_alloc(d, size, &b));
	size_t n = (size_t)(size / 4);
	uint32_t *h = malloc(size);
	for (size_t i = 0; i < n; i++)
		h[i] = ZERO_PATTERN;
	memset((char *)h + n * 4, 0x5a, (size_t)(size - n * 4));
	MUST(hp_buffer_write(d, b, 0, h, size));
	free(h);
	return b;
}

/* A buffer of `size` bytes read back without writing it: how many of its
 * 32-bit words are the pattern and how many are not zero (the odd tail
 * bytes count as a word). */
static void zero_count(hp_device *d, uint64_t size, uint64_t *pattern,
		       uint64_t *nonzero, uint64_t *words)
{
	hp_buffer b;
	MUST(hp_buffer_alloc(d, size, &b));
	uint32_t *h = calloc(1, (size_t)size + 4);
	memset(h, 0xee, (size_t)size); /* nothing read: not zero */
	MUST(hp_buffer_read(d, b, 0, h, size));
	size_t n = (size_t)((size + 3) / 4);
	if (size % 4)
		memset((char *)h + size, 0, 4 - size % 4);
	for (size_t i = 0; i < n; i++) {
		*pattern += h[i] == ZERO_PATTERN;
		*nonzero += h[i] != 0;
	}
	*words += n;
	free(h);
}

static void t_zeroed(void)
{
	fflush(stdout);
	pid_t a = fork();
	if (a == 0) {
		/* Host A: fill, free some, exit (its session ends). */
		hp_device *d = connect_one();
		hp_buffer big = zero_fill(d, ZERO_BIG);
		hp_buffer small[4];
		for (unsigned i = 0; i < 4; i++)
			small[i] = zero_fill(d, zero_small[i]);
		MUST(hp_buffer_free(d, small[1]));
		MUST(hp_buffer_free(d, small[3]));
		(void)big;
		hp_close(d);
		fflush(stdout);
		_exit(e2e_failures ? 1 : 0);
	}
	int st;
	waitpid(a, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "host A failed");
	fflush(stdout);
	pid_t b = fork();
	if (b == 0) {
		/* Host B: a new process, new buffers, read before writing. */
		hp_device *d = connect_one();
		uint64_t pat = 0, nz = 0, words = 0;
		zero_count(d, ZERO_BIG, &pat, &nz, &words);
		printf("host B: a new 64 MiB buffer holds %" PRIu64
		       " of %" PRIu64 " words of host A's pattern, %" PRIu64
		       " not zero\n",
		       pat, words, nz);
		uint64_t p2 = 0, n2 = 0, w2 = 0;
		for (unsigned i = 0; i < 4; i++)
			zero_count(d, zero_small[i], &p2, &n2, &w2);
		zero_count(d, 3u << 20, &p2, &n2, &w2);
		zero_count(d, 12, &p2, &n2, &w2);
		printf("host B: 6 more buffers (12 B to 3 MiB): %" PRIu64
		       " of %" PRIu64 " words of the pattern, %" PRIu64
		       " not zero\n",
		       p2, w2, n2);
		CHECK(pat + nz + p2 + n2 == 0,
		      "host B's new buffers hold host A's data");
		/* Within one session: its own freed data does not come back. */
		hp_buffer mine[3];
		mine[0] = zero_fill(d, ZERO_BIG / 4);
		mine[1] = zero_fill(d, 4096);
		mine[2] = zero_fill(d, 300);
		for (unsigned i = 0; i < 3; i++)
			MUST(hp_buffer_free(d, mine[i]));
		uint64_t p3 = 0, n3 = 0, w3 = 0;
		zero_count(d, ZERO_BIG / 4, &p3, &n3, &w3);
		zero_count(d, 4096, &p3, &n3, &w3);
		zero_count(d, 300, &p3, &n3, &w3);
		zero_count(d, 8192, &p3, &n3, &w3);
		printf("host B: after freeing its own, new buffers hold "
		       "%" PRIu64 " of %" PRIu64
		       " words of its pattern, %" PRIu64 " not zero\n",
		       p3, w3, n3);
		CHECK(p3 + n3 == 0, "a new buffer shows the session's own "
				    "freed data");
		hp_close(d);
		fflush(stdout);
		_exit(e2e_failures ? 1 : 0);
	}
	waitpid(b, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "host B found data in new buffers");
	printf("ok: new buffers read as zeros, of another host and of its "
	       "own\n");
}

int main(int argc, char **argv)
{
	hp_open_options o = {.harts = 8};
	const char *only[8];
	unsigned nonly = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--board") && i + 1 < argc)
			o.board = argv[++i];
		else if (!strcmp(argv[i], "--harts") && i + 1 < argc)
			o.harts = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--object") && i + 1 < argc)
			object_path = argv[++i];
		else if (argv[i][0] != '-' && nonly < 8)
			only[nonly++] = argv[i];
		else {
			fprintf(stderr,
				"usage: test_sessions [--board B] "
				"[--harts N] [--object HPK] [TEST...]\n");
			return 2;
		}
	}
	MUST(hp_open(&o, &A));
	conn = hp_connect_string(A);
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {{"isolation", t_isolation}, {"reclaim", t_reclaim},
		     {"killed", t_killed},	 {"tenants", t_tenants},
		     {"contexts", t_contexts},	 {"zeroed", t_zeroed}};
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
