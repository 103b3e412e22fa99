// The row loop of barrier-free kernels (host/clc/rowloop.c), run by
// tests/opencl/cli.part.sh (cli_rowloop, OpenCL C 3.0) built both ways: with the loop
// and with -cl-hartpool-item-calls (a call per work-item); both must give
// the same output, and the ids the OpenCL model's.

// One record of 12 values per work-item, at its global linear id, over a
// 3-D range with an offset and remainder groups in every dimension. A
// dimension chosen at run time reads the ids through a variable argument;
// a private array indexed at run time is an alloca the loop keeps per item;
// some items return early.
__kernel void ids3(__global uint *o, uint pick)
{
	size_t lin = get_global_linear_id();
	__global uint *r = o + 12 * lin;
	uint priv[6];
	for (uint d = 0; d < 3; d++) {
		priv[d] = get_global_id(d);
		priv[3 + d] = get_local_id(d);
	}
	uint d = (uint)(get_local_linear_id() + pick) % 3;
	r[0] = priv[0];
	r[1] = priv[1];
	r[2] = priv[2];
	r[3] = priv[3] + 100 * priv[4] + 10000 * priv[5];
	r[4] = get_group_id(0) + 100 * get_group_id(1) + 10000 * get_group_id(2);
	r[5] = get_local_size(0) + 100 * get_local_size(1) +
	       10000 * get_local_size(2);
	r[6] = get_local_linear_id();
	r[7] = lin;
	r[8] = d;
	r[9] = get_global_id(d);
	r[10] = get_local_id(d);
	if (priv[3] == 1)
		return;
	r[11] = priv[(d + pick) % 6] + 1;
}
