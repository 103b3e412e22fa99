/* SPDX-License-Identifier: MIT */
/** @file `hartpool run` and `hartpool ids` (run.c). */
#ifndef HOST_CLI_RUN_H
#define HOST_CLI_RUN_H

#include "cli.h"
#include "workloads.h"

/** `run --list`, or `run` without a kernel, before any device: the
 * workloads, exit status 0 (1 without a kernel); else -1. */
int run_list(const cli_opts *o);
/** `run KERNEL` (--kernel-file: a kernel of that object). */
int cmd_run(hp_device *d, const cli_opts *o);
/** `ids`: every work-item function of every work-item as CSV. */
int cmd_ids(hp_device *d, const cli_opts *o);

/** A run of kernel @p kname (of object @p obj, else built in or loaded by
 * anyone) over o->r with o->args, on a new in-order queue (c->q), with
 * its workload unless the kernel is of @p obj or --karg is given; 0, or
 * 1 after cli_die(). */
int run_setup(hp_device *d, const cli_opts *o, const char *kname,
	      const hp_object *obj, workload_ctx *c);

/** After a launch with hp_printf() output in @p b (@p size bytes): its
 * lines on stdout, tagged by global id, then @p b freed. 0, or 1 after
 * cli_die(). */
int run_printf_flush(workload_ctx *c, hp_buffer b, uint32_t size);
/** "AxBxC": the global size of @p r (its dimensions, 1..3 shown). */
void run_global_str(const hp_ndrange *r, char *g, size_t n);

#endif
