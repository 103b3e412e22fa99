// SPDX-License-Identifier: MIT
/* hello: every work-item says who it is with hp_printf() (the printf
 * tests; `hartpool run hello` prints the lines). */
#include <hartpool/kernel.h>

HP_KERNEL(hello, const hp_item *it, const void *args)
{
	(void)args;
	size_t g = hp_global_id(it, 0);
	hp_printf(it,
		  "hello from work-item %zu (group %zu, local %zu): %zu "
		  "squared is %zu\n",
		  g, hp_group_id(it, 0), hp_local_id(it, 0), g, g * g);
}
HP_REGISTER(hello);
