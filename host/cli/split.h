/* SPDX-License-Identifier: MIT */
/** @file `hartpool run KERNEL --devices N` (split.c): one range dealt out
 * to several devices. */
#ifndef HOST_CLI_SPLIT_H
#define HOST_CLI_SPLIT_H

#include "cli.h"

/** `run` on the @p n devices @p d: the range of o->kernel cut into @p n
 * slabs of whole work-groups along one dimension (its workload's
 * workload_split), each launched on its own device with the slab's global
 * offset and its own copy of the buffers; the slabs' outputs gathered into
 * device 0's buffers, then --check on the whole result as for one device.
 * A kernel its workload does not describe as splittable is refused
 * (HP_INVALID_KERNEL, named). The exit status. */
int cmd_run_devices(hp_device *const *d, unsigned n, const cli_opts *o);

#endif
