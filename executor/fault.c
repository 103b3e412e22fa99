// SPDX-License-Identifier: MIT
/*
 * Fault containment (docs/faults.md). While a hart runs kernel code it is
 * in "kernel context": exec_hart.kinst names the instance and kjmp the
 * point to resume at. A trap there (illegal instruction, access fault,
 * misaligned atomic, ebreak, the watchdog's timer) becomes the instance's
 * first fault with its cause, pc, address, hart and work-group; the groups
 * nobody claimed yet are cancelled; the hart longjmps back into the pool
 * and serves on. A trap outside kernel context is a firmware bug and still
 * stops the run (boot's report).
 */
#include "internal.h"
#include <hal/isolation.h>
#include <hal/timer.h>
#include <stdio.h>

static const char *cause_text(unsigned long cause)
{
	static const char *const names[] = {
		"instruction address misaligned",
		"instruction access fault",
		"illegal instruction",
		"breakpoint (ebreak)",
		"load address misaligned",
		"load access fault",
		"store/AMO address misaligned",
		"store/AMO access fault",
	};
	if (cause < sizeof(names) / sizeof(names[0]))
		return names[cause];
	return "exception";
}

#define CAUSE_IRQ (1UL << (8 * sizeof(long) - 1))

/* First fault of the instance wins; later ones on other harts only stop
 * their own hart's part. */
static void record(exec_hart *h, int code, unsigned long cause,
		   unsigned long pc, unsigned long tval)
{
	exec_instance *inst = h->kinst;
	int zero = 0;
	if (!hal_cas(&inst->fault, &zero, code))
		return;
	exec_fault_info *f = &inst->finfo;
	f->cause = cause;
	f->pc = pc;
	f->addr = tval;
	f->hart = hal_hart_idx();
	for (unsigned d = 0; d < 3; d++)
		f->group[d] = h->kgroup ? (uint32_t)h->kgroup->group_id[d] : 0;
	if (code == HP_TIMEOUT)
		snprintf(inst->fault_text, sizeof(inst->fault_text),
			 "ran past its time limit: stopped at pc 0x%lx on "
			 "hart %u in group (%u,%u,%u)",
			 pc, f->hart, (unsigned)f->group[0],
			 (unsigned)f->group[1], (unsigned)f->group[2]);
	else
		snprintf(inst->fault_text, sizeof(inst->fault_text),
			 "%s at pc 0x%lx, address 0x%lx, hart %u, group "
			 "(%u,%u,%u)",
			 cause_text(cause), pc, tval, f->hart,
			 (unsigned)f->group[0], (unsigned)f->group[1],
			 (unsigned)f->group[2]);
	inst->fault_detail = inst->fault_text;
}

static bool past_deadline(const exec_instance *inst)
{
	return inst->deadline && hal_timer_now() >= inst->deadline;
}

hal_jmp_buf *exec_kernel_trap(unsigned long cause, unsigned long pc,
			      unsigned long tval)
{
	if (!exec_harts)
		return NULL;
	exec_hart *h = exec_self();
	exec_instance *inst = h->kinst;
	if (!inst)
		return NULL;
	if (cause & CAUSE_IRQ) {
		/* Only the watchdog's timer is enabled in kernel context. */
		if ((cause & ~CAUSE_IRQ) != 7 || !past_deadline(inst))
			return NULL;
		record(h, HP_TIMEOUT, cause, pc, tval);
	} else {
		record(h, HP_KERNEL_FAULT, cause, pc, tval);
	}
	h->kinst = NULL;
	return &h->kjmp;
}

/* Ranges no kernel may touch (besides each hart's guards), and a
 * generation that makes every hart reprogram its PMP when they change. */
static hal_range iso_deny[2];
static unsigned iso_num, iso_gen = 1;

void exec_isolation_deny(uintptr_t base, uintptr_t size)
{
	if (iso_num < 2)
		iso_deny[iso_num++] = (hal_range){base, size};
	hal_fetch_add(&iso_gen, 1u);
}

static void iso_program(exec_hart *h, unsigned gen)
{
	hal_range r[4];
	unsigned n = 0;
	for (unsigned i = 0; i < iso_num; i++)
		r[n++] = iso_deny[i];
	uintptr_t lo, hi;
	hal_isolation_own_stack(&lo, &hi);
	if (lo != hi)
		r[n++] = (hal_range){lo, EXEC_GUARD_BYTES};
	if (h->arena_guard)
		r[n++] = (hal_range){h->arena_guard, EXEC_GUARD_BYTES};
	h->iso_ok = hal_isolation_setup(r, n);
	h->iso_gen = gen;
}

void exec_kernel_enter(exec_hart *h, exec_instance *inst)
{
	h->kgroup = NULL;
	h->kcur = inst;
	h->kinst = inst;
	if (inst->deadline)
		hal_watchdog_arm(inst->deadline);
	if (exec_dev.isolation) {
		unsigned gen = hal_load_acquire(&iso_gen);
		if (h->iso_gen != gen)
			iso_program(h, gen);
		if (h->iso_ok) {
			h->iso_on = true;
			hal_isolation_enter();
		}
	}
}

void exec_kernel_leave(exec_hart *h)
{
	/* Also after a trap, which cleared kinst and left MIE and MPRV
	 * off. */
	if (h->iso_on) {
		hal_isolation_leave();
		h->iso_on = false;
	}
	if (h->kcur->deadline)
		hal_watchdog_disarm();
	h->kinst = NULL;
	h->kcur = NULL;
}

size_t exec_kernel_cancel(exec_instance *inst)
{
	size_t total = inst->l->total_groups;
	size_t next = hal_load_relaxed(&inst->next);
	while (next < total)
		if (hal_cas(&inst->next, &next, total))
			return total - next;
	return 0;
}

bool exec_kernel_timed_out(void)
{
	exec_instance *inst = exec_self()->kinst;
	return inst && past_deadline(inst);
}

void exec_kernel_abort_timeout(void)
{
	exec_hart *h = exec_self();
	record(h, HP_TIMEOUT, CAUSE_IRQ | 7, 0, 0);
	h->kinst = NULL;
	hal_longjmp(&h->kjmp, 1);
}
