// SPDX-License-Identifier: MIT
/* Threads as harts: each "hart" has a pending-IPI flag guarded by a mutex
 * and a condition variable, which is what CLINT msip + wfi give in the
 * firmware (hal/ipi_clint.c, hal/sleep_wfi.c). */
#include "hal_host.h"
#include <hal/hart.h>
#include <hal/heap.h>
#include <hal/ipi.h>
#include <hal/isolation.h>
#include <hal/sleep.h>
#include <hal/timer.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__thread unsigned hal_tls_hart_idx;
unsigned hal_fence_word;

static struct host_hart {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int pending;
	int asleep; /* blocked in hal_sleep() (pending may be set since) */
	pthread_t thread;
	void (*fn)(void *);
	void *arg;
	unsigned idx;
} harts[HAL_MAX_HARTS];

static unsigned host_hart_num;
static unsigned long host_sleeps;
/* Harts that may still act: running, or asleep with an IPI posted (the
 * sender counts the sleeper back in when it posts, under its mutex), so 0
 * means every hart sleeps in hal_sleep() and none will wake by itself. */
static unsigned host_awake;

unsigned hal_hart_num(void)
{
	return host_hart_num;
}

uint32_t hal_hart_id(unsigned idx)
{
	return idx;
}

/* HAL_HART_* bits XORed with "all": 0 means the hart has everything. */
static unsigned host_caps_missing[HAL_MAX_HARTS];
#define HOST_CAPS_ALL (HAL_HART_FPU | HAL_HART_MMU | HAL_HART_S)

unsigned hal_hart_caps(unsigned idx)
{
	return HOST_CAPS_ALL & ~host_caps_missing[idx];
}

/* Kernel code on the host is the test's own: nothing of another owner's
 * is in the registers it reads. */
void hal_user_ext_clear(void) {}

/* Threads on the host CPU: no RISC-V vector unit. */
unsigned hal_hart_vlenb(void)
{
	return 0;
}

void hal_host_set_hart_caps(unsigned idx, unsigned caps)
{
	host_caps_missing[idx] = HOST_CAPS_ALL & ~caps;
}

void hal_ipi_send(unsigned idx)
{
	struct host_hart *h = &harts[idx];
	pthread_mutex_lock(&h->mu);
	if (h->asleep && !h->pending)
		__atomic_fetch_add(&host_awake, 1, __ATOMIC_SEQ_CST);
	h->pending = 1;
	pthread_cond_signal(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

void hal_ipi_clear_self(void)
{
	struct host_hart *h = &harts[hal_hart_idx()];
	pthread_mutex_lock(&h->mu);
	h->pending = 0;
	pthread_mutex_unlock(&h->mu);
}

void hal_sleep_prepare(void)
{
	hal_ipi_clear_self();
}

void hal_sleep(void)
{
	struct host_hart *h = &harts[hal_hart_idx()];
	pthread_mutex_lock(&h->mu);
	if (!h->pending) {
		__atomic_fetch_add(&host_sleeps, 1, __ATOMIC_RELAXED);
		h->asleep = 1;
		__atomic_fetch_sub(&host_awake, 1, __ATOMIC_SEQ_CST);
		while (!h->pending)
			pthread_cond_wait(&h->cv, &h->mu);
		h->asleep = 0;
	}
	pthread_mutex_unlock(&h->mu);
}

void hal_sleep_until(uint64_t deadline)
{
	struct host_hart *h = &harts[hal_hart_idx()];
	/* hal_timer_now() is CLOCK_MONOTONIC; the condition variable waits
	 * on CLOCK_REALTIME, so convert the remaining time. */
	uint64_t now = hal_timer_now();
	if (now >= deadline)
		return;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t abs = (uint64_t)ts.tv_sec * 1000000000u +
		       (uint64_t)ts.tv_nsec + (deadline - now);
	ts.tv_sec = (time_t)(abs / 1000000000u);
	ts.tv_nsec = (long)(abs % 1000000000u);
	pthread_mutex_lock(&h->mu);
	if (!h->pending)
		pthread_cond_timedwait(&h->cv, &h->mu, &ts);
	pthread_mutex_unlock(&h->mu);
}

unsigned long hal_host_sleeps(void)
{
	return __atomic_load_n(&host_sleeps, __ATOMIC_RELAXED);
}

bool hal_host_asleep(unsigned idx)
{
	struct host_hart *h = &harts[idx];
	pthread_mutex_lock(&h->mu);
	bool r = h->asleep && !h->pending;
	pthread_mutex_unlock(&h->mu);
	return r;
}

bool hal_host_quiescent(void)
{
	return __atomic_load_n(&host_awake, __ATOMIC_SEQ_CST) == 0;
}

static void *host_hart_main(void *p)
{
	struct host_hart *h = p;
	hal_tls_hart_idx = h->idx;
	h->fn(h->arg);
	/* A hart that has returned never acts again. */
	__atomic_fetch_sub(&host_awake, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

void hal_host_single(void)
{
	struct host_hart *h = &harts[0];
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, NULL);
	h->pending = 0;
	h->asleep = 0;
	h->idx = 0;
	hal_tls_hart_idx = 0;
	host_hart_num = 1;
	host_awake = 1;
}

void hal_host_run(unsigned num, void (*fn)(void *arg), void *arg)
{
	if (num == 0 || num > HAL_MAX_HARTS) {
		fprintf(stderr, "hal_host_run: bad hart count %u\n", num);
		exit(2);
	}
	host_hart_num = num;
	__atomic_store_n(&host_awake, num, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < num; i++) {
		struct host_hart *h = &harts[i];
		pthread_mutex_init(&h->mu, NULL);
		pthread_cond_init(&h->cv, NULL);
		h->pending = 0;
		h->asleep = 0;
		h->fn = fn;
		h->arg = arg;
		h->idx = i;
	}
	for (unsigned i = 0; i < num; i++)
		if (pthread_create(&harts[i].thread, NULL, host_hart_main,
				   &harts[i])) {
			fprintf(stderr,
				"hal_host_run: pthread_create failed\n");
			exit(2);
		}
	for (unsigned i = 0; i < num; i++)
		pthread_join(harts[i].thread, NULL);
	for (unsigned i = 0; i < num; i++) {
		pthread_mutex_destroy(&harts[i].mu);
		pthread_cond_destroy(&harts[i].cv);
	}
}

/* Every block stays listed: the heap is never freed (as on the device),
 * and LeakSanitizer sees it as reachable. */
static struct heap_block {
	struct heap_block *next;
} * heap_blocks;
static pthread_mutex_t heap_mu = PTHREAD_MUTEX_INITIALIZER;

void *hal_heap_alloc(size_t size, size_t align)
{
	void *p = NULL;
	if (align < sizeof(struct heap_block))
		align = sizeof(struct heap_block);
	if (posix_memalign(&p, align, align + (size ? size : 1)))
		return NULL;
	memset(p, 0, align + size);
	pthread_mutex_lock(&heap_mu);
	((struct heap_block *)p)->next = heap_blocks;
	heap_blocks = p;
	pthread_mutex_unlock(&heap_mu);
	return (char *)p + align;
}

void *hal_heap_alloc_private(size_t size, size_t align)
{
	return hal_heap_alloc(size, align);
}

size_t hal_heap_free_bytes(void)
{
	return (size_t)1 << 30;
}

/* Timer: CLOCK_MONOTONIC in nanoseconds. */
void hal_timer_init(uint64_t freq_hz)
{
	(void)freq_hz;
}
uint64_t hal_timer_freq(void)
{
	return 1000000000u;
}
uint64_t hal_timer_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
void hal_timer_sleep_until(uint64_t t)
{
	for (uint64_t now = hal_timer_now(); now < t; now = hal_timer_now()) {
		struct timespec d = {(time_t)((t - now) / 1000000000u),
				     (long)((t - now) % 1000000000u)};
		nanosleep(&d, NULL);
	}
}
void hal_timer_sleep_us(uint64_t us)
{
	hal_timer_sleep_until(hal_timer_now() + us * 1000u);
}

/* No traps on the host: the watchdog is the firmware's (hal/timer.h). */
void hal_watchdog_arm(uint64_t deadline, bool preempt)
{
	(void)deadline;
	(void)preempt;
}

void hal_watchdog_disarm(void) {}

void hal_watchdog_rearm(uint64_t t)
{
	(void)t;
}

void hal_timer_disarm(void) {}

void hal_watchdog_pause(void) {}

void hal_watchdog_resume(void) {}

/* No U-mode and no PMP on the host (hal/isolation.h). */
bool hal_isolation_setup(const hal_iso_own *own, unsigned dom, unsigned gen,
			 const hal_range *rw, unsigned nrw)
{
	(void)own;
	(void)dom;
	(void)gen;
	(void)rw;
	(void)nrw;
	return false;
}

void hal_isolation_view(uintptr_t base)
{
	(void)base;
}

bool hal_isolation_claim(unsigned dom, const hal_range *r, unsigned n)
{
	(void)dom;
	(void)r;
	(void)n;
	return true;
}

/* What a PMP board allows, so the mailbox's heap keeps the same rules in
 * the host tests. */
unsigned hal_isolation_max_ranges(void)
{
	return 3;
}

uintptr_t hal_isolation_granule(void)
{
	return 4096;
}

void hal_user_call(hal_jmp_buf *ret, void (*fn)(void *), void *arg,
		   void *stack_top)
{
	(void)stack_top;
	fn(arg);
	hal_longjmp(ret, HAL_USER_RETURNED);
}

/* Never in U-mode, so never asked. */
void hal_user_ext_save(hal_user_regs *r, unsigned long status)
{
	(void)r;
	(void)status;
	abort();
}

void hal_user_resume(hal_jmp_buf *ret, const hal_user_regs *r)
{
	(void)ret;
	(void)r;
	abort();
}

void hal_user_team_arrive(void)
{
	abort();
}

void hal_user_team_leave(void)
{
	abort();
}

/* Never in U-mode, so never asked. */
unsigned long hal_user_wait_begin(void)
{
	abort();
}

void hal_user_wait_end(unsigned long saved)
{
	(void)saved;
	abort();
}

bool hal_user_heap_has(uintptr_t p, size_t n)
{
	(void)p;
	(void)n;
	return false;
}

bool hal_rodata_has(uintptr_t p)
{
	(void)p;
	return false;
}
