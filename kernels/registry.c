// SPDX-License-Identifier: MIT
#include "registry.h"
#include <string.h>

const hp_kernel *const hp_kernel_registry[] = {
	&hp_kernel_ids,	   &hp_kernel_barrier_rotate, &hp_kernel_wg_count,
	&hp_kernel_sg_ops, &hp_kernel_copy,	      &hp_kernel_fill,
	&hp_kernel_empty,  &hp_kernel_tally,	      &hp_kernel_affine,
	&hp_kernel_add,	   &hp_kernel_spin,	      NULL,
};

const hp_kernel *hp_kernel_find(const char *name)
{
	for (unsigned i = 0; hp_kernel_registry[i]; i++)
		if (strcmp(hp_kernel_registry[i]->name, name) == 0)
			return hp_kernel_registry[i];
	return NULL;
}
