// SPDX-License-Identifier: MIT
#include "registry.h"
#include <string.h>

#define HP_LIB_KERNEL_ENTRY_(k) &hp_kernel_##k

const hp_kernel *const hp_kernel_registry[] = {
	&hp_kernel_ids,
	&hp_kernel_barrier_rotate,
	&hp_kernel_wg_count,
	&hp_kernel_sg_ops,
	&hp_kernel_copy,
	&hp_kernel_fill,
	&hp_kernel_empty,
	&hp_kernel_hello,
	&hp_kernel_tally,
	&hp_kernel_affine,
	&hp_kernel_add,
	&hp_kernel_spin,
	&hp_kernel_churn,
	&hp_kernel_gate,
	&hp_kernel_fpu_harts,
#if defined(__riscv_vector)
	&hp_kernel_vregs, /* boards with V (kernels/vregs.c) */
#endif
	/* The kernel library, in kernels/kernels.mk's order. */
	HP_LIB_KERNELS(HP_LIB_KERNEL_ENTRY_),
#if defined(__riscv)
	/* Kernels that fault on purpose (the fault-containment tests); not
	 * in the host build, where a fault is the test process's own. */
	&hp_kernel_fault_illegal,
	&hp_kernel_fault_load,
	&hp_kernel_fault_store,
	&hp_kernel_fault_misaligned,
	&hp_kernel_fault_ebreak,
	&hp_kernel_fault_stack,
	&hp_kernel_fault_kstack,
	&hp_kernel_fault_csr,
	&hp_kernel_fault_data,
	&hp_kernel_fault_mmio,
	&hp_kernel_fault_exec,
	&hp_kernel_fault_ecall,
	&hp_kernel_hang,
	&hp_kernel_poke,
	&hp_kernel_lurk,
#endif
	NULL,
};

const hp_kernel *hp_kernel_find(const char *name)
{
	for (unsigned i = 0; hp_kernel_registry[i]; i++)
		if (strcmp(hp_kernel_registry[i]->name, name) == 0)
			return hp_kernel_registry[i];
	return NULL;
}
