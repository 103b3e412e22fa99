/* SPDX-License-Identifier: MIT */
/** @file `hartpool build`: kernel sources -> kernel object (build.c). */
#ifndef HOST_CLI_BUILD_H
#define HOST_CLI_BUILD_H

/** `hartpool build ARGS` (argv[0] is "build"); the exit status. */
int cmd_build(int argc, char **argv);

#endif
