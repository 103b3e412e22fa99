// SPDX-License-Identifier: MIT
/*
 * y = a * x + y over n floats, any NDRange (items past n do nothing).
 *
 *   hartpool build examples/saxpy.c -o saxpy.hpk
 *   hartpool run --kernel-file saxpy.hpk saxpy --global 1000 \
 *           --karg buf:f32:1000:iota --karg buf:f32:1000:1 \
 *           --karg f32:2.5 --karg u32:1000 --print 8
 */
#include <hartpool/kernel.h>

struct saxpy_args {
	uint64_t x, y; /* float[n] */
	float a;
	uint32_t n;
};

HP_KERNEL(saxpy, const hp_item *it, const void *args)
{
	const struct saxpy_args *p = args;
	size_t i = hp_global_id(it, 0);
	if (i < p->n) {
		const float *x = HP_PTR(const float, p->x);
		float *y = HP_PTR(float, p->y);
		y[i] = p->a * x[i] + y[i];
	}
}
HP_REGISTER(saxpy, .args_size = sizeof(struct saxpy_args),
	    HP_BUFFERS(HP_BUF(struct saxpy_args, x, float, ITEMS, 0),
		       HP_BUF(struct saxpy_args, y, float, ITEMS, 0)));
