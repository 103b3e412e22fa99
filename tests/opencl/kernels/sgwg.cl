// Sub-group functions in work-group functions (host/clc/wgsg.c,
// kernels/opencl/sgw.c), run by tests/opencl/cli.part.sh (cli_sgwg_*)
// built both ways: as work-group functions and with
// -cl-hartpool-item-calls (fibers); both must give the same bytes.

#define N 40 /* results per work-item */

// Every collective the lowering takes, for each type, fed values that
// differ by item (negative ones too, so signed and unsigned min and max
// differ), and a predicate true in some lanes only.
__kernel void sg_all(__global long *o, __global const int *in)
{
	size_t g = get_global_id(0) + get_global_size(0) * get_global_id(1);
	__global long *r = o + N * g;
	int v = in[g];
	uint u = (uint)v;
	long l = (long)v * 1000003L;
	ulong m = (ulong)l;
	float f = (float)v * 0.25f;
#ifdef cl_khr_fp64
	double d = (double)v * 0.125;
#endif
	uint lane = get_sub_group_local_id();
	r[0] = get_sub_group_size();
	r[1] = get_sub_group_id();
	r[2] = lane;
	r[3] = get_num_sub_groups();
	r[4] = get_max_sub_group_size();
	r[5] = sub_group_reduce_add(v);
	r[6] = sub_group_reduce_min(v);
	r[7] = sub_group_reduce_max(v);
	r[8] = sub_group_scan_inclusive_add(v);
	r[9] = sub_group_scan_exclusive_min(v);
	r[10] = sub_group_scan_inclusive_max(v);
	r[11] = sub_group_reduce_min(u);
	r[12] = sub_group_scan_exclusive_add(u);
	r[13] = sub_group_reduce_max(l);
	r[14] = sub_group_scan_inclusive_add(l);
	r[15] = (long)sub_group_reduce_min(m);
	r[16] = (long)sub_group_scan_exclusive_max(m);
	r[17] = as_int(sub_group_reduce_add(f));
	r[18] = as_int(sub_group_scan_inclusive_add(f));
	r[19] = as_int(sub_group_reduce_max(f));
#ifdef cl_khr_fp64
	r[20] = as_long(sub_group_reduce_add(d));
	r[21] = as_long(sub_group_scan_exclusive_add(d));
#endif
	r[22] = sub_group_broadcast(v, 1);
	r[23] = sub_group_broadcast(l, 0);
	r[24] = as_int(sub_group_broadcast(f, 2));
	r[25] = sub_group_any(v > 40);
	r[26] = sub_group_all(v > -45);
	r[27] = sub_group_all(lane < 3);
	/* a value kept across two collectives, and one computed from a
	 * collective's result */
	int s = sub_group_reduce_add(v);
	int t = sub_group_scan_exclusive_add(s + v);
	r[28] = s * 3 + t;
	sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
	r[29] = sub_group_reduce_add((int)lane);
	r[30] = get_local_linear_id();
	r[31] = sub_group_reduce_min(m ^ 0x8000000000000000UL) == 0;
	for (int q = 32; q < N; q++)
		r[q] = sub_group_reduce_add(v * q) - sub_group_broadcast(v, 0);
}

// A collective under a branch that is uniform in each sub-group but not
// in the work-group: legal, and left to fibers (the build log says so).
__kernel void sg_div(__global int *o)
{
	size_t g = get_global_id(0);
	int v = (int)g + 1;
	if (get_sub_group_id() % 2)
		o[g] = sub_group_reduce_add(v);
	else
		o[g] = -sub_group_scan_inclusive_add(v);
}

// A region only the sub-groups' first items run (on V boards its loop
// goes over them alone, host/clc/wgregion.c): the sum by atomics, each
// sub-group's reduce and size in its first item's place, the others' left
// as they were (the buffer's initial bytes); then a second collective in
// a region that is not of that kind.
__kernel void sg_first(__global int *sum, __global int *o,
		       __global const int *in)
{
	size_t g = get_global_linear_id();
	int v = sub_group_reduce_add(in[g]);
	if (get_sub_group_local_id() == 0) {
		atomic_add(sum, v);
		o[2 * g] = v;
		o[2 * g + 1] = (int)get_sub_group_size();
	}
	int m = sub_group_reduce_max(in[g]);
	if (get_sub_group_local_id() == 1)
		o[2 * g] = m;
}

// Work-group collectives, lowered the same way over the whole group: every
// fold for the 32- and 64-bit types, broadcasts by 1-, 2- and 3-D local
// ids, any and all; 16 results per work-item.
__kernel void wg_all(__global long *o, __global const int *in)
{
	size_t g = get_global_id(0) +
		   get_global_size(0) *
			   (get_global_id(1) + get_global_size(1) * get_global_id(2));
	__global long *r = o + 16 * g;
	int v = in[g];
	long l = (long)v * 1000003L;
	float f = (float)v * 0.25f;
	r[0] = work_group_reduce_add(v);
	r[1] = work_group_reduce_min((uint)v);
	r[2] = work_group_scan_inclusive_max(v);
	r[3] = work_group_scan_exclusive_add(l);
	r[4] = (long)work_group_reduce_max((ulong)l);
	r[5] = as_int(work_group_scan_inclusive_add(f));
	r[6] = as_int(work_group_reduce_min(f));
	r[7] = work_group_broadcast(v, 1);
	r[8] = work_group_broadcast(l, 1, 0);
	r[9] = work_group_broadcast(v, 1, get_local_size(1) - 1, 0);
	r[10] = work_group_any(v > 40) + 2 * work_group_all(v > -45);
	r[11] = work_group_scan_exclusive_min(v) + sub_group_reduce_add(v);
#ifdef cl_khr_fp64
	r[12] = as_long(work_group_reduce_add((double)v * 0.125));
#endif
	r[13] = get_local_linear_id();
	r[14] = work_group_reduce_add(work_group_scan_inclusive_add(v));
	r[15] = work_group_all(1);
}

// Async copies in a work-group function: a group's 3m ints (m its items)
// into local memory whole and every third into another array, each item
// reading others' elements after the wait, and back out whole and strided
// (o: 4 x 3m' ints per group, m' the enqueued local size).
__kernel void wg_async(__global const int *g, __global int *o,
		       __local int *l, __local int *ls)
{
	size_t m = get_local_size(0) * get_local_size(1);
	size_t full = 3 * get_enqueued_local_size(0) * get_enqueued_local_size(1);
	size_t grp = get_group_id(1) * get_num_groups(0) + get_group_id(0);
	size_t n = 3 * m, lid = get_local_linear_id();
	event_t e = async_work_group_copy(l, g + grp * full, n, 0);
	e = async_work_group_strided_copy(ls, g + grp * full + 1, m, 3, e);
	wait_group_events(1, &e);
	int v = l[(lid * 7 + 1) % n] + 3 * ls[(lid + 1) % m];
	barrier(CLK_LOCAL_MEM_FENCE);
	l[lid] = v;
	barrier(CLK_LOCAL_MEM_FENCE);
	event_t e2[2];
	__global int *d = o + grp * 4 * full;
	e2[0] = async_work_group_copy(d, l, n, 0);
	e2[1] = async_work_group_strided_copy(d + n, ls, m, 2, 0);
	wait_group_events(2, e2);
}
