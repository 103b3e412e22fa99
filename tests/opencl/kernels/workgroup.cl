// Work-group collective functions (OpenCL C 3.0, __opencl_c_work_group_collective_functions).
__kernel void wg(__global int *o, __global float *f)
{
	size_t i = get_global_id(0);
	int v = (int)get_local_id(0) + 1;
	__global int *r = o + 8 * i;
	r[0] = work_group_reduce_add(v);
	r[1] = work_group_scan_inclusive_add(v);
	r[2] = work_group_scan_exclusive_add(v);
	r[3] = work_group_reduce_max(v);
	r[4] = work_group_scan_exclusive_min(v);
	r[5] = work_group_broadcast(v, 3);
	r[6] = work_group_all(v > 0) + 2 * work_group_any(v == 5);
	r[7] = (int)(work_group_reduce_add((long)v * 1000000000L) / 1000000000L);
	f[i] = work_group_scan_inclusive_add((float)v * 0.5f);
}
