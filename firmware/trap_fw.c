// SPDX-License-Identifier: MIT
/* Firmware glue between boot's trap handler and the executor's fault
 * containment (executor/kctx.c): boot_recover_hook, the first hook boot
 * calls on every trap (boot/app.h). A trap in kernel code resumes in the
 * pool, the ecalls of kernel code in U-mode (hal/isolation.h) are
 * served, and an IPI there stops a cancelled kernel. */
#include <boot/app.h>
#include <executor/exec.h>
#include <hal/csr.h>
#include <hal/isolation.h>
#include <hal/jump.h>
#include <stddef.h>

static void resume(void *jb, int v)
{
	hal_longjmp(jb, v);
}

static void user_return(void *unused, int v)
{
	(void)unused;
	(void)v;
	hal_user_return();
}

/* An ecall from U-mode: true if served (the frame resumes past it or has
 * been redirected). */
static bool user_ecall(boot_trap_frame *f)
{
	hal_jmp_buf *jb;
	switch (f->a7) {
	case HAL_SYS_EXIT:
		boot_trap_redirect(f, user_return, NULL, 0);
		return true;
	case HAL_SYS_TEAM_ARRIVE:
	case HAL_SYS_TEAM_WAIT:
	case HAL_SYS_TEAM_LEAVE:
		jb = exec_team_ecall((unsigned)f->a7, &f->epc, f->status);
		if (jb)
			boot_trap_redirect(f, resume, jb, 1);
		else
			f->epc += 4;
		return true;
	}
	return false; /* an unknown service: a kernel fault */
}

/* The interrupted context as exec_kernel_tick() takes it (pc, x1-x31),
 * if it is U-mode kernel code. */
_Static_assert(offsetof(boot_trap_frame, t6) == 31 * sizeof(unsigned long),
	       "the frame is pc, x1-x31");
static const unsigned long *user_regs(const boot_trap_frame *f)
{
	return f->status & SR_PP ? NULL : &f->epc;
}

/* An interrupt that did not end the kernel: its time slice (or an IPI)
 * may have the pool take its context. */
static void tick(boot_trap_frame *f)
{
	hal_jmp_buf *jb = exec_kernel_tick(user_regs(f), f->status);
	if (jb)
		boot_trap_redirect(f, resume, jb, EXEC_PREEMPTED);
}

bool boot_recover_hook(boot_trap_frame *f, unsigned long cause,
		       unsigned long tval)
{
	if (cause == CAUSE_USER_ECALL && user_ecall(f))
		return true;
	/* An IPI in kernel code (enabled there so a cancel can stop it): the
	 * kernel's end, or back to it (perhaps later: a time slice). */
	if (cause == (CAUSE_INTERRUPT | CAUSE_SOFT_IRQ)) {
		hal_jmp_buf *jb = exec_kernel_ipi();
		if (jb)
			boot_trap_redirect(f, resume, jb, 1);
		else
			tick(f);
		return true;
	}
	hal_jmp_buf *jb = exec_kernel_trap(cause, f->epc, tval);
	if (jb) {
		boot_trap_redirect(f, resume, jb, 1);
		return true;
	}
	/* The timer before the kernel's deadline: its time slice. */
	if (cause == (CAUSE_INTERRUPT | CAUSE_TIMER_IRQ) &&
	    exec_kernel_busy()) {
		tick(f);
		return true;
	}
	return false;
}
