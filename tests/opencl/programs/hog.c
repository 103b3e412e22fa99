// SPDX-License-Identifier: MIT
/* A greedy OpenCL program for the quota tests (docs/sessions.md,
 * "Quotas"): it creates buffers of 64 MiB, then of a sixteenth of that,
 * down to 64 KiB, each until the device refuses (CL_OUT_OF_RESOURCES),
 * writes the first byte of each so it is really on the device, prints
 * "full BYTES" and waits to be killed (nothing released).
 *
 *   hog */
#include "common.h"
#include <unistd.h>

#define MAX_BUFS 4096

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	unsigned n = 0; /* buffers held (never released) */
	unsigned long long bytes = 0;
	cl_int last = CL_SUCCESS;
	for (size_t size = 64u << 20; size >= 64u << 10; size /= 16) {
		cl_int err = CL_SUCCESS;
		while (n < MAX_BUFS) {
			cl_mem m = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE,
						  size, NULL, &err);
			if (err == CL_SUCCESS) {
				cl_uchar one = 1;
				err = clEnqueueWriteBuffer(o.q, m, CL_TRUE, 0,
							   1, &one, 0, NULL,
							   NULL);
			}
			if (err != CL_SUCCESS) {
				if (m)
					clReleaseMemObject(m);
				break;
			}
			n++;
			bytes += size;
		}
		CHECK(err == CL_OUT_OF_RESOURCES ||
			      err == CL_MEM_OBJECT_ALLOCATION_FAILURE,
		      "a refused buffer of %zu bytes: error %d", size, err);
		last = err;
	}
	printf("full %llu (%u buffers, the last refusal %s)\n", bytes, n,
	       last == CL_OUT_OF_RESOURCES
		       ? "CL_OUT_OF_RESOURCES"
		       : "CL_MEM_OBJECT_ALLOCATION_FAILURE");
	fflush(stdout);
	for (;;)
		pause();
}
