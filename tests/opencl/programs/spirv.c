// SPDX-License-Identifier: MIT
/* SPIR-V programs through the ICD, results checked on the host: modules
 * that clang-15 and llvm-spirv-15 made from tests/opencl/kernels/
 * spirv_prog.cl and spirv-as from spirv_spec.spvasm, spirv_image.spvasm
 * (the test's shell part makes them into $HP_SPIRV_DIR, for the device's
 * address width): clCreateProgramWithIL and the KHR entry, CL_PROGRAM_IL,
 * the device's IL versions, a kernel with a generic-pointer helper, local
 * memory, a barrier and atomics, built-ins with vector, narrow and struct
 * arguments, an SVM argument, specialization constants and their errors,
 * SPIR-V 1.4 that is rewritten before translation (spirv_lower.spvasm), a
 * SPIR-V object linked with an OpenCL C one (spirv_link.cl), a module of the
 * other width and one that needs images refused with a build log. */
#include "common.h"

#include <CL/cl_ext.h>

typedef struct {
	cl_int add;
	cl_float scale;
	cl_char tag;
} params;

static unsigned char *slurp(const char *name, size_t *n)
{
	char path[1024];
	const char *dir = getenv("HP_SPIRV_DIR");
	CHECK(dir, "HP_SPIRV_DIR is not set");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	CHECK(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	rewind(f);
	unsigned char *b = malloc((size_t)len);
	CHECK(b && fread(b, 1, (size_t)len, f) == (size_t)len, "cannot read %s",
	      path);
	fclose(f);
	*n = (size_t)len;
	return b;
}

static cl_uint bits_of(ocl_env *o)
{
	cl_uint bits = 0;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_ADDRESS_BITS, sizeof(bits),
			      &bits, NULL));
	return bits;
}

static cl_program from_il(ocl_env *o, const char *name, cl_int *build)
{
	size_t n;
	unsigned char *il = slurp(name, &n);
	cl_int err;
	cl_program p = clCreateProgramWithIL(o->ctx, il, n, &err);
	CL_OK(err);
	/* CL_PROGRAM_IL: the same bytes */
	size_t got = 0;
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &got));
	CHECK(got == n, "CL_PROGRAM_IL of %zu bytes, the module has %zu", got,
	      n);
	unsigned char *back = malloc(n);
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_IL, n, back, NULL));
	CHECK(!memcmp(back, il, n), "CL_PROGRAM_IL differs from the module");
	free(back);
	free(il);
	*build = clBuildProgram(p, 1, &o->dev, "", NULL, NULL);
	return p;
}

static void info(ocl_env *o)
{
	char il[256] = "", exts[4096] = "";
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_IL_VERSION, sizeof(il), il,
			      NULL));
	CHECK(strstr(il, "SPIR-V_1.0"), "CL_DEVICE_IL_VERSION '%s'", il);
	cl_name_version nv[16];
	size_t n = 0;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_ILS_WITH_VERSION, sizeof(nv),
			      nv, &n));
	CHECK(n >= sizeof(nv[0]) && !strcmp(nv[0].name, "SPIR-V"),
	      "CL_DEVICE_ILS_WITH_VERSION: %zu bytes", n);
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_EXTENSIONS, sizeof(exts), exts,
			      NULL));
	CHECK(strstr(exts, "cl_khr_il_program"), "no cl_khr_il_program");
	CHECK(clGetExtensionFunctionAddressForPlatform(
		      o->plat, "clCreateProgramWithILKHR"),
	      "no clCreateProgramWithILKHR");
	printf("spirv: the device takes %s\n", il);
}

static void run_main(ocl_env *o, cl_program p)
{
	enum { N = 64, L = 16 };
	cl_int err;
	cl_kernel k = clCreateKernel(p, "spv_main", &err);
	CL_OK(err);
	char an[32] = "";
	CL_OK(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof(an), an,
				 NULL));
	CHECK(!strcmp(an, "n"), "argument 3 named '%s'", an);
	float in[N];
	int out[N + 3] = {0};
	for (int i = 0; i < N; i++)
		in[i] = (float)(2 * i);
	out[N + 2] = 41;
	cl_mem bi = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, sizeof(in), in,
				   &err);
	CL_OK(err);
	cl_mem bo = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, sizeof(out),
				   out, &err);
	CL_OK(err);
	int n = 5;
	CL_OK(clSetKernelArg(k, 0, sizeof(bo), &bo));
	CL_OK(clSetKernelArg(k, 1, sizeof(bi), &bi));
	CL_OK(clSetKernelArg(k, 2, L * sizeof(int), NULL));
	CL_OK(clSetKernelArg(k, 3, sizeof(n), &n));
	size_t g = N, l = L;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	CL_OK(clEnqueueReadBuffer(o->q, bo, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < N; i++) {
		int base = i / L * L, r = L - 1 - i % L;
		int want = 2 * (base + r) + 1 + n + i;
		CHECK(out[i] == want, "spv_main item %d: %d, not %d", i, out[i],
		      want);
	}
	CHECK(out[N] == N, "%d atomic increments, not %d", out[N], N);
	CHECK(out[N + 1] == 42, "the generic helper on __global gave %d",
	      out[N + 1]);
	clReleaseMemObject(bi);
	clReleaseMemObject(bo);
	clReleaseKernel(k);
}

static void run_vec(ocl_env *o, cl_program p)
{
	enum { N = 8 };
	cl_int err;
	cl_kernel k = clCreateKernel(p, "spv_vec", &err);
	CL_OK(err);
	cl_float a[N][4], b[N][8], out[N];
	for (int i = 0; i < N; i++) {
		for (int c = 0; c < 4; c++)
			a[i][c] = (float)(i + c) * 0.5f;
		for (int c = 0; c < 8; c++)
			b[i][c] = (float)(c - i) * 0.75f;
	}
	cl_mem ba = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, sizeof(a), a,
				   &err);
	CL_OK(err);
	cl_mem bb = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, sizeof(b), b,
				   &err);
	CL_OK(err);
	cl_mem bo = clCreateBuffer(o->ctx, CL_MEM_WRITE_ONLY, sizeof(out), NULL,
				   &err);
	CL_OK(err);
	cl_char c = -3;
	cl_short s = -300;
	params pr = {.add = 7, .scale = 0.5f, .tag = -2};
	CL_OK(clSetKernelArg(k, 0, sizeof(bo), &bo));
	CL_OK(clSetKernelArg(k, 1, sizeof(ba), &ba));
	CL_OK(clSetKernelArg(k, 2, sizeof(bb), &bb));
	CL_OK(clSetKernelArg(k, 3, sizeof(c), &c));
	CL_OK(clSetKernelArg(k, 4, sizeof(s), &s));
	CL_OK(clSetKernelArg(k, 5, sizeof(pr), &pr));
	size_t g = N;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	CL_OK(clEnqueueReadBuffer(o->q, bo, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < N; i++) {
		float m = 0;
		for (int q = 0; q < 4; q++)
			m += a[i][q] < 2.0f ? a[i][q] : 2.0f;
		float e0 = b[i][0] > 1.5f ? b[i][0] : 1.5f;
		float e7 = b[i][7] > 1.5f ? b[i][7] : 1.5f;
		float want = m + e0 + e7 + c + s + pr.add * pr.scale + pr.tag;
		CHECK(out[i] == want, "spv_vec item %d: %g, not %g", i, out[i],
		      want);
	}
	clReleaseMemObject(ba);
	clReleaseMemObject(bb);
	clReleaseMemObject(bo);
	clReleaseKernel(k);
}

/* The program-scope counter: two launches of 8 take 100 to 115, each
 * once. */
static void run_counter(ocl_env *o, cl_program p)
{
	enum { N = 8 };
	cl_int err;
	cl_kernel k = clCreateKernel(p, "spv_counter", &err);
	CL_OK(err);
	cl_mem b = clCreateBuffer(o->ctx, CL_MEM_WRITE_ONLY,
				  2 * N * sizeof(int), NULL, &err);
	CL_OK(err);
	int got[2 * N], seen[2 * N] = {0};
	for (int r = 0; r < 2; r++) {
		CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
		size_t g = N;
		CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0,
					     NULL, NULL));
		CL_OK(clEnqueueReadBuffer(o->q, b, CL_TRUE, 0, N * sizeof(int),
					  got + r * N, 0, NULL, NULL));
	}
	for (int i = 0; i < 2 * N; i++) {
		CHECK(got[i] >= 100 && got[i] < 100 + 2 * N &&
			      !seen[got[i] - 100],
		      "spv_counter gave %d", got[i]);
		seen[got[i] - 100] = 1;
	}
	clReleaseMemObject(b);
	clReleaseKernel(k);
}

/* An SVM allocation as the argument: the pointer itself goes in. */
static void run_svm(ocl_env *o, cl_program p)
{
	enum { N = 64 };
	cl_int err;
	cl_kernel k = clCreateKernel(p, "spv_svm", &err);
	CL_OK(err);
	int *d = clSVMAlloc(o->ctx, CL_MEM_READ_WRITE, N * sizeof(int), 0);
	CHECK(d, "clSVMAlloc failed");
	CL_OK(clEnqueueSVMMap(o->q, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, d,
			      N * sizeof(int), 0, NULL, NULL));
	for (int i = 0; i < N; i++)
		d[i] = 3 * i;
	CL_OK(clEnqueueSVMUnmap(o->q, d, 0, NULL, NULL));
	CL_OK(clSetKernelArgSVMPointer(k, 0, d));
	size_t g = N;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	CL_OK(clEnqueueSVMMap(o->q, CL_TRUE, CL_MAP_READ, d, N * sizeof(int), 0,
			      NULL, NULL));
	for (int i = 0; i < N; i++)
		CHECK(d[i] == (3 * i + 1) * 2, "spv_svm item %d: %d, not %d", i,
		      d[i], (3 * i + 1) * 2);
	CL_OK(clEnqueueSVMUnmap(o->q, d, 0, NULL, NULL));
	CL_OK(clFinish(o->q));
	clSVMFree(o->ctx, d);
	clReleaseKernel(k);
}

static void programs(ocl_env *o)
{
	char name[32];
	snprintf(name, sizeof(name), "prog%u.spv", bits_of(o));
	cl_int b;
	cl_program p = from_il(o, name, &b);
	CHECK(b == CL_SUCCESS, "%s did not build (%d):\n%s", name, b,
	      ocl_log(o, p));
	size_t src = 0;
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &src));
	CHECK(src == 1, "an IL program's source has %zu bytes", src);
	run_main(o, p);
	run_vec(o, p);
	run_counter(o, p);
	run_svm(o, p);
	clReleaseProgram(p);
	printf("spirv: %s: the generic helper, local memory, atomics, "
	       "vector, narrow and struct arguments, the program-scope "
	       "counter and an SVM argument check\n",
	       name);
}

static void spec_run(ocl_env *o, cl_program p, int want_add)
{
	enum { N = 16 };
	cl_int err;
	cl_kernel k = clCreateKernel(p, "spv_spec", &err);
	CL_OK(err);
	cl_mem bo = clCreateBuffer(o->ctx, CL_MEM_WRITE_ONLY, N * sizeof(int),
				   NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(bo), &bo));
	size_t g = N;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	int out[N];
	CL_OK(clEnqueueReadBuffer(o->q, bo, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < N; i++)
		CHECK(out[i] == i + want_add, "spv_spec item %d: %d, not %d", i,
		      out[i], i + want_add);
	clReleaseMemObject(bo);
	clReleaseKernel(k);
}

static void spec(ocl_env *o)
{
	char name[32];
	snprintf(name, sizeof(name), "spec%u.spv", bits_of(o));
	cl_int b;
	cl_program p = from_il(o, name, &b);
	CHECK(b == CL_SUCCESS, "%s: %d\n%s", name, b, ocl_log(o, p));
	spec_run(o, p, 5); /* the defaults: 5, true */
	cl_int add = 11;
	cl_uchar off = 0;
	CL_OK(clSetProgramSpecializationConstant(p, 7, sizeof(add), &add));
	CL_OK(clSetProgramSpecializationConstant(p, 3, 1, &off));
	CL_OK(clBuildProgram(p, 1, &o->dev, "", NULL, NULL));
	spec_run(o, p, -11);
	CHECK(clSetProgramSpecializationConstant(p, 99, 4, &add) ==
		      CL_INVALID_SPEC_ID,
	      "spec id 99: not CL_INVALID_SPEC_ID");
	CHECK(clSetProgramSpecializationConstant(p, 7, 8, &add) ==
		      CL_INVALID_VALUE,
	      "8 bytes for a 4-byte constant: not CL_INVALID_VALUE");
	CHECK(clSetProgramSpecializationConstant(p, 7, 4, NULL) ==
		      CL_INVALID_VALUE,
	      "no value: not CL_INVALID_VALUE");
	const char *src = "kernel void k(global int *o) { o[0] = 1; }";
	cl_int err;
	cl_program s = clCreateProgramWithSource(o->ctx, 1, &src, NULL, &err);
	CL_OK(err);
	CHECK(clSetProgramSpecializationConstant(s, 7, 4, &add) ==
		      CL_INVALID_PROGRAM,
	      "a source program: not CL_INVALID_PROGRAM");
	clReleaseProgram(s);
	clReleaseProgram(p);
	printf("spirv: specialization constants set, rebuilt, checked\n");
}

/* SPIR-V 1.4 the translator takes only rewritten (hp_spirv_lower) */
static void lowered(ocl_env *o)
{
	char name[32];
	snprintf(name, sizeof(name), "lower%u.spv", bits_of(o));
	cl_int b;
	cl_program p = from_il(o, name, &b);
	CHECK(b == CL_SUCCESS, "%s: %d\n%s", name, b, ocl_log(o, p));
	cl_int err;
	cl_kernel k = clCreateKernel(p, "spv_lower", &err);
	CL_OK(err);
	cl_uint out[11];
	memset(out, 0xff, sizeof(out));
	cl_mem bo = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, sizeof(out),
				   out, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(bo), &bo));
	size_t g = 1;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	CL_OK(clEnqueueReadBuffer(o->q, bo, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	/* equal, not equal, difference, the copy, the logical copy, the
	 * shuffle (8, 1, 4, 7) at 5..8, the null at 10 */
	static const cl_uint want[11] = {0, 1, 5, 42,	       1024, 8,
					 1, 4, 7, 0xffffffffu, 9};
	for (int i = 0; i < 11; i++)
		CHECK(out[i] == want[i], "spv_lower dst[%d] = %u, not %u", i,
		      out[i], want[i]);
	clReleaseMemObject(bo);
	clReleaseKernel(k);
	clReleaseProgram(p);
	printf("spirv: SPIR-V 1.4's pointer comparisons, copies and mixed "
	       "shuffles check\n");
}

/* A SPIR-V object that imports a function, linked with an OpenCL C
 * object that defines it. */
static void linked(ocl_env *o)
{
	char name[32];
	snprintf(name, sizeof(name), "link%u.spv", bits_of(o));
	size_t n;
	unsigned char *il = slurp(name, &n);
	cl_int err;
	cl_program m = clCreateProgramWithIL(o->ctx, il, n, &err);
	CL_OK(err);
	free(il);
	err = clCompileProgram(m, 1, &o->dev, "", 0, NULL, NULL, NULL, NULL);
	CHECK(err == CL_SUCCESS, "compiling %s: %d\n%s", name, err,
	      ocl_log(o, m));
	const char *src = "int twice_plus(int x) { return 2 * x + 3; }";
	cl_program s = clCreateProgramWithSource(o->ctx, 1, &src, NULL, &err);
	CL_OK(err);
	CL_OK(clCompileProgram(s, 1, &o->dev, "", 0, NULL, NULL, NULL, NULL));
	cl_program in[2] = {m, s};
	cl_program x =
		clLinkProgram(o->ctx, 1, &o->dev, "", 2, in, NULL, NULL, &err);
	CHECK(x && err == CL_SUCCESS, "linking: %d\n%s", err,
	      x ? ocl_log(o, x) : "");
	cl_kernel k = clCreateKernel(x, "spv_link", &err);
	CL_OK(err);
	enum { N = 16 };
	cl_mem b = clCreateBuffer(o->ctx, CL_MEM_WRITE_ONLY, N * sizeof(int),
				  NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	size_t g = N;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	int out[N];
	CL_OK(clEnqueueReadBuffer(o->q, b, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < N; i++)
		CHECK(out[i] == 2 * i + 3, "spv_link item %d: %d", i, out[i]);
	clReleaseMemObject(b);
	clReleaseKernel(k);
	clReleaseProgram(x);
	clReleaseProgram(s);
	clReleaseProgram(m);
	printf("spirv: a SPIR-V object linked with an OpenCL C one runs\n");
}

static void refused(ocl_env *o)
{
	cl_int err;
	static const unsigned char junk[16] = {1, 2, 3, 4};
	CHECK(!clCreateProgramWithIL(o->ctx, junk, sizeof(junk), &err) &&
		      err == CL_INVALID_VALUE,
	      "junk IL: %d", err);
	CHECK(!clCreateProgramWithIL(o->ctx, NULL, 20, &err) &&
		      err == CL_INVALID_VALUE,
	      "NULL IL: %d", err);
	CHECK(!clCreateProgramWithIL(NULL, junk, sizeof(junk), &err) &&
		      err == CL_INVALID_CONTEXT,
	      "no context: %d", err);
	/* the other width: a build failure that says why */
	char name[32];
	snprintf(name, sizeof(name), "prog%u.spv", bits_of(o) == 64 ? 32 : 64);
	cl_int b;
	cl_program p = from_il(o, name, &b);
	CHECK(b == CL_BUILD_PROGRAM_FAILURE, "%s built: %d", name, b);
	CHECK(strstr(ocl_log(o, p), "addressing model"),
	      "the log does not say why: %s", ocl_log(o, p));
	clReleaseProgram(p);
	/* images */
	snprintf(name, sizeof(name), "image%u.spv", bits_of(o));
	p = from_il(o, name, &b);
	CHECK(b == CL_BUILD_PROGRAM_FAILURE, "%s built: %d", name, b);
	CHECK(strstr(ocl_log(o, p), "ImageBasic"),
	      "the log does not name the capability: %s", ocl_log(o, p));
	clReleaseProgram(p);
	printf("spirv: junk, the other width and images refused, said\n");
}

int main(int argc, char **argv)
{
	ocl_env o;
	ocl_setup(&o, 0);
	if (ocl_case(argc, argv, "info"))
		info(&o);
	if (ocl_case(argc, argv, "programs"))
		programs(&o);
	if (ocl_case(argc, argv, "spec"))
		spec(&o);
	if (ocl_case(argc, argv, "lower"))
		lowered(&o);
	if (ocl_case(argc, argv, "link"))
		linked(&o);
	if (ocl_case(argc, argv, "refused"))
		refused(&o);
	ocl_teardown(&o);
	printf("spirv: OK\n");
	return 0;
}
