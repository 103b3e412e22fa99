// OpenCL C kernels the CLI tests run (tests/opencl/cli.part.sh): each
// writes what the test checks into its buffers.

// Work-item functions over a 2-D range with an offset and remainder
// groups: one record of 8 values per work-item, at its global linear id.
__kernel void ids(__global uint *o)
{
	size_t lin = (get_global_id(1) - get_global_offset(1)) * get_global_size(0) +
		     (get_global_id(0) - get_global_offset(0));
	__global uint *r = o + 8 * lin;
	r[0] = get_global_id(0);
	r[1] = get_global_id(1);
	r[2] = get_local_id(0) + 100 * get_local_id(1);
	r[3] = get_group_id(0) + 100 * get_group_id(1);
	r[4] = get_local_size(0) + 100 * get_local_size(1);
	r[5] = get_num_groups(0) + 100 * get_num_groups(1);
	r[6] = get_work_dim();
	r[7] = get_global_size(0) + 100 * get_global_size(1);
}

// Sum of each work-group's inputs through a kernel-scope __local array,
// a __local argument and barriers (a tree in local memory).
__kernel void group_sum(__global const int *in, __global int *out,
			__local int *scratch)
{
	__local int part[256];
	__local int total;
	size_t l = get_local_id(0), n = get_local_size(0);
	part[l] = in[get_global_id(0)];
	if (l == 0)
		total = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	scratch[l] = part[l] * 2;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = n / 2; s > 0; s /= 2) {
		if (l < s)
			scratch[l] += scratch[l + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0)
		out[get_group_id(0)] = scratch[0] / 2;
}

// Atomics on global and local memory: every work-item counts itself.
__kernel void count(__global int *counter, __global int *per_group)
{
	__local int here;
	if (get_local_id(0) == 0)
		here = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	atomic_inc(counter);
	atomic_add(&here, 1);
	atomic_max(counter + 1, (int)get_global_id(0));
	barrier(CLK_LOCAL_MEM_FENCE);
	if (get_local_id(0) == 0)
		per_group[get_group_id(0)] = here;
}

// printf from some work-items.
__kernel void hello(int n)
{
	if (get_global_id(0) < (size_t)n)
		printf("hello from %d of %d\n", (int)get_global_id(0),
		       (int)get_global_size(0));
}

// Built-ins: math, integer, vectors, conversions.
__kernel void mathy(__global float *f, __global int *i)
{
	size_t g = get_global_id(0);
	float x = (float)g / 8.0f;
	f[g] = sqrt(x) + fabs(-x) + fmax(x, 0.5f) + dot((float4)(x, 1, 2, 3),
							 (float4)(1, 1, 1, 1));
	i[g] = clz((uint)g + 1) + popcount((uint)g) + convert_int_sat(x * 1e10f) / 1000000000 +
	       abs_diff((int)g, 5) + select(1, 2, (int)g & 1);
}
