// SPDX-License-Identifier: MIT
/*
 * One hart (index 2, or the last one with fewer harts) executes an illegal
 * instruction. The trap hook checks what boot is about to report (cause,
 * epc at the instruction, the hart) and says so; then boot's report and the
 * run's exit status HAL_EXIT_TRAP are checked by the runner.
 */
#include "tt.h"
#include <boot/app.h>
#include <hal/csr.h>

extern char illegal_insn[];
static unsigned culprit;

bool app_trap_hook(boot_trap_frame *frame, unsigned long cause,
		   unsigned long tval)
{
	(void)tval;
	bool ok = cause == CAUSE_ILLEGAL_INSTRUCTION &&
		  frame->epc == (unsigned long)illegal_insn &&
		  hal_hart_idx() == culprit;
	hal_printf("illegal: trap hook saw cause %lu at epc %p on hart %u: "
		   "%s\n",
		   cause, (void *)frame->epc, hal_hart_idx(),
		   ok ? "as expected" : "WRONG");
	return false; /* let boot report it and stop the run */
}

int app_main(void)
{
	unsigned n = hal_hart_num();
	culprit = n > 2 ? 2 : n - 1;
	if (hal_hart_idx() == culprit) {
		hal_printf("illegal: hart %u executes an illegal instruction "
			   "at %p\n",
			   culprit, (void *)illegal_insn);
		/* Writing the read-only mhartid is an illegal instruction. */
		__asm__ volatile(".globl illegal_insn\n"
				 "illegal_insn: csrw mhartid, zero" ::
					 : "memory");
		hal_printf("illegal: FAIL: execution went on\n");
		return 1;
	}
	return 0;
}
