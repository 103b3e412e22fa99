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

#endif
