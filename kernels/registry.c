// SPDX-License-Identifier: MIT
#include "registry.h"
#include <string.h>

const hp_kernel *const hp_kernel_registry[] = {
	&hp_kernel_ids,
	&hp_kernel_barrier_rotate,
	&hp_kernel_wg_count,
	&hp_kernel_sg_ops,
	NULL,
};

const hp_kernel *hp_kernel_find(const char *name)
{
	for (unsigned i = 0; hp_kernel_registry[i]; i++)
		if (strcmp(hp_kernel_registry[i]->name, name) == 0)
			return hp_kernel_registry[i];
	return NULL;
}
