// SPDX-License-Identifier: MIT
/* The generic address space of OpenCL C 3.0 (__opencl_c_generic_address_
 * space), results checked on the host: a helper taking an unqualified
 * pointer called with __global, __local and __private ones; to_global,
 * to_local, to_private and get_fence on each kind; the generic overloads
 * of fract, sincos, remquo, vload/vstore, vload_half/vstore_half and the
 * 3.0 atomics (on __local and __global objects through generic pointers);
 * the device's queries. */
#include "common.h"

static const char *src =
	"int get(int *p) { return *p; }\n"
	"void put(int *p, int v) { *p = v; }\n"
	"kernel void spaces(global int *o, local int *l)\n"
	"{\n"
	"	int priv = 3;\n"
	"	size_t i = get_global_id(0), li = get_local_id(0);\n"
	"	put(&l[li], 1);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	int *go = o, *gl = l, *gp = &priv;\n"
	"	int r = 0;\n"
	"	r |= (to_global(go) != 0) << 0;\n"
	"	r |= (to_local(go) == 0) << 1;\n"
	"	r |= (to_private(go) == 0) << 2;\n"
	"	r |= (to_local(gl) != 0) << 3;\n"
	"	r |= (to_global(gl) == 0) << 4;\n"
	"	r |= (to_private(gp) != 0) << 5;\n"
	"	r |= (to_global(gp) == 0 && to_local(gp) == 0) << 6;\n"
	"	r |= (get_fence(go) == CLK_GLOBAL_MEM_FENCE) << 7;\n"
	"	r |= (get_fence(gl) == CLK_LOCAL_MEM_FENCE) << 8;\n"
	"	r |= (get(gl) + get(gp) == 4) << 9;\n"
	"	o[i] = r;\n"
	"}\n"
	"kernel void overloads(global float *f, global int *n, local float "
	"*lf,\n"
	"		       local int *li)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	float ip, c;\n"
	"	float *g_ip = &ip;\n"
	"	float fr = fract(2.25f + i, g_ip);\n"
	"	float s = sincos(0.0f, &c);\n"
	"	int q;\n"
	"	float rq = remquo(7.0f, 2.0f, &q);\n"
	"	float4 v = (float4)(i, 1, 2, 3);\n"
	"	vstore4(v, get_local_id(0), lf);\n"
	"	float4 w = vload4(get_local_id(0), (float *)lf);\n"
	"	vstore_half(1.5f, i, (half *)(n + 64));\n"
	"	float h = vload_half(i, (half *)(n + 64));\n"
	"	if (get_local_id(0) == 0)\n"
	"		atomic_init((atomic_int *)li, 0);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	atomic_int *la = (atomic_int *)li;\n"
	"	atomic_fetch_add_explicit(la, 1, memory_order_relaxed);\n"
	"	atomic_fetch_add((atomic_int *)n, 1);\n"
	"	int e = 0;\n"
	"	atomic_compare_exchange_strong((atomic_int *)(n + 1), &e, 0);\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	f[4 * i + 0] = fr + ip;\n"
	"	f[4 * i + 1] = s + c + rq + q;\n"
	"	f[4 * i + 2] = w.x + w.w + h;\n"
	"	f[4 * i + 3] = atomic_load(la);\n"
	"}\n";

int main(void)
{
	ocl_env o;
	ocl_setup(&o, 0);
	cl_bool gas = CL_FALSE;
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
			      sizeof(gas), &gas, NULL));
	CHECK(gas, "CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT is false");
	cl_name_version f[16];
	size_t fn = 0;
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_OPENCL_C_FEATURES, sizeof(f), f,
			      &fn));
	int has = 0;
	for (size_t i = 0; i < fn / sizeof(f[0]); i++)
		has |= !strcmp(f[i].name, "__opencl_c_generic_address_space");
	CHECK(has, "no __opencl_c_generic_address_space feature");
	cl_program p = ocl_build(&o, src, "-cl-std=CL3.0");
	cl_int err;
	enum { N = 32, L = 8 };
	cl_kernel k = clCreateKernel(p, "spaces", &err);
	CL_OK(err);
	cl_mem b = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE, N * sizeof(int),
				  NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	CL_OK(clSetKernelArg(k, 1, L * sizeof(int), NULL));
	size_t g = N, l = L;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	int out[N];
	CL_OK(clEnqueueReadBuffer(o.q, b, CL_TRUE, 0, sizeof(out), out, 0, NULL,
				  NULL));
	for (int i = 0; i < N; i++)
		CHECK(out[i] == 0x3ff, "item %d: checks 0x%x, not 0x3ff", i,
		      out[i]);
	printf("generic: to_global, to_local, to_private, get_fence and "
	       "helpers on every space check\n");
	cl_kernel k2 = clCreateKernel(p, "overloads", &err);
	CL_OK(err);
	cl_mem bf = clCreateBuffer(o.ctx, CL_MEM_READ_WRITE,
				   4 * N * sizeof(float), NULL, &err);
	CL_OK(err);
	int zero[64 + N] = {0};
	cl_mem bn = clCreateBuffer(o.ctx, CL_MEM_COPY_HOST_PTR, sizeof(zero),
				   zero, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k2, 0, sizeof(bf), &bf));
	CL_OK(clSetKernelArg(k2, 1, sizeof(bn), &bn));
	CL_OK(clSetKernelArg(k2, 2, 4 * L * sizeof(float), NULL));
	CL_OK(clSetKernelArg(k2, 3, sizeof(int), NULL));
	CL_OK(clEnqueueNDRangeKernel(o.q, k2, 1, NULL, &g, &l, 0, NULL, NULL));
	float fo[4 * N];
	int cnt = 0;
	CL_OK(clEnqueueReadBuffer(o.q, bf, CL_TRUE, 0, sizeof(fo), fo, 0, NULL,
				  NULL));
	CL_OK(clEnqueueReadBuffer(o.q, bn, CL_TRUE, 0, sizeof(cnt), &cnt, 0,
				  NULL, NULL));
	for (int i = 0; i < N; i++) {
		CHECK(fo[4 * i] == 2.25f + i, "fract + whole of item %d: %g", i,
		      fo[4 * i]);
		/* sin 0 + cos 0 + remquo(7, 2) = -1 with quotient 4 */
		CHECK(fo[4 * i + 1] == 0.0f + 1.0f - 1.0f + 4.0f,
		      "sincos + remquo of item %d: %g", i, fo[4 * i + 1]);
		CHECK(fo[4 * i + 2] == (float)i + 3.0f + 1.5f,
		      "vload/vstore of item %d: %g", i, fo[4 * i + 2]);
		CHECK(fo[4 * i + 3] == (float)L, "local atomic of item %d: %g",
		      i, fo[4 * i + 3]);
	}
	CHECK(cnt == N, "%d global atomic increments, not %d", cnt, N);
	printf("generic: the generic overloads of math, vload/vstore, halves "
	       "and atomics check\n");
	clReleaseMemObject(b);
	clReleaseMemObject(bf);
	clReleaseMemObject(bn);
	clReleaseKernel(k);
	clReleaseKernel(k2);
	clReleaseProgram(p);
	ocl_teardown(&o);
	printf("generic: OK\n");
	return 0;
}
