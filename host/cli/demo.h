/* SPDX-License-Identifier: MIT */
/** @file `hartpool demo` (demo.c, `make run`). */
#ifndef HOST_CLI_DEMO_H
#define HOST_CLI_DEMO_H

#include "cli.h"

/** The demo on device @p d; exit status 1 if any result is wrong. */
int cmd_demo(hp_device *d, const cli_opts *o);

#endif
