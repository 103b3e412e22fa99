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
#include <hal/heap.h>
#include <hal/icache.h>
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
		"environment call (ecall) from U-mode",
		"environment call (ecall) from S-mode",
		"exception 10",
		"environment call (ecall) from M-mode",
		"instruction page fault",
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
	/* The running group: a pointer kernel code keeps (in U-mode it is
	 * on the kernel stack, so kernel code could have changed it). */
	const hp_group *g = h->u->group;
	if (g && h->iso_on && !hal_user_heap_has((uintptr_t)g, sizeof(*g)))
		g = NULL;
	for (unsigned d = 0; d < 3; d++)
		f->group[d] = g ? (uint32_t)g->group_id[d] : 0;
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

/* Out of kernel context after a recorded fault: the recovery point, where
 * the hart resumes in M-mode. */
static hal_jmp_buf *stop(exec_hart *h)
{
	h->kinst = NULL;
	h->u->user = false;
	return &h->kjmp;
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
	return stop(h);
}

hal_jmp_buf *exec_kernel_timeout_check(unsigned long pc)
{
	exec_hart *h = exec_self();
	exec_instance *inst = h->kinst;
	if (!inst || !past_deadline(inst))
		return NULL;
	record(h, HP_TIMEOUT, CAUSE_IRQ | 7, pc, 0);
	return stop(h);
}

/* The device buffers kernels may use, and a generation that makes every
 * hart reprogram its PMP when they change. */
static hal_range iso_allow;
static unsigned iso_gen = 1;

void exec_isolation_allow(uintptr_t base, uintptr_t size)
{
	iso_allow = (hal_range){base, size};
	hal_fetch_add(&iso_gen, 1u);
}

static void iso_program(exec_hart *h, unsigned gen)
{
	hal_range r[2];
	unsigned n = 0;
	r[n++] = (hal_range){(uintptr_t)h->ustack, EXEC_GUARD_BYTES};
	if (h->arena_guard)
		r[n++] = (hal_range){h->arena_guard, EXEC_GUARD_BYTES};
	h->iso_ok = hal_isolation_setup(r, n, &iso_allow, iso_allow.size != 0);
	h->iso_gen = gen;
}

/* The hart's kernel stack, with a no-access guard below it. */
static bool ustack_ready(exec_hart *h)
{
	if (!h->ustack) {
		h->ustack = hal_heap_alloc(EXEC_GUARD_BYTES + EXEC_USTACK_BYTES,
					   EXEC_GUARD_BYTES);
		h->iso_gen = 0; /* the PMP needs the guard */
	}
	return h->ustack != NULL;
}

/* Bumped after a kernel object's code was written (exec_code_changed). */
static unsigned code_gen;

void exec_code_changed(void)
{
	hal_fence();
	hal_fetch_add(&code_gen, 1u);
}

exec_ucall *exec_kernel_enter(exec_hart *h, exec_instance *inst)
{
	exec_ucall *u = h->u;
	/* Code loaded since this hart last looked: make it fetchable here
	 * (the instance was published after the load, so the acquire sees
	 * the new generation whenever the kernel is new code). */
	unsigned cg = hal_load_acquire(&code_gen);
	if (h->code_seen != cg) {
		hal_icache_sync();
		h->code_seen = cg;
	}
	h->kcur = inst;
	h->kinst = inst;
	u->kv = inst->kv;
	u->group = NULL;
	u->wg = NULL;
	if (inst->k->uses_barriers && exec_fibers_prepare(h)) {
		u->wg = h->wg;
		u->arena = h->fiber_arena;
		u->stack = (size_t)exec_fiber_stack_bytes(&exec_dev, inst->k) *
			   exec_dev.fiber_stack_scale;
	}
	bool user = false;
	if (exec_dev.isolation && ustack_ready(h)) {
		unsigned gen = hal_load_acquire(&iso_gen);
		if (h->iso_gen != gen)
			iso_program(h, gen);
		user = h->iso_ok;
	}
	h->iso_on = user;
	u->user = user;
	h->armed = inst->deadline || user;
	return u;
}

void exec_kernel_run(exec_hart *h)
{
	/* Armed only now that the recovery point exists. In U-mode every
	 * interrupt but the watchdog's is masked (an enabled one would
	 * trap there). */
	if (h->armed)
		hal_watchdog_arm(h->kcur->deadline);
	/* h->iso_on, not u->user: kernel code on other harts can write
	 * every exec_ucall. */
	if (h->iso_on)
		hal_user_call(exec_ucall_main, h->u,
			      h->ustack + EXEC_GUARD_BYTES + EXEC_USTACK_BYTES);
	else
		exec_ucall_main(h->u);
}

/* A fault kernel code recorded in its kview: the code must be one the
 * executor's own checks use, the detail text must be firmware rodata. */
static void take_kv_fault(exec_instance *inst, bool user)
{
	exec_kview *kv = inst->kv;
	int code = hal_load_relaxed(&kv->fault);
	if (!code)
		return;
	/* The hart that recorded it may not have stored the text yet: it
	 * reports the fault itself when it leaves. */
	const char *detail = hal_load_acquire(&kv->detail);
	if (!detail)
		return;
	if (code != HP_OUT_OF_RESOURCES)
		code = HP_KERNEL_FAULT;
	if (user && !hal_rodata_has((uintptr_t)detail))
		detail = "a kernel fault (its detail text was overwritten)";
	exec_fault(inst, code, detail);
}

void exec_kernel_leave(exec_hart *h)
{
	/* Also after a trap, which cleared kinst and left MIE off; the hart
	 * is in M-mode again either way. */
	bool user = h->iso_on;
	h->u->user = false;
	h->iso_on = false;
	if (h->armed) {
		hal_watchdog_disarm();
		h->armed = false;
	}
	take_kv_fault(h->kcur, user);
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
	hal_longjmp(stop(h), 1);
}
