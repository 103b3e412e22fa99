/* SPDX-License-Identifier: MIT */
/**
 * @file `hartpool run KERNEL --karg SPEC...` (karg.c): the arguments of a
 * kernel the tool has no workload for (typically one of a loaded kernel
 * object), from the command line.
 */
#ifndef HOST_CLI_KARG_H
#define HOST_CLI_KARG_H

#include "workloads.h"
#include <hartpool_cl.h>

/**
 * Build the argument block of a kernel from `--karg` specs, in order, laid
 * out like a C struct of the same members, or, for a kernel built from
 * OpenCL C (@p meta not NULL), where its metadata puts each argument (one
 * spec per argument, of the argument's size): `TYPE:VALUE` a scalar (TYPE
 * i32, u32, i64, u64, f32, f64), `buf:TYPE:COUNT[:INIT]` a buffer of COUNT
 * elements (its device address, a uint64_t), INIT `iota`, `rand` or a
 * number (default 0), `local:BYTES` an OpenCL __local argument (BYTES of
 * the launch's dynamic local memory: its offset there, a uint64_t). 0 or
 * an HP_ error with c->msg.
 */
int karg_prepare(workload_ctx *c, const char *const *specs, unsigned n,
		 const hp_cl_kmeta *meta, void *args, uint32_t *args_size);
/** Print every buffer karg_prepare() made: `bufN TYPE[COUNT]: v ...`
 * (at most @p max values each). */
int karg_print(workload_ctx *c, unsigned long max);

#endif
