/* SPDX-License-Identifier: MIT */
/** @file `hartpool build`: kernel sources -> kernel object (build.c). */
#ifndef HOST_CLI_BUILD_H
#define HOST_CLI_BUILD_H

#include "cli.h"

/** Its options, for the help (cmd_build() parses them itself). */
extern const cli_group build_options;

/** `hartpool build ARGS` (argv[0] is "build"; @p self its row of the
 * command table, for the help); the exit status. */
int cmd_build(const cli_command *self, int argc, char **argv);

#endif
