/* SPDX-License-Identifier: MIT */
/**
 * @file Kernel isolation: U-mode and the PMP (docs/faults.md).
 *
 * hal_user_call() runs a function in U-mode on a stack of its own. What
 * U-mode code may touch is what hal_isolation_setup() programmed into the
 * calling hart's PMP (or page table):
 *   - firmware code and read-only data: read and execute;
 *   - the harts' TLS blocks: read (hal_hart_idx());
 *   - kernel-visible data (HP_KERNEL_DATA, [__kdata_start, __kdata_end)):
 *     read and write;
 *   - of the kernel-visible heap (hal_heap_alloc()) only what the hart's
 *     kernel owns (hal_iso_own: its context, the view of its instance, a
 *     team's local memory), read and write, minus the guard inside it;
 *   - the domain's read/write ranges (the device buffer heap);
 * and nothing else: not another hart's context, not .data/.bss, not the
 * private heap, not the firmware stacks, not the mailbox, not a device
 * register. Instruction fetch outside code faults; CSRs, wfi and mret are
 * illegal instructions in U-mode.
 *
 * A PMP is per hart, so the hart's own ranges are simply programmed. A
 * page table serves every hart of a domain: there a range of the heap is
 * mapped in the table of the domain that claimed it last
 * (hal_isolation_claim()) and in no other.
 *
 * U-mode code asks the firmware for the little it cannot do itself with
 * ecall (a7 = HAL_SYS_*): the executor's trap glue serves it
 * (firmware/trap_fw.c) with the M-side helpers below.
 *
 * Host build: no U-mode; hal_user_call() calls the function and setup
 * returns false.
 *
 * The ecall numbers are usable from assembly (hal/user_riscv.S).
 */
#ifndef HAL_ISOLATION_H
#define HAL_ISOLATION_H

#include <hal/asm.h>

/* ecall numbers (a7). */
#define HAL_SYS_EXIT 1 /**< fn returned: to hal_user_call's recovery point */
#define HAL_SYS_TEAM_ARRIVE 2 /**< arrive at the hart's team barrier, wait */
#define HAL_SYS_TEAM_LEAVE 3  /**< leave the hart's team barrier for good */
/** Wait on in the round of ticket a0 of the hart's team barrier, arrived
 * at before (the firmware's: a member parked in a team wait goes on with
 * it, executor/pool.c). */
#define HAL_SYS_TEAM_WAIT 4

#ifndef __ASSEMBLER__

#include <hal/hartmask.h>
#include <hal/jump.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** [base, base + size). No-access ranges: size a power of two >= 8, base
 * aligned to it. Read/write ranges: multiples of hal_isolation_granule(). */
typedef struct hal_range {
	uintptr_t base, size;
} hal_range;

/** Isolation domains: sets of read/write ranges (a session's buffers).
 * Domain 0 and up to HAL_ISO_DOMAINS - 1 more. */
#define HAL_ISO_DOMAINS 17u
/** Read/write ranges a domain may have at most in any HAL. */
#define HAL_ISO_RANGES_MAX 16u

/** What of the kernel-visible heap the calling hart's kernel code owns. */
typedef struct hal_iso_own {
	hal_range ctx;	 /**< its context: read/write (whole pages) */
	hal_range guard; /**< inside ctx: no access (a page) */
	hal_range view; /**< its instance's view (a page; hal_isolation_view) */
	hal_range team; /**< a team's local memory in another hart's context
			 * (a power of two, aligned to it; size 0: none) */
} hal_iso_own;

/**
 * Program the calling hart for U-mode: its own ranges @p own and domain
 * @p dom's @p nrw read/write ranges (at most hal_isolation_max_ranges()).
 * @p gen names that version of the domain's ranges: a HAL with one page
 * table per domain rebuilds it only when gen changes (kernels of the
 * domain on other harts keep their old view until their next call), and
 * there the own ranges are those the domain claimed. False if the hart has
 * too few PMP entries or the page tables do not fit (isolation then stays
 * off).
 */
bool hal_isolation_setup(const hal_iso_own *own, unsigned dom, unsigned gen,
			 const hal_range *rw, unsigned nrw);
/** The calling hart's own view becomes the page at @p base (another
 * instance of the same domain); cheap: a PMP entry, nothing with page
 * tables (the view is claimed). */
void hal_isolation_view(uintptr_t base);
/**
 * From now on only kernels of domain @p dom reach the @p n page-aligned
 * ranges @p r of the kernel-visible heap (one context or one view, named
 * by r[0].base; n at most 2). Page tables: mapped in dom's table and taken
 * out of the one that claimed them before, with every hart's TLB flushed
 * of them before this returns. PMP: nothing (each hart programs its own).
 * False if the tables do not fit.
 */
bool hal_isolation_claim(unsigned dom, const hal_range *r, unsigned n);

/** Read/write ranges one domain can have on this hart (PMP: the entries
 * left; page tables: HAL_ISO_RANGES_MAX). */
unsigned hal_isolation_max_ranges(void);
/** Granule of read/write ranges: what the hardware protects at (PMP: 4
 * KiB; Sv39: 2 MiB, so a domain's heap ranges are megapages). */
uintptr_t hal_isolation_granule(void);

/** What hal_longjmp() gives the caller's recovery point when fn returned
 * normally (a trap's recovery uses 1). */
#define HAL_USER_RETURNED 2

/** Run @p fn(@p arg) in U-mode with sp = @p stack_top. Does not return:
 * when fn returns (through the HAL_SYS_EXIT ecall), the hart continues at
 * @p ret, which the caller filled with hal_setjmp(), with the value
 * HAL_USER_RETURNED (one recovery point for traps and the normal return:
 * no second hal_setjmp per call). An interrupt enabled in mie traps in
 * U-mode whatever mstatus.MIE says: the caller sets mie. */
__attribute__((noreturn)) void
hal_user_call(hal_jmp_buf *ret, void (*fn)(void *), void *arg, void *stack_top);

/** A U-mode context taken at a trap, to be continued later on the same
 * hart (preemption, docs/executor.md): the pc, x1-x31 (x[n - 1] is xn);
 * when @p fp is 1, the FP registers and fcsr; on a board with V
 * (HAL_VLENB_MAX), when @p vs is 1, the 32 vector registers (vlenb bytes
 * each, one after another) and vl, vtype, vstart and vcsr. Offsets for
 * assembly: HAL_UREGS_* below. */
typedef struct hal_user_regs {
	unsigned long pc;
	unsigned long x[31];
	unsigned long fp; /**< 1: f[] and fcsr hold the context's FP state */
	unsigned long fcsr;
	unsigned long long f[32];
#if HAL_VLENB_MAX
	unsigned long vs; /**< 1: the vector state below is the context's */
	unsigned long vl, vtype, vstart, vcsr;
	unsigned char v[32 * HAL_VLENB_MAX];
#endif
} hal_user_regs;

/** M-side, in a trap from U-mode, before anything touches the FP or vector
 * registers: store them and their CSRs in @p r for each of the two that
 * @p status (the trapped context's mstatus/sstatus) has on; else r->fp = 0
 * (and r->vs = 0). */
void hal_user_ext_save(hal_user_regs *r, unsigned long status);

/** The FP and vector registers and their CSRs (those that are on) to zero,
 * before kernel code of another owner runs on the hart. */
void hal_user_ext_clear(void);

/** Continue the U-mode context @p r taken on this hart (every register,
 * pc, the FP state if saved) with the calling hart's protection as it is
 * programmed now. Like hal_user_call(), it ends at @p ret: HAL_SYS_EXIT
 * gives HAL_USER_RETURNED, a trap what its handler gives. */
__attribute__((noreturn)) void hal_user_resume(hal_jmp_buf *ret,
					       const hal_user_regs *r);

/** U-mode side: the ecalls (the barrier is the one the firmware bound
 * to the hart before the call, executor/team_barrier.c). */
void hal_user_team_arrive(void);
void hal_user_team_leave(void);

/** M-side, for the ecall handler (which runs with mstatus.MIE = 0). */
/** Continue at hal_user_call()'s recovery point (after a HAL_SYS_EXIT
 * ecall). */
__attribute__((noreturn)) void hal_user_return(void);
/** Around a wait the ecall handler does for U-mode code: let an IPI end
 * wfi (the watchdog's timer stays as it was); returns what to restore. */
unsigned long hal_user_wait_begin(void);
/** ... and after it: interrupt enables back, the IPI forgotten. */
void hal_user_wait_end(unsigned long saved);
/** Is [p, p + n) inside the kernel-visible heap (so M-mode may act on a
 * pointer U-mode passed)? */
bool hal_user_heap_has(uintptr_t p, size_t n);
/** Is @p p inside firmware code or read-only data? */
bool hal_rodata_has(uintptr_t p);

#endif /* __ASSEMBLER__ */

/* Registers in the pc, x1-x31 words of a trapped context (hal_user_regs
 * has x[n - 1] for xn: HAL_UREG_A0 - 1 there). */
#define HAL_UREG_A0 10
#define HAL_UREG_A7 17

/* hal_user_regs for assembly (REGBYTES-sized words, f[] 8-aligned). */
#define HAL_UREGS_X(n) ((n)*REGBYTES) /* pc at 0, xn at n */
#define HAL_UREGS_FP (32 * REGBYTES)
#define HAL_UREGS_FCSR (33 * REGBYTES)
#define HAL_UREGS_F(n) (34 * REGBYTES + (n)*8)
#if HAL_VLENB_MAX
#define HAL_UREGS_VS (34 * REGBYTES + 32 * 8)
#define HAL_UREGS_VL (HAL_UREGS_VS + REGBYTES)
#define HAL_UREGS_VTYPE (HAL_UREGS_VS + 2 * REGBYTES)
#define HAL_UREGS_VSTART (HAL_UREGS_VS + 3 * REGBYTES)
#define HAL_UREGS_VCSR (HAL_UREGS_VS + 4 * REGBYTES)
#define HAL_UREGS_V (HAL_UREGS_VS + 5 * REGBYTES)
#define HAL_UREGS_SIZE (HAL_UREGS_V + 32 * HAL_VLENB_MAX)
#else
#define HAL_UREGS_SIZE (34 * REGBYTES + 32 * 8)
#endif
#endif
