// OpenCL C 3.0 atomics (__opencl_c_atomic_order_seq_cst,
// __opencl_c_atomic_scope_device): every work-item adds itself to a global
// counter and a per-group local one, and takes the maximum of its id.
__kernel void atomics20(__global atomic_int *g, __global int *per_group)
{
	__local atomic_int here;
	if (get_local_id(0) == 0)
		atomic_store_explicit(&here, 0, memory_order_relaxed,
				      memory_scope_work_group);
	barrier(CLK_LOCAL_MEM_FENCE);
	atomic_fetch_add(&g[0], 1);
	atomic_fetch_max(&g[1], (int)get_global_id(0));
	atomic_fetch_add_explicit(&here, 1, memory_order_relaxed);
	int e = 0;
	atomic_compare_exchange_strong(&g[2], &e, (int)get_global_id(0) + 1);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (get_local_id(0) == 0)
		per_group[get_group_id(0)] = atomic_load(&here);
}
