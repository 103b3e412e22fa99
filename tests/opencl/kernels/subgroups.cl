// Sub-group functions (OpenCL C 3.0 with __opencl_c_subgroups).
__kernel void sg(__global int *o)
{
	size_t g = get_global_id(0);
	int v = (int)g + 1;
	__global int *r = o + 6 * g;
	r[0] = get_sub_group_size();
	r[1] = get_sub_group_id();
	r[2] = get_sub_group_local_id();
	r[3] = sub_group_reduce_add(v);
	r[4] = sub_group_scan_inclusive_add(v);
	r[5] = sub_group_broadcast(v, 0);
}
