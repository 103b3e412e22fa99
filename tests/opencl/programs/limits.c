// SPDX-License-Identifier: MIT
/* The limits generated code reaches, results checked on the host: as many
 * arguments as CL_DEVICE_MAX_PARAMETER_SIZE admits (int and char ones), a
 * kernel name of 300 bytes (a mangled C++ name's length), sources taken at
 * exactly the lengths given (a NUL byte inside, a length shorter than the
 * string), atomic_uintptr_t moved by a ptrdiff_t. */
#include "common.h"

#include <stdint.h>

/* "kernel void NAME(global int *out, T a0, ...) { out[i] = a0 + ...; }" */
static char *many_args(const char *name, const char *type, unsigned n)
{
	size_t cap = 64 + (size_t)n * 40, at = 0;
	char *s = malloc(cap);
	CHECK(s, "out of memory");
	at += (size_t)snprintf(s + at, cap - at,
			       "kernel void %s(global int *out", name);
	for (unsigned i = 0; i < n; i++)
		at += (size_t)snprintf(s + at, cap - at, ", %s a%u", type, i);
	at += (size_t)snprintf(
		s + at, cap - at,
		") { out[get_global_id(0)] = (int)get_global_id(0)");
	for (unsigned i = 0; i < n; i++)
		at += (size_t)snprintf(s + at, cap - at, " + a%u * %u", i,
				       i % 7 + 1);
	snprintf(s + at, cap - at, "; }\n");
	return s;
}

/* Runs NAME over 16 items with argument i = f(i); checks the sums. */
static void run_many(ocl_env *o, const char *name, const char *type,
		     size_t tsize, unsigned n)
{
	char *src = many_args(name, type, n);
	cl_program p = ocl_build(o, src, NULL);
	free(src);
	cl_int err;
	cl_kernel k = clCreateKernel(p, name, &err);
	CL_OK(err);
	cl_uint na = 0;
	CL_OK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(na), &na, NULL));
	CHECK(na == n + 1, "%s: %u arguments reported, %u declared", name, na,
	      n + 1);
	cl_mem b = clCreateBuffer(o->ctx, CL_MEM_WRITE_ONLY, 16 * sizeof(int),
				  NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	long want = 0;
	for (unsigned i = 0; i < n; i++) {
		cl_int iv = (cl_int)(i % 5);
		cl_char cv = (cl_char)(i % 5);
		CL_OK(clSetKernelArg(k, i + 1, tsize,
				     tsize == 1 ? (void *)&cv : (void *)&iv));
		want += (long)(i % 5) * (i % 7 + 1);
	}
	size_t g = 16;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	int out[16];
	CL_OK(clEnqueueReadBuffer(o->q, b, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < 16; i++)
		CHECK(out[i] == (int)(want + i), "%s: item %d is %d, not %ld",
		      name, i, out[i], want + i);
	printf("limits: %s: %u %s arguments, sums right\n", name, n, type);
	clReleaseMemObject(b);
	clReleaseKernel(k);
	clReleaseProgram(p);
}

static void long_name(ocl_env *o)
{
	char name[301], src[600];
	/* a mangled C++ name's shape */
	snprintf(name, sizeof(name), "_ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_");
	while (strlen(name) < 300)
		strncat(name, "x", sizeof(name) - strlen(name) - 1);
	snprintf(src, sizeof(src),
		 "kernel void %s(global int *o) { o[get_global_id(0)] = 7; }\n",
		 name);
	cl_program p = ocl_build(o, src, NULL);
	cl_kernel k;
	cl_uint nk = 0;
	CL_OK(clCreateKernelsInProgram(p, 1, &k, &nk));
	CHECK(nk == 1, "%u kernels", nk);
	char got[400] = "";
	CL_OK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(got), got,
			      NULL));
	CHECK(!strcmp(got, name), "kernel named '%s'", got);
	char names[400] = "";
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names,
			       NULL));
	CHECK(!strcmp(names, name), "program's kernel names '%s'", names);
	cl_int err;
	cl_mem b = clCreateBuffer(o->ctx, CL_MEM_WRITE_ONLY, 8 * sizeof(int),
				  NULL, &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	size_t g = 8;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	int out[8];
	CL_OK(clEnqueueReadBuffer(o->q, b, CL_TRUE, 0, sizeof(out), out, 0,
				  NULL, NULL));
	for (int i = 0; i < 8; i++)
		CHECK(out[i] == 7, "item %d is %d", i, out[i]);
	printf("limits: a kernel named by %zu bytes runs\n", strlen(name));
	clReleaseMemObject(b);
	clReleaseKernel(k);
	clReleaseProgram(p);
}

static size_t num_kernels(cl_program p)
{
	size_t n = 0;
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n, NULL));
	return n;
}

static void exact_lengths(ocl_env *o)
{
	/* a NUL byte inside the length given: both kernels compiled */
	static const char two[] =
		"kernel void first(global int *o) { o[0] = 1; }\n"
		"\0"
		"kernel void second(global int *o) { o[0] = 2; }\n";
	const char *s = two;
	size_t len = sizeof(two) - 1;
	cl_int err;
	cl_program p = clCreateProgramWithSource(o->ctx, 1, &s, &len, &err);
	CL_OK(err);
	size_t got = 0;
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_SOURCE, 0, NULL, &got));
	CHECK(got == len + 1, "CL_PROGRAM_SOURCE has %zu bytes, not %zu", got,
	      len + 1);
	CL_OK(clBuildProgram(p, 1, &o->dev, NULL, NULL, NULL));
	CHECK(num_kernels(p) == 2, "%zu kernels, not 2 (cut at the NUL?)",
	      num_kernels(p));
	clReleaseProgram(p);
	/* a length shorter than the string: what follows is not compiled */
	static const char cut[] =
		"kernel void only(global int *o) { o[0] = 3; }\n"
		"this is not OpenCL C";
	s = cut;
	len = strlen(cut) - strlen("this is not OpenCL C");
	p = clCreateProgramWithSource(o->ctx, 1, &s, &len, &err);
	CL_OK(err);
	CL_OK(clBuildProgram(p, 1, &o->dev, NULL, NULL, NULL));
	CHECK(num_kernels(p) == 1, "%zu kernels, not 1", num_kernels(p));
	clReleaseProgram(p);
	printf("limits: sources taken at the lengths given\n");
}

static void uintptr_atomics(ocl_env *o)
{
	static const char *src =
		"kernel void up(global atomic_uintptr_t *p)\n"
		"{\n"
		"	atomic_fetch_add_explicit(p, (ptrdiff_t)5,\n"
		"		memory_order_relaxed, memory_scope_device);\n"
		"	atomic_fetch_sub(p, (ptrdiff_t)2);\n"
		"}\n";
	cl_uint bits = 0;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_ADDRESS_BITS, sizeof(bits),
			      &bits, NULL));
	cl_program p = ocl_build(o, src, "-cl-std=CL3.0");
	cl_int err;
	cl_kernel k = clCreateKernel(p, "up", &err);
	CL_OK(err);
	uint64_t v = 1000;
	cl_mem b = clCreateBuffer(o->ctx, CL_MEM_COPY_HOST_PTR, bits / 8, &v,
				  &err);
	CL_OK(err);
	CL_OK(clSetKernelArg(k, 0, sizeof(b), &b));
	size_t g = 64;
	CL_OK(clEnqueueNDRangeKernel(o->q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL));
	v = 0;
	CL_OK(clEnqueueReadBuffer(o->q, b, CL_TRUE, 0, bits / 8, &v, 0, NULL,
				  NULL));
	uint64_t got = bits == 32 ? (uint32_t)v : v;
	CHECK(got == 1000 + 64 * 3, "counter %llu, not %d",
	      (unsigned long long)got, 1000 + 64 * 3);
	printf("limits: atomic_uintptr_t by ptrdiff_t: %llu\n",
	       (unsigned long long)got);
	clReleaseMemObject(b);
	clReleaseKernel(k);
	clReleaseProgram(p);
}

int main(int argc, char **argv)
{
	ocl_env o;
	ocl_setup(&o, 0);
	size_t max = 0;
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof(max),
			      &max, NULL));
	cl_uint bits = 0;
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_ADDRESS_BITS, sizeof(bits),
			      &bits, NULL));
	size_t room = max - bits / 8;
	if (ocl_case(argc, argv, "ints"))
		run_many(&o, "ints", "int", 4, (unsigned)(room / 4));
	if (ocl_case(argc, argv, "chars"))
		run_many(&o, "chars", "char", 1, (unsigned)(room / 2));
	if (ocl_case(argc, argv, "name"))
		long_name(&o);
	if (ocl_case(argc, argv, "lengths"))
		exact_lengths(&o);
	if (ocl_case(argc, argv, "uintptr"))
		uintptr_atomics(&o);
	ocl_teardown(&o);
	printf("limits: OK\n");
	return 0;
}
