// SPDX-License-Identifier: MIT
/* A SPIR-V module that imports a function (Linkage Import): compiled with
 * clCompileProgram and linked with an OpenCL C object that defines it
 * (tests/opencl/programs/spirv.c, "link"). */
int twice_plus(int x);

kernel void spv_link(global int *o)
{
	int i = (int)get_global_id(0);
	o[i] = twice_plus(i);
}
