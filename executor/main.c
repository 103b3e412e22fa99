// SPDX-License-Identifier: MIT
/*
 * The firmware's main program (the `make run` demo until the mailbox
 * arrives): every hart answers a roll-call; then hart 0 launches kernels
 * through the executor while every hart pulls work-groups from the pool,
 * and checks each result on the device:
 *   - wg_count over a 2-D range with remainder groups and a local size the
 *     runtime chooses (per-group counts by local atomics, a global count),
 *   - barrier_rotate over a 3-D range (local memory + work-group barrier),
 *   - the same barrier_rotate with each group spread over a team of harts.
 */
#include "exec.h"
#include "registry.h"
#include <boot/app.h>
#include <diag.h>
#include <hal/console.h>
#include <hal/hart.h>
#include <hal/heap.h>
#include <hal/timer.h>

static unsigned demo_failures;

static void demo_result(const char *what, const exec_cmd *c, bool ok)
{
	uint64_t us = hal_timer_ticks_to_us(c->t_end - c->t_queued);
	hal_printf("demo: %-40s local %zux%zux%zu, %zu groups, %llu us: %s\n",
		   what, c->launch.local_size[0], c->launch.local_size[1],
		   c->launch.local_size[2], c->launch.total_groups,
		   (unsigned long long)us,
		   c->status ? hp_error_name(c->status)
		   : ok	     ? "OK"
			     : "WRONG");
	demo_failures += c->status || !ok;
}

static void demo_wg_count(void)
{
	static exec_cmd c;
	static hp_wg_count_args a;
	static uint32_t total;
	uint32_t *per_group = hal_heap_alloc(4096 * sizeof(uint32_t), 64);
	a.per_group = (uintptr_t)per_group;
	a.total = (uintptr_t)&total;
	c = (exec_cmd){.kernel = &hp_kernel_wg_count,
		       .args = &a,
		       .args_size = sizeof(a),
		       .range = {.work_dim = 2, .global = {1000, 37}}};
	exec_enqueue(NULL, &c);
	exec_wait(&c);
	/* Every group counted its real size (remainder groups included). */
	bool ok = total == 1000u * 37u;
	const hp_launch *l = &c.launch;
	for (size_t g = 0; ok && g < l->total_groups; g++) {
		size_t gx = g % l->num_groups[0], gy = g / l->num_groups[0];
		size_t w = 1000 - gx * l->local_size[0];
		size_t h = 37 - gy * l->local_size[1];
		w = w < l->local_size[0] ? w : l->local_size[0];
		h = h < l->local_size[1] ? h : l->local_size[1];
		ok = per_group[g] == w * h;
	}
	demo_result("wg_count 1000x37, local chosen", &c, ok);
}

static void demo_rotate(unsigned team)
{
	static exec_cmd c;
	static hp_barrier_rotate_args a;
	enum { X = 20, Y = 9, Z = 7 };
	uint32_t *out = hal_heap_alloc(X * Y * Z * sizeof(uint32_t), 64);
	a.out = (uintptr_t)out;
	c = (exec_cmd){.kernel = &hp_kernel_barrier_rotate,
		       .args = &a,
		       .args_size = sizeof(a),
		       .range = {.work_dim = 3,
				 .global = {X, Y, Z},
				 .local = {8, 4, 2},
				 .local_given = true,
				 .team_size = team}};
	exec_enqueue(NULL, &c);
	exec_wait(&c);
	bool ok = true;
	for (unsigned z = 0; z < Z; z++)
		for (unsigned y = 0; y < Y; y++)
			for (unsigned x = 0; x < X; x++) {
				unsigned lx = x % 8, ly = y % 4, lz = z % 2;
				unsigned sx = X - x / 8 * 8, sy = Y - y / 4 * 4,
					 sz = Z - z / 2 * 2;
				sx = sx < 8 ? sx : 8, sy = sy < 4 ? sy : 4;
				sz = sz < 2 ? sz : 2;
				unsigned lin = lx + sx * (ly + sy * lz);
				ok = ok && out[x + X * (y + Y * z)] ==
						   (lin + 1) % (sx * sy * sz);
			}
	demo_result(team > 1 ? "barrier_rotate 20x9x7, team of 2 harts"
			     : "barrier_rotate 20x9x7 (fibers)",
		    &c, ok);
}

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num();
	hal_printf("hart %u (id %lu) online\n", me,
		   (unsigned long)hal_hart_id(me));
	if (!exec_start(boot_barrier_all))
		return 0;
	hal_printf("roll-call: %u/%u harts\n", n, n);
	demo_wg_count();
	demo_rotate(1);
	if (n >= 2)
		demo_rotate(2);
	exec_shutdown();
	for (unsigned i = 0; i < n && i < 8; i++)
		hal_printf("demo: hart %u ran %lu work-groups\n", i,
			   exec_stats(i)->groups);
	hal_printf("demo: %s\n", demo_failures ? "FAILED" : "all results OK");
	return demo_failures ? 1 : 0;
}
