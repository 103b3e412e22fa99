// SPDX-License-Identifier: MIT
/*
 * `hartpool run` and `hartpool ids` (run.h): a kernel launched on a range
 * with the arguments its workload makes (workloads.h) or --karg gives
 * (karg.h), --repeat times, its hp_printf() lines printed, then checked
 * against the host reference (--check) and reported in a line or in JSON;
 * with --trace, a timeline of the launches (docs/trace.md).
 */
#include "run.h"
#include "karg.h"
#include <errno.h>
#include <hartpool/ids.h>
#include <hartpool_cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tools.h>
#include <unistd.h>

static uint64_t range_items(const hp_ndrange *r)
{
	if (r->work_dim < 1 || r->work_dim > 3)
		return 0;
	uint64_t n = 1;
	for (unsigned d = 0; d < r->work_dim; d++) {
		if (r->global[d] && n > UINT64_MAX / r->global[d])
			return UINT64_MAX;
		n *= r->global[d];
	}
	return n;
}

/* One line of hp_printf() output, tagged with the global id. */
static void print_line(void *ctx, const uint64_t gid[3], const char *text,
		       size_t n)
{
	unsigned dim = *(const unsigned *)ctx;
	printf("[%llu", (unsigned long long)gid[0]);
	for (unsigned d = 1; d < dim && d < 3; d++)
		printf(",%llu", (unsigned long long)gid[d]);
	printf("] %.*s", (int)n, text);
	if (!n || text[n - 1] != '\n')
		putchar('\n');
}

int run_printf_flush(workload_ctx *c, hp_buffer b, uint32_t size)
{
	uint32_t dropped = 0;
	unsigned dim = c->r.work_dim ? c->r.work_dim : 1;
	int rc = hp_printf_read(c->d, b, size, print_line, &dim, &dropped);
	fflush(stdout);
	if (!rc && dropped)
		fprintf(stderr,
			"hartpool: printf buffer full: %u hp_printf() calls "
			"dropped (raise --printf-size)\n",
			dropped);
	hp_buffer_free(c->d, b);
	return rc ? cli_lib_fail(rc) : 0;
}

/* Launch c (prepared) `repeat` times, through the workload's enqueue hook
 * when it has one (a sequence of launches each time); the last launch's
 * info in c->info (a sequence's: see workload_sequence_info). 0, or 1
 * after cli_die(). */
static int launch(workload_ctx *c, const cli_opts *o, const void *args,
		  uint32_t args_size, double *round_us)
{
	hp_event ev = 0;
	bool hook = c->wl && c->wl->enqueue;
	hp_buffer pbuf = 0;
	uint32_t psize = (o->printf_size + 7) & ~7u;
	if (!hook && psize) {
		if (psize < HP_PRINTF_MIN_SIZE)
			psize = HP_PRINTF_MIN_SIZE;
		int rc = hp_buffer_alloc(c->d, psize, &pbuf);
		if (rc)
			return cli_lib_fail(rc);
		c->r.printf_buf = pbuf;
		c->r.printf_size = psize;
	}
	double t0 = cli_now_us();
	for (unsigned long i = 0; i < o->repeat; i++) {
		int rc;
		if (hook) {
			c->kargs = args;
			c->kargs_size = args_size;
			c->num_seq = 0;
			c->msg[0] = 0;
			rc = c->wl->enqueue(c, &ev);
			if (rc)
				return cli_die(rc, "%s",
					       c->msg[0] ? c->msg
							 : hp_last_error());
		} else {
			rc = hp_enqueue_kernel(c->q, c->kernel, &c->r, args,
					       args_size, NULL, 0, &ev);
			if (rc)
				return cli_lib_fail(rc);
		}
		if (o->repeat > 1)
			cli_progress("run", i + 1, o->repeat);
	}
	int rc = hp_event_wait(c->d, ev, &c->info);
	*round_us = (cli_now_us() - t0) / (double)o->repeat;
	if (rc)
		return cli_lib_fail(rc);
	if (pbuf && run_printf_flush(c, pbuf, psize))
		return 1;
	if (hook)
		workload_sequence_info(c, &c->info);
	return 0;
}

int run_setup(hp_device *d, const cli_opts *o, const char *kname,
	      const hp_object *obj, workload_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->d = d;
	c->r = o->r;
	c->args = o->args;
	c->num_args = o->num_args;
	int rc = obj ? hp_object_kernel(d, *obj, kname, &c->kernel)
		     : hp_kernel_find(d, kname, &c->kernel);
	if (rc)
		return cli_lib_fail(rc);
	c->k = hp_kernel_at(d, c->kernel);
	c->items = range_items(&c->r);
	c->seed = workload_arg(c, "seed", 1);
	c->repeat = o->repeat;
	c->range_given = o->nglobal > 0;
	/* The workloads are for the firmware's kernels; a loaded one
	 * takes --karg. */
	c->wl = obj || o->num_kargs ? NULL : workload_find(kname);
	rc = hp_queue_create(d, HP_QUEUE_IN_ORDER, &c->q);
	return rc ? cli_lib_fail(rc) : 0;
}

void run_global_str(const hp_ndrange *r, char *g, size_t n)
{
	unsigned dims = r->work_dim < 1 ? 1 : r->work_dim > 3 ? 3 : r->work_dim;
	g[0] = 0;
	for (unsigned k = 0; k < dims; k++) {
		size_t a = strlen(g);
		snprintf(g + a, n - a, "%s%llu", k ? "x" : "",
			 (unsigned long long)r->global[k]);
	}
}

/* The workload could not get its buffers (HP_OUT_OF_RESOURCES in c->msg).
 * A range the device refuses anyway deserves its own error, which the
 * device checks before the arguments: launch once with an argument block
 * of zeroes (no buffer is at address 0, so no kernel runs with it). The
 * allocation's error stands unless the range is wrong. */
static int prepare_failed(workload_ctx *c, bool line, int rc)
{
	if (rc != HP_OUT_OF_RESOURCES || !c->wl || !c->k ||
	    c->k->flags & HP_KFLAG_LOADED)
		return cli_die(rc, "%s", c->msg);
	static const uint64_t zero[HP_MBOX_ARGS_MAX / 8];
	hp_ndrange r = c->r;
	r.printf_buf = 0;
	r.printf_size = 0;
	hp_event ev;
	hp_event_info i;
	if (hp_enqueue_kernel(c->q, c->kernel, &r, zero, c->k->args_size, NULL,
			      0, &ev) ||
	    hp_event_wait(c->d, ev, &i) || !i.status ||
	    i.status == HP_INVALID_KERNEL_ARGS)
		return cli_die(rc, "%s", c->msg);
	if (line) {
		char g[80];
		run_global_str(&r, g, sizeof(g));
		printf("run %s: global %s: %s - %s\n", c->k->name, g,
		       hp_error_name(i.status), i.detail);
	}
	return cli_die(i.status, "%s: %s", c->k->name, i.detail);
}

int cmd_ids(hp_device *d, const cli_opts *o)
{
	workload_ctx c;
	if (!o->nglobal)
		return cli_die(HP_INVALID_GLOBAL_WORK_SIZE,
			       "ids needs --global");
	if (run_setup(d, o, "ids", NULL, &c))
		return 1;
	hp_ids_args a;
	uint32_t asz;
	int rc = c.wl->prepare(&c, &a, &asz);
	if (rc)
		return prepare_failed(&c, false, rc);
	double us;
	if (launch(&c, o, &a, asz, &us))
		return 1;
	if (c.info.status)
		return cli_die(c.info.status, "%s", c.info.detail);
	uint64_t n = c.items;
	uint64_t *rec = c.host[0];
	uint32_t *cnt = c.host[1];
	if ((rc = hp_buffer_read(d, c.bufs[0], 0, rec,
				 n * sizeof(hp_ids_record))) ||
	    (rc = hp_buffer_read(d, c.bufs[1], 0, cnt, n * sizeof(uint32_t))))
		return cli_lib_fail(rc);
	for (uint64_t i = 0; i < n; i++)
		if (cnt[i] != 1)
			return cli_die(HP_KERNEL_FAULT,
				       "work-item %llu ran %u times",
				       (unsigned long long)i, cnt[i]);
	static const char *const names[] = {
#define HP_IDS_NAME_(id, name) name,
		HP_IDS_COLUMNS(HP_IDS_NAME_)
#undef HP_IDS_NAME_
	};
	for (unsigned k = 0; k < HP_IDS_NCOLS; k++)
		printf("%s%s", k ? "," : "", names[k]);
	putchar('\n');
	for (uint64_t i = 0; i < n; i++) {
		const uint64_t *r = rec + i * HP_IDS_NCOLS;
		for (unsigned k = 0; k < HP_IDS_NCOLS; k++)
			printf("%s%llu", k ? "," : "",
			       (unsigned long long)r[k]);
		putchar('\n');
	}
	workload_cleanup(&c);
	return 0;
}

/* End the trace of --trace and write it to @p path; a line on stderr says
 * what it holds. 0, or 1 after cli_die(). */
static int trace_write(hp_device *d, const char *path)
{
	hp_trace_stats st;
	int rc = hp_trace_stop(d, path, &st);
	if (rc)
		return cli_lib_fail(rc);
	fprintf(stderr,
		"hartpool: trace %s: %llu records on %u harts, %u commands, "
		"%llu dropped, %llu bad\n",
		path, (unsigned long long)st.records, st.harts, st.commands,
		(unsigned long long)st.dropped, (unsigned long long)st.bad);
	return 0;
}

/* What `run` prints about one launch: JSON or a few lines. `check` is 0
 * equal, 1 mismatch, an HP_ error if the check could not run; it means
 * something only when `checked`. */
static void run_report(const cli_opts *o, const workload_ctx *c, double us,
		       bool checked, int check)
{
	const hp_event_info *i = &c->info;
	const char *st = i->status ? hp_error_name(i->status) : "OK";
	/* A command the device refused (or a failed dependency aborted) never
	 * ran: it has no local size, groups or device times to show. */
	bool launched = !i->status || i->groups || i->local[0];
	if (o->json) {
		printf("{\"kernel\": ");
		cli_json_str(o->kernel, SIZE_MAX);
		printf(", \"status\": \"%s\", \"detail\": ", st);
		cli_json_str(i->detail, sizeof(i->detail));
		printf(", \"launched\": %s, \"global\": [%llu, %llu, %llu], ",
		       launched ? "true" : "false",
		       (unsigned long long)c->r.global[0],
		       (unsigned long long)c->r.global[1],
		       (unsigned long long)c->r.global[2]);
		if (launched)
			printf("\"local\": [%u, %u, %u], \"groups\": %llu, "
			       "\"device_us\": %.1f, \"queue_us\": %.1f, ",
			       i->local[0], i->local[1], i->local[2],
			       (unsigned long long)i->groups,
			       i->end_us - i->start_us,
			       i->start_us - i->queued_us);
		printf("\"round_trip_us\": %.1f, \"repeat\": %lu, "
		       "\"check\": \"%s\", \"compared\": %llu}\n",
		       us, o->repeat,
		       !checked	    ? "skipped"
		       : check == 0 ? "OK"
		       : check > 0  ? "MISMATCH"
				    : "ERROR",
		       (unsigned long long)c->compared);
	} else {
		char g[80], l[40] = "";
		run_global_str(&c->r, g, sizeof(g));
		for (unsigned k = 0; k < 3 && (!k || k < c->r.work_dim); k++) {
			size_t b = strlen(l);
			snprintf(l + b, sizeof(l) - b, "%s%u", k ? "x" : "",
				 i->local[k]);
		}
		if (!launched) {
			printf("run %s: global %s: %s - %s\n", o->kernel, g, st,
			       i->detail);
		} else {
			printf("run %s: global %s, local %s, %llu groups: "
			       "%s%s%s\n",
			       o->kernel, g, l, (unsigned long long)i->groups,
			       st, i->status ? " - " : "", i->detail);
			printf("time: %.1f us on the device, %.1f us queued, "
			       "%.1f us round trip%s\n",
			       i->end_us - i->start_us,
			       i->start_us - i->queued_us, us,
			       o->repeat > 1 ? " (mean)" : "");
		}
		if (checked && check == 0)
			printf("check: OK (%llu values)\n",
			       (unsigned long long)c->compared);
	}
}

static int run_kernel(hp_device *d, const cli_opts *o, const hp_object *obj,
		      const hp_cl_kmeta *meta)
{
	workload_ctx c;
	if (run_setup(d, o, o->kernel, obj, &c))
		return 1;
	const workload *wl = c.wl;
	if (!wl && !o->num_kargs && c.k && c.k->args_size)
		return cli_die(HP_INVALID_KERNEL_ARGS,
			       "the host tool has no workload (test data) for "
			       "kernel '%s' "
			       "(`hartpool run --list`): give its %u bytes of "
			       "arguments with --karg",
			       o->kernel, c.k->args_size);
	if (!c.r.work_dim && strcmp(o->kernel, "copy") &&
	    strcmp(o->kernel, "fill")) {
		c.r.work_dim = 1;
		c.r.global[0] = 1024;
		c.items = 1024;
	}
	uint64_t args[HP_MBOX_ARGS_MAX / 8];
	memset(args, 0, sizeof(args));
	uint32_t asz = 0;
	int rc =
		wl ? wl->prepare(&c, args, &asz)
		   : karg_prepare(&c, o->kargs, o->num_kargs, meta, args, &asz);
	if (rc)
		return prepare_failed(&c, !o->json, rc);
	double us;
	if (o->trace && (rc = hp_trace_start(d, o->trace_records)))
		return cli_lib_fail(rc);
	if (launch(&c, o, args, asz, &us))
		return 1;
	if (o->trace && trace_write(d, o->trace))
		return 1;
	const hp_event_info *i = &c.info;
	/* 0 equal, 1 mismatch, an HP_ error if it could not run; only when
	 * `checked` (-1 is also an HP_ error, so it cannot mean "not run"). */
	int check = 0;
	bool checked = false;
	if (!i->status && o->check && !wl)
		return cli_die(
			HP_INVALID_VALUE,
			"--check: no host reference for '%s' (use --print)",
			o->kernel);
	if (!i->status && o->check) {
		check = wl->check(&c);
		checked = true;
	}
	run_report(o, &c, us, checked, check);
	if (!wl && o->print && !i->status && karg_print(&c, o->print_max))
		return cli_die(HP_INVALID_VALUE, "%s", c.msg);
	workload_cleanup(&c);
	if (i->status)
		return cli_die(i->status, "%s: %s", o->kernel, i->detail);
	if (checked && check > 0)
		return cli_die(HP_KERNEL_FAULT, "check failed: %s", c.msg);
	if (checked && check < 0)
		return cli_die(check, "check could not run: %s", c.msg);
	return 0;
}

int run_list(const cli_opts *o)
{
	if (!o->list && o->kernel)
		return -1;
	for (unsigned i = 0; workloads[i]; i++)
		printf("%-16s %s\n", workloads[i]->name, workloads[i]->help);
	return o->kernel || o->list ? 0 : 1;
}

/* The OpenCL metadata of kernel @p name in object @p hpk into @p meta:
 * true if the object was built from OpenCL C and has the kernel (by its
 * OpenCL name or the device's). */
static bool cl_meta_of(const void *hpk, size_t n, const char *name,
		       hp_cl_kmeta *meta)
{
	hp_cl_program *p = NULL;
	bool found = false;
	if (!name || hp_cl_program_parse(hpk, n, &p))
		return false;
	for (unsigned i = 0; i < p->num_kernels && !found; i++)
		if (!strcmp(p->kernels[i].name, name) ||
		    !strcmp(p->kernels[i].device_name, name)) {
			*meta = p->kernels[i];
			found = true;
		}
	hp_cl_program_free(p);
	return found;
}

/* Load a kernel object; one with program-scope variables with their
 * block on the device first (hp_cl_globals_prepare: the block lives as
 * long as this run's session). */
static int load_hpk(hp_device *d, const void *hpk, size_t n, hp_object *obj,
		    uint64_t *addr)
{
	hp_cl_program *p = NULL;
	void *patched = NULL;
	hp_buffer blk = 0;
	int rc = 0;
	if (!hp_cl_program_parse(hpk, n, &p))
		rc = hp_cl_globals_prepare(d, hpk, n, p, &patched, &blk);
	hp_cl_program_free(p);
	if (!rc)
		rc = hp_object_load(d, patched ? patched : hpk, n, obj, addr);
	free(patched);
	return rc;
}

/* --kernel-file F.cl: build it for the device (its board when this run
 * booted it, else the default board of its XLEN) and load it; @p dev_name
 * gets the device's name of kernel o->kernel (a name longer than 31 bytes
 * is known there by a shorter one: hartpool_cl.h), @p meta its metadata
 * (where --karg puts its arguments). */
static int load_cl(hp_device *d, const cli_opts *o, hp_object *obj,
		   uint64_t *addr, char dev_name[32], hp_cl_kmeta *meta,
		   bool *has_meta)
{
	size_t n;
	char *src = (char *)clc_slurp(o->kernel_file, &n);
	if (!src) {
		fprintf(stderr, "hartpool: %s: cannot read %s: %s\n",
			hp_error_name(HP_INVALID_VALUE), o->kernel_file,
			strerror(errno));
		return HP_INVALID_VALUE;
	}
	const char *board = o->board && !o->connect	     ? o->board
			    : hp_info(d)->address_bits == 32 ? "qemu-virt32"
							     : "qemu-virt";
	hp_cl_build_options b = {.board = board,
				 .options = o->cl_options,
				 .sources = (const char *const *)&src,
				 .count = 1,
				 .source_name = o->kernel_file};
	void *hpk = NULL;
	char *log = NULL;
	int rc = hp_cl_build(&b, &hpk, &n, &log);
	if (log && *log && (rc || getenv("HARTPOOL_BUILD_VERBOSE")))
		fputs(log, stderr);
	snprintf(dev_name, 32, "%.31s", o->kernel ? o->kernel : "");
	if (!rc && (*has_meta = cl_meta_of(hpk, n, o->kernel, meta)))
		snprintf(dev_name, 32, "%s", meta->device_name);
	if (!rc)
		rc = load_hpk(d, hpk, n, obj, addr);
	free(log);
	free(hpk);
	free(src);
	return rc;
}

int cmd_run(hp_device *d, const cli_opts *o)
{
	if (!o->kernel_file) {
		if (o->gdb)
			cli_gdb_hint(o, NULL, 0);
		return run_kernel(d, o, NULL, NULL);
	}
	hp_object obj;
	uint64_t addr;
	size_t fl = strlen(o->kernel_file);
	char dev_name[32];
	cli_opts oc = *o; /* a .cl kernel by the device's name */
	/* a kernel from OpenCL C: its arguments where its metadata says */
	static hp_cl_kmeta meta;
	bool has_meta = false;
	int rc;
	if (fl > 3 && !strcmp(o->kernel_file + fl - 3, ".cl")) {
		rc = load_cl(d, o, &obj, &addr, dev_name, &meta, &has_meta);
	} else {
		size_t n;
		uint8_t *hpk = clc_slurp(o->kernel_file, &n);
		has_meta = hpk && cl_meta_of(hpk, n, o->kernel, &meta);
		rc = hpk ? load_hpk(d, hpk, n, &obj, &addr)
			 : hp_object_load_file(d, o->kernel_file, &obj, &addr);
		free(hpk);
	}
	if (rc)
		return cli_lib_fail(rc);
	if (fl > 3 && !strcmp(o->kernel_file + fl - 3, ".cl") && o->kernel)
		oc.kernel = dev_name;
	o = &oc;
	if (o->gdb) {
		cli_gdb_hint(o, o->kernel_file, addr);
		if (isatty(0)) {
			fprintf(stderr, "hartpool: press Enter to launch %s\n",
				o->kernel);
			getchar();
		}
	}
	rc = run_kernel(d, o, &obj, has_meta ? &meta : NULL);
	int rc2 = hp_object_unload(d, obj);
	if (!rc && rc2)
		rc = cli_lib_fail(rc2);
	return rc;
}
