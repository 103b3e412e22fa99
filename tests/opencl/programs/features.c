// SPDX-License-Identifier: MIT
/* OpenCL C 3.0 features through the ICD, results checked on the host:
 * 2-D ids with an offset and remainder groups, sub-groups (with
 * clGetKernelSubGroupInfo), atomics on global and local memory,
 * work-group collectives, a struct and a vector argument, printf. */
#include "common.h"

typedef struct {
	cl_int add;
	cl_float scale;
} params;

static const char *src =
	"typedef struct { int add; float scale; } params;\n"
	"__kernel void ids(__global uint *o)\n"
	"{\n"
	"	size_t x = get_global_id(0) - get_global_offset(0);\n"
	"	size_t y = get_global_id(1) - get_global_offset(1);\n"
	"	__global uint *r = o + 4 * (y * get_global_size(0) + x);\n"
	"	r[0] = get_global_id(0) + 1000 * get_global_id(1);\n"
	"	r[1] = get_local_id(0) + 1000 * get_local_id(1);\n"
	"	r[2] = get_group_id(0) + 1000 * get_group_id(1);\n"
	"	r[3] = get_local_size(0) + 1000 * get_local_size(1);\n"
	"}\n"
	"__kernel void sg(__global int *o)\n"
	"{\n"
	"	size_t g = get_global_id(0);\n"
	"	o[2 * g] = sub_group_reduce_add((int)get_sub_group_local_id() "
	"+ 1);\n"
	"	o[2 * g + 1] = (int)get_sub_group_size();\n"
	"}\n"
	"__kernel void count(__global int *total, __global int *groups)\n"
	"{\n"
	"	__local int here;\n"
	"	if (get_local_id(0) == 0)\n"
	"		here = 0;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	atomic_add(&here, 1);\n"
	"	atomic_inc(total);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	if (get_local_id(0) == 0)\n"
	"		groups[get_group_id(0)] = here;\n"
	"}\n"
	"__kernel void wg(__global int *o, params p, float4 v)\n"
	"{\n"
	"	size_t g = get_global_id(0);\n"
	"	int s = work_group_scan_inclusive_add((int)get_local_id(0));\n"
	"	o[g] = s + p.add + (int)(p.scale * v.w);\n"
	"	if (g == 3)\n"
	"		printf(\"features: item %d of %d\\n\", (int)g,\n"
	"		       (int)get_global_size(0));\n"
	"}\n";

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	cl_program p = ocl_build(&o, src, "-cl-std=CL3.0");
	cl_int err;

	/* 2-D ids: 13 x 5 from (3, 7), groups of 4 x 2 */
	enum { GX = 13, GY = 5, LX = 4, LY = 2 };
	static cl_uint ids[GX * GY * 4];
	cl_kernel k = clCreateKernel(p, "ids", &err);
	CL_OK(err);
	cl_mem b = clCreateBuffer(o.ctx, CL_MEM_WRITE_ONLY, sizeof(ids), NULL,
				  &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	size_t off[2] = {3, 7}, gl[2] = {GX, GY}, lo[2] = {LX, LY};
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 2, off, gl, lo, 0, NULL, NULL));
	CL_OK(clEnqueueReadBuffer(o.q, b, CL_TRUE, 0, sizeof(ids), ids, 0, NULL,
				  NULL));
	for (unsigned y = 0; y < GY; y++)
		for (unsigned x = 0; x < GX; x++) {
			const cl_uint *r = ids + 4 * (y * GX + x);
			unsigned gx = x / LX, gy = y / LY;
			unsigned sx = GX - gx * LX < LX ? GX - gx * LX : LX;
			unsigned sy = GY - gy * LY < LY ? GY - gy * LY : LY;
			CHECK(r[0] == (x + 3) + 1000 * (y + 7) &&
				      r[1] == x % LX + 1000 * (y % LY) &&
				      r[2] == gx + 1000 * gy &&
				      r[3] == sx + 1000 * sy,
			      "ids (%u, %u): %u %u %u %u", x, y, r[0], r[1],
			      r[2], r[3]);
		}
	clReleaseMemObject(b);
	clReleaseKernel(k);

	/* sub-groups: the device's size, and the sums of lane ids + 1 */
	enum { SN = 96, SL = 32 };
	static cl_int sg[SN * 2];
	k = clCreateKernel(p, "sg", &err);
	CL_OK(err);
	size_t local = SL, sgsize = 0;
	CL_OK(clGetKernelSubGroupInfo(
		k, o.dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
		sizeof(local), &local, sizeof(sgsize), &sgsize, NULL));
	CHECK(sgsize >= 1 && sgsize <= SL, "sub-group size %zu", sgsize);
	b = clCreateBuffer(o.ctx, CL_MEM_WRITE_ONLY, sizeof(sg), NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	size_t n = SN;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &n, &local, 0, NULL,
				     NULL));
	CL_OK(clEnqueueReadBuffer(o.q, b, CL_TRUE, 0, sizeof(sg), sg, 0, NULL,
				  NULL));
	for (unsigned i = 0; i < SN; i++) {
		unsigned lid = i % SL, first = lid / sgsize * sgsize;
		unsigned size = SL - first < sgsize ? SL - first : sgsize;
		CHECK(sg[2 * i + 1] == (cl_int)size &&
			      sg[2 * i] == (cl_int)(size * (size + 1) / 2),
		      "sub-group item %u: sum %d size %d (want %u)", i,
		      sg[2 * i], sg[2 * i + 1], size);
	}
	clReleaseMemObject(b);
	clReleaseKernel(k);

	/* atomics: 640 work-items in groups of 32 */
	enum { AN = 640, AL = 32 };
	cl_int total = 0, groups[AN / AL];
	k = clCreateKernel(p, "count", &err);
	CL_OK(err);
	cl_mem bt = clCreateBuffer(o.ctx, CL_MEM_COPY_HOST_PTR, sizeof(total),
				   &total, &err);
	CL_OK(err);
	b = clCreateBuffer(o.ctx, CL_MEM_WRITE_ONLY, sizeof(groups), NULL,
			   &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(bt), &bt));
	CL_OK(clSetKernelArg(k, 1, sizeof(b), &b));
	n = AN, local = AL;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &n, &local, 0, NULL,
				     NULL));
	CL_OK(clEnqueueReadBuffer(o.q, bt, CL_TRUE, 0, sizeof(total), &total, 0,
				  NULL, NULL));
	CL_OK(clEnqueueReadBuffer(o.q, b, CL_TRUE, 0, sizeof(groups), groups, 0,
				  NULL, NULL));
	CHECK(total == AN, "atomic_inc counted %d of %d", total, AN);
	for (unsigned g = 0; g < AN / AL; g++)
		CHECK(groups[g] == AL, "group %u counted %d", g, groups[g]);
	clReleaseMemObject(bt);
	clReleaseMemObject(b);
	clReleaseKernel(k);

	/* work-group scan, a struct and a vector argument, printf */
	enum { WN = 40, WL = 8 };
	static cl_int w[WN];
	k = clCreateKernel(p, "wg", &err);
	CL_OK(err);
	b = clCreateBuffer(o.ctx, CL_MEM_WRITE_ONLY, sizeof(w), NULL, &err);
	CL_OK(err);
	params pa = {100, 2.0f};
	cl_float4 v = {{0, 0, 0, 5.0f}};
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	CL_OK(clSetKernelArg(k, 1, sizeof(pa), &pa));
	CL_OK(clSetKernelArg(k, 2, sizeof(v), &v));
	n = WN, local = WL;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &n, &local, 0, NULL,
				     NULL));
	CL_OK(clEnqueueReadBuffer(o.q, b, CL_TRUE, 0, sizeof(w), w, 0, NULL,
				  NULL));
	CL_OK(clFinish(o.q));
	for (int i = 0; i < WN; i++) {
		int l = i % WL;
		CHECK(w[i] == l * (l + 1) / 2 + 100 + 10, "wg item %d: %d", i,
		      w[i]);
	}
	clReleaseMemObject(b);
	clReleaseKernel(k);
	clReleaseProgram(p);
	ocl_teardown(&o);
	puts("features: OK");
	return 0;
}
