/* SPDX-License-Identifier: MIT */
/** @file `hartpool bench` (bench.c). */
#ifndef HOST_CLI_BENCH_H
#define HOST_CLI_BENCH_H

#include "cli.h"

/** Mailbox latency (o->count round trips), throughput and round trips
 * after idle, as text or JSON (o->json). */
int cmd_bench(hp_device *d, const cli_opts *o);

#endif
