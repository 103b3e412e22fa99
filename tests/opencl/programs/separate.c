// SPDX-License-Identifier: MIT
/* Separate compilation as toolchains use it, results checked on the host:
 * clCompileProgram with embedded headers (one in a folder), the binary
 * type of a compiled object, clLinkProgram of two objects, a library
 * (-create-library) and an object, binaries of an object and a library
 * reloaded with clCreateProgramWithBinary and linked, the kernel names of
 * a linked program, link options and their errors, link failures that
 * return a program with a log (a name defined twice, a function none
 * defines) and call the callback. */
#include "common.h"

static const char *hdr = "#define SCALE 3\n#include \"sub/off.h\"\n";
static const char *hdr2 = "#define OFFSET 11\n";
static const char *main_src = "#include \"t.h\"\n"
			      "int helper(int x);\n"
			      "kernel void use_helper(global int *o)\n"
			      "{\n"
			      "	int i = (int)get_global_id(0);\n"
			      "	o[i] = helper(i) * SCALE + OFFSET;\n"
			      "}\n";
static const char *lib_src = "int helper(int x) { return x * x + 1; }\n"
			     "kernel void lib_kernel(global int *o)\n"
			     "{ o[get_global_id(0)] = 5; }\n";

static cl_program source(ocl_env *o, const char *s)
{
	cl_int err;
	cl_program p = clCreateProgramWithSource(o->ctx, 1, &s, NULL, &err);
	CL_OK(err);
	return p;
}

static cl_program_binary_type bin_type(ocl_env *o, cl_program p)
{
	cl_program_binary_type t = 0;
	CL_OK(clGetProgramBuildInfo(p, o->dev, CL_PROGRAM_BINARY_TYPE,
				    sizeof(t), &t, NULL));
	return t;
}

/* The main object, compiled with its headers. */
static cl_program compiled_main(ocl_env *o)
{
	cl_program p = source(o, main_src);
	cl_program h[2] = {source(o, hdr), source(o, hdr2)};
	const char *names[2] = {"t.h", "sub/off.h"};
	cl_int err =
		clCompileProgram(p, 1, &o->dev, "", 2, h, names, NULL, NULL);
	CHECK(err == CL_SUCCESS, "clCompileProgram with headers: %d\n%s", err,
	      ocl_log(o, p));
	clReleaseProgram(h[0]);
	clReleaseProgram(h[1]);
	CHECK(bin_type(o, p) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
	      "binary type 0x%x after a compile", (unsigned)bin_type(o, p));
	CHECK(!clCreateKernel(p, "use_helper", &err) &&
		      err == CL_INVALID_PROGRAM_EXECUTABLE,
	      "a kernel of a compiled object: %d", err);
	return p;
}

static void run_checked(ocl_env *o, cl_program p)
{
	cl_int err;
	cl_kernel k = clCreateKernel(p, "use_helper", &err);
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
		CHECK(out[i] == (i * i + 1) * 3 + 11, "item %d: %d", i, out[i]);
	clReleaseMemObject(b);
	clReleaseKernel(k);
}

static int notified;
static void CL_CALLBACK note(cl_program p, void *data)
{
	(void)p;
	notified += data == (void *)&notified;
}

static cl_program link2(ocl_env *o, const char *opts, cl_program a,
			cl_program b, cl_int *err)
{
	cl_program in[2] = {a, b};
	return clLinkProgram(o->ctx, 1, &o->dev, opts, b ? 2 : 1, in, note,
			     &notified, err);
}

static void objects(ocl_env *o)
{
	cl_program m = compiled_main(o), l = source(o, lib_src);
	CL_OK(clCompileProgram(l, 1, &o->dev, "", 0, NULL, NULL, NULL, NULL));
	cl_int err;
	notified = 0;
	cl_program x = link2(o, "", m, l, &err);
	CHECK(x && err == CL_SUCCESS, "linking two objects: %d\n%s", err,
	      x ? ocl_log(o, x) : "");
	CHECK(notified == 1, "the link's callback ran %d times", notified);
	CHECK(bin_type(o, x) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
	      "linked: binary type 0x%x", (unsigned)bin_type(o, x));
	char names[256] = "";
	CL_OK(clGetProgramInfo(x, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names,
			       NULL));
	CHECK(!strcmp(names, "use_helper;lib_kernel") ||
		      !strcmp(names, "lib_kernel;use_helper"),
	      "kernel names '%s'", names);
	run_checked(o, x);
	clReleaseProgram(x);
	/* a library of the helper, then the object and the library */
	cl_program lib = link2(o, "-create-library", l, NULL, &err);
	CHECK(lib && err == CL_SUCCESS, "-create-library: %d", err);
	CHECK(bin_type(o, lib) == CL_PROGRAM_BINARY_TYPE_LIBRARY,
	      "library: binary type 0x%x", (unsigned)bin_type(o, lib));
	x = link2(o, "", m, lib, &err);
	CHECK(x && err == CL_SUCCESS, "object + library: %d\n%s", err,
	      x ? ocl_log(o, x) : "");
	run_checked(o, x);
	clReleaseProgram(x);
	/* their binaries, reloaded and linked */
	size_t nm = 0, nl = 0;
	CL_OK(clGetProgramInfo(m, CL_PROGRAM_BINARY_SIZES, sizeof(nm), &nm,
			       NULL));
	CL_OK(clGetProgramInfo(lib, CL_PROGRAM_BINARY_SIZES, sizeof(nl), &nl,
			       NULL));
	unsigned char *bm = malloc(nm), *bl = malloc(nl);
	CL_OK(clGetProgramInfo(m, CL_PROGRAM_BINARIES, sizeof(bm), &bm, NULL));
	CL_OK(clGetProgramInfo(lib, CL_PROGRAM_BINARIES, sizeof(bl), &bl,
			       NULL));
	cl_int st;
	cl_program rm = clCreateProgramWithBinary(o->ctx, 1, &o->dev, &nm,
						  (const unsigned char **)&bm,
						  &st, &err);
	CL_OK(err);
	cl_program rl = clCreateProgramWithBinary(o->ctx, 1, &o->dev, &nl,
						  (const unsigned char **)&bl,
						  &st, &err);
	CL_OK(err);
	CHECK(bin_type(o, rm) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
		      bin_type(o, rl) == CL_PROGRAM_BINARY_TYPE_LIBRARY,
	      "reloaded binaries of types 0x%x, 0x%x",
	      (unsigned)bin_type(o, rm), (unsigned)bin_type(o, rl));
	x = link2(o, "", rm, rl, &err);
	CHECK(x && err == CL_SUCCESS, "reloaded object + library: %d", err);
	run_checked(o, x);
	clReleaseProgram(x);
	free(bm);
	free(bl);
	clReleaseProgram(rm);
	clReleaseProgram(rl);
	clReleaseProgram(lib);
	clReleaseProgram(l);
	clReleaseProgram(m);
	printf("separate: objects, a library and their binaries link and "
	       "run\n");
}

static void options(ocl_env *o)
{
	cl_program l = source(o, lib_src);
	CL_OK(clCompileProgram(l, 1, &o->dev, "", 0, NULL, NULL, NULL, NULL));
	cl_int err;
	cl_program x = link2(o, "-enable-link-options", l, NULL, &err);
	CHECK(!x && err == CL_INVALID_LINKER_OPTIONS,
	      "-enable-link-options alone: %d", err);
	x = link2(o, "-no-such-option", l, NULL, &err);
	CHECK(!x && err == CL_INVALID_LINKER_OPTIONS, "an unknown option: %d",
	      err);
	x = link2(o,
		  "-create-library -enable-link-options -cl-fast-relaxed-math",
		  l, NULL, &err);
	CHECK(x && err == CL_SUCCESS, "a library with link options: %d", err);
	clReleaseProgram(x);
	x = link2(o, "-cl-denorms-are-zero", l, NULL, &err);
	CHECK(x && err == CL_SUCCESS, "an executable's link option: %d", err);
	clReleaseProgram(x);
	/* an executable program is no link input */
	cl_program e = source(o, lib_src);
	CL_OK(clBuildProgram(e, 1, &o->dev, "", NULL, NULL));
	x = link2(o, "", e, NULL, &err);
	CHECK(!x && err == CL_INVALID_OPERATION, "an executable linked: %d",
	      err);
	clReleaseProgram(e);
	clReleaseProgram(l);
	printf("separate: link options checked\n");
}

static void failures(ocl_env *o)
{
	cl_program a = source(o, lib_src), b = source(o, lib_src);
	CL_OK(clCompileProgram(a, 1, &o->dev, "", 0, NULL, NULL, NULL, NULL));
	CL_OK(clCompileProgram(b, 1, &o->dev, "", 0, NULL, NULL, NULL, NULL));
	cl_int err;
	notified = 0;
	cl_program x = link2(o, "", a, b, &err);
	CHECK(err == CL_LINK_PROGRAM_FAILURE && x,
	      "a name defined twice: %d, program %p", err, (void *)x);
	CHECK(strstr(ocl_log(o, x), "helper"), "the log does not name it: %s",
	      ocl_log(o, x));
	CHECK(notified == 1, "the callback of a failed link ran %d times",
	      notified);
	cl_build_status s = 0;
	CL_OK(clGetProgramBuildInfo(x, o->dev, CL_PROGRAM_BUILD_STATUS,
				    sizeof(s), &s, NULL));
	CHECK(s == CL_BUILD_ERROR, "status %d after a failed link", s);
	clReleaseProgram(x);
	cl_program m = compiled_main(o);
	x = link2(o, "", m, NULL, &err);
	CHECK(err == CL_LINK_PROGRAM_FAILURE && x, "helper defined nowhere: %d",
	      err);
	CHECK(strstr(ocl_log(o, x), "helper"),
	      "the log does not name the missing helper: %s", ocl_log(o, x));
	clReleaseProgram(x);
	clReleaseProgram(m);
	clReleaseProgram(a);
	clReleaseProgram(b);
	/* a header the source does not get */
	cl_program p = source(o, main_src);
	err = clCompileProgram(p, 1, &o->dev, "", 0, NULL, NULL, NULL, NULL);
	CHECK(err == CL_COMPILE_PROGRAM_FAILURE && strstr(ocl_log(o, p), "t.h"),
	      "no headers: %d\n%s", err, ocl_log(o, p));
	clReleaseProgram(p);
	printf("separate: failed links return a program and a log\n");
}

int main(int argc, char **argv)
{
	ocl_env o;
	ocl_setup(&o, 0);
	if (ocl_case(argc, argv, "objects"))
		objects(&o);
	if (ocl_case(argc, argv, "options"))
		options(&o);
	if (ocl_case(argc, argv, "failures"))
		failures(&o);
	ocl_teardown(&o);
	printf("separate: OK\n");
	return 0;
}
