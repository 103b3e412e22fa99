// SPDX-License-Identifier: MIT
/*
 * The kernel compiler's entry points where the host tools are built
 * without LLVM and the cross compilers: the tools of the Linux guest on
 * board qemu-virt-amp (`make guest-tools`, docs/boards/qemu-virt-amp.md).
 * An OpenCL C build is served from the prebuilt store (prebuilt.h), where
 * a build host's hp_cl_build kept the object of the same program for the
 * same board; anything else is refused by name.
 */
#define _GNU_SOURCE
#include "fail.h"
#include "last_error.h"
#include "objlink.h"
#include "prebuilt.h"
#include <hartpool/error.h>
#include <hartpool_cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NO_COMPILER_                                                           \
	"this hartpool was built without a kernel compiler (the host tools "   \
	"of a Linux guest)"

const char *hp_cl_compiler(void)
{
	/* builds come from the store: "available" where there is one */
	static char dir[1200];
	struct stat st;
	clc_prebuilt_dir("", dir, sizeof(dir));
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	return !stat(dir, &st) && S_ISDIR(st.st_mode) ? dir : NULL;
}

int hp_cl_build(const hp_cl_build_options *o, void **hpk, size_t *size,
		char **log)
{
	char *l = NULL;
	if (o->from_cache)
		*o->from_cache = false;
	if (clc_prebuilt_get(o, hpk, size, &l)) {
		if (o->from_cache)
			*o->from_cache = true;
		if (log)
			*log = l;
		else
			free(l);
		return 0;
	}
	*hpk = NULL;
	*size = 0;
	char dir[1200], why[1600];
	clc_prebuilt_dir(o->board, dir, sizeof(dir));
	snprintf(why, sizeof(why),
		 NO_COMPILER_ ", and %s holds no object of this program for "
			      "board %s: build it once on the build host (an "
			      "OpenCL program or `hartpool build` there keeps "
			      "it in the cache's prebuilt/ folder)",
		 dir, o->board ? o->board : "qemu-virt");
	if (log)
		*log = strdup(why);
	return hp_fail(HP_BUILD_PROGRAM_FAILURE, "%s", why);
}

int clc_build_c(const char *board, const char *const *srcs, unsigned ns,
		const char *const *extra, unsigned ne, const char *opt,
		const char *out)
{
	(void)board, (void)srcs, (void)ns, (void)extra, (void)ne, (void)opt;
	(void)out;
	return clc_fail(NULL, HP_BUILD_PROGRAM_FAILURE,
			NO_COMPILER_
			": build C kernel objects on the build host "
			"(hartpool build --board B SOURCE -o "
			"OUT.hpk) and give them with --kernel-file");
}
