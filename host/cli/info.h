/* SPDX-License-Identifier: MIT */
/** @file `hartpool info` and `hartpool kernels` (info.c). */
#ifndef HOST_CLI_INFO_H
#define HOST_CLI_INFO_H

#include "cli.h"

/** The device's limits and configuration (--json: one JSON object). */
int cmd_info(hp_device *d, const cli_opts *o);
/** `info --devices N` (or several --connect): each device's `info`, in
 * order, under a line naming it (JSON: {"devices": [...]}). */
int cmd_info_devices(hp_device *const *d, unsigned n, const cli_opts *o);
/** One line per kernel of the device's kernel table. */
int cmd_kernels(hp_device *d, const cli_opts *o);

#endif
