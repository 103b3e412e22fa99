// SPDX-License-Identifier: MIT
/*
 * What the kernel library's workloads share (lib_common.h): test data from
 * the seed, the workload's own range, and checks against the reference.
 */
#include "lib_common.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One 64-bit word of test data: element i of stream `which` (splitmix64
 * of the seed). */
uint64_t wl_rnd(const workload_ctx *c, uint64_t i, unsigned which)
{
	uint64_t x = c->seed * 0x9e3779b97f4a7c15ull +
		     i * 0xd1b54a32d192ed03ull + which * 0x8cb92ba72f3d8dd7ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* A float in [-1, 1) with 24 significant bits (exactly representable). */
float wl_rnd_float(const workload_ctx *c, uint64_t i, unsigned which)
{
	int32_t k = (int32_t)(wl_rnd(c, i, which) >> 40) - (1 << 23);
	return (float)k / (float)(1 << 23);
}

/* An int32 in [-1000, 1000]. */
int32_t wl_rnd_int(const workload_ctx *c, uint64_t i, unsigned which)
{
	return (int32_t)(wl_rnd(c, i, which) % 2001u) - 1000;
}

/* --arg NAME=VALUE as a floating-point number. */
double wl_farg(const workload_ctx *c, const char *name, double dflt)
{
	const char *v = workload_arg_str(c, name);
	return v ? strtod(v, NULL) : dflt;
}

bool wl_exact(const workload_ctx *c)
{
	return workload_arg(c, "exact", 0) != 0;
}

/* The workload's own range when --global was not given: small, and with
 * remainder groups (local l0 x l1 unless --local was given). The kernels
 * index with global ids, so there is no --offset. */
int wl_range(workload_ctx *c, unsigned dims, uint64_t g0, uint64_t g1,
	     uint64_t l0, uint64_t l1)
{
	if (c->r.offset[0] || c->r.offset[1] || c->r.offset[2]) {
		snprintf(c->msg, sizeof(c->msg),
			 "the library kernels take no --offset");
		return HP_INVALID_GLOBAL_OFFSET;
	}
	if (c->range_given)
		return 0;
	c->r.work_dim = dims;
	c->r.global[0] = g0;
	c->r.global[1] = dims > 1 ? g1 : 1;
	c->r.global[2] = 1;
	if (!c->r.local_given) {
		c->r.local_given = true;
		c->r.local[0] = l0;
		c->r.local[1] = dims > 1 ? l1 : 1;
		c->r.local[2] = 1;
	}
	c->items = c->r.global[0] * c->r.global[1];
	return 0;
}

/* The 1-D kernels take --global N only. */
int wl_one_d(workload_ctx *c)
{
	if (c->r.work_dim == 1)
		return 0;
	snprintf(c->msg, sizeof(c->msg), "%s takes a 1-D range (--global N)",
		 c->wl ? c->wl->name : "this kernel");
	return HP_INVALID_WORK_DIMENSION;
}

/* Width and height of a 2-D range (1-D: height 1). */
uint64_t wl_dim(const workload_ctx *c, unsigned d)
{
	return d < c->r.work_dim ? c->r.global[d] : 1;
}

/* A float result against the reference: within @p tol, or the same value
 * with --arg exact=1. */
int wl_fcheck(workload_ctx *c, const char *what, uint64_t i, float got,
	      float want, double tol)
{
	bool ok = wl_exact(c) ? got == want
			      : fabs((double)got - (double)want) <= tol;
	if (ok)
		return 0;
	snprintf(c->msg, sizeof(c->msg),
		 "%s %llu: %.9g, expected %.9g (tolerance %.3g)", what,
		 (unsigned long long)i, (double)got, (double)want,
		 wl_exact(c) ? 0.0 : tol);
	return 1;
}

int wl_icheck(workload_ctx *c, const char *what, uint64_t i, uint32_t got,
	      uint32_t want)
{
	if (got == want)
		return 0;
	snprintf(c->msg, sizeof(c->msg), "%s %llu: %d (0x%x), expected %d",
		 what, (unsigned long long)i, (int32_t)got, got, (int32_t)want);
	return 1;
}

/* A 1-D launch of a sequence: the user's range settings that still make
 * sense (sub-group size, team size), @p global items, local @p local
 * (0: the device's choice). */
hp_ndrange wl_seq_range(const workload_ctx *c, uint64_t global, uint64_t local)
{
	hp_ndrange r = {.work_dim = 1,
			.global = {global, 1, 1},
			.local = {local ? local : 1, 1, 1},
			.local_given = local != 0,
			.sub_group_size = c->r.sub_group_size,
			.team_size = c->r.team_size,
			.timeout_us = c->r.timeout_us};
	return r;
}

int wl_kernel_id(workload_ctx *c, const char *name, uint32_t *id)
{
	int rc = hp_kernel_find(c->d, name, id);
	if (rc)
		snprintf(c->msg, sizeof(c->msg), "%s", hp_last_error());
	return rc;
}

uint64_t wl_seq_local(const workload_ctx *c)
{
	return c->r.local_given ? c->r.local[0] : 64;
}

uint64_t wl_groups_of(uint64_t n, uint64_t l)
{
	return n / l + (n % l != 0);
}
