// SPDX-License-Identifier: MIT
/*
 * The hpcount plugin in Linux user mode (tests/count_check.sh runs this
 * under qemu-riscv64 -plugin; threads are vCPUs there). Region R runs
 * ITERS(R) rounds of a 2-instruction loop between HP_MARK_BEGIN(R) and
 * HP_MARK_END(R), so its delta is 2 * ITERS(R) + 1: region 0 on the main
 * thread, regions 1 and 2 on two pthreads, which are alive at the same time
 * (a barrier) and so are vCPUs of their own (QEMU reuses the index of a
 * thread that has exited). Region 3
 * brackets the main thread's pthread_join of both: it blocks in the kernel
 * while they run, so its count stays small.
 */
#include <hartpool/marker.h>
#include <pthread.h>
#include <stdio.h>

#define ITERS(region) (50000ul * ((region) + 1))

/* HP_MARK_BEGIN(region); n rounds of addi + bnez; HP_MARK_END(region). */
#define COUNTED_LOOP(region, n)                                                \
	__asm__ volatile(".insn i 0x13, 2, x0, x0, %1\n"                       \
			 "1: addi %0, %0, -1\n"                                \
			 "bnez %0, 1b\n"                                       \
			 ".insn i 0x13, 2, x0, x0, %2"                         \
			 : "+r"(n)                                             \
			 : "i"(2 * (region)), "i"(2 * (region) + 1)            \
			 : "memory")

static pthread_barrier_t all_up;

static void *worker(void *arg)
{
	unsigned long n = ITERS((unsigned long)arg);
	pthread_barrier_wait(&all_up);
	if (arg == (void *)1)
		COUNTED_LOOP(1, n);
	else
		COUNTED_LOOP(2, n);
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	pthread_barrier_init(&all_up, NULL, 3);
	for (unsigned long i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(i + 1))) {
			perror("count_user: pthread_create");
			return 1;
		}
	pthread_barrier_wait(&all_up);
	HP_MARK_BEGIN(3);
	for (unsigned i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	HP_MARK_END(3);
	unsigned long n = ITERS(0);
	COUNTED_LOOP(0, n);
	printf("count_user: 3 threads done\n");
	return 0;
}
