/* SPDX-License-Identifier: MIT */
/**
 * @file What boot hands over to: the program linked with boot + hal (the
 * firmware's main program, a test image, a benchmark image).
 */
#ifndef BOOT_APP_H
#define BOOT_APP_H

#include <boot/trap_frame.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Traps. boot_trap_handler() (boot/boot.c) runs the two optional hooks in
 * this order, and nothing else:
 *
 *   1. boot_recover_hook(), on every trap, first. Any number of harts may
 *      be in it at once (kernels on several harts can fault together);
 *      true: the trap returns with the frame.
 *   2. The hart claims the trap report, one hart at a time. A hart that
 *      traps while another one holds the claim parks for good; a trap on
 *      the hart that holds it (inside app_trap_hook() or the report) ends
 *      the run at once with HAL_EXIT_TRAP.
 *   3. app_trap_hook(), holding the claim; true: the claim is given back
 *      and the trap returns with the frame.
 *   4. Boot prints "hartpool: unexpected trap on hart ..." and ends the
 *      run with HAL_EXIT_TRAP.
 *
 * A hook that returns true may change the frame first (frame->epc past the
 * trapping instruction, or boot_trap_redirect()).
 */

/**
 * Optional (weak): step 1 above, for the firmware's fault containment (a
 * trap in kernel code, firmware/trap_fw.c). Called before app_trap_hook(),
 * without the report claim, possibly on several harts at once. True:
 * resume with the frame; false: go on to step 2.
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
 * Optional (weak): step 3 above, for test images. Called only after
 * boot_recover_hook() declined, with the report claim held (one hart at a
 * time). Return true to resume at frame->epc (after fixing the cause);
 * false to let boot report the trap and stop the run with HAL_EXIT_TRAP.
 */
bool app_trap_hook(boot_trap_frame *frame, unsigned long cause,
		   unsigned long tval);

/** The kernel command line (-append) from the device tree, not
 * NUL-terminated, or NULL. A copy: nothing reads the device tree after
 * boot, so the memory it came in may be reused. */
extern const char *boot_bootargs;
extern unsigned boot_bootargs_len;
/** The value of bootarg @p key=N, or @p dflt when it is absent or
 * malformed. */
unsigned long boot_bootarg(const char *key, unsigned long dflt);

/** DRAM from the device tree's first /memory range (bytes; size 0 if the
 * tree has none). */
extern unsigned long long boot_mem_base, boot_mem_size;

/** Where the device tree the firmware booted with lies (size 0: none). */
extern unsigned long boot_dtb_base, boot_dtb_size;

/** Barrier over all harts in use (every one of them must call it). */
void boot_barrier_all(void);

/** A hart the device tree lists that boot does not use (S-mode: it cannot
 * run S-mode payloads), and why. */
typedef struct {
	uint32_t id;
	const char *why;
} boot_skipped_hart;
#define BOOT_SKIPPED_MAX 8
/** The first BOOT_SKIPPED_MAX skipped harts; boot_skipped_num counts all. */
extern boot_skipped_hart boot_skipped[BOOT_SKIPPED_MAX];
extern unsigned boot_skipped_num;
/** The console UART's interrupt source (device tree or board), 0: none. */
extern unsigned boot_uart_irq;
/** The host doorbell's registers and interrupt source from the device
 * tree (hal/doorbell.h), 0: none there. */
extern unsigned long boot_doorbell_base;
extern unsigned boot_doorbell_irq;

/** Time (hal_timer_now) when the boot hart started boot_init. */
extern unsigned long long boot_time_start;

#endif
