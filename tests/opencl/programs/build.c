// SPDX-License-Identifier: MIT
/* The build pipeline's answers: a program without kernels builds (0
 * kernels, its binary loads again), too much __local is a build failure
 * whose log names the bytes and the limit, a failed #include leaves
 * clang's message in the log, and full device tables (kernel rows, loaded
 * objects) are CL_OUT_OF_RESOURCES, for sources and binaries alike. */
#include "common.h"

#define EXPECT(expr, want)                                                     \
	do {                                                                   \
		cl_int e_ = (expr);                                            \
		CHECK(e_ == (want), "%s = %d, want %s (%d)", #expr, e_, #want, \
		      (int)(want));                                            \
	} while (0)

static char logbuf[65536];

static const char *build_log(ocl_env *o, cl_program p)
{
	logbuf[0] = 0;
	CL_OK(clGetProgramBuildInfo(p, o->dev, CL_PROGRAM_BUILD_LOG,
				    sizeof(logbuf), logbuf, NULL));
	return logbuf;
}

static cl_program source(ocl_env *o, const char *src)
{
	cl_int err;
	cl_program p = clCreateProgramWithSource(o->ctx, 1, &src, NULL, &err);
	CL_OK(err);
	return p;
}

static cl_program binary(ocl_env *o, const unsigned char *bin, size_t n)
{
	cl_int err, st;
	cl_program p = clCreateProgramWithBinary(o->ctx, 1, &o->dev, &n, &bin,
						 &st, &err);
	CL_OK(err);
	CL_OK(st);
	return p;
}

static unsigned char *binary_of(cl_program p, size_t *n)
{
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(*n), n,
			       NULL));
	unsigned char *b = malloc(*n);
	CHECK(b, "out of memory");
	CL_OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(b), &b, NULL));
	return b;
}

static void no_kernels(ocl_env *o)
{
	static const char *srcs[] = {
		"",
		"int helper(int x) { return x + 1; }\n",
		"constant int table[4] = {1, 2, 3, 4};\n",
	};
	for (unsigned i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
		cl_program p = source(o, srcs[i]);
		cl_int rc = clBuildProgram(p, 1, &o->dev, NULL, NULL, NULL);
		CHECK(rc == CL_SUCCESS, "no kernels (source %u): %d, log:\n%s",
		      i, rc, build_log(o, p));
		size_t nk = 99;
		CL_OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(nk),
				       &nk, NULL));
		CHECK(nk == 0, "CL_PROGRAM_NUM_KERNELS %zu", nk);
		char names[64] = "x";
		CL_OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES,
				       sizeof(names), names, NULL));
		CHECK(!names[0], "CL_PROGRAM_KERNEL_NAMES '%s'", names);
		cl_uint n = 99;
		CL_OK(clCreateKernelsInProgram(p, 0, NULL, &n));
		CHECK(n == 0, "clCreateKernelsInProgram: %u", n);
		cl_int err;
		CHECK(!clCreateKernel(p, "helper", &err) &&
			      err == CL_INVALID_KERNEL_NAME,
		      "a kernel of a program without kernels: %d", err);
		/* its binary is a program without kernels too */
		size_t bn;
		unsigned char *bin = binary_of(p, &bn);
		CHECK(bn > 0, "no binary");
		cl_program pb = binary(o, bin, bn);
		CL_OK(clBuildProgram(pb, 1, &o->dev, NULL, NULL, NULL));
		CL_OK(clGetProgramInfo(pb, CL_PROGRAM_NUM_KERNELS, sizeof(nk),
				       &nk, NULL));
		CHECK(nk == 0, "binary: CL_PROGRAM_NUM_KERNELS %zu", nk);
		free(bin);
		CL_OK(clReleaseProgram(pb));
		CL_OK(clReleaseProgram(p));
	}
	/* linked from compiled programs */
	cl_program c = source(o, srcs[1]);
	CL_OK(clCompileProgram(c, 1, &o->dev, NULL, 0, NULL, NULL, NULL, NULL));
	cl_int err;
	cl_program l = clLinkProgram(o->ctx, 1, &o->dev, NULL, 1, &c, NULL,
				     NULL, &err);
	CHECK(err == CL_SUCCESS, "link without kernels: %d", err);
	CL_OK(clReleaseProgram(l));
	CL_OK(clReleaseProgram(c));
}

static void too_much_local(ocl_env *o)
{
	cl_ulong lim;
	CL_OK(clGetDeviceInfo(o->dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lim),
			      &lim, NULL));
	cl_program p = source(o, "__kernel void k(__global int *out)\n"
				 "{\n"
				 "	__local int a[1 << 24];\n"
				 "	a[get_local_id(0)] = 1;\n"
				 "	barrier(CLK_LOCAL_MEM_FENCE);\n"
				 "	out[get_global_id(0)] = a[0];\n"
				 "}\n");
	EXPECT(clBuildProgram(p, 1, &o->dev, NULL, NULL, NULL),
	       CL_BUILD_PROGRAM_FAILURE);
	const char *log = build_log(o, p);
	char want[64];
	snprintf(want, sizeof(want), "%llu", (unsigned long long)lim);
	CHECK(strstr(log, "67108864") && strstr(log, want),
	      "log without the bytes (67108864) and the limit (%s):\n%s", want,
	      log);
	cl_build_status st;
	CL_OK(clGetProgramBuildInfo(p, o->dev, CL_PROGRAM_BUILD_STATUS,
				    sizeof(st), &st, NULL));
	CHECK(st == CL_BUILD_ERROR, "build status %d", st);
	printf("build: too much __local: %s", log);
	CL_OK(clReleaseProgram(p));
}

static void failed_include(ocl_env *o)
{
	static const struct {
		const char *src, *want;
	} cases[] = {
		{"#include \"/etc/passwd\"\n__kernel void k() {}\n", "passwd"},
		{"#include \"no/such/header.h\"\n__kernel void k() {}\n",
		 "file not found"},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cl_program p = source(o, cases[i].src);
		EXPECT(clBuildProgram(p, 1, &o->dev, NULL, NULL, NULL),
		       CL_BUILD_PROGRAM_FAILURE);
		const char *log = build_log(o, p);
		CHECK(strstr(log, "error") && strstr(log, cases[i].want),
		      "include %u: log without clang's error ('%s'):\n%s", i,
		      cases[i].want, log);
		CL_OK(clReleaseProgram(p));
	}
}

/* A source of @p n kernels named k<tag>_<i>. */
static char *many_kernels(unsigned n, int tag)
{
	size_t cap = 128 * n + 1;
	char *s = malloc(cap), *e = s;
	CHECK(s, "out of memory");
	for (unsigned i = 0; i < n; i++)
		e += snprintf(e, cap - (size_t)(e - s),
			      "__kernel void k%d_%u(__global int *p) "
			      "{ p[get_global_id(0)] = %u; }\n",
			      tag, i, i);
	return s;
}

static void full_tables(ocl_env *o)
{
	/* kernel rows: objects of 64 kernels until they do not fit */
	char *s = many_kernels(64, 0);
	cl_program first = source(o, s);
	free(s);
	CL_OK(clBuildProgram(first, 1, &o->dev, NULL, NULL, NULL));
	size_t bn;
	unsigned char *bin = binary_of(first, &bn);
	/* More than the device's 64 object slots. */
	enum { TRIES = 80 };
	cl_program loaded[TRIES];
	unsigned nl = 0;
	cl_int rc = CL_SUCCESS;
	while (rc == CL_SUCCESS && nl < TRIES) {
		loaded[nl] = binary(o, bin, bn);
		rc = clBuildProgram(loaded[nl], 1, &o->dev, NULL, NULL, NULL);
		nl++;
	}
	CHECK(rc == CL_OUT_OF_RESOURCES,
	      "binary of 64 kernels, copy %u: %d, want CL_OUT_OF_RESOURCES; "
	      "log:\n%s",
	      nl, rc, build_log(o, loaded[nl - 1]));
	printf("build: full kernel table after %u objects of 64: %s", nl,
	       build_log(o, loaded[nl - 1]));
	/* a source build that does not fit either */
	s = many_kernels(64, 1);
	cl_program more = source(o, s);
	free(s);
	EXPECT(clBuildProgram(more, 1, &o->dev, NULL, NULL, NULL),
	       CL_OUT_OF_RESOURCES);
	CHECK(build_log(o, more)[0], "no reason in the log");
	CL_OK(clReleaseProgram(more));
	while (nl)
		CL_OK(clReleaseProgram(loaded[--nl]));
	CL_OK(clReleaseProgram(first));
	free(bin);

	/* loaded objects: one kernel each, until no slot is left */
	s = many_kernels(1, 2);
	first = source(o, s);
	free(s);
	CL_OK(clBuildProgram(first, 1, &o->dev, NULL, NULL, NULL));
	bin = binary_of(first, &bn);
	rc = CL_SUCCESS;
	while (rc == CL_SUCCESS && nl < TRIES) {
		loaded[nl] = binary(o, bin, bn);
		rc = clBuildProgram(loaded[nl], 1, &o->dev, NULL, NULL, NULL);
		nl++;
	}
	CHECK(rc == CL_OUT_OF_RESOURCES,
	      "binary of 1 kernel, copy %u: %d, want CL_OUT_OF_RESOURCES", nl,
	      rc);
	printf("build: no object slot after %u more objects: %s", nl,
	       build_log(o, loaded[nl - 1]));
	while (nl)
		CL_OK(clReleaseProgram(loaded[--nl]));
	/* released objects give their slots back */
	cl_program again = binary(o, bin, bn);
	CL_OK(clBuildProgram(again, 1, &o->dev, NULL, NULL, NULL));
	CL_OK(clReleaseProgram(again));
	free(bin);
	CL_OK(clReleaseProgram(first));
}

/* tests/opencl/programs/build [CASE]: every case, or the one named */
int main(int argc, char **argv)
{
	ocl_env o;
	ocl_setup(&o, 0);
	if (ocl_case(argc, argv, "no_kernels")) {
		no_kernels(&o);
		puts("build: programs without kernels build");
	}
	if (ocl_case(argc, argv, "too_much_local"))
		too_much_local(&o);
	if (ocl_case(argc, argv, "failed_include")) {
		failed_include(&o);
		puts("build: include failures logged");
	}
	if (ocl_case(argc, argv, "full_tables"))
		full_tables(&o);
	ocl_teardown(&o);
	puts("build: OK");
	return 0;
}
