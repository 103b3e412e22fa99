// The OpenCL C kernels of bench/opencl.sh, written as an OpenCL user
// writes them, with the argument lists of the built-in kernels of the same
// names (include/hartpool/kernels/lib.h), so `hartpool run NAME
// --kernel-file` runs them on the same data and checks them the same way.

kernel void vadd(global const float *a, global const float *b,
		 global float *c, ulong n)
{
	size_t i = get_global_id(0);
	c[i] = a[i] + b[i];
}

kernel void saxpy(global const float *x, global float *y, ulong n, float a,
		  uint reserved)
{
	size_t i = get_global_id(0);
	y[i] = a * x[i] + y[i];
}

kernel void sgemm_naive(global const float *A, global const float *B,
			global float *C, ulong a_len, ulong b_len,
			ulong c_len, ulong m, ulong n, ulong k)
{
	size_t j = get_global_id(0), i = get_global_id(1);
	if (i >= m || j >= n)
		return;
	float acc = 0.0f;
	for (size_t q = 0; q < k; q++)
		acc += A[i * k + q] * B[q * n + j];
	C[i * n + j] = acc;
}
