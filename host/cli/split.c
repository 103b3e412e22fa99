// SPDX-License-Identifier: MIT
/*
 * `hartpool run KERNEL --devices N` (split.h): one NDRange dealt out to N
 * devices. Each device gets a contiguous slab of whole work-groups along
 * the dimension the kernel's workload names (workload_split: the rows its
 * outputs are laid out in), launched with the slab's global offset on its
 * own buffers, which the same workload made there from the same seed (the
 * same data: checked on the host). The slabs' bytes of every output
 * buffer are then copied into device 0's buffer, and the workload's check
 * reads the whole result from there, as for one device.
 */
#include "split.h"
#include "run.h"
#include <stdlib.h>
#include <string.h>

/* One device's share of the range. */
typedef struct slab {
	uint64_t lo, hi; /* along the split dimension, from the range's start */
	hp_ndrange r;	 /* its launch: the slab's offset and global size */
	uint64_t args[HP_MBOX_ARGS_MAX / 8];
	uint32_t args_size;
	hp_buffer pbuf; /* its hp_printf() buffer (0: none) */
	uint32_t psize;
	hp_event ev;
} slab;

/* A run over several devices. */
typedef struct split {
	const cli_opts *o;
	hp_device *const *d;
	unsigned n, dim;
	const workload *wl;
	workload_ctx *c; /* one per device; c[0] gets the whole result */
	slab *s;	 /* one per device */
	uint64_t stride[WORKLOAD_MAX_BUFS]; /* bytes per index along dim */
	double round_us;
} split;

/* "device K of N (CONNECT)" for messages. */
static const char *who(const split *sp, unsigned k)
{
	static char b[300];
	snprintf(b, sizeof(b), "device %u of %u (%s)", k, sp->n,
		 hp_connect_string(sp->d[k]));
	return b;
}

/* What cannot be split, before any device is used; 0 or 1 after
 * cli_die(). */
static int refuse(const split *sp)
{
	const cli_opts *o = sp->o;
	const char *why = NULL;
	if (o->trace)
		return cli_die(HP_INVALID_VALUE,
			       "run: --devices %u: --trace records one device",
			       sp->n);
	if (o->kernel_file || o->num_kargs)
		why = "the tool knows the outputs only of the kernels of "
		      "`run --list` (not with --kernel-file or --karg)";
	else if (!sp->wl)
		why = "the tool has no workload for it (`run --list`)";
	else if (sp->wl->enqueue)
		why = "it runs as a sequence of launches, each reading the "
		      "whole result of the one before";
	else if (!sp->wl->split.outputs)
		why = "its outputs are not rows of its range (a reduction, "
		      "a histogram, a diagnostic kernel)";
	if (why)
		return cli_die(HP_INVALID_KERNEL,
			       "run: --devices %u: kernel '%s' can't be split "
			       "over devices: %s",
			       sp->n, o->kernel, why);
	return 0;
}

/* Device k's context: its queue, kernel, buffers and argument block made
 * by the workload; the same sizes and data as device 0's. 0, or 1 after
 * cli_die(). */
static int prepare(split *sp, unsigned k)
{
	workload_ctx *c = &sp->c[k], *c0 = &sp->c[0];
	if (run_setup(sp->d[k], sp->o, sp->o->kernel, NULL, c))
		return 1;
	if (!c->r.work_dim) { /* as run_kernel() */
		c->r.work_dim = 1;
		c->r.global[0] = 1024;
		c->items = 1024;
	}
	int rc = sp->wl->prepare(c, sp->s[k].args, &sp->s[k].args_size);
	if (rc)
		return cli_die(rc, "%s: %s", who(sp, k), c->msg);
	bool same = c->num_bufs == c0->num_bufs &&
		    c->r.work_dim == c0->r.work_dim &&
		    c->r.local_given == c0->r.local_given &&
		    !memcmp(c->r.global, c0->r.global, sizeof(c->r.global)) &&
		    !memcmp(c->r.offset, c0->r.offset, sizeof(c->r.offset)) &&
		    !memcmp(c->r.local, c0->r.local, sizeof(c->r.local)) &&
		    sp->s[k].args_size == sp->s[0].args_size;
	for (unsigned i = 0; same && i < c->num_bufs; i++)
		same = c->buf_len[i] == c0->buf_len[i] &&
		       !memcmp(c->host[i], c0->host[i], c->buf_size[i]);
	if (!same)
		return cli_die(HP_INVALID_VALUE,
			       "run: --devices: the workload of '%s' made "
			       "other buffers or data on %s than on device 0",
			       sp->o->kernel, who(sp, k));
	return 0;
}

/* The slabs: whole work-groups (work-items without --local) of the split
 * dimension dealt out in order, the first ones one more when they do not
 * divide; each output buffer must be rows of that dimension. 0, or 1
 * after cli_die(). */
static int plan(split *sp)
{
	const hp_ndrange *r = &sp->c[0].r;
	const workload_split *w = &sp->wl->split;
	unsigned dim = w->dim < r->work_dim ? w->dim : r->work_dim - 1;
	uint64_t g = r->global[dim], l = 1;
	if (r->local_given && r->local[dim])
		l = r->local[dim];
	uint64_t groups = g / l + (g % l != 0);
	sp->dim = dim;
	if (groups < sp->n)
		return cli_die(HP_INVALID_KERNEL,
			       "run: --devices %u: kernel '%s' can't be split "
			       "over devices: only %llu %s along dimension %u "
			       "(global %llu, local %llu)",
			       sp->n, sp->o->kernel, (unsigned long long)groups,
			       r->local_given ? "work-groups" : "work-items",
			       dim, (unsigned long long)g,
			       (unsigned long long)l);
	for (unsigned i = 0; i < WORKLOAD_MAX_BUFS; i++) {
		if (!(w->outputs & 1u << i))
			continue;
		uint64_t len = i < sp->c[0].num_bufs ? sp->c[0].buf_len[i] : 0;
		if (!len || len % g)
			return cli_die(HP_INVALID_KERNEL,
				       "run: --devices %u: kernel '%s' can't "
				       "be split over devices: its output "
				       "buffer %u (%llu bytes) is not %llu "
				       "rows of dimension %u",
				       sp->n, sp->o->kernel, i,
				       (unsigned long long)len,
				       (unsigned long long)g, dim);
		sp->stride[i] = len / g;
	}
	uint64_t below = 1; /* items of one index of dim */
	for (unsigned d = 0; d < dim; d++)
		below *= r->global[d];
	for (unsigned k = 0; k < sp->n; k++) {
		slab *s = &sp->s[k];
		uint64_t q = groups / sp->n, rem = groups % sp->n;
		uint64_t g0 = k * q + (k < rem ? k : rem);
		uint64_t g1 = g0 + q + (k < rem);
		s->lo = g0 * l;
		s->hi = g1 * l < g ? g1 * l : g;
		s->r = sp->c[k].r;
		s->r.offset[dim] += s->lo;
		s->r.global[dim] = s->hi - s->lo;
		if (w->rebase)
			w->rebase(s->args, s->lo * below);
	}
	return 0;
}

/* Every device runs its slab o->repeat times (the devices at once), then
 * its hp_printf() lines are printed, device by device; each result in
 * c[k].info. 0, or 1 after cli_die(). */
static int launch(split *sp)
{
	const cli_opts *o = sp->o;
	uint32_t psize = (o->printf_size + 7) & ~7u;
	if (psize && psize < HP_PRINTF_MIN_SIZE)
		psize = HP_PRINTF_MIN_SIZE;
	for (unsigned k = 0; k < sp->n && psize; k++) {
		slab *s = &sp->s[k];
		int rc = hp_buffer_alloc(sp->d[k], psize, &s->pbuf);
		if (rc)
			return cli_die(rc, "%s: %s", who(sp, k),
				       hp_last_error());
		s->psize = psize;
		s->r.printf_buf = s->pbuf;
		s->r.printf_size = psize;
	}
	double t0 = cli_now_us();
	for (unsigned long i = 0; i < o->repeat; i++)
		for (unsigned k = 0; k < sp->n; k++) {
			slab *s = &sp->s[k];
			int rc = hp_enqueue_kernel(sp->c[k].q, sp->c[k].kernel,
						   &s->r, s->args, s->args_size,
						   NULL, 0, &s->ev);
			if (rc)
				return cli_die(rc, "%s: %s", who(sp, k),
					       hp_last_error());
		}
	for (unsigned k = 0; k < sp->n; k++) {
		int rc = hp_event_wait(sp->d[k], sp->s[k].ev, &sp->c[k].info);
		if (rc)
			return cli_die(rc, "%s: %s", who(sp, k),
				       hp_last_error());
	}
	sp->round_us = (cli_now_us() - t0) / (double)o->repeat;
	for (unsigned k = 0; k < sp->n; k++)
		if (sp->s[k].pbuf &&
		    run_printf_flush(&sp->c[k], sp->s[k].pbuf, sp->s[k].psize))
			return 1;
	return 0;
}

/* Each slab's bytes of every output buffer, from its device into device
 * 0's buffer (device 0's own slab is there already). 0, or 1 after
 * cli_die(). */
static int gather(split *sp)
{
	for (unsigned k = 1; k < sp->n; k++)
		for (unsigned i = 0; i < WORKLOAD_MAX_BUFS; i++) {
			if (!sp->stride[i])
				continue;
			uint64_t at = sp->s[k].lo * sp->stride[i],
				 len = (sp->s[k].hi - sp->s[k].lo) *
				       sp->stride[i];
			void *b = malloc(len ? len : 1);
			if (!b)
				return cli_die(HP_OUT_OF_RESOURCES,
					       "run: --devices: out of host "
					       "memory (%llu bytes of %s)",
					       (unsigned long long)len,
					       who(sp, k));
			int rc = hp_buffer_read(sp->d[k], sp->c[k].bufs[i], at,
						b, len);
			if (rc) {
				free(b);
				return cli_die(rc, "%s: %s", who(sp, k),
					       hp_last_error());
			}
			rc = hp_buffer_write(sp->d[0], sp->c[0].bufs[i], at, b,
					     len);
			free(b);
			if (rc)
				return cli_die(rc, "%s: %s", who(sp, 0),
					       hp_last_error());
		}
	return 0;
}

/* "X,Y,Z" of the range's dimensions of @p v. */
static void dims_str(const uint64_t v[3], unsigned dims, char *b, size_t n)
{
	b[0] = 0;
	for (unsigned k = 0; k < (dims ? dims : 1) && k < 3; k++) {
		size_t a = strlen(b);
		snprintf(b + a, n - a, "%s%llu", k ? "," : "",
			 (unsigned long long)v[k]);
	}
}

/* The line of device k's slab. */
static void slab_line(const split *sp, unsigned k)
{
	const slab *s = &sp->s[k];
	const hp_event_info *i = &sp->c[k].info;
	char g[80], off[80];
	run_global_str(&s->r, g, sizeof(g));
	dims_str(s->r.offset, s->r.work_dim, off, sizeof(off));
	printf("device %u: [%llu, %llu) of dimension %u: global %s at offset "
	       "%s",
	       k, (unsigned long long)s->lo, (unsigned long long)s->hi, sp->dim,
	       g, off);
	if (!i->status || i->groups || i->local[0])
		printf(", %llu groups, %.1f us on the device, %.1f us queued",
		       (unsigned long long)i->groups, i->end_us - i->start_us,
		       i->start_us - i->queued_us);
	printf(": %s%s%.*s (%s)\n", i->status ? hp_error_name(i->status) : "OK",
	       i->status ? " - " : "", (int)sizeof(i->detail), i->detail,
	       hp_connect_string(sp->d[k]));
}

/* Device k's slab as a JSON object. */
static void slab_json(const split *sp, unsigned k)
{
	const slab *s = &sp->s[k];
	const hp_event_info *i = &sp->c[k].info;
	printf("%s{\"device\": %u, \"connect\": ", k ? ", " : "", k);
	cli_json_str(hp_connect_string(sp->d[k]), SIZE_MAX);
	printf(", \"range\": [%llu, %llu], \"offset\": [%llu, %llu, %llu], "
	       "\"global\": [%llu, %llu, %llu], \"status\": \"%s\", "
	       "\"detail\": ",
	       (unsigned long long)s->lo, (unsigned long long)s->hi,
	       (unsigned long long)s->r.offset[0],
	       (unsigned long long)s->r.offset[1],
	       (unsigned long long)s->r.offset[2],
	       (unsigned long long)s->r.global[0],
	       (unsigned long long)s->r.global[1],
	       (unsigned long long)s->r.global[2],
	       i->status ? hp_error_name(i->status) : "OK");
	cli_json_str(i->detail, sizeof(i->detail));
	printf(", \"local\": [%u, %u, %u], \"groups\": %llu, \"device_us\": "
	       "%.1f, \"queue_us\": %.1f}",
	       i->local[0], i->local[1], i->local[2],
	       (unsigned long long)i->groups, i->end_us - i->start_us,
	       i->start_us - i->queued_us);
}

/* What `run --devices` prints: JSON, or a line for the whole range, one
 * per device, the times and the check. @p bad: the first device that
 * failed (n: none); @p check as in run.c's run_report(). */
static void report(const split *sp, unsigned bad, bool checked, int check)
{
	const cli_opts *o = sp->o;
	const char *st =
		bad < sp->n ? hp_error_name(sp->c[bad].info.status) : "OK";
	const char *ck = !checked     ? "skipped"
			 : check == 0 ? "OK"
			 : check > 0  ? "MISMATCH"
				      : "ERROR";
	double slowest = 0;
	for (unsigned k = 0; k < sp->n; k++) {
		const hp_event_info *i = &sp->c[k].info;
		if (i->end_us - i->start_us > slowest)
			slowest = i->end_us - i->start_us;
	}
	const workload_ctx *c0 = &sp->c[0];
	if (o->json) {
		printf("{\"kernel\": ");
		cli_json_str(o->kernel, SIZE_MAX);
		printf(", \"status\": \"%s\", \"devices\": %u, \"dimension\": "
		       "%u, \"global\": [%llu, %llu, %llu], \"slabs\": [",
		       st, sp->n, sp->dim, (unsigned long long)c0->r.global[0],
		       (unsigned long long)c0->r.global[1],
		       (unsigned long long)c0->r.global[2]);
		for (unsigned k = 0; k < sp->n; k++)
			slab_json(sp, k);
		printf("], \"slowest_device_us\": %.1f, \"round_trip_us\": "
		       "%.1f, \"repeat\": %lu, \"check\": \"%s\", "
		       "\"compared\": %llu}\n",
		       slowest, sp->round_us, o->repeat, ck,
		       (unsigned long long)c0->compared);
		return;
	}
	char g[80];
	run_global_str(&c0->r, g, sizeof(g));
	printf("run %s: global %s on %u devices, slabs of dimension %u: %s\n",
	       o->kernel, g, sp->n, sp->dim, st);
	for (unsigned k = 0; k < sp->n; k++)
		slab_line(sp, k);
	printf("time: %.1f us on the slowest device, %.1f us round trip%s\n",
	       slowest, sp->round_us, o->repeat > 1 ? " (mean)" : "");
	if (checked && check == 0)
		printf("check: OK (%llu values)\n",
		       (unsigned long long)c0->compared);
}

/* Prepared, planned: launch, gather, check, report. The exit status. */
static int run_split(split *sp)
{
	if (launch(sp))
		return 1;
	unsigned bad = sp->n;
	for (unsigned k = 0; k < sp->n && bad == sp->n; k++)
		if (sp->c[k].info.status)
			bad = k;
	int check = 0;
	bool checked = false;
	if (bad == sp->n && sp->o->check) {
		if (gather(sp))
			return 1;
		check = sp->wl->check(&sp->c[0]);
		checked = true;
	}
	report(sp, bad, checked, check);
	if (bad < sp->n)
		return cli_die(sp->c[bad].info.status, "%s: %s: %s",
			       who(sp, bad), sp->o->kernel,
			       sp->c[bad].info.detail);
	if (checked && check > 0)
		return cli_die(HP_KERNEL_FAULT, "check failed: %s",
			       sp->c[0].msg);
	if (checked && check < 0)
		return cli_die(check, "check could not run: %s", sp->c[0].msg);
	return 0;
}

int cmd_run_devices(hp_device *const *d, unsigned n, const cli_opts *o)
{
	split sp = {.o = o, .d = d, .n = n, .wl = workload_find(o->kernel)};
	if (refuse(&sp))
		return 1;
	sp.c = calloc(n, sizeof(*sp.c));
	sp.s = calloc(n, sizeof(*sp.s));
	int rc = 1;
	unsigned ready = 0;
	if (!sp.c || !sp.s)
		cli_die(HP_OUT_OF_RESOURCES,
			"run: --devices %u: out of host memory", n);
	else
		while (ready < n && !prepare(&sp, ready))
			ready++;
	if (ready == n && !plan(&sp))
		rc = run_split(&sp);
	for (unsigned k = 0; sp.c && k < n; k++)
		workload_cleanup(&sp.c[k]);
	free(sp.c);
	free(sp.s);
	return rc;
}
