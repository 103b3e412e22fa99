// SPDX-License-Identifier: MIT
/*
 * One kernel launch for the scheduling and scaling benchmarks
 * (bench/kbench.sh), chosen by bootargs:
 *
 *   kbench.kernel=0 mandelbrot (w x h, max_iter 128: uneven work)
 *                 1 vadd (n floats: even, memory-bound)
 *                 2 sgemm_naive (m x n x k: even, compute-bound)
 *   kbench.size=S   w = h = S, n = S, or m = n = k = S
 *   kbench.sched=0 guided (default) | 1 static | 2 fixed chunks
 *   kbench.chunk=C  groups per claim with sched=2
 *   kbench.local=L  work-group size in dimension 0 (default 16; 0: the
 *                   runtime chooses)
 *
 * Every hart serves the pool (hart 0 too, so N harts are N workers). The
 * executor brackets each chunk of work-groups with the WORK markers of
 * include/hartpool/marker.h; under the instruction-count plugin
 * (qemu/hp-qemu --count) the sum of a hart's WORK regions is the work that
 * hart did, exactly. One launch per run, so nothing else is counted. The
 * image also prints the result's checksum, so a run that computed nothing
 * is visible.
 */
#include <boot/app.h>
#include <executor/exec.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hal/heap.h>
#include <hal/timer.h>
#include <hartpool/kernels/lib.h>
#include <hartpool/marker.h>
#include <kernels/registry.h>

int app_main(void)
{
	if (!exec_start(boot_barrier_all, false))
		return 0;
	unsigned kernel = (unsigned)boot_bootarg("kbench.kernel", 0);
	uint64_t size = boot_bootarg("kbench.size", 256);
	/* kbench.local=0: the runtime chooses (as OpenMP's static schedule
	 * chooses its chunks). */
	uint64_t lx = boot_bootarg("kbench.local", 16);
	exec_range r = {.local_given = lx != 0,
			.local = {lx, 1, 1},
			.schedule = (uint32_t)boot_bootarg("kbench.sched", 0),
			.chunk = (uint32_t)boot_bootarg("kbench.chunk", 1)};
	static exec_cmd c;
	static union {
		hp_mandelbrot_args m;
		hp_vadd_args v;
		hp_sgemm_args s;
	} a;
	const hp_kernel *k;
	uint32_t *out32 = NULL;
	uint64_t outn = 0;
	if (kernel == 0) {
		k = &hp_kernel_mandelbrot;
		out32 = exec_buffer_alloc(size * size * 4, 64);
		a.m = (hp_mandelbrot_args){.out = (uintptr_t)out32,
					   .len = size * size,
					   .w = size,
					   .h = size,
					   .max_iter = 128,
					   .x0 = -2.2f,
					   .y0 = -1.2f,
					   .dx = 3.2f / (float)size,
					   .dy = 2.4f / (float)size};
		r.work_dim = 2;
		r.global[0] = r.global[1] = size;
		outn = size * size;
	} else if (kernel == 1) {
		k = &hp_kernel_vadd;
		float *x = exec_buffer_alloc(size * 4, 64);
		float *y = exec_buffer_alloc(size * 4, 64);
		float *z = exec_buffer_alloc(size * 4, 64);
		for (uint64_t i = 0; i < size; i++)
			x[i] = (float)i, y[i] = (float)(2 * i);
		a.v = (hp_vadd_args){(uintptr_t)x, (uintptr_t)y, (uintptr_t)z,
				     size};
		r.work_dim = 1;
		r.global[0] = size;
		out32 = (uint32_t *)z;
		outn = size;
	} else {
		k = &hp_kernel_sgemm_naive;
		float *ma = exec_buffer_alloc(size * size * 4, 64);
		float *mb = exec_buffer_alloc(size * size * 4, 64);
		float *mc = exec_buffer_alloc(size * size * 4, 64);
		for (uint64_t i = 0; i < size * size; i++)
			ma[i] = (float)(i % 7), mb[i] = (float)(i % 5);
		a.s = (hp_sgemm_args){
			(uintptr_t)ma, (uintptr_t)mb, (uintptr_t)mc,
			size * size,   size * size,   size * size,
			size,	       size,	      size};
		r.work_dim = 2;
		r.global[0] = r.global[1] = size;
		out32 = (uint32_t *)mc;
		outn = size * size;
	}
	c = (exec_cmd){
		.kernel = k, .args = &a, .args_size = k->args_size, .range = r};
	/* Let every other hart reach its idle sleep first, so the launch
	 * wakes them all: single-threaded TCG would otherwise keep running
	 * hart 0 past the point where the others register as idle. */
	hal_timer_sleep_us(2000);
	HP_MARKER(1); /* launch (hart 0) */
	exec_enqueue(NULL, &c);
	exec_wait(&c);
	HP_MARKER(2); /* complete */
	uint32_t sum = 0;
	for (uint64_t i = 0; i < outn; i++)
		sum = sum * 31u + out32[i];
	hal_printf("kbench: kernel %s size %llu harts %u sched %u: %s, "
		   "%zu groups, checksum %08x\n",
		   k->name, (unsigned long long)size, hal_hart_num(),
		   (unsigned)r.schedule,
		   c.status ? hp_error_name(c.status) : "OK",
		   c.launch.total_groups, (unsigned)sum);
	exec_shutdown();
	for (unsigned i = 0; i < hal_hart_num() && i < 16; i++)
		hal_printf("kbench: hart %u ran %lu groups in %lu claims\n", i,
			   exec_stats(i)->groups, exec_stats(i)->claims);
	return c.status ? 1 : 0;
}
