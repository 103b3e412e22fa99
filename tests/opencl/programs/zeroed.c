// SPDX-License-Identifier: MIT
/* Nothing left over (docs/sessions.md): a buffer an OpenCL program creates
 * reads as zeros, whatever a program before it left in the memory.
 *
 *   zeroed fill MIB    create a MIB MiB cl_mem, write a pattern over all of
 *                      it (finished), exit without releasing it
 *   zeroed check MIB   create a MIB MiB cl_mem without a host pointer and
 *                      read it back: prints the words of the pattern and
 *                      the words not zero; exit 1 if there are any */
#include "common.h"

#define PATTERN 0xc3a55a3cu

int main(int argc, char **argv)
{
	CHECK(argc == 3 && atoi(argv[2]) > 0,
	      "usage: zeroed fill MIB | check MIB");
	size_t size = (size_t)atoi(argv[2]) << 20, n = size / 4;
	ocl_env o;
	ocl_setup(&o, 0);
	cl_int err;
	cl_mem m = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE, size, NULL, &err);
	CL_OK(err);
	uint32_t *h = malloc(size);
	CHECK(h, "no memory for %zu bytes", size);
	if (!strcmp(argv[1], "fill")) {
		for (size_t i = 0; i < n; i++)
			h[i] = PATTERN;
		CL_OK(clEnqueueWriteBuffer(o.q, m, CL_TRUE, 0, size, h, 0, NULL,
					   NULL));
		CL_OK(clFinish(o.q));
		printf("filled %zu MiB\n", size >> 20);
		return 0; /* nothing released: the device reclaims it */
	}
	CHECK(!strcmp(argv[1], "check"), "usage: zeroed fill MIB | check MIB");
	memset(h, 0xee, size); /* what is not read is not zero */
	CL_OK(clEnqueueReadBuffer(o.q, m, CL_TRUE, 0, size, h, 0, NULL, NULL));
	size_t pat = 0, nz = 0;
	for (size_t i = 0; i < n; i++) {
		pat += h[i] == PATTERN;
		nz += h[i] != 0;
	}
	printf("a new %zu MiB cl_mem: %zu of %zu words of the pattern, %zu "
	       "not zero\n",
	       size >> 20, pat, n, nz);
	CL_OK(clReleaseMemObject(m));
	free(h);
	ocl_teardown(&o);
	return nz ? 1 : 0;
}
