// SPDX-License-Identifier: MIT
/*
 * No command is left pending while harts are idle (docs/executor.md,
 * "Liveness"). Threads play harts.
 *
 * 1. Scenarios, each deterministic: fifteen commands hold fifteen of the
 *    pool's sixteen slots (their kernel waits at a gate the test opens at
 *    the end), command A runs in the last slot and command P waits for a
 *    slot. When A ends, P must get A's slot although nothing else will ever
 *    complete while the gate is shut:
 *    - A completes on the driver, the only free hart;
 *    - A faults (its slot keeps the fault text until the command layer has
 *      taken it);
 *    - A is a team instance of two harts (its slot is freed by the team's
 *      last hart out, while that hart still looks at the slot).
 *    The check comes once P is launched or every free hart sleeps with
 *    nothing pending (then nothing can launch P any more); the gate opens
 *    either way, so a failure is reported, never a hang.
 * 2. Bursts like the mailbox's (hundreds of commands for sixteen slots,
 *    one-group kernels, teams of two sizes, faults, dependencies, an
 *    in-order queue) on a dedicated driver and 8 or 64 harts, with a
 *    watcher thread: every hart asleep with a command not complete is a
 *    stall, reported with what was pending.
 */
#include <executor/exec.h>
#include <executor/pool.h>
#include <hal/hart.h>
#include <hal_host.h>
#include <hartpool/error.h>
#include <hartpool/kernel.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tests/host/check.h>
#include <time.h>

/* ---- kernels ---- */

static pthread_mutex_t gate_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static unsigned gate_started;
static bool gate_open, late_go;

/* Waits until the test opens the gate (the hart stays in kernel code). */
HP_KERNEL(held, const hp_item *it, const void *args)
{
	(void)it;
	(void)args;
	pthread_mutex_lock(&gate_mu);
	gate_started++;
	pthread_cond_broadcast(&gate_cv);
	while (!gate_open)
		pthread_cond_wait(&gate_cv, &gate_mu);
	pthread_mutex_unlock(&gate_mu);
}
HP_REGISTER(held);

/* Counts its work-items into the counter whose address is the argument. */
HP_KERNEL(tick, const hp_item *it, const void *args)
{
	(void)it;
	uint64_t *n = (uint64_t *)(uintptr_t) * (const uint64_t *)args;
	__atomic_fetch_add(n, 1, __ATOMIC_RELAXED);
}
HP_REGISTER(tick, .args_size = sizeof(uint64_t));

/* tests/common/exec_suite.c: hp_barrier() without uses_barriers. */
extern const hp_kernel hp_kernel_bad_barrier;

static void test_wait(bool *flag, unsigned *count, unsigned want)
{
	pthread_mutex_lock(&gate_mu);
	while (flag ? !*flag : *count < want)
		pthread_cond_wait(&gate_cv, &gate_mu);
	pthread_mutex_unlock(&gate_mu);
}

static void test_set(bool *flag)
{
	pthread_mutex_lock(&gate_mu);
	*flag = true;
	pthread_cond_broadcast(&gate_cv);
	pthread_mutex_unlock(&gate_mu);
}

static void pause_briefly(void)
{
	struct timespec d = {0, 200 * 1000};
	nanosleep(&d, NULL);
}

/* ---- 1. the scenarios ---- */

#define HELD (EXEC_MAX_INSTANCES - 1)

typedef struct scenario {
	const char *name;
	const hp_kernel *k; /* A's kernel */
	unsigned team;	    /* A's team size */
	int want;	    /* A's final status */
} scenario;

static const scenario scenarios[] = {
	{"completion on the only free hart", &hp_kernel_tick, 1, 0},
	{"faulting instance", &hp_kernel_bad_barrier, 1, HP_KERNEL_FAULT},
	{"team instance, slot freed by a hart still looking at it",
	 &hp_kernel_tick, 2, 0},
};

static uint64_t ticks_a, ticks_p;

static void drive(const scenario *s)
{
	static exec_cmd b[HELD], a, p;
	static uint64_t arg_a, arg_p;
	exec_range one = {.work_dim = 1, .global = {1}};
	for (unsigned i = 0; i < HELD; i++) {
		b[i] = (exec_cmd){.kernel = &hp_kernel_held, .range = one};
		CHECK_EQ(exec_enqueue(NULL, &b[i]), 0);
	}
	/* Fifteen harts other than 0 (and 1, with a team) hold them. */
	test_wait(NULL, &gate_started, HELD);
	if (s->team > 1)
		test_set(&late_go);

	arg_a = (uintptr_t)&ticks_a;
	arg_p = (uintptr_t)&ticks_p;
	exec_range ra = {.work_dim = 1,
			 .global = {s->team > 1 ? 4 : 64},
			 .local = {4},
			 .local_given = true,
			 .team_size = s->team};
	a = (exec_cmd){.kernel = s->k, .range = ra};
	if (s->k == &hp_kernel_tick) {
		a.args = &arg_a;
		a.args_size = sizeof(arg_a);
	}
	p = (exec_cmd){.kernel = &hp_kernel_tick,
		       .args = &arg_p,
		       .args_size = sizeof(arg_p),
		       .range = one};
	CHECK_EQ(exec_enqueue(NULL, &a), 0);
	CHECK_MSG(exec_status(&a) == EXEC_RUNNING, "%s: A did not get a slot",
		  s->name);
	CHECK_EQ(exec_enqueue(NULL, &p), 0);
	CHECK_MSG(exec_status(&p) == EXEC_SUBMITTED,
		  "%s: P did not wait for a slot (%d)", s->name,
		  exec_status(&p));

	CHECK_EQ(exec_wait(&a), s->want);
	/* P has its slot, or nothing will ever give it one: the only harts
	 * outside the gate (this one, and hart 1 with a team) are done with
	 * A (this one returned from exec_wait; hart 1 sleeps with nothing
	 * pending), and every other hart waits at the gate. */
	for (;;) {
		bool quiet = s->team <= 1 || hal_host_asleep(1);
		if (exec_status(&p) <= EXEC_RUNNING || quiet)
			break;
		pause_briefly();
	}
	int st = exec_status(&p);
	CHECK_MSG(st <= EXEC_RUNNING,
		  "%s: P still waits for a slot (status %d) with A's slot free "
		  "and every free hart idle",
		  s->name, st);
	if (st <= EXEC_RUNNING)
		CHECK_EQ(exec_wait(&p), 0); /* before the gate opens */
	test_set(&gate_open);
	for (unsigned i = 0; i < HELD; i++)
		CHECK_EQ(exec_wait(&b[i]), 0);
	CHECK_EQ(exec_wait(&p), 0);
	CHECK_EQ(ticks_p, 1);
	if (s->k == &hp_kernel_tick)
		CHECK_EQ(ticks_a, ra.global[0]);
}

static void scenario_body(void *arg)
{
	const scenario *s = arg;
	unsigned me = hal_hart_idx();
	if (me == 0) {
		drive(s);
		exec_shutdown();
		return;
	}
	/* With a team, hart 1 joins only after the gate holds the others:
	 * the team {0, 1} then runs A. */
	if (me == 1 && s->team > 1)
		test_wait(&late_go, NULL, 0);
	exec_serve();
}

static void run_scenarios(void)
{
	for (unsigned i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]);
	     i++) {
		const scenario *s = &scenarios[i];
		unsigned harts = 1 + (s->team > 1) + HELD;
		gate_started = 0;
		gate_open = late_go = false;
		ticks_a = ticks_p = 0;
		int before = check_failures;
		exec_init(harts);
		hal_host_run(harts, scenario_body, (void *)s);
		printf("test_liveness: %s (%u harts): %s\n", s->name, harts,
		       check_failures == before ? "ok" : "FAILED");
	}
}

/* ---- 2. bursts ---- */

#define BURST 200
#define ROUNDS 15

enum { K_ONE, K_GROUPS, K_TEAM2, K_TEAM4, K_FAULT, K_KINDS };

static exec_cmd burst[BURST];
static uint64_t burst_arg[BURST], burst_ticks[BURST], burst_want[BURST];
static int burst_status_want[BURST];
static exec_cmd *burst_waits[BURST][1];
static unsigned burst_harts;
static int burst_started, burst_done;
static unsigned burst_round;

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	return rng_state >> 8;
}

static void burst_round_run(exec_queue *ordered)
{
	for (unsigned i = 0; i < BURST; i++) {
		exec_cmd *c = &burst[i];
		unsigned r = rnd() % 100;
		unsigned kind = r < 70	 ? K_ONE
				: r < 80 ? K_GROUPS
				: r < 88 ? K_TEAM2
				: r < 94 ? K_TEAM4
					 : K_FAULT;
		if (kind >= K_TEAM2 && kind <= K_TEAM4 &&
		    burst_harts - 1 < 2u * (kind == K_TEAM4 ? 4 : 2))
			kind = K_ONE;
		exec_range rg = {.work_dim = 1, .global = {1}};
		burst_ticks[i] = 0;
		burst_arg[i] = (uintptr_t)&burst_ticks[i];
		*c = (exec_cmd){.kernel = &hp_kernel_tick,
				.args = &burst_arg[i],
				.args_size = sizeof(uint64_t)};
		burst_status_want[i] = 0;
		switch (kind) {
		case K_GROUPS:
			rg.global[0] = 1 + rnd() % 40;
			break;
		case K_TEAM2:
		case K_TEAM4:
			rg.team_size = kind == K_TEAM4 ? 4 : 2;
			rg.global[0] = rg.team_size * (1 + rnd() % 3);
			rg.local[0] = rg.team_size;
			rg.local_given = true;
			break;
		case K_FAULT:
			c->kernel = &hp_kernel_bad_barrier;
			c->args = NULL;
			c->args_size = 0;
			rg.global[0] = 8;
			rg.local[0] = 8;
			rg.local_given = true;
			burst_status_want[i] = HP_KERNEL_FAULT;
			break;
		}
		c->range = rg;
		burst_want[i] = kind == K_FAULT ? 0 : rg.global[0];
		/* Some wait for an earlier one that succeeds. */
		if (i > 0 && rnd() % 8 == 0) {
			unsigned j = rnd() % i;
			if (burst_status_want[j] == 0) {
				burst_waits[i][0] = &burst[j];
				c->wait_list = burst_waits[i];
				c->num_wait = 1;
			}
		}
		exec_queue *q = rnd() % 4 == 0 ? ordered : NULL;
		CHECK_EQ(exec_enqueue(q, c), 0);
	}
	for (unsigned i = 0; i < BURST; i++) {
		int st = exec_wait(&burst[i]);
		CHECK_MSG(st == burst_status_want[i],
			  "burst %u command %u: status %d, want %d",
			  burst_round, i, st, burst_status_want[i]);
		CHECK_MSG(burst_ticks[i] == burst_want[i],
			  "burst %u command %u: %llu work-items ran, want %llu",
			  burst_round, i, (unsigned long long)burst_ticks[i],
			  (unsigned long long)burst_want[i]);
	}
}

static void burst_body(void *arg)
{
	(void)arg;
	if (hal_hart_idx() != 0) {
		exec_serve();
		return;
	}
	static exec_queue ordered;
	ordered = (exec_queue){.in_order = true};
	/* The watcher looks from now on (the harts are counted). */
	__atomic_store_n(&burst_started, 1, __ATOMIC_RELEASE);
	for (burst_round = 0; burst_round < ROUNDS; burst_round++)
		burst_round_run(&ordered);
	__atomic_store_n(&burst_done, 1, __ATOMIC_RELEASE);
	exec_shutdown();
}

/* Every hart asleep with nothing pending is final: only harts wake harts.
 * Then a command that is not complete is stuck; say which and stop. */
static void *watch(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&burst_done, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&burst_started, __ATOMIC_ACQUIRE) &&
		    hal_host_quiescent() &&
		    !__atomic_load_n(&burst_done, __ATOMIC_ACQUIRE)) {
			unsigned n[4] = {0};
			for (unsigned i = 0; i < BURST; i++) {
				int st = exec_status(&burst[i]);
				if (st > 0 && st < 4)
					n[st]++;
			}
			fprintf(stderr,
				"test_liveness: STALL in burst %u at %u harts: "
				"every hart asleep, %u commands running, %u "
				"waiting for a slot, %u queued\n",
				burst_round, burst_harts, n[EXEC_RUNNING],
				n[EXEC_SUBMITTED], n[EXEC_QUEUED]);
			exit(1);
		}
		pause_briefly();
	}
	return NULL;
}

static void run_bursts(unsigned harts)
{
	burst_harts = harts;
	burst_started = burst_done = 0;
	int before = check_failures;
	exec_init(harts);
	exec_dev.first_worker = 1; /* a dedicated driver, as the firmware's */
	pthread_t w;
	if (pthread_create(&w, NULL, watch, NULL)) {
		fprintf(stderr, "test_liveness: pthread_create failed\n");
		exit(2);
	}
	hal_host_run(harts, burst_body, NULL);
	__atomic_store_n(&burst_done, 1, __ATOMIC_RELEASE);
	pthread_join(w, NULL);
	printf("test_liveness: %u bursts of %u commands at %u harts: %s\n",
	       ROUNDS, BURST, harts,
	       check_failures == before ? "ok" : "FAILED");
}

int main(void)
{
	run_scenarios();
	run_bursts(8);
	run_bursts(64);
	return check_report("test_liveness");
}
