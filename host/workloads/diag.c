// SPDX-License-Identifier: MIT
/*
 * Workloads of the diagnostic kernels (include/hartpool/kernels/diag.h):
 * test data and host references for `hartpool run` and `hartpool ids`.
 * References come from ref/ (ndref.c, written from the OpenCL
 * specification alone; sgref.c) or are computed here from the range, never
 * from what the device reports except the local size it chose (which
 * ndref checks separately when `ids` runs).
 */
#include "workloads.h"
#include <hartpool/ids.h>
#include <hartpool/kernels/diag.h>
#include <ref/ndref.h>
#include <ref/sgref.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- empty ---- */

static int empty_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	(void)c, (void)args;
	*size = 0;
	return 0;
}

static int nothing_to_check(workload_ctx *c)
{
	(void)c;
	return 0;
}

/* ---- ids ---- */

static int ids_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_ids_args *a = args;
	NEED_BUF(c, workload_items_bytes(c, 0, sizeof(hp_ids_record)),
		 &a->records);
	NEED_ZBUF(c, workload_items_bytes(c, 0, sizeof(uint32_t)), &a->counts);
	*size = sizeof(*a);
	return 0;
}

/* The independent reference's view of the launch. */
static ndref_launch ref_launch(const workload_ctx *c)
{
	const hp_device_info *di = hp_info(c->d);
	ndref_launch l = {
		.work_dim = c->r.work_dim,
		.local_given = c->r.local_given,
		.kernel_max_wg = c->k->max_work_group_size,
		.uniform = c->r.uniform,
		.sub_group_size = workload_sub_group_size(c),
		.harts = di->harts,
		.dev_max_wg = di->max_work_group_size,
	};
	for (unsigned d = 0; d < 3; d++) {
		l.global[d] = c->r.global[d];
		l.offset[d] = c->r.offset[d];
		l.local[d] = c->r.local[d];
		l.reqd[d] = c->r.reqd[d] ? c->r.reqd[d]
					 : c->k->reqd_work_group_size[d];
		l.dev_max_item[d] = di->max_work_item_sizes[d];
	}
	return l;
}

static int ids_check(workload_ctx *c)
{
	uint64_t n = c->items;
	uint64_t *rec = c->host[0];
	uint32_t *cnt = c->host[1];
	int rc = workload_download(c, 0, rec, n * sizeof(hp_ids_record));
	if (!rc)
		rc = workload_download(c, 1, cnt, n * sizeof(uint32_t));
	if (rc)
		return rc;
	ndref_launch l = ref_launch(c);
	c->compared = n * (HP_IDS_NCOLS + 1);
	return ndref_check(&l, rec, cnt, n, c->msg, sizeof(c->msg)) ? 1 : 0;
}

/* The local size used in dimension d and the size of the group that
 * holds global index x (remainder groups are smaller). */
static uint64_t group_len(const workload_ctx *c, unsigned d, uint64_t x)
{
	uint64_t L = c->info.local[d] ? c->info.local[d] : 1;
	uint64_t G = d < c->r.work_dim ? c->r.global[d] : 1;
	uint64_t left = G - x / L * L;
	return left < L ? left : L;
}

/* ---- wg_count ---- */

static int wg_count_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_wg_count_args *a = args;
	/* One counter per group: at most one group per item. */
	NEED_ZBUF(c, workload_items_bytes(c, 0, sizeof(uint32_t)),
		  &a->per_group);
	NEED_ZBUF(c, sizeof(uint32_t), &a->total);
	*size = sizeof(*a);
	return 0;
}

static int wg_count_check(workload_ctx *c)
{
	uint64_t ng[3], groups = 1;
	for (unsigned d = 0; d < 3; d++) {
		uint64_t L = c->info.local[d] ? c->info.local[d] : 1;
		uint64_t G = d < c->r.work_dim ? c->r.global[d] : 1;
		ng[d] = G / L + (G % L != 0);
		groups *= ng[d];
	}
	if (groups != c->info.groups) {
		snprintf(c->msg, sizeof(c->msg),
			 "device ran %llu groups, the range has %llu",
			 (unsigned long long)c->info.groups,
			 (unsigned long long)groups);
		return 1;
	}
	uint32_t *per = c->host[0], total = 0;
	int rc = workload_download(c, 0, per, groups * sizeof(uint32_t));
	if (!rc)
		rc = workload_download(c, 1, &total, sizeof(total));
	if (rc)
		return rc;
	if (total != c->items) {
		snprintf(c->msg, sizeof(c->msg),
			 "global count %u, expected %llu", total,
			 (unsigned long long)c->items);
		return 1;
	}
	for (uint64_t g = 0; g < groups; g++) {
		uint64_t gx = g % ng[0], gy = g / ng[0] % ng[1],
			 gz = g / ng[0] / ng[1];
		uint64_t want = group_len(c, 0, gx * c->info.local[0]) *
				group_len(c, 1, gy * c->info.local[1]) *
				group_len(c, 2, gz * c->info.local[2]);
		if (per[g] != want) {
			snprintf(c->msg, sizeof(c->msg),
				 "group %llu counted %u items, expected %llu",
				 (unsigned long long)g, per[g],
				 (unsigned long long)want);
			return 1;
		}
	}
	c->compared = groups + 1;
	return 0;
}

/* ---- barrier_rotate ---- */

static int rotate_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_barrier_rotate_args *a = args;
	NEED_BUF(c, workload_items_bytes(c, 0, sizeof(uint32_t)), &a->out);
	*size = sizeof(*a);
	return 0;
}

static int rotate_check(workload_ctx *c)
{
	uint32_t *out = c->host[0];
	int rc = workload_download(c, 0, out, c->items * sizeof(uint32_t));
	if (rc)
		return rc;
	uint64_t G0 = c->r.global[0];
	uint64_t G1 = c->r.work_dim > 1 ? c->r.global[1] : 1;
	for (uint64_t i = 0; i < c->items; i++) {
		uint64_t x[3] = {i % G0, i / G0 % G1, i / G0 / G1};
		uint64_t lin = 0, mul = 1, size = 1;
		for (unsigned d = 0; d < 3; d++) {
			uint64_t L = c->info.local[d] ? c->info.local[d] : 1;
			uint64_t len = group_len(c, d, x[d]);
			lin += (x[d] % L) * mul;
			mul *= len;
			size *= len;
		}
		uint64_t want = (lin + 1) % size;
		if (out[i] != want) {
			snprintf(c->msg, sizeof(c->msg),
				 "item %llu: %u, expected %llu",
				 (unsigned long long)i, out[i],
				 (unsigned long long)want);
			return 1;
		}
	}
	c->compared = c->items;
	return 0;
}

/* ---- sg_ops ---- */

static int sg_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_sg_ops_args *a = args;
	uint64_t n = c->items;
	NEED_BUF(c, workload_items_bytes(c, 0, sizeof(int32_t)), &a->in);
	NEED_BUF(c, workload_items_bytes(c, 0, sizeof(hp_sg_record)), &a->out);
	int32_t *in = c->host[0];
	uint64_t s = c->seed * 2654435761u + 1;
	for (uint64_t i = 0; i < n; i++) { /* mixed signs, some repeats */
		s = s * 6364136223846793005u + 1442695040888963407u;
		in[i] = (int32_t)((s >> 33) % 2001u) - 1000;
	}
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

static int sg_check(workload_ctx *c)
{
	uint64_t n = c->items;
	uint64_t *out = c->host[1];
	int rc = workload_download(c, 1, out, n * sizeof(hp_sg_record));
	if (rc)
		return rc;
	/* Sub-group membership from the reference model of the launch. */
	ndref_launch l = ref_launch(c);
	uint64_t elsz[3] = {c->info.local[0], c->info.local[1],
			    c->info.local[2]};
	uint64_t *e = calloc(n, sizeof(hp_ids_record));
	uint32_t *cnt = calloc(n, sizeof(uint32_t));
	uint64_t per_group = c->info.local[0] *
			     (c->info.local[1] ? c->info.local[1] : 1) *
			     (c->info.local[2] ? c->info.local[2] : 1);
	uint64_t *where = calloc(c->info.groups * per_group, sizeof(uint64_t));
	const int32_t *in = c->host[0];
	rc = 0;
	if (!e || !cnt || !where) {
		snprintf(c->msg, sizeof(c->msg),
			 "out of host memory for the reference of %llu "
			 "work-items (%llu bytes)",
			 (unsigned long long)n,
			 (unsigned long long)(n * (sizeof(hp_ids_record) + 4) +
					      c->info.groups * per_group * 8));
		rc = HP_OUT_OF_RESOURCES;
		goto out;
	}
	ndref_expected(&l, elsz, e, cnt);
	/* Global linear id of (group linear id, local linear id). */
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t *r = e + i * HP_IDS_NCOLS;
		uint64_t g =
			r[HP_IDS_WID0] +
			r[HP_IDS_NGRP0] * (r[HP_IDS_WID1] +
					   r[HP_IDS_NGRP1] * r[HP_IDS_WID2]);
		where[g * per_group + r[HP_IDS_LLIN]] = i;
	}
	for (uint64_t i = 0; i < n && !rc; i++) {
		const uint64_t *r = e + i * HP_IDS_NCOLS;
		uint64_t g =
			r[HP_IDS_WID0] +
			r[HP_IDS_NGRP0] * (r[HP_IDS_WID1] +
					   r[HP_IDS_NGRP1] * r[HP_IDS_WID2]);
		unsigned me = (unsigned)r[HP_IDS_SGLID];
		unsigned cntl = (unsigned)r[HP_IDS_SGSZ];
		uint64_t first = r[HP_IDS_LLIN] - me;
		int32_t lanes[64];
		for (unsigned k = 0; k < cntl && k < 64; k++)
			lanes[k] = in[where[g * per_group + first + k]];
		uint64_t want[HP_SG_OUTS];
		sgref_item(lanes, cntl, me, want);
		for (unsigned k = 0; k < HP_SG_OUTS; k++)
			if (out[i * HP_SG_OUTS + k] != want[k]) {
				snprintf(c->msg, sizeof(c->msg),
					 "item %llu: result %u is 0x%llx, "
					 "expected 0x%llx",
					 (unsigned long long)i, k,
					 (unsigned long long)
						 out[i * HP_SG_OUTS + k],
					 (unsigned long long)want[k]);
				rc = 1;
				break;
			}
	}
	c->compared = n * HP_SG_OUTS;
out:
	free(e);
	free(cnt);
	free(where);
	return rc;
}

/* ---- copy and fill (kernels; the COPY/FILL packets use them too) ---- */

/* Bytes copy/fill handle: --arg size=, else one HP_MEM_CHUNK per work-item
 * of --global, else 100000. */
static uint64_t mem_bytes(const workload_ctx *c)
{
	if (workload_arg_str(c, "size") || !c->range_given)
		return workload_arg(c, "size", 100000);
	return workload_items_bytes(c, 0, HP_MEM_CHUNK);
}

/* The size, and the range: one work-item per chunk unless --global was
 * given, which must then cover every chunk. */
static int mem_range(workload_ctx *c, uint64_t *bytes)
{
	uint64_t size = *bytes = mem_bytes(c);
	uint64_t chunks = size / HP_MEM_CHUNK + (size % HP_MEM_CHUNK != 0);
	if (!c->r.work_dim) {
		c->r.work_dim = 1;
		c->r.global[0] = chunks;
		c->items = chunks;
	} else if (c->items && c->items < chunks) {
		snprintf(c->msg, sizeof(c->msg),
			 "%llu work-items move %llu bytes (one %u-byte chunk "
			 "each); size=%llu needs %llu (--global %llu, or no "
			 "--global)",
			 (unsigned long long)c->items,
			 (unsigned long long)c->items * HP_MEM_CHUNK,
			 HP_MEM_CHUNK, (unsigned long long)size,
			 (unsigned long long)chunks,
			 (unsigned long long)chunks);
		return HP_INVALID_GLOBAL_WORK_SIZE;
	}
	return 0;
}

static int copy_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_copy_args *a = args;
	int rc = mem_range(c, &a->size);
	if (rc)
		return rc;
	NEED_BUF(c, a->size, &a->src);
	NEED_BUF(c, a->size, &a->dst);
	uint8_t *src = c->host[0];
	for (uint64_t i = 0; i < a->size; i++)
		src[i] = (uint8_t)(i * 131 + c->seed);
	*size = sizeof(*a);
	return workload_upload(c, 0);
}

static int copy_check(workload_ctx *c)
{
	uint64_t n = c->buf_size[1];
	uint8_t *dst = malloc(n);
	if (!dst)
		return workload_host_oom(c, n);
	int rc = workload_download(c, 1, dst, n);
	uint64_t size = mem_bytes(c);
	for (uint64_t i = 0; !rc && i < size; i++)
		if (dst[i] != ((uint8_t *)c->host[0])[i]) {
			snprintf(c->msg, sizeof(c->msg),
				 "byte %llu is %u, expected %u",
				 (unsigned long long)i, dst[i],
				 ((uint8_t *)c->host[0])[i]);
			rc = 1;
		}
	c->compared = size;
	free(dst);
	return rc;
}

static int fill_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_fill_args *a = args;
	int rc = mem_range(c, &a->size);
	if (rc)
		return rc;
	a->pattern = workload_arg(c, "pattern", 0x0123456789abcdefull);
	a->psize = workload_arg(c, "psize", 4);
	NEED_BUF(c, a->size, &a->dst);
	*size = sizeof(*a);
	return 0;
}

static int fill_check(workload_ctx *c)
{
	uint64_t size = mem_bytes(c);
	uint64_t pattern = workload_arg(c, "pattern", 0x0123456789abcdefull);
	uint64_t ps = workload_arg(c, "psize", 4);
	uint8_t *dst = c->host[0];
	int rc = workload_download(c, 0, dst, c->buf_size[0]);
	for (uint64_t i = 0; !rc && i < size; i++) {
		uint8_t want = (uint8_t)(pattern >> (8 * (i % ps)));
		if (dst[i] != want) {
			snprintf(c->msg, sizeof(c->msg),
				 "byte %llu is %u, expected %u",
				 (unsigned long long)i, dst[i], want);
			rc = 1;
		}
	}
	c->compared = size;
	return rc;
}

/* ---- the fault kernels (firmware only; docs/faults.md) ---- */

static int fault_prepare(workload_ctx *c, void *args, uint32_t *size)
{
	hp_fault_args *a = args;
	a->victim = workload_arg(c, "victim", 0);
	NEED_BUF(c, workload_items_bytes(c, 0, sizeof(uint32_t)), &a->out);
	*size = sizeof(*a);
	return 0;
}

#define FAULT_WORKLOAD(var, name_, what)                                       \
	const workload var = {                                                 \
		.name = name_,                                                 \
		.help = what " on purpose in work-item --arg victim=N",        \
		.prepare = fault_prepare,                                      \
		.check = nothing_to_check,                                     \
	}
FAULT_WORKLOAD(workload_fault_illegal, "fault_illegal",
	       "an illegal instruction");
FAULT_WORKLOAD(workload_fault_load, "fault_load",
	       "a load from the mailbox rings");
FAULT_WORKLOAD(workload_fault_store, "fault_store",
	       "a store into firmware code");
FAULT_WORKLOAD(workload_fault_misaligned, "fault_misaligned",
	       "a misaligned atomic");
FAULT_WORKLOAD(workload_fault_ebreak, "fault_ebreak", "ebreak");
FAULT_WORKLOAD(workload_fault_stack, "fault_stack", "recursion past its stack");
FAULT_WORKLOAD(workload_fault_kstack, "fault_kstack",
	       "recursion past the kernel stack (no fiber)");
FAULT_WORKLOAD(workload_fault_csr, "fault_csr", "a machine CSR read");
FAULT_WORKLOAD(workload_fault_data, "fault_data", "a store into firmware data");
FAULT_WORKLOAD(workload_fault_mmio, "fault_mmio",
	       "a store to a device register");
FAULT_WORKLOAD(workload_fault_exec, "fault_exec",
	       "running code from its buffer");
FAULT_WORKLOAD(workload_fault_ecall, "fault_ecall", "an ecall for no service");
FAULT_WORKLOAD(workload_hang, "hang", "an endless loop (use --timeout-us)");

const workload workload_empty = {
	.name = "empty",
	.help = "does nothing (round trips)",
	.prepare = empty_prepare,
	.check = nothing_to_check,
};
const workload workload_hello = {
	.name = "hello",
	.help = "every work-item says hello with hp_printf()",
	.prepare = empty_prepare,
	.check = nothing_to_check,
};
const workload workload_ids = {
	.name = "ids",
	.help = "every work-item function (checked against the OpenCL "
		"reference model)",
	.prepare = ids_prepare,
	.check = ids_check,
};
const workload workload_wg_count = {
	.name = "wg_count",
	.help = "work-items counted per group (local atomics, barrier)",
	.prepare = wg_count_prepare,
	.check = wg_count_check,
};
const workload workload_barrier_rotate = {
	.name = "barrier_rotate",
	.help = "local memory rotated across a barrier",
	.prepare = rotate_prepare,
	.check = rotate_check,
};
const workload workload_sg_ops = {
	.name = "sg_ops",
	.help = "every sub-group function (--arg seed=N)",
	.prepare = sg_prepare,
	.check = sg_check,
};
const workload workload_copy = {
	.name = "copy",
	.help = "copy --arg size=BYTES between two buffers",
	.prepare = copy_prepare,
	.check = copy_check,
};
const workload workload_fill = {
	.name = "fill",
	.help = "fill --arg size=BYTES with --arg pattern=X --arg "
		"psize=1|2|4|8",
	.prepare = fill_prepare,
	.check = fill_check,
};
