// SPDX-License-Identifier: MIT
/* Barriers and markers on an out-of-order queue cover every earlier
 * command of the queue: kernel A, barrier, kernel B, barrier (or marker):
 * when the last barrier's event is complete, B's event is complete and
 * B's stores are visible. B is slow (a long loop) so that a barrier that
 * only waited for the previous barrier would complete first.
 *
 *   ooo_barrier [ROUNDS [COMMANDS]]   (default 10 rounds of 20) */
#include "common.h"

static const char *src =
	"__kernel void slow(__global int *out, int v, int spin)\n"
	"{\n"
	"	volatile int x = 0;\n"
	"	for (int i = 0; i < spin; i++)\n"
	"		x += i;\n"
	"	out[get_global_id(0)] = v + (x & 0);\n"
	"}\n";

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	int cmds = argc > 2 ? atoi(argv[2]) : 20;
	ocl_env o;
	ocl_setup(&o, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	cl_program p = ocl_build(&o, src, NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(p, "slow", &err);
	CL_OK(err);
	cl_mem b = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE, 64 * sizeof(int),
				  NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(cl_mem), &b));
	size_t g = 64, l = 8;
	unsigned bad = 0;
	for (int r = 0; r < rounds; r++)
		for (int c = 0; c < cmds; c++) {
			int v1 = r * 1000 + c * 2 + 1, v2 = v1 + 1;
			int quick = 0, spin = 20000 + (c % 4) * 10000;
			cl_event ka, kb, b1, b2;
			CL_OK(clSetKernelArg(k, 1, sizeof(int), &v1));
			CL_OK(clSetKernelArg(k, 2, sizeof(int), &quick));
			CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, &l, 0,
						     NULL, &ka));
			CL_OK(clEnqueueBarrierWithWaitList(o.q, 0, NULL, &b1));
			CL_OK(clSetKernelArg(k, 1, sizeof(int), &v2));
			CL_OK(clSetKernelArg(k, 2, sizeof(int), &spin));
			CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, &l, 0,
						     NULL, &kb));
			/* odd commands: a marker without a wait list, which
			 * covers the earlier commands the same way */
			if (c & 1)
				CL_OK(clEnqueueMarkerWithWaitList(o.q, 0, NULL,
								  &b2));
			else
				CL_OK(clEnqueueBarrierWithWaitList(o.q, 0, NULL,
								   &b2));
			CL_OK(clFlush(o.q));
			CL_OK(clWaitForEvents(1, &b2));
			cl_int st[3];
			cl_event evs[3] = {ka, b1, kb};
			for (int i = 0; i < 3; i++)
				CL_OK(clGetEventInfo(
					evs[i],
					CL_EVENT_COMMAND_EXECUTION_STATUS,
					sizeof(cl_int), &st[i], NULL));
			/* A non-blocking read after the barrier: ordered by it
			 */
			int got[64];
			CL_OK(clEnqueueReadBuffer(o.q, b, CL_TRUE, 0,
						  sizeof(got), got, 0, NULL,
						  NULL));
			for (int i = 0; i < 3; i++)
				if (st[i] != CL_COMPLETE) {
					fprintf(stderr,
						"round %d command %d: event %d "
						"is %d after the %s "
						"completed\n",
						r, c, i, st[i],
						c & 1 ? "marker" : "barrier");
					bad++;
				}
			for (int i = 0; i < 64; i++)
				if (got[i] != v2) {
					fprintf(stderr,
						"round %d command %d: out[%d] "
						"= %d, want %d\n",
						r, c, i, got[i], v2);
					bad++;
					break;
				}
			cl_event all[] = {ka, b1, kb, b2};
			for (int i = 0; i < 4; i++)
				CL_OK(clReleaseEvent(all[i]));
		}
	CHECK(bad == 0, "%u ordering errors in %d rounds of %d", bad, rounds,
	      cmds);
	CL_OK(clReleaseMemObject(b));
	CL_OK(clReleaseKernel(k));
	CL_OK(clReleaseProgram(p));
	ocl_teardown(&o);
	printf("ooo_barrier: %d rounds of %d, every barrier and marker after "
	       "the commands before it\n",
	       rounds, cmds);
	return 0;
}
