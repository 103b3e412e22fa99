// SPDX-License-Identifier: MIT
/* Shared virtual memory, results checked on the host: the pointer is the
 * same number on the host and in a kernel; coarse-grain allocations
 * mapped, written, unmapped, changed by kernels through SVM arguments and
 * read back; a linked list whose nodes point into two allocations, walked
 * by a kernel (the second named by CL_KERNEL_EXEC_INFO_SVM_PTRS);
 * SVM memcpy (every pairing of host and SVM memory) and fills; a buffer
 * made on an SVM pointer (CL_MEM_USES_SVM_POINTER) and a sub-buffer of
 * it; clEnqueueSVMFree with and without a callback; the refusals; and,
 * where the device has fine-grain SVM, a host thread and a kernel adding
 * to one counter with atomics at the same time, the total exact.
 *
 * Usage: svm [CASE]: every case, or the one named. SVM_FINE=1: fine-grain
 * SVM must be there (the shm transport); SVM_FINE=0: it must not
 * (serial). */
#include "common.h"
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

static const char *src =
	"kernel void inc(global int *a, int n)\n"
	"{ size_t i = get_global_id(0); if (i < (size_t)n) a[i] += (int)i + 1; "
	"}\n"
	"kernel void where(global ulong *o, global int *p)\n"
	"{ o[0] = (ulong)(uintptr_t)p; o[1] = (ulong)(uintptr_t)(p + 3); }\n"
	"typedef struct node { global struct node *next; int v; } node;\n"
	"kernel void walk(global node *head, global int *out)\n"
	"{\n"
	"	int s = 0, n = 0;\n"
	"	for (global node *p = head; p; p = p->next) { s += p->v; n++; "
	"}\n"
	"	out[0] = s; out[1] = n;\n"
	"}\n"
	"kernel void hammer(global int *c, int per)\n"
	"{ for (int i = 0; i < per; i++) atomic_add(c, 1); }\n"
	"kernel void setv(global int *b, int v)\n"
	"{ size_t i = get_global_id(0); b[i] = v + (int)i; }\n";

static ocl_env o;
static cl_program prog;
static cl_uint addr_bits;

static cl_kernel kern(const char *name)
{
	cl_int err;
	cl_kernel k = clCreateKernel(prog, name, &err);
	CL_OK(err);
	return k;
}

static void launch(cl_kernel k, size_t g)
{
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
	CL_OK(clFinish(o.q));
}

static void *alloc(cl_svm_mem_flags f, size_t n)
{
	void *p = clSVMAlloc(o.ctx, f, n, 0);
	CHECK(p, "clSVMAlloc(0x%llx, %zu) failed", (unsigned long long)f, n);
	return p;
}

/* The pointer a kernel sees is the host's, and pointer arithmetic on it
 * too. */
static void case_same_number(void)
{
	uint64_t *o2 = alloc(CL_MEM_READ_WRITE, 16);
	int *p = alloc(CL_MEM_READ_WRITE, 64);
	cl_kernel k = kern("where");
	CL_OK(clSetKernelArgSVMPointer(k, 0, o2));
	CL_OK(clSetKernelArgSVMPointer(k, 1, p));
	launch(k, 1);
	CL_OK(clEnqueueSVMMap(o.q, CL_TRUE, CL_MAP_READ, o2, 16, 0, NULL,
			      NULL));
	CHECK(o2[0] == (uintptr_t)p && o2[1] == (uintptr_t)(p + 3),
	      "the kernel saw %#llx, %#llx for host pointers %p, %p",
	      (unsigned long long)o2[0], (unsigned long long)o2[1], (void *)p,
	      (void *)(p + 3));
	CL_OK(clEnqueueSVMUnmap(o.q, o2, 0, NULL, NULL));
	CL_OK(clFinish(o.q));
	clReleaseKernel(k);
	clSVMFree(o.ctx, o2);
	clSVMFree(o.ctx, p);
	printf("same number: host %p = device %p\n", (void *)p, (void *)p);
}

/* Coarse-grain: the host's view between map and unmap, kernels' between. */
static void case_coarse(void)
{
	enum { N = 3000 };
	int *a = alloc(CL_MEM_READ_WRITE, N * sizeof(int));
	CL_OK(clEnqueueSVMMap(o.q, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, a,
			      N * sizeof(int), 0, NULL, NULL));
	for (int i = 0; i < N; i++)
		a[i] = 7 * i;
	CL_OK(clEnqueueSVMUnmap(o.q, a, 0, NULL, NULL));
	cl_kernel k = kern("inc");
	int n = N - 1; /* the last is left alone */
	CL_OK(clSetKernelArgSVMPointer(k, 0, a));
	CL_OK(clSetKernelArg(k, 1, sizeof(n), &n));
	launch(k, N);
	launch(k, N);
	CL_OK(clEnqueueSVMMap(o.q, CL_TRUE, CL_MAP_READ, a, N * sizeof(int), 0,
			      NULL, NULL));
	for (int i = 0; i < N; i++) {
		int want = 7 * i + (i < n ? 2 * (i + 1) : 0);
		CHECK(a[i] == want, "a[%d] = %d, not %d", i, a[i], want);
	}
	CL_OK(clEnqueueSVMUnmap(o.q, a, 0, NULL, NULL));
	/* an argument inside the allocation: a kernel from element 100 */
	CL_OK(clSetKernelArgSVMPointer(k, 0, a + 100));
	n = 10;
	CL_OK(clSetKernelArg(k, 1, sizeof(n), &n));
	launch(k, 10);
	CL_OK(clEnqueueSVMMap(o.q, CL_TRUE, CL_MAP_READ, a + 100,
			      10 * sizeof(int), 0, NULL, NULL));
	for (int i = 0; i < 10; i++) {
		int want = 7 * (100 + i) + 2 * 101 + 2 * i + i + 1;
		CHECK(a[100 + i] == want, "a[%d] = %d, not %d", 100 + i,
		      a[100 + i], want);
	}
	CL_OK(clEnqueueSVMUnmap(o.q, a + 100, 0, NULL, NULL));
	CL_OK(clFinish(o.q));
	clReleaseKernel(k);
	clSVMFree(o.ctx, a);
	printf("coarse: %d ints mapped, incremented twice, read back\n", N);
}

/* A node as the device lays it out: a pointer of addr_bits, an int. */
static size_t node_size(void)
{
	return addr_bits == 64 ? 16 : 8;
}

static void node_set(char *n, const char *next, int v)
{
	if (addr_bits == 64) {
		uint64_t p = (uintptr_t)next;
		memcpy(n, &p, 8);
		memcpy(n + 8, &v, 4);
	} else {
		uint32_t p = (uint32_t)(uintptr_t)next;
		memcpy(n, &p, 4);
		memcpy(n + 4, &v, 4);
	}
}

/* Pointers stored in SVM memory mean the same on the device: a list
 * alternating between two allocations. */
static void case_list(void)
{
	enum { NODES = 40 };
	size_t ns = node_size();
	char *x = alloc(CL_MEM_READ_WRITE, NODES / 2 * ns);
	char *y = alloc(CL_MEM_READ_WRITE, NODES / 2 * ns);
	int *out = alloc(CL_MEM_READ_WRITE, 2 * sizeof(int));
	CL_OK(clEnqueueSVMMap(o.q, CL_TRUE, CL_MAP_WRITE, x, NODES / 2 * ns, 0,
			      NULL, NULL));
	CL_OK(clEnqueueSVMMap(o.q, CL_TRUE, CL_MAP_WRITE, y, NODES / 2 * ns, 0,
			      NULL, NULL));
	int sum = 0;
	for (int i = 0; i < NODES; i++) {
		char *n = (i % 2 ? y : x) + (size_t)(i / 2) * ns;
		char *next = i + 1 == NODES
				     ? NULL
				     : ((i + 1) % 2 ? y : x) +
					       (size_t)((i + 1) / 2) * ns;
		node_set(n, next, i * i);
		sum += i * i;
	}
	CL_OK(clEnqueueSVMUnmap(o.q, x, 0, NULL, NULL));
	CL_OK(clEnqueueSVMUnmap(o.q, y, 0, NULL, NULL));
	cl_kernel k = kern("walk");
	CL_OK(clSetKernelArgSVMPointer(k, 0, x));
	CL_OK(clSetKernelArgSVMPointer(k, 1, out));
	void *extra[] = {y};
	CL_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS,
				  sizeof(extra), extra));
	launch(k, 1);
	int got[2];
	CL_OK(clEnqueueSVMMemcpy(o.q, CL_TRUE, got, out, sizeof(got), 0, NULL,
				 NULL));
	CHECK(got[0] == sum && got[1] == NODES,
	      "the kernel walked %d nodes summing %d, not %d and %d", got[1],
	      got[0], NODES, sum);
	clReleaseKernel(k);
	clSVMFree(o.ctx, x);
	clSVMFree(o.ctx, y);
	clSVMFree(o.ctx, out);
	printf("list: %d nodes over two allocations walked by a kernel\n",
	       NODES);
}

static void case_memcpy(void)
{
	enum { N = 5000 };
	int *a = alloc(CL_MEM_READ_WRITE, N * sizeof(int));
	int *b = alloc(CL_MEM_READ_WRITE, N * sizeof(int));
	static int h[N], g[N];
	for (int i = 0; i < N; i++)
		h[i] = i * 3 + 1;
	/* host -> SVM, SVM -> SVM (another allocation, and inside one),
	 * SVM -> host, host -> host */
	CL_OK(clEnqueueSVMMemcpy(o.q, CL_FALSE, a, h, sizeof(h), 0, NULL,
				 NULL));
	CL_OK(clEnqueueSVMMemcpy(o.q, CL_FALSE, b, a, sizeof(h), 0, NULL,
				 NULL));
	CL_OK(clEnqueueSVMMemcpy(o.q, CL_FALSE, b + N / 2, a,
				 N / 2 * sizeof(int), 0, NULL, NULL));
	CL_OK(clEnqueueSVMMemcpy(o.q, CL_TRUE, g, b, sizeof(g), 0, NULL, NULL));
	for (int i = 0; i < N; i++) {
		int want = i < N / 2 ? h[i] : h[i - N / 2];
		CHECK(g[i] == want, "g[%d] = %d, not %d", i, g[i], want);
	}
	static int h2[N];
	CL_OK(clEnqueueSVMMemcpy(o.q, CL_TRUE, h2, h, sizeof(h), 0, NULL,
				 NULL));
	CHECK(!memcmp(h2, h, sizeof(h)), "host to host copy differs");
	/* fills: a 4-byte pattern on the device, a 16-byte one */
	int pat = 0x5a5a1234;
	CL_OK(clEnqueueSVMMemFill(o.q, a, &pat, sizeof(pat), sizeof(h), 0, NULL,
				  NULL));
	int pat4[4] = {1, 2, 3, 4};
	CL_OK(clEnqueueSVMMemFill(o.q, a + 8, pat4, sizeof(pat4),
				  4 * sizeof(pat4), 0, NULL, NULL));
	CL_OK(clEnqueueSVMMemcpy(o.q, CL_TRUE, g, a, sizeof(g), 0, NULL, NULL));
	for (int i = 0; i < N; i++) {
		int want = i >= 8 && i < 24 ? pat4[(i - 8) % 4] : pat;
		CHECK(g[i] == want, "after fills g[%d] = %#x, not %#x", i, g[i],
		      want);
	}
	CHECK(clEnqueueSVMMemcpy(o.q, CL_TRUE, a + 10, a, 100, 0, NULL, NULL) ==
		      CL_MEM_COPY_OVERLAP,
	      "an overlapping copy was taken");
	CHECK(clEnqueueSVMMemcpy(o.q, CL_TRUE, a + N - 4, h, 32, 0, NULL,
				 NULL) == CL_INVALID_VALUE,
	      "a copy leaving its allocation was taken");
	int migrate_ok = clEnqueueSVMMigrateMem(o.q, 1, (const void **)&b, NULL,
						0, 0, NULL, NULL);
	CL_OK(migrate_ok);
	CL_OK(clFinish(o.q));
	clSVMFree(o.ctx, a);
	clSVMFree(o.ctx, b);
	printf("memcpy: host/SVM pairs, fills of 4 and 16 bytes, migration\n");
}

/* A buffer on SVM memory is that memory (CL_MEM_USES_SVM_POINTER). */
static void case_buffer(void)
{
	enum { N = 1024 };
	int *a = alloc(CL_MEM_READ_WRITE, N * sizeof(int));
	cl_int err;
	cl_mem m = clCreateBuffer(o.ctx, CL_MEM_USE_HOST_PTR, 512 * sizeof(int),
				  a + 256, &err);
	CL_OK(err);
	cl_bool uses = CL_FALSE;
	CL_OK(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof(uses),
				 &uses, NULL));
	CHECK(uses, "CL_MEM_USES_SVM_POINTER is false");
	cl_buffer_region r = {128 * sizeof(int), 128 * sizeof(int)};
	cl_mem sub =
		clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CL_OK(err);
	cl_mem assoc = NULL;
	CL_OK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT,
				 sizeof(assoc), &assoc, NULL));
	CHECK(assoc == m, "the sub-buffer's buffer is %p, not %p",
	      (void *)assoc, (void *)m);
	cl_kernel k = kern("setv");
	int v = 1000;
	CL_OK(clSetKernelArg(k, 0, sizeof(m), &m));
	CL_OK(clSetKernelArg(k, 1, sizeof(v), &v));
	launch(k, 512);
	v = 5000;
	CL_OK(clSetKernelArg(k, 0, sizeof(sub), &sub));
	CL_OK(clSetKernelArg(k, 1, sizeof(v), &v));
	launch(k, 128);
	CL_OK(clEnqueueSVMMap(o.q, CL_TRUE, CL_MAP_READ, a, N * sizeof(int), 0,
			      NULL, NULL));
	for (int i = 256; i < 768; i++) {
		int want =
			i >= 384 && i < 512 ? 5000 + i - 384 : 1000 + i - 256;
		CHECK(a[i] == want, "a[%d] = %d, not %d", i, a[i], want);
	}
	CL_OK(clEnqueueSVMUnmap(o.q, a, 0, NULL, NULL));
	CL_OK(clFinish(o.q));
	clReleaseKernel(k);
	clReleaseMemObject(sub);
	clReleaseMemObject(m);
	clSVMFree(o.ctx, a);
	printf("buffer: a buffer and its sub-buffer on SVM memory\n");
}

static int freed_n;
static void CL_CALLBACK on_free(cl_command_queue q, cl_uint n, void *ps[],
				void *data)
{
	(void)q;
	freed_n = (int)n;
	for (cl_uint i = 0; i < n; i++)
		clSVMFree((cl_context)data, ps[i]);
}

static void case_free(void)
{
	void *ps[3] = {alloc(0, 100), alloc(0, 200), alloc(0, 300)};
	CL_OK(clEnqueueSVMFree(o.q, 3, ps, on_free, o.ctx, 0, NULL, NULL));
	CL_OK(clFinish(o.q));
	CHECK(freed_n == 3, "the callback saw %d pointers", freed_n);
	void *p = alloc(0, 64);
	CL_OK(clEnqueueSVMFree(o.q, 1, &p, NULL, NULL, 0, NULL, NULL));
	CL_OK(clFinish(o.q));
	cl_kernel k = kern("inc");
	CHECK(clSetKernelArgSVMPointer(k, 0, p) == CL_INVALID_ARG_VALUE,
	      "a freed SVM pointer was taken as an argument");
	clReleaseKernel(k);
	printf("free: with a callback and without\n");
}

static void case_errors(void)
{
	CHECK(!clSVMAlloc(o.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0),
	      "two access flags");
	CHECK(!clSVMAlloc(o.ctx, CL_MEM_SVM_ATOMICS, 64, 0),
	      "atomics without fine grain");
	CHECK(!clSVMAlloc(o.ctx, 0, 64, 3), "alignment 3");
	CHECK(!clSVMAlloc(o.ctx, 0, 0, 0), "size 0");
	CHECK(!clSVMAlloc(NULL, 0, 64, 0), "no context");
	int *a = clSVMAlloc(o.ctx, 0, 4096, 4096);
	CHECK(a && (uintptr_t)a % 4096 == 0, "aligned allocation %p",
	      (void *)a);
	cl_kernel k = kern("inc");
	int host[4];
	CHECK(clSetKernelArgSVMPointer(k, 0, host) == CL_INVALID_ARG_VALUE,
	      "a host pointer was taken as an SVM argument");
	CHECK(clSetKernelArgSVMPointer(k, 1, a) == CL_INVALID_ARG_VALUE,
	      "an SVM pointer for an int argument");
	CHECK(clSetKernelArgSVMPointer(k, 5, a) == CL_INVALID_ARG_INDEX,
	      "argument 5 of 2");
	cl_bool yes = CL_TRUE;
	CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
				  sizeof(yes), &yes) == CL_INVALID_OPERATION,
	      "fine-grain system SVM taken");
	void *bad[] = {host};
	CHECK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(bad),
				  bad) == CL_INVALID_VALUE,
	      "a host pointer in CL_KERNEL_EXEC_INFO_SVM_PTRS");
	CHECK(clEnqueueSVMMap(o.q, CL_TRUE, CL_MAP_READ, a, 8192, 0, NULL,
			      NULL) == CL_INVALID_VALUE,
	      "a map past the allocation");
	CHECK(clEnqueueSVMMap(o.q, CL_TRUE, CL_MAP_READ, host, 4, 0, NULL,
			      NULL) == CL_INVALID_VALUE,
	      "a map of host memory");
	/* a released allocation is noticed at the launch */
	CL_OK(clSetKernelArgSVMPointer(k, 0, a));
	int n = 1;
	CL_OK(clSetKernelArg(k, 1, sizeof(n), &n));
	clSVMFree(o.ctx, a);
	size_t g = 1;
	CHECK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 0, NULL,
				     NULL) == CL_INVALID_KERNEL_ARGS,
	      "a launch with a freed SVM argument");
	clReleaseKernel(k);
	printf("errors: refused as they should be\n");
}

struct adder {
	volatile int *c;
	int n;	     /* adds made */
	int stop;    /* set when the kernel is done */
	int foreign; /* times the counter moved between two of ours */
};

static void *host_adds(void *arg)
{
	struct adder *a = arg;
	int last = 0;
	while (!__atomic_load_n(&a->stop, __ATOMIC_ACQUIRE)) {
		int before = __atomic_fetch_add(a->c, 1, __ATOMIC_SEQ_CST);
		a->foreign += before != last;
		last = before + 1;
		__atomic_store_n(&a->n, a->n + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Fine-grain SVM: host and device add to one counter at once. */
static void case_fine(void)
{
	cl_device_svm_capabilities caps = 0;
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps),
			      &caps, NULL));
	CHECK(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER, "no coarse-grain SVM");
	const char *want = getenv("SVM_FINE");
	bool fine = caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER;
	CHECK(!want || (*want == '1') == fine, "fine-grain SVM %s, SVM_FINE=%s",
	      fine ? "there" : "missing", want);
	if (!fine) {
		CHECK(!clSVMAlloc(o.ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0),
		      "a fine-grain allocation without the capability");
		printf("fine: not on this device (capabilities %#llx)\n",
		       (unsigned long long)caps);
		return;
	}
	CHECK(caps & CL_DEVICE_SVM_ATOMICS, "fine grain without atomics");
	int *c = alloc(CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
		       sizeof(int));
	*c = 0; /* no map: fine grain */
	enum { G = 64, PER = 4000 };
	cl_kernel k = kern("hammer");
	int per = PER;
	CL_OK(clSetKernelArgSVMPointer(k, 0, c));
	CL_OK(clSetKernelArg(k, 1, sizeof(per), &per));
	/* the host adds from before the launch until after its end: the
	 * kernel's adds all happen while the host's go on */
	struct adder a = {c, 0, 0, 0};
	pthread_t t;
	CHECK(!pthread_create(&t, NULL, host_adds, &a), "pthread_create");
	while (__atomic_load_n(&a.n, __ATOMIC_ACQUIRE) < 1000)
		sched_yield();
	size_t g = G;
	CL_OK(clEnqueueNDRangeKernel(o.q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
	CL_OK(clFinish(o.q));
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	int total = __atomic_load_n(c, __ATOMIC_SEQ_CST);
	CHECK(total == G * PER + a.n,
	      "counter %d, not %d (%d kernel + %d host)", total, G * PER + a.n,
	      G * PER, a.n);
	CHECK(a.foreign > 0, "the host never saw the kernel's adds");
	clReleaseKernel(k);
	clSVMFree(o.ctx, c);
	printf("fine: counter %d exact (kernel %d + host %d; the counter "
	       "moved between two of the host's adds %d times)\n",
	       total, G * PER, a.n, a.foreign);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	ocl_setup(&o, 0);
	CL_OK(clGetDeviceInfo(o.dev, CL_DEVICE_ADDRESS_BITS, sizeof(addr_bits),
			      &addr_bits, NULL));
	prog = ocl_build(&o, src, "-cl-std=CL3.0");
	if (ocl_case(argc, argv, "same_number"))
		case_same_number();
	if (ocl_case(argc, argv, "coarse"))
		case_coarse();
	if (ocl_case(argc, argv, "list"))
		case_list();
	if (ocl_case(argc, argv, "memcpy"))
		case_memcpy();
	if (ocl_case(argc, argv, "buffer"))
		case_buffer();
	if (ocl_case(argc, argv, "free"))
		case_free();
	if (ocl_case(argc, argv, "errors"))
		case_errors();
	if (ocl_case(argc, argv, "fine"))
		case_fine();
	clReleaseProgram(prog);
	ocl_teardown(&o);
	printf("svm: all passed\n");
	return 0;
}
