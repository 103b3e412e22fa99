// Row loops across work-groups (host/clc/rowloop.c, hp_kernel.row_spans_groups),
// run by tests/opencl/cli.part.sh (cli_rowspan_v) built both ways: with the
// loop and with -cl-hartpool-item-calls; both must give the same output.
// On a V board the first two may run several work-groups in one call, the
// last two must not (they read a group id or __local memory).

// Per work-item, added at its index from the offset: the ids and sizes
// that stay right when one call runs many groups (a remainder group
// included); an item run twice, or one outside the range, shows.
__kernel void span_ids(__global uint *o)
{
	size_t i = get_global_id(0) - get_global_offset(0);
	size_t j = get_global_id(1) - get_global_offset(1);
	atomic_add(&o[j * get_global_size(0) + i],
		(uint)(get_global_id(0) + 7 * get_local_size(0) +
		       1000 * get_num_groups(0) + 100000 * get_global_id(1) +
		       1000000 * (get_global_linear_id() % 7)));
}

// A loop the vectoriser takes: lanes across group boundaries.
__kernel void span_axpy(__global float *y, __global const float *x, float a)
{
	size_t i = get_global_id(0);
	y[i] = a * x[i] + y[i];
}

__kernel void nospan_group(__global uint *o)
{
	o[get_global_id(0)] = (uint)(get_group_id(0) * 1000 + get_global_id(0));
}

__kernel void nospan_local(__global uint *o)
{
	__local uint t[256];
	volatile __local uint *v = t; /* kept: the compiler may not fold it */
	size_t l = get_global_id(0) % 256;
	v[l] = (uint)get_global_id(0) * 3u;
	o[get_global_id(0)] = v[l] + 1u;
}
