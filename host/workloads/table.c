// SPDX-License-Identifier: MIT
/*
 * The table of every workload (workloads.h), in `hartpool run --list`
 * order, and the lookup by kernel name.
 */
#include "workloads.h"
#include <string.h>

#define HP_LIB_WORKLOAD_ENTRY_(w) &workload_##w

const workload *const workloads[] = {
	&workload_empty,
	&workload_hello,
	&workload_ids,
	&workload_wg_count,
	&workload_barrier_rotate,
	&workload_sg_ops,
	&workload_copy,
	&workload_fill,
	&workload_tally,
	&workload_affine,
	&workload_add,
	&workload_spin,
	&workload_churn,
	&workload_gate,
	/* The kernel library's (kernels/<name>/workload.c), in
	 * kernels/kernels.mk's order. */
	HP_LIB_WORKLOADS(HP_LIB_WORKLOAD_ENTRY_),
	&workload_fault_illegal,
	&workload_fault_load,
	&workload_fault_store,
	&workload_fault_misaligned,
	&workload_fault_ebreak,
	&workload_fault_stack,
	&workload_fault_kstack,
	&workload_fault_csr,
	&workload_fault_data,
	&workload_fault_mmio,
	&workload_fault_exec,
	&workload_fault_ecall,
	&workload_hang,
	NULL,
};

const workload *workload_find(const char *name)
{
	for (unsigned i = 0; workloads[i]; i++)
		if (strcmp(workloads[i]->name, name) == 0)
			return workloads[i];
	return NULL;
}
