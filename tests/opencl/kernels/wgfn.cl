// Work-group functions (host/clc/wgfn.c), run by tests/opencl/cli.part.sh
// (cli_wgfn) built both ways: as work-group functions and with
// -cl-hartpool-item-calls (fibers); both must give the same output, and
// the model's (check_cli.py wg3).

// Over a 3-D range with remainder groups: each round every item puts its
// value in local memory, a barrier, adds its neighbour's, flips bits under
// a branch that differs between items, another barrier. Values live
// across the barriers: the item's own (acc), a private array, the round.
__kernel void wg3(__global uint *o, uint rounds)
{
	__local uint sh[64];
	uint lin = (uint)get_local_linear_id();
	uint n = (uint)(get_local_size(0) * get_local_size(1) *
			get_local_size(2));
	uint priv[4];
	uint acc = (uint)(get_global_id(0) + 7 * get_global_id(1) +
			  13 * get_global_id(2));
	for (uint r = 0; r < rounds; r++) {
		sh[lin] = acc;
		priv[r & 3] = acc;
		barrier(CLK_LOCAL_MEM_FENCE);
		acc += sh[(lin + 1 + r) % n];
		if (get_local_id(0) & 1)
			acc ^= r;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	size_t g = get_global_linear_id();
	o[2 * g] = acc + priv[(rounds - 1) & 3];
	o[2 * g + 1] = lin;
}

// A barrier only some items of a group reach: HP_KERNEL_FAULT.
__kernel void diverge(__global uint *o)
{
	if (get_local_id(0) < 2)
		barrier(CLK_LOCAL_MEM_FENCE);
	o[get_global_id(0)] = 1;
}
