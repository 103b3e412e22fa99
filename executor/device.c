// SPDX-License-Identifier: MIT
/*
 * The device's description (exec_dev): the limits every layer of the core
 * checks against, and what the mailbox reports to the host (INFO). The
 * lowest layer of the core: it depends on nothing else here.
 */
#include "exec.h"

#ifndef BOARD_SUB_GROUP_SIZE
#define BOARD_SUB_GROUP_SIZE 8
#endif

exec_device exec_dev;

void exec_device_init(unsigned harts)
{
	exec_dev = (exec_device){
		.harts = harts,
		.address_bits = 8 * sizeof(size_t),
		.max_work_group_size = 256,
		.max_work_item_sizes = {256, 256, 64},
		.local_mem_size = 32 * 1024,
		.default_sub_group_size = BOARD_SUB_GROUP_SIZE,
		.sub_group_sizes = 0x7f, /* 1, 2, 4, ..., 64 */
		.fiber_stack_default = 1024,
		.fiber_arena_size = 256 * 1024,
		.fiber_stack_scale = 1,
		.isolation = true,
	};
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	exec_dev.fiber_stack_scale = 16; /* redzones and shadow frames */
#endif
}
