// cl_khr_subgroup_shuffle, _shuffle_relative and _clustered_reduce
// (kernels/opencl/sgext.cl), checked by tests/opencl/check_cli.py sgext:
// per work-item 12 results of int and 4 of other types.

__kernel void sgext(__global long *o, __global const int *in)
{
	size_t g = get_global_id(0);
	__global long *r = o + 16 * g;
	int v = in[g];
	r[0] = sub_group_shuffle(v, (get_sub_group_local_id() + 3) % get_sub_group_size());
	r[1] = sub_group_shuffle_xor(v, 1);
	r[2] = sub_group_shuffle_up(v, 1);
	r[3] = sub_group_shuffle_down(v, 2);
	r[4] = sub_group_clustered_reduce_add(v, 2);
	r[5] = sub_group_clustered_reduce_min(v, 4);
	r[6] = sub_group_clustered_reduce_max(v, 4);
	r[7] = sub_group_clustered_reduce_mul(v, 2);
	r[8] = sub_group_clustered_reduce_xor(v, 4);
	r[9] = sub_group_clustered_reduce_logical_or(v & 1, 2);
	r[10] = sub_group_clustered_reduce_logical_and(v & 1, 2);
	r[11] = sub_group_clustered_reduce_add(v, 1);
	r[12] = sub_group_shuffle_xor((char)v, 1);
	r[13] = sub_group_clustered_reduce_add((short)v, 4);
	r[14] = (long)(sub_group_clustered_reduce_add((float)v * 0.5f, 4) * 2.0f);
	r[15] = sub_group_clustered_reduce_max((long)v * 100000007L, 2);
}
