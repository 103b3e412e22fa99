/* SPDX-License-Identifier: MIT */
/**
 * @file What boot hands over to: the program linked with boot + hal (the
 * firmware's main program, a test image, a benchmark image).
 */
#ifndef BOOT_APP_H
#define BOOT_APP_H

#include <stdbool.h>

/** Registers saved at a trap. x[0] holds mepc (x0 is always zero); a hook
 * may change any of them, and mstatus, before the trap returns. */
typedef struct {
	unsigned long x[32];
	unsigned long mstatus;
	unsigned long scratch_; /* boot's own: mscratch to restore */
	unsigned long pad_[2];
} boot_trap_frame;

/**
 * Optional (weak), called when app_trap_hook() declined: the executor's
 * fault containment (a trap in kernel code). True: resume with the frame.
 */
bool boot_recover_hook(boot_trap_frame *frame, unsigned long cause,
		       unsigned long tval);

/**
 * Make a returning trap continue in M-mode at fn(a0, a1) with interrupts
 * off, on the trap stack, with the firmware's gp; fn must not return (it
 * resumes somewhere else, e.g. hal_longjmp).
 */
void boot_trap_redirect(boot_trap_frame *frame, void (*fn)(void *, int),
			void *a0, int a1);

/**
 * Runs on every hart in use, once all of them are online. The first
 * non-zero return value of any hart becomes the run's exit status (after all
 * harts have returned); 0 everywhere means pass.
 */
int app_main(void);

/**
 * Optional (weak): called first on any trap. Return true to resume at
 * frame->x[0] (after fixing the cause); false to let boot report the trap
 * and stop the run with HAL_EXIT_TRAP.
 */
bool app_trap_hook(boot_trap_frame *frame, unsigned long cause,
		   unsigned long tval);

/** The kernel command line (-append) from the device tree, not
 * NUL-terminated, or NULL. A copy: nothing reads the device tree after
 * boot, so the memory it came in may be reused. */
extern const char *boot_bootargs;
extern unsigned boot_bootargs_len;

/** DRAM from the device tree's first /memory range (bytes; size 0 if the
 * tree has none). */
extern unsigned long long boot_mem_base, boot_mem_size;

/** Barrier over all harts in use (every one of them must call it). */
void boot_barrier_all(void);

/** Time (hal_timer_now) when the boot hart started boot_init. */
extern unsigned long long boot_time_start;

#endif
