/* SPDX-License-Identifier: MIT */
/*
 * Kernel context (kctx.c): the firmware side of running kernel code on a
 * hart. Entering sets up the icache, the isolation (PMP) and the watchdog;
 * a trap while inside becomes the instance's first fault and resumes at
 * the hart's recovery point; leaving undoes it all and picks up a fault
 * kernel code recorded in its kview.
 *
 * Callers: the pool (enter/run/leave around every chunk) and work-group
 * execution (time limits inside team-barrier waits, the guard below its
 * fiber arena). kctx itself calls nothing of the core above kview.h.
 */
#ifndef EXECUTOR_KCTX_H
#define EXECUTOR_KCTX_H

#include "kview.h"
#include <hal/isolation.h>
#include <hal/jump.h>

/* What kernel context records for one instance (the pool embeds it in the
 * instance; it outlives the chunk that faulted). */
typedef struct exec_krec {
	int fault;	      /* first error of a work-group, 0 if none */
	const char *detail;   /* its text, or NULL */
	exec_fault_info info; /* a trapped fault: where */
	char text[96];	      /* detail of a trapped fault */
	uint64_t deadline;    /* timer ticks; 0: no time limit */
	exec_kview *kv;	      /* what kernel code of the instance sees */
	unsigned domain;      /* its isolation domain (exec_cmd.domain) */
} exec_krec;

/* Per-hart state, allocated once for `harts` harts. */
void exec_kctx_init(unsigned harts);
/* Hart @p idx's kernel stack is @p s (in its first context, park.c). */
void exec_kctx_stack_set(unsigned idx, char *s);

/* Enter kernel context on the calling hart for instance record `r`, to run
 * `u` (prepared by the caller). Returns the hart's recovery point, which
 * also names the hart's kernel context for run and leave: the caller sets
 * it with hal_setjmp, then calls exec_kctx_run(). */
hal_jmp_buf *exec_kctx_enter(exec_krec *r, exec_ucall *u);
/* Run entry(u): in U-mode on the hart's kernel stack, from where it comes
 * back at the recovery point with HAL_USER_RETURNED (a trap: 1; taken by
 * the pool: EXEC_PREEMPTED), or here (it returns). */
void exec_kctx_run(hal_jmp_buf *at, void (*entry)(void *));
/* Out of kernel context (also after a trap); a fault kernel code left in
 * the kview becomes the record's. */
void exec_kctx_leave(hal_jmp_buf *at);

/* For waits inside kernel code (team barriers): true once the running
 * kernel must stop (its deadline passed, or its command was cancelled or
 * faulted elsewhere); leaving for the recovery point (HP_TIMEOUT recorded
 * if it was the deadline). */
bool exec_kctx_should_stop(void);
uint64_t exec_kctx_deadline(void); /* 0: none (or not in a kernel) */
__attribute__((noreturn)) void exec_kctx_abort(void);

/* Record @p code with @p detail as instance @p r's fault (if it has none)
 * and interrupt the harts running its kernel code (they stop at once with
 * isolation on; others at their chunk's end). */
void exec_kctx_cancel(exec_krec *r, int code, const char *detail);

/* Time slices (the pool's preemption, docs/executor.md). The calling
 * hart's kernel also stops at @p end (timer ticks; 0: no slice), a timer
 * interrupt that exec_kernel_trap() leaves to the pool; set before run or
 * resume, or from that interrupt (then the timer is programmed at once). */
void exec_kctx_slice(uint64_t end, bool now);
/* In a trap from the calling hart's kernel code: the instance it runs
 * (NULL: none, or not in U-mode), and whether it runs as a team member. */
exec_krec *exec_kctx_running(bool *team);
/* ... and leave it for the recovery point without a fault (the pool has
 * taken its registers): the caller redirects the trap there with
 * EXEC_PREEMPTED. */
hal_jmp_buf *exec_kctx_preempt(void);
/* Continue a context the pool took from this hart's kernel (instead of
 * exec_kctx_run; the same recovery point and returns). Refused with a
 * fault if the hart cannot run it in U-mode now. */
void exec_kctx_resume(hal_jmp_buf *at, const hal_user_regs *r);
/* The calling hart's kernel stack becomes @p s (NULL: one is made at the
 * next enter); returns the one it had. */
char *exec_kctx_swap_stack(char *s);
/* Zero the calling hart's kernel stack (another session's kernel used
 * it). */
void exec_kctx_stack_clear(void);

/* Called on the calling hart, before it enters a kernel of domain `dom`,
 * whenever its protection must be programmed again: another domain, a new
 * version of this one's ranges (a session that opens in a domain changes
 * them), another kernel stack (a parked chunk's context). The pool clears
 * the hart's context there when another owner used it last (park.h). */
void exec_kctx_on_program(void (*fn)(unsigned dom));

/* The calling hart's next kernels run as a team member with its
 * leader's local memory @p lm (another hart's context; NULL: none). */
void exec_kctx_team_local(void *lm);

#endif
