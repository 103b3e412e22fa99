// The OpenCL C kernels of bench/opencl.sh, written as an OpenCL user
// writes them, with the argument lists of the built-in kernels of the same
// names (kernels/<name>/args.h), so `hartpool run NAME
// --kernel-file` runs them on the same data and checks them the same way.

kernel void vadd(global const float *a, global const float *b,
		 global float *c, ulong n)
{
	size_t i = get_global_id(0);
	c[i] = a[i] + b[i];
}

kernel void saxpy(global const float *x, global float *y, ulong n, float a,
		  uint reserved)
{
	size_t i = get_global_id(0);
	y[i] = a * x[i] + y[i];
}

kernel void sgemm_naive(global const float *A, global const float *B,
			global float *C, ulong a_len, ulong b_len,
			ulong c_len, ulong m, ulong n, ulong k)
{
	size_t j = get_global_id(0), i = get_global_id(1);
	if (i >= m || j >= n)
		return;
	float acc = 0.0f;
	for (size_t q = 0; q < k; q++)
		acc += A[i * k + q] * B[q * n + j];
	C[i * n + j] = acc;
}

// 16x16 tiles of A and B in local memory, two barriers per tile (the
// textbook GPU kernel); the local size must be the tile's.
#define TS 16
kernel __attribute__((reqd_work_group_size(TS, TS, 1))) void
sgemm_tiled(global const float *A, global const float *B, global float *C,
	    ulong a_len, ulong b_len, ulong c_len, ulong m, ulong n, ulong k)
{
	local float As[TS][TS], Bs[TS][TS];
	size_t tx = get_local_id(0), ty = get_local_id(1);
	size_t j = get_global_id(0), i = get_global_id(1);
	float acc = 0.0f;
	for (size_t t = 0; t < k; t += TS) {
		As[ty][tx] = i < m && t + tx < k ? A[i * k + t + tx] : 0.0f;
		Bs[ty][tx] = j < n && t + ty < k ? B[(t + ty) * n + j] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int q = 0; q < TS; q++)
			acc += As[ty][q] * Bs[q][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (i < m && j < n)
		C[i * n + j] = acc;
}

// A work-group's sum by a tree in local memory: 9 barriers for 256 items.
kernel __attribute__((reqd_work_group_size(256, 1, 1))) void
reduce(global const int *in, global int *out, ulong n)
{
	local int s[256];
	size_t l = get_local_id(0), g = get_global_id(0);
	s[l] = g < n ? in[g] : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t h = 128; h > 0; h >>= 1) {
		if (l < h)
			s[l] += s[l + h];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0)
		out[get_group_id(0)] = s[0];
}

// The same with sub-group reductions: one atomic per sub-group.
kernel void reduce_sg(global const int *in, global int *sum, ulong n)
{
	size_t g = get_global_id(0);
	int v = sub_group_reduce_add(g < n ? in[g] : 0);
	if (get_sub_group_local_id() == 0)
		atomic_add(sum, v);
}

// A sub-group's inclusive prefix sums, one per work-item.
kernel void scan_sg(global const int *in, global int *out, ulong n)
{
	size_t g = get_global_id(0);
	int v = sub_group_scan_inclusive_add(g < n ? in[g] : 0);
	if (g < n)
		out[g] = v;
}

// A work-group's sum by the collective: one store per work-group.
kernel void reduce_wg(global const int *in, global int *out, ulong n)
{
	size_t g = get_global_id(0);
	int v = work_group_reduce_add(g < n ? in[g] : 0);
	if (get_local_id(0) == 0)
		out[get_group_id(0)] = v;
}

// nb rounds of a little work (a multiply and an add, kept per item) and a
// barrier: the cost of a round per work-item is the difference of two
// counts over nb (with nothing between them the loops over the items would
// go, and the barriers with them).
kernel void barriers(global uint *o, uint nb)
{
	uint acc = (uint)get_local_id(0);
	for (uint b = 0; b < nb; b++) {
		acc = acc * 3u + b;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	o[get_global_id(0)] = acc;
}
