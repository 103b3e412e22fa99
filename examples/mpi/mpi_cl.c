// SPDX-License-Identifier: MIT
/*
 * One MPI rank per cluster: every rank opens its own OpenCL device (with
 * hartpool's ICD, a QEMU cluster of its own, or a board over serial through
 * HARTPOOL_DEVICE), and the ranks share the work with MPI. Two jobs,
 * each checked on rank 0 against a host reference:
 *
 *   SGEMM by row blocks: rank 0 scatters A's rows and broadcasts B, every
 *   rank computes its rows of C = A B on its device, rank 0 gathers C;
 *   a reduction: every rank sums its share of an int array on its device
 *   (a tree in local memory per work-group), MPI_Reduce adds the sums.
 *
 * A rank whose device fails (missing, or gone mid-job: its QEMU killed)
 * prints the OpenCL error by name and aborts the job (MPI_Abort), so
 * mpirun ends instead of waiting for it.
 *
 *   mpicc -O2 examples/mpi/mpi_cl.c -o mpi_cl -lOpenCL -lm
 *   mpirun -np 4 ./mpi_cl [N [ROUNDS]]
 *
 * N: the matrices' size (default 96); ROUNDS: how many times the SGEMM
 * runs (default 1; a longer job, e.g. to watch a rank fail).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank;

/* The names of the errors a failing device gives. */
static const char *cl_err_name(cl_int e)
{
	switch (e) {
	case CL_DEVICE_NOT_FOUND:
		return "CL_DEVICE_NOT_FOUND";
	case CL_DEVICE_NOT_AVAILABLE:
		return "CL_DEVICE_NOT_AVAILABLE";
	case CL_OUT_OF_RESOURCES:
		return "CL_OUT_OF_RESOURCES";
	case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST:
		return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
	default:
		return "an OpenCL error";
	}
}

#define CL(x)                                                                  \
	do {                                                                   \
		cl_int e_ = (x);                                               \
		if (e_ != CL_SUCCESS) {                                        \
			fprintf(stderr, "rank %d: %s: OpenCL error %d (%s)\n", \
				rank, #x, e_, cl_err_name(e_));                \
			MPI_Abort(MPI_COMM_WORLD, 1);                          \
		}                                                              \
	} while (0)

static const char *src =
	"__kernel void sgemm(__global const float *A, __global const float "
	"*B,\n"
	"                    __global float *C, uint rows, uint n, uint k)\n"
	"{\n"
	"	size_t j = get_global_id(0), i = get_global_id(1);\n"
	"	if (i >= rows || j >= n)\n"
	"		return;\n"
	"	float acc = 0.0f;\n"
	"	for (uint q = 0; q < k; q++)\n"
	"		acc += A[i * k + q] * B[q * n + j];\n"
	"	C[i * n + j] = acc;\n"
	"}\n"
	"__kernel void sum(__global const int *in, __global int *out, uint n)\n"
	"{\n"
	"	__local int s[64];\n"
	"	size_t l = get_local_id(0), g = get_global_id(0);\n"
	"	s[l] = g < n ? in[g] : 0;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (size_t h = 32; h > 0; h >>= 1) {\n"
	"		if (l < h)\n"
	"			s[l] += s[l + h];\n"
	"		barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	}\n"
	"	if (l == 0)\n"
	"		out[get_group_id(0)] = s[0];\n"
	"}\n";

typedef struct {
	cl_context ctx;
	cl_command_queue q;
	cl_kernel sgemm, sum;
	char name[128];
} device;

static void device_open(device *d)
{
	cl_platform_id p;
	cl_device_id dev;
	cl_int e;
	CL(clGetPlatformIDs(1, &p, NULL));
	CL(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	CL(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(d->name), d->name,
			   NULL));
	d->ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
	CL(e);
	d->q = clCreateCommandQueueWithProperties(d->ctx, dev, NULL, &e);
	CL(e);
	cl_program prog = clCreateProgramWithSource(d->ctx, 1, &src, NULL, &e);
	CL(e);
	CL(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL));
	d->sgemm = clCreateKernel(prog, "sgemm", &e);
	CL(e);
	d->sum = clCreateKernel(prog, "sum", &e);
	CL(e);
	clReleaseProgram(prog);
}

static cl_mem buffer(device *d, size_t bytes, void *host)
{
	cl_int e;
	cl_mem m = clCreateBuffer(
		d->ctx, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
		bytes ? bytes : 4, host, &e);
	CL(e);
	return m;
}

/* This rank's rows of C = A B (rows x k times k x n). */
static void sgemm_rows(device *d, const float *a, const float *b, float *c,
		       cl_uint rows, cl_uint n, cl_uint k)
{
	cl_mem A = buffer(d, sizeof(float) * rows * k, rows ? (void *)a : NULL);
	cl_mem B = buffer(d, sizeof(float) * k * n, (void *)b);
	cl_mem C = buffer(d, sizeof(float) * rows * n, NULL);
	CL(clSetKernelArg(d->sgemm, 0, sizeof(A), &A));
	CL(clSetKernelArg(d->sgemm, 1, sizeof(B), &B));
	CL(clSetKernelArg(d->sgemm, 2, sizeof(C), &C));
	CL(clSetKernelArg(d->sgemm, 3, sizeof(rows), &rows));
	CL(clSetKernelArg(d->sgemm, 4, sizeof(n), &n));
	CL(clSetKernelArg(d->sgemm, 5, sizeof(k), &k));
	if (rows) {
		size_t g[2] = {(n + 7) / 8 * 8, (rows + 7) / 8 * 8},
		       l[2] = {8, 8};
		CL(clEnqueueNDRangeKernel(d->q, d->sgemm, 2, NULL, g, l, 0,
					  NULL, NULL));
		CL(clEnqueueReadBuffer(d->q, C, CL_TRUE, 0,
				       sizeof(float) * rows * n, c, 0, NULL,
				       NULL));
	}
	clReleaseMemObject(A);
	clReleaseMemObject(B);
	clReleaseMemObject(C);
}

/* The sum of @p n ints on the device (the work-groups' partial sums added
 * on the host). */
static long long device_sum(device *d, const int *v, cl_uint n)
{
	size_t groups = (n + 63) / 64, g = groups * 64, l = 64;
	cl_mem in = buffer(d, sizeof(int) * n, n ? (void *)v : NULL);
	cl_mem out = buffer(d, sizeof(int) * groups, NULL);
	CL(clSetKernelArg(d->sum, 0, sizeof(in), &in));
	CL(clSetKernelArg(d->sum, 1, sizeof(out), &out));
	CL(clSetKernelArg(d->sum, 2, sizeof(n), &n));
	long long s = 0;
	if (n) {
		int *part = malloc(sizeof(int) * groups);
		if (!part)
			MPI_Abort(MPI_COMM_WORLD, 1);
		CL(clEnqueueNDRangeKernel(d->q, d->sum, 1, NULL, &g, &l, 0,
					  NULL, NULL));
		CL(clEnqueueReadBuffer(d->q, out, CL_TRUE, 0,
				       sizeof(int) * groups, part, 0, NULL,
				       NULL));
		for (size_t i = 0; i < groups; i++)
			s += part[i];
		free(part);
	}
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	return s;
}

/* Rows [first, first + count) of m rows for rank r of p. */
static void share(int m, int r, int p, int *first, int *count)
{
	*first = (int)((long long)m * r / p);
	*count = (int)((long long)m * (r + 1) / p) - *first;
}

static int check_sgemm(const float *a, const float *b, const float *c, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double ref = 0, mag = 0;
			for (int q = 0; q < n; q++) {
				ref += (double)a[i * n + q] * b[q * n + j];
				mag += fabs((double)a[i * n + q] *
					    b[q * n + j]);
			}
			/* float sums in order: (k + 2) ulp-ish of the terms */
			if (fabs(c[i * n + j] - ref) >
			    (n + 2) * 0x1p-23 * mag + 1e-30) {
				if (bad++ < 5)
					fprintf(stderr,
						"C[%d][%d] = %g, expected %g\n",
						i, j, c[i * n + j], ref);
			}
		}
	return bad;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int p;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	int n = argc > 1 ? atoi(argv[1]) : 96;
	int rounds = argc > 2 ? atoi(argv[2]) : 1;
	if (n < 1 || n > 4096)
		n = 96;
	if (rounds < 1 || rounds > 1000000)
		rounds = 1;
	device d;
	device_open(&d);
	printf("rank %d of %d: device %s\n", rank, p, d.name);

	/* SGEMM by row blocks */
	float *a = NULL, *c = NULL, *b = malloc(sizeof(float) * n * n);
	int *counts = malloc(sizeof(int) * p),
	    *displs = malloc(sizeof(int) * p);
	if (!b || !counts || !displs)
		MPI_Abort(MPI_COMM_WORLD, 1);
	if (rank == 0) {
		a = malloc(sizeof(float) * n * n);
		c = malloc(sizeof(float) * n * n);
		if (!a || !c)
			MPI_Abort(MPI_COMM_WORLD, 1);
		srand(7);
		for (int i = 0; i < n * n; i++) {
			a[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
			b[i] = (float)(rand() % 2001 - 1000) / 1000.0f;
		}
	}
	for (int r = 0; r < p; r++) {
		int first, count;
		share(n, r, p, &first, &count);
		counts[r] = count * n;
		displs[r] = first * n;
	}
	int first, rows;
	share(n, rank, p, &first, &rows);
	float *ma = malloc(sizeof(float) * (rows ? rows : 1) * n);
	float *mc = malloc(sizeof(float) * (rows ? rows : 1) * n);
	if (!ma || !mc)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Scatterv(a, counts, displs, MPI_FLOAT, ma, rows * n, MPI_FLOAT, 0,
		     MPI_COMM_WORLD);
	MPI_Bcast(b, n * n, MPI_FLOAT, 0, MPI_COMM_WORLD);
	for (int i = 0; i < rounds; i++)
		sgemm_rows(&d, ma, b, mc, (cl_uint)rows, (cl_uint)n,
			   (cl_uint)n);
	MPI_Gatherv(mc, rows * n, MPI_FLOAT, c, counts, displs, MPI_FLOAT, 0,
		    MPI_COMM_WORLD);

	/* a reduction: n * 1000 ints, each rank its share */
	int total = n * 1000, lo, cnt;
	share(total, rank, p, &lo, &cnt);
	int *v = malloc(sizeof(int) * (cnt ? cnt : 1));
	if (!v)
		MPI_Abort(MPI_COMM_WORLD, 1);
	for (int i = 0; i < cnt; i++)
		v[i] = (lo + i) % 997 - 400;
	long long mine = device_sum(&d, v, (cl_uint)cnt), all = 0;
	MPI_Reduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);

	int rc = 0;
	if (rank == 0) {
		int bad = check_sgemm(a, b, c, n);
		long long want = 0;
		for (int i = 0; i < total; i++)
			want += i % 997 - 400;
		printf("sgemm %dx%d over %d ranks: %s\n", n, n, p,
		       bad ? "WRONG" : "OK");
		printf("sum of %d ints over %d ranks: %lld, %s\n", total, p,
		       all, all == want ? "OK" : "WRONG");
		rc = bad || all != want;
	}
	free(a);
	free(b);
	free(c);
	free(ma);
	free(mc);
	free(v);
	free(counts);
	free(displs);
	MPI_Finalize();
	return rc;
}
