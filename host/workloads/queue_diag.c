// SPDX-License-Identifier: MIT
/*
 * Workloads of the queue-test kernels (kernels/queue_diag.c: tally, affine,
 * add, spin, churn, gate): test data and host references for `hartpool run`,
 * computed from the range alone.
 */
#include "workloads.h"
#include <hartpool/kernels/diag.h>
#include <stdio.h>
#include <stdlib.h>

static int tally_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_tally_args *a = args;
	a->base = workload_arg(c, "base", 0);
	NEED_ZBUF(c, workload_items_bytes(c, a->base, sizeof(uint32_t)),
		  &a->counts);
	*size = sizeof(*a);
	return 0;
}

static int tally_check(workload_ctx *c)
{
	uint64_t base = workload_arg(c, "base", 0), n = base + c->items;
	uint32_t *cnt = c->host[0];
	int rc = workload_download(c, 0, cnt, n * sizeof(uint32_t));
	for (uint64_t i = 0; !rc && i < n; i++) {
		uint32_t want = i < base ? 0 : (uint32_t)c->repeat;
		if (cnt[i] != want) {
			snprintf(c->msg, sizeof(c->msg),
				 "counter %llu is %u, expected %u",
				 (unsigned long long)i, cnt[i], want);
			rc = 1;
		}
	}
	c->compared = n;
	return rc;
}

/* Input words from the seed (the same on both sides). */
static uint32_t word(const workload_ctx *c, uint64_t i, unsigned which)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^
		     (c->seed + which) * 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(x >> 29);
}

static int affine_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_affine_args *a = args;
	a->mul = (uint32_t)workload_arg(c, "mul", 3);
	a->add = (uint32_t)workload_arg(c, "add", 1);
	NEED_BUF(c, workload_items_bytes(c, 0, sizeof(uint32_t)), &a->y);
	uint32_t *y = c->host[0];
	for (uint64_t i = 0; i < c->items; i++)
		y[i] = word(c, i, 0);
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

static int affine_check(workload_ctx *c)
{
	uint32_t mul = (uint32_t)workload_arg(c, "mul", 3),
		 add = (uint32_t)workload_arg(c, "add", 1);
	uint32_t *y = malloc(c->items * sizeof(uint32_t) + 1);
	if (!y)
		return workload_host_oom(c, c->items * sizeof(uint32_t));
	int rc = workload_download(c, 0, y, c->items * sizeof(uint32_t));
	for (uint64_t i = 0; !rc && i < c->items; i++) {
		uint32_t want = word(c, i, 0);
		for (unsigned long r = 0; r < c->repeat; r++)
			want = want * mul + add; /* applied once per launch */
		if (y[i] != want) {
			snprintf(c->msg, sizeof(c->msg),
				 "item %llu: %u, expected %u",
				 (unsigned long long)i, y[i], want);
			rc = 1;
		}
	}
	c->compared = c->items;
	free(y);
	return rc;
}

static int add_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_add_args *a = args;
	uint64_t n = c->items,
		 bytes = workload_items_bytes(c, 0, sizeof(uint32_t));
	NEED_BUF(c, bytes, &a->a);
	NEED_BUF(c, bytes, &a->b);
	NEED_BUF(c, bytes, &a->c);
	uint32_t *x = c->host[0], *y = c->host[1];
	for (uint64_t i = 0; i < n; i++)
		x[i] = word(c, i, 1), y[i] = word(c, i, 2);
	*size = sizeof(*a);
	return workload_upload2(c);
}

static int add_check(workload_ctx *c)
{
	uint32_t *z = c->host[2];
	int rc = workload_download(c, 2, z, c->items * sizeof(uint32_t));
	for (uint64_t i = 0; !rc && i < c->items; i++)
		if (z[i] != word(c, i, 1) + word(c, i, 2)) {
			snprintf(c->msg, sizeof(c->msg), "item %llu: %u",
				 (unsigned long long)i, z[i]);
			rc = 1;
		}
	c->compared = c->items;
	return rc;
}

/* run --devices: the kernels index by linear id (counted from the slab's
 * offset): the buffers move to the slab. */
static void affine_rebase(void *args, uint64_t items)
{
	((hp_affine_args *)args)->y += items * sizeof(uint32_t);
}

static void add_rebase(void *args, uint64_t items)
{
	hp_add_args *a = args;
	a->a += items * sizeof(uint32_t);
	a->b += items * sizeof(uint32_t);
	a->c += items * sizeof(uint32_t);
}

static int spin_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_spin_args *a = args;
	a->iters = workload_arg(c, "iters", 100000);
	NEED_BUF(c, workload_items_bytes(c, 0, sizeof(uint32_t)), &a->out);
	*size = sizeof(*a);
	return 0;
}

/* spin's step (kernels/queue_diag.c), @p n times. */
static uint32_t lcg(uint32_t x, uint64_t n)
{
	for (uint64_t k = 0; k < n; k++)
		x = x * 1664525u + 1013904223u;
	return x;
}

static int spin_check(workload_ctx *c)
{
	uint64_t iters = workload_arg(c, "iters", 100000);
	uint32_t *out = c->host[0];
	int rc = workload_download(c, 0, out, c->items * sizeof(uint32_t));
	for (uint64_t i = 0; !rc && i < c->items; i++) {
		uint32_t x = lcg((uint32_t)i + 1, iters);
		if (out[i] != x) {
			snprintf(c->msg, sizeof(c->msg),
				 "item %llu: 0x%x, expected 0x%x",
				 (unsigned long long)i, out[i], x);
			rc = 1;
		}
	}
	c->compared = c->items;
	return rc;
}

/* ---- gate (already open, or shut: every item gives up after iters) ---- */

static int gate_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_gate_args *a = args;
	a->iters = workload_arg(c, "iters", 100000);
	NEED_BUF(c, workload_items_bytes(c, 0, sizeof(uint32_t)), &a->out);
	NEED_BUF(c, sizeof(uint32_t), &a->flag);
	*(uint32_t *)c->host[1] = workload_arg(c, "open", 1) != 0;
	*size = sizeof(*a);
	return workload_upload(c, 1);
}

static int gate_check(workload_ctx *c)
{
	uint32_t want = workload_arg(c, "open", 1) != 0, *out = c->host[0];
	int rc = workload_download(c, 0, out, c->items * sizeof(uint32_t));
	for (uint64_t i = 0; !rc && i < c->items; i++)
		if (out[i] != want) {
			snprintf(c->msg, sizeof(c->msg),
				 "item %llu: %u, expected %u (the gate %s)",
				 (unsigned long long)i, out[i], want,
				 want ? "was open" : "stayed shut");
			rc = 1;
		}
	c->compared = c->items;
	return rc;
}

/* ---- churn (1-D: each group's items trade values every round) ---- */

static int churn_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_churn_args *a = args;
	if (c->r.work_dim != 1) {
		snprintf(c->msg, sizeof(c->msg),
			 "churn takes a 1-D range, not %u dimensions",
			 c->r.work_dim);
		return HP_INVALID_WORK_DIMENSION;
	}
	a->iters = workload_arg(c, "iters", 1000);
	a->rounds = workload_arg(c, "rounds", 10);
	NEED_BUF(c, workload_items_bytes(c, 0, sizeof(uint32_t)), &a->out);
	*size = sizeof(*a);
	return 0;
}

static int churn_check(workload_ctx *c)
{
	uint64_t iters = workload_arg(c, "iters", 1000);
	uint64_t rounds = workload_arg(c, "rounds", 10);
	uint64_t n = c->items, L = c->info.local[0] ? c->info.local[0] : 1;
	uint32_t *out = c->host[0], *v = malloc(n * 8);
	if (!v)
		return workload_host_oom(c, n * 8);
	uint32_t *prev = v + n;
	int rc = workload_download(c, 0, out, n * sizeof(uint32_t));
	for (uint64_t i = 0; i < n; i++)
		v[i] = (uint32_t)i + 1;
	for (uint64_t r = 0; !rc && r < rounds; r++) {
		for (uint64_t i = 0; i < n; i++)
			prev[i] = v[i] = lcg(v[i], iters);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t g = i / L * L, len = n - g < L ? n - g : L;
			v[i] ^= prev[g + (i - g + 1) % len];
		}
	}
	for (uint64_t i = 0; !rc && i < n; i++)
		if (out[i] != v[i]) {
			snprintf(c->msg, sizeof(c->msg),
				 "item %llu: 0x%x, expected 0x%x",
				 (unsigned long long)i, out[i], v[i]);
			rc = 1;
		}
	free(v);
	c->compared = n;
	return rc;
}

const workload workload_tally = {
	.name = "tally",
	.help = "every work-item counts itself (--arg base=N); exactly once",
	.prepare = tally_prepare,
	.check = tally_check,
};
const workload workload_affine = {
	.name = "affine",
	.help = "y = y * mul + add (--arg mul= --arg add=); once per launch",
	.prepare = affine_prepare,
	.check = affine_check,
	.split = {.outputs = 1u,
		  .dim = WORKLOAD_OUTERMOST,
		  .rebase = affine_rebase},
};
const workload workload_add = {
	.name = "add",
	.help = "c = a + b",
	.prepare = add_prepare,
	.check = add_check,
	.split = {.outputs = 1u << 2,
		  .dim = WORKLOAD_OUTERMOST,
		  .rebase = add_rebase},
};
const workload workload_spin = {
	.name = "spin",
	.help = "a long computation per item (--arg iters=N)",
	.prepare = spin_prepare,
	.check = spin_check,
};
const workload workload_gate = {
	.name = "gate",
	.help = "each item waits for the host's flag (--arg open=0|1, "
		"iters=N: how long a shut gate is watched)",
	.prepare = gate_prepare,
	.check = gate_check,
};
const workload workload_churn = {
	.name = "churn",
	.help = "rounds of computation and barriers (--arg iters=N,rounds=R; "
		"1-D)",
	.prepare = churn_prepare,
	.check = churn_check,
};
