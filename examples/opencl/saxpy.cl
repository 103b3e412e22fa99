// y = a * x + y, and each work-group's sum of the new y through local
// memory: an OpenCL C 1.2 kernel file, nothing hartpool-specific.
__kernel void saxpy(float a, __global const float *x, __global float *y,
		    __global float *group_sums, __local float *scratch)
{
	size_t i = get_global_id(0), l = get_local_id(0);
	float v = a * x[i] + y[i];
	y[i] = v;
	scratch[l] = v;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (l < s)
			scratch[l] += scratch[l + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0)
		group_sums[get_group_id(0)] = scratch[0];
}
