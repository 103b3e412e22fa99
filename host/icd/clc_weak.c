// SPDX-License-Identifier: MIT
/* Fallbacks for the OpenCL C compiler API (hartpool_cl.h) while
 * libhartpool has none: weak, so the library's own definitions (host/lib/
 * clc.c, linked with --whole-archive) replace them. */
#include "icd.h"

__attribute__((weak)) int hp_cl_build(const hp_cl_build_options *o, void **hpk,
				      size_t *size, char **log)
{
	(void)o, (void)hpk, (void)size;
	if (log)
		*log = NULL;
	return HP_COMPILER_NOT_AVAILABLE;
}

__attribute__((weak)) int hp_cl_program_parse(const void *hpk, size_t size,
					      hp_cl_program **out)
{
	(void)hpk, (void)size, (void)out;
	return HP_INVALID_PROGRAM;
}

__attribute__((weak)) void hp_cl_program_free(hp_cl_program *p)
{
	(void)p;
}

__attribute__((weak)) const char *hp_cl_compiler(void)
{
	return NULL;
}
