// SPDX-License-Identifier: MIT
/*
 * The first kernel: every work-item writes the square of its global id
 * and says so with hp_printf().
 *
 *   hartpool build examples/hello.c -o hello.hpk
 *   hartpool run --kernel-file hello.hpk hello --global 8 \
 *           --karg buf:u32:8 --print
 */
#include <hartpool/kernel.h>

struct hello_args {
	uint64_t out; /* uint32_t[global size] */
};

HP_KERNEL(hello, const hp_item *it, const void *args)
{
	const struct hello_args *a = args;
	size_t i = hp_global_id(it, 0);
	HP_PTR(uint32_t, a->out)[i] = (uint32_t)(i * i);
	hp_printf(it, "work-item %zu of group %zu: %zu squared is %zu\n", i,
		  hp_group_id(it, 0), i, i * i);
}
HP_REGISTER(hello, .args_size = sizeof(struct hello_args),
	    HP_BUFFERS(HP_BUF(struct hello_args, out, uint32_t, ITEMS, 0)));
