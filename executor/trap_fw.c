// SPDX-License-Identifier: MIT
/* Firmware glue between boot's trap handler and the executor's fault
 * containment (fault.c): a trap in kernel code resumes in the pool. */
#include "exec.h"
#include <boot/app.h>
#include <hal/jump.h>

static void resume(void *jb, int v)
{
	hal_longjmp(jb, v);
}

bool boot_recover_hook(boot_trap_frame *f, unsigned long cause,
		       unsigned long tval)
{
	hal_jmp_buf *jb = exec_kernel_trap(cause, f->x[0], tval);
	if (!jb)
		return false;
	boot_trap_redirect(f, resume, jb, 1);
	return true;
}
