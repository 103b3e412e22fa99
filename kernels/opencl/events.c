// SPDX-License-Identifier: MIT
/*
 * wait_group_events as kernels call it: clang's built-in declaration
 * (-fdeclare-opencl-builtins) takes a __generic event_t * (address space 4
 * under -ffake-address-space-map) even without the generic address space
 * feature, which OpenCL C cannot name then; so it is defined here in C.
 */
void _Z7barrierj(unsigned flags);

/* CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE */
#define HPCL_FENCE_BOTH 3u

void _Z17wait_group_eventsiPU9CLgeneric9ocl_event(
	int n, __attribute__((address_space(4))) void *ev);
void _Z17wait_group_eventsiPU9CLgeneric9ocl_event(
	int n, __attribute__((address_space(4))) void *ev)
{
	(void)n;
	(void)ev;
	_Z7barrierj(HPCL_FENCE_BOTH);
}
