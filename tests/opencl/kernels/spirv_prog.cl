// SPDX-License-Identifier: MIT
/* Kernels for the SPIR-V program test (tests/opencl/programs/spirv.c),
 * made SPIR-V by clang-15 and llvm-spirv-15 (tests/opencl/icd.part.sh,
 * spirv_make): a generic-pointer helper, __local memory and a barrier,
 * atomics, built-ins the library takes in the RISC-V convention (float4 as
 * an i128, float8 through memory), narrow integer and struct arguments, a
 * program-scope counter, an SVM argument. */
typedef struct {
	int add;
	float scale;
	char tag;
} params;

/* a generic pointer: __local and __global ones passed to it */
int bump(int *p)
{
	return *p + 1;
}

kernel void spv_main(global int *out, global const float *in, local int *tmp,
		     int n)
{
	size_t i = get_global_id(0), l = get_local_id(0);
	tmp[l] = (int)in[i];
	barrier(CLK_LOCAL_MEM_FENCE);
	size_t r = get_local_size(0) - 1 - l; /* the neighbour's value */
	out[i] = bump(&tmp[r]) + n + (int)sqrt((float)(i * i));
	atomic_add(out + get_global_size(0), 1);
	out[get_global_size(0) + 1] = bump(out + get_global_size(0) + 2);
}

kernel void spv_vec(global float *out, global const float4 *a,
		    global const float8 *b, char c, short s, params p)
{
	size_t i = get_global_id(0);
	float4 m = fmin(a[i], (float4)(2.0f));
	float8 e = fmax(b[i], (float8)(1.5f));
	out[i] = dot(m, (float4)(1.0f)) + e.s0 + e.s7 + (float)c + (float)s +
		 (float)p.add * p.scale + (float)p.tag;
}

/* a program-scope counter: kept from one launch to the next */
global int spv_count = 100;

kernel void spv_counter(global int *o)
{
	o[get_global_id(0)] = atomic_inc(&spv_count);
}

/* an SVM pointer argument (clSetKernelArgSVMPointer), through the generic
 * helper */
kernel void spv_svm(global int *data)
{
	size_t i = get_global_id(0);
	data[i] = bump(data + i) * 2;
}
