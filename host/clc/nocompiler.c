// SPDX-License-Identifier: MIT
/*
 * The kernel compiler's two entry points where the host tools are built
 * without LLVM and the cross compilers: the tools of the Linux guest on
 * board qemu-virt-amp (`make guest-tools`, docs/boards/qemu-virt-amp.md).
 * Each refuses by name; kernel objects are built on a build host
 * (`hartpool build --board B ...`) and run there with --kernel-file.
 */
#define _GNU_SOURCE
#include "fail.h"
#include "last_error.h"
#include "objlink.h"
#include <hartpool/error.h>
#include <hartpool_cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_COMPILER_                                                           \
	"this hartpool was built without a kernel compiler (the host tools "   \
	"of a Linux guest): build the kernel object on the build host "        \
	"(hartpool build --board B SOURCE -o OUT.hpk) and give it with "       \
	"--kernel-file OUT.hpk"

int hp_cl_build(const hp_cl_build_options *o, void **hpk, size_t *size,
		char **log)
{
	(void)o;
	*hpk = NULL;
	*size = 0;
	if (log)
		*log = strdup(NO_COMPILER_ "\n");
	return hp_fail(HP_BUILD_PROGRAM_FAILURE, "%s", NO_COMPILER_);
}

int clc_build_c(const char *board, const char *const *srcs, unsigned ns,
		const char *const *extra, unsigned ne, const char *opt,
		const char *out)
{
	(void)board, (void)srcs, (void)ns, (void)extra, (void)ne, (void)opt;
	(void)out;
	return clc_fail(NULL, HP_BUILD_PROGRAM_FAILURE, "%s", NO_COMPILER_);
}
