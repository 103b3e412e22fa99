// Kernels whose private arrays make large frames (cli.part.sh, cli_stack).
// `deep` has a barrier, so its work-items are fibers, and a 6 KiB array:
// the build gives it a fiber stack that holds the array (the default is
// 1 KiB, and a frame past it stepped over the guard below). `wide` has no
// barrier and a 20 KiB array: it runs on the hart's 32 KiB kernel stack
// (a 16 KiB frame once stepped over the guard below a 16 KiB one).
// `too_deep` has no barrier and a 40 KiB array: more than the kernel stack
// gives, so the build refuses it with the numbers (unless -DFITS_ONLY).
__kernel void deep(__global int *out, int n)
{
	volatile int a[1536];
	int l = (int)get_local_id(0);
	for (int i = 0; i < 1536; i++)
		a[i] = i + l;
	barrier(CLK_LOCAL_MEM_FENCE);
	int s = 0;
	for (int i = 0; i < 1536; i += 7)
		s += a[(i * 13 + n) % 1536];
	out[get_global_id(0)] = s;
}

__kernel void wide(__global int *out, int n)
{
	volatile int a[5120];
	int g = (int)get_global_id(0);
	for (int i = 0; i < 5120; i++)
		a[i] = i + g;
	int s = 0;
	for (int i = 0; i < 5120; i += 11)
		s += a[(i * 17 + n) % 5120];
	out[g] = s;
}

#ifndef FITS_ONLY
__kernel void too_deep(__global int *out, int n)
{
	volatile int a[10240];
	for (int i = 0; i < 10240; i++)
		a[i] = i;
	out[get_global_id(0)] = a[n % 10240];
}
#endif
